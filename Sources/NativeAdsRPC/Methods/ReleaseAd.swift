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
