import JSONRPC
import NativeAds

/// `performClickOnAsset {"adId", "key", "openableURLSchemes"?}`: records the click and says
/// what to open: custom click handler, then the first openable deep link, then the landing
/// page. `{"recorded", "action", "url"}`.
enum PerformClickOnAsset: ServiceMethod {
  static let name = "performClickOnAsset"
  static let openableURLSchemes = Field.stringArray("openableURLSchemes")
  static var signature: MethodSignature {
    MethodSignature(
      summary:
        "Records a click and says what to open: custom click handler, deep link or landing page.",
      params: AdKeyRequest.params + [openableURLSchemes.member],
      result: .component("ClickResult"), errors: DocumentedError.adErrors + [.assetNotFound])
  }

  struct Request {
    var adId: String
    var key: String
    var openableURLSchemes: [String]
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    let ad = try AdKeyRequest(params)
    return Request(
      adId: ad.adId.string, key: ad.key.string,
      openableURLSchemes: try decoding { () throws(InvalidField) in
        try params(openableURLSchemes) ?? []
      })
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      {
        context.service.manager.performClick(
          adId: request.adId, key: request.key, openableURLSchemes: request.openableURLSchemes,
          by: context.session.id, completion: $0)
      }, write: write)
  }

  static func write(_ outcome: ClickOutcome, into w: inout JSONWriter) {
    w.beginObject()
    w.key("recorded")
    w.bool(outcome.recorded)
    w.key("action")
    w.string(outcome.action.rawValue)
    w.key("url")
    w.string(outcome.url)
    if let reason = outcome.reason {
      w.key("reason")
      w.string(reason.rawValue)
    }
    AdJSON.writeTrackingURLs(outcome.trackingURLs, into: &w)
    w.endObject()
  }
}
