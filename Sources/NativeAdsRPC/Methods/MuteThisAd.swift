import JSONRPC
import NativeAds

/// `muteThisAd {"adId", "reason"?}` → `{"muted": true}`. 2004 when the ad offers no Mute This
/// Ad; `-32602` naming `reason` when the reason is not one it offers.
enum MuteThisAd: ServiceMethod {
  static let name = "muteThisAd"
  static let result = FlagResult("muted", always: true)
  static let reason = Field.optionalString("reason")
  static var signature: MethodSignature {
    MethodSignature(
      summary: "Mute This Ad, with one of the offered reasons.",
      params: AdIDRequest.params + [reason.member],
      result: result.type,
      errors: DocumentedError.adErrors + [.muteNotOffered])
  }

  struct Request {
    var adId: String
    var reason: String?
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    try decoding { () throws(InvalidField) in
      Request(adId: try params(AdIDRequest.adIdField), reason: try params(reason))
    }
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
      write: { _, w in result.write(true, into: &w) })
  }
}
