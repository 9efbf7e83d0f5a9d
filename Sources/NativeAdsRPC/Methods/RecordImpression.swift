import JSONRPC
import NativeAds

/// `recordImpression {"adId"}`: `{"recorded": true}` the first time, `false` afterwards.
enum RecordImpression: ServiceMethod {
  static let name = "recordImpression"

  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }

  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let recorded: Bool
    do {
      recorded = try context.service.manager.recordImpression(adId: request.adId)
    } catch {
      throw error.rpcError
    }
    w.beginObject()
    w.key("recorded")
    w.bool(recorded)
    w.endObject()
  }
}
