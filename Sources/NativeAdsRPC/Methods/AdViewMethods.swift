import JSONRPC
import NativeAds

/// `registerAdView {"adId", "clickableAssets", "nonclickableAssets"}`: the system-defined ad
/// view. Result `{"registered": true, "clickableAssets": [name], "nonclickableAssets": [name]}`.
enum RegisterAdView: ServiceMethod {
  static let name = "registerAdView"

  struct Request {
    var adId: String
    var clickable: [String]
    var nonclickable: [String]
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    Request(
      adId: try params.string("adId"),
      clickable: try params.optionalStringArray("clickableAssets") ?? [],
      nonclickable: try params.optionalStringArray("nonclickableAssets") ?? [])
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      {
        context.service.manager.registerAdView(
          adId: request.adId, clickable: request.clickable, nonclickable: request.nonclickable,
          completion: $0)
      }, write: write)
  }

  static func write(_ registered: AdViewRegistration, into w: inout JSONWriter) {
    w.beginObject()
    w.key("registered")
    w.bool(true)
    w.key("clickableAssets")
    writeNames(registered.clickable, into: &w)
    w.key("nonclickableAssets")
    writeNames(registered.nonclickable, into: &w)
    w.endObject()
  }

  private static func writeNames(_ keys: [NativeAssetKey], into w: inout JSONWriter) {
    w.beginArray()
    for key in keys {
      w.element()
      w.string(key.rawValue)
    }
    w.endArray()
  }
}

/// `unregisterAdView {"adId"}` → `{"unregistered": bool}`.
enum UnregisterAdView: ServiceMethod {
  static let name = "unregisterAdView"

  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }

  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      { context.service.manager.unregisterAdView(adId: request.adId, completion: $0) },
      write: { unregistered, w in AdJSON.writeFlag("unregistered", unregistered, into: &w) })
  }
}

/// `reportVisibility {"adId", "visiblePixels"}` → `{"impressionRecorded", "reason"?}`: the
/// first visible pixel of a registered native ad records its impression.
enum ReportVisibility: ServiceMethod {
  static let name = "reportVisibility"

  struct Request {
    var adId: String
    var visiblePixels: Int
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    Request(
      adId: try params.string("adId"), visiblePixels: try params.int("visiblePixels", atLeast: 0))
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      {
        context.service.manager.reportVisibility(
          adId: request.adId, visiblePixels: request.visiblePixels, completion: $0)
      }, write: { outcome, w in AdJSON.write(outcome, recordedKey: "impressionRecorded", into: &w) }
    )
  }
}

/// `reportScreenDismissed {"adId"}` → `{"dismissed": bool}`: the user came back from the
/// landing page or app a click opened (`willDismissScreen`, `didDismissScreen`).
enum ReportScreenDismissed: ServiceMethod {
  static let name = "reportScreenDismissed"

  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }

  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      { context.service.manager.reportScreenDismissed(adId: request.adId, completion: $0) },
      write: { dismissed, w in AdJSON.writeFlag("dismissed", dismissed, into: &w) })
  }
}
