import JSONRPC
import NativeAds

/// `setCustomClickHandler {"adId", "enabled"}`: this connection handles clicks on a custom
/// native ad with a custom click action itself (`customClick` notifications). 2003 on a
/// system-defined ad.
enum SetCustomClickHandler: ServiceMethod {
  static let name = "setCustomClickHandler"
  static let result = FlagResult("enabled")
  static let enabled = Field.boolean("enabled")
  static var signature: MethodSignature {
    MethodSignature(
      summary: "This connection handles clicks on a custom native ad itself (customClick).",
      params: AdIDRequest.params + [enabled.member],
      result: result.type,
      errors: DocumentedError.adErrors + [.wrongAdKind])
  }

  struct Request {
    var adId: String
    var enabled: Bool
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    try decoding { () throws(InvalidField) in
      Request(adId: try params(AdIDRequest.adIdField), enabled: try params(enabled))
    }
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      {
        context.service.manager.setCustomClickHandler(
          adId: request.adId, enabled: request.enabled, by: context.session.id, completion: $0)
      }, write: { enabled, w in result.write(enabled, into: &w) })
  }
}
