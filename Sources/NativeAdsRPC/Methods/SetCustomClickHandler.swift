import JSONRPC
import NativeAds

/// `setCustomClickHandler {"adId", "enabled"}`: this connection handles clicks on a custom
/// native ad with a custom click action itself (`customClick` notifications). 2003 on a
/// system-defined ad.
enum SetCustomClickHandler: ServiceMethod {
  static let name = "setCustomClickHandler"

  struct Request {
    var adId: String
    var enabled: Bool
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    Request(adId: try params.string("adId"), enabled: try params.bool("enabled"))
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      {
        context.service.manager.setCustomClickHandler(
          adId: request.adId, enabled: request.enabled, by: context.session.id, completion: $0)
      }, write: { enabled, w in AdJSON.writeFlag("enabled", enabled, into: &w) })
  }
}
