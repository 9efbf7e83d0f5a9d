import JSONRPC
import NativeAds

/// `releaseAd {"adId"}`: `{"released": true}`; every later call naming the ad gets 2001.
enum ReleaseAd: ServiceMethod {
  static let name = "releaseAd"
  static let result = FlagResult("released", always: true)
  static var signature: MethodSignature {
    MethodSignature(
      summary: "Releases an ad; later calls naming it get 2001.",
      params: AdIDRequest.params,
      result: result.type, errors: DocumentedError.adErrors)
  }

  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }

  /// The fast layer (``DirectHandler``): `{"adId": "<plain>"}` naming an ad of this process is
  /// found by its bytes and released at once, through the same ``AdManager/releaseNow(_:)`` as
  /// the handler, which answers the same. Anything else is declined before anything changes
  /// (an unknown ad, another spelling, a fleet's shared store), and a release that failed
  /// changed nothing either: the general path then answers, and words the error.
  static func directHandler(for service: NativeAdsService) -> DirectHandler? {
    // Held unretained and used as a guaranteed reference, as in StringForKey's fast layer.
    let manager = Unmanaged.passUnretained(service.manager)
    let adIdName = AdIDRequest.adIdField.name
    return { params, _, w in
      manager._withUnsafeGuaranteedRef { manager in
        guard let adId = params.string(adIdName), manager.adsAreLocal,
          let ad = try? manager.ad(utf8: adId), manager.releaseNow(ad)
        else { return false }
        result.write(true, into: &w)
        return true
      }
    }
  }

  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let manager = context.service.manager
    // An ad of this process: released at once, with no completion to make and call.
    if let released = manager.releaseNow(adId: request.adId) {
      try AdObjectError.reported(by: name) { () throws(AdObjectError) in try released.get() }
      return result.write(true, into: &w)
    }
    try context.answer(
      name, into: &w, { manager.release(adId: request.adId, completion: $0) },
      write: { _, w in result.write(true, into: &w) })
  }
}
