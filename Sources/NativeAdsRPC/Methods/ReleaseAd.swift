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
    try context.answer(
      name, into: &w, { context.service.manager.release(adId: request.adId, completion: $0) },
      write: { _, w in result.write(true, into: &w) })
  }
}
