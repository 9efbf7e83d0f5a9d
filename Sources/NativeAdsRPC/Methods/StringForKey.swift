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
    // One lookup (the ad), then a copy of the pre-encoded text.
    let ad = try AdObjectError.reported(by: name) { () throws(AdObjectError) in
      try request.adId.withUTF8 { (id) throws(AdObjectError) in try manager.ad(utf8: id) }
    }
    let encoded = context.service.creativeJSON.encoded(ad)
    request.key.withUTF8 { encoded.writeText(forKey: $0, of: ad, into: &w) }
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
