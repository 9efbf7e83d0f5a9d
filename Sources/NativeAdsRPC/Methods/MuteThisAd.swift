import JSONRPC
import NativeAds

/// `muteThisAd {"adId", "reason"?}` → `{"muted": true}`. 2004 when the ad offers no Mute This
/// Ad; `-32602` naming `reason` when the reason is not one it offers.
enum MuteThisAd: ServiceMethod {
  static let name = "muteThisAd"

  struct Request {
    var adId: String
    var reason: String?
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    Request(adId: try params.string("adId"), reason: try params.optionalString("reason"))
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      {
        context.service.manager.muteThisAd(
          adId: request.adId, reason: request.reason, completion: $0)
      },
      write: { _, w in AdJSON.writeFlag("muted", true, into: &w) })
  }
}
