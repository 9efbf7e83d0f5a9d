import JSONRPC
import NativeAds

/// `stringForKey {"adId", "key"}`: the text asset, or `null` when the ad has none by that key.
enum StringForKey: ServiceMethod {
  static let name = "stringForKey"
  static var signature: MethodSignature {
    MethodSignature(
      summary: "A text asset of an ad, or null.",
      params: AdKeyRequest.params, result: .nullable(.string()), errors: DocumentedError.adErrors)
  }

  static func decode(_ params: Params) throws(RPCError) -> AdKeyRequest { try AdKeyRequest(params) }

  static func handle(_ request: AdKeyRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let manager = context.service.manager
    // A fleet: the ad may live in another process; the reply waits for the store.
    guard manager.adsAreLocal else { return try answerFromFleet(request, context, &w) }
    let ad = try AdObjectError.reported(by: name) { () throws(AdObjectError) in
      try request.adId.withUTF8 { (id) throws(AdObjectError) in try manager.ad(utf8: id) }
    }
    // One lookup (the ad), then a copy of the pre-encoded text.
    let texts = context.service.creativeJSON
    request.key.withUTF8 { texts.encoded(ad).writeText(forKey: $0, of: ad, into: &w) }
  }

  /// The fast layer: `{"adId":"…","key":"…"}` naming an ad of this process is answered from
  /// the bytes, by the same lookup and the same copy as ``handle(_:context:result:)``;
  /// anything else (a fleet, an unknown or released ad, another spelling of the params) is
  /// declined, and the general path answers it or words its error.
  static func directHandler(for service: NativeAdsService) -> DirectHandler? {
    // What the answer reads, held unretained (the service keeps both, and outlives its
    // handlers, as in ``handler(for:)``) and used as guaranteed references: no reference
    // counting per call. (An `unowned(unsafe)` capture is copied strongly where it is used, by
    // an atomic retain even in release builds: `-assume-single-threaded` leaves that one.)
    let manager = Unmanaged.passUnretained(service.manager)
    let texts = Unmanaged.passUnretained(service.creativeJSON)
    // The names read once here: each read of a static field is a lazy initialiser's check.
    let (adIdName, keyName) = (AdKeyRequest.adIdField.name, AdKeyRequest.keyField.name)
    return { params, _, w in
      manager._withUnsafeGuaranteedRef { manager in
        texts._withUnsafeGuaranteedRef { texts in
          guard let (adId, key) = params.strings(adIdName, keyName),
            manager.adsAreLocal, let ad = try? manager.ad(utf8: adId)
          else { return false }
          texts.encoded(ad).writeText(forKey: key, of: ad, into: &w)
          return true
        }
      }
    }
  }

  private static func answerFromFleet(
    _ request: AdKeyRequest, _ context: MethodContext, _ w: inout JSONWriter
  ) throws(RPCError) {
    let texts = context.service.creativeJSON
    var key = request.key.string
    try context.answer(about: request.adId.string, name, into: &w) { ad, w in
      key.withUTF8 { texts.encoded(ad).writeText(forKey: $0, of: ad, into: &w) }
    }
  }
}
