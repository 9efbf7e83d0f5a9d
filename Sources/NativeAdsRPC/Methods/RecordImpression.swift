import JSONRPC
import NativeAds

/// `recordImpression {"adId"}`: `{"recorded": true}` the first time; afterwards, or when the
/// ad is expired or muted, `{"recorded": false, "reason"}`.
enum RecordImpression: ServiceMethod {
  static let name = "recordImpression"
  static var signature: MethodSignature {
    MethodSignature(
      summary: "Records the impression (once).",
      params: AdIDRequest.params, result: .component("ImpressionResult"),
      errors: DocumentedError.adErrors)
  }

  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }

  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      { context.service.manager.recordImpression(adId: request.adId, completion: $0) },
      write: { outcome, w in AdJSON.write(outcome, recordedKey: "recorded", into: &w) })
  }
}
