import JSONRPC
import NativeAds

/// `registerAdView {"adId", "clickableAssets", "nonclickableAssets"}`: the system-defined ad
/// view. Result `{"registered": true, "clickableAssets": [name], "nonclickableAssets": [name]}`.
enum RegisterAdView: ServiceMethod {
  static let name = "registerAdView"
  static let clickableAssets = Field.stringArray("clickableAssets")
  static let nonclickableAssets = Field.stringArray("nonclickableAssets")
  static var signature: MethodSignature {
    MethodSignature(
      summary: "Registers the native ad view: clickable and non-clickable assets.",
      params: AdIDRequest.params + [clickableAssets.member, nonclickableAssets.member],
      result: .shape(
        WireShape(
          nil,
          [
            Field.boolean("registered").member, clickableAssets.orRequired().member,
            nonclickableAssets.orRequired().member,
          ])), errors: DocumentedError.adErrors + [.wrongAdKind])
  }

  struct Request {
    var adId: String
    var clickable: [String]
    var nonclickable: [String]
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    try decoding { () throws(InvalidField) in
      Request(
        adId: try params(AdIDRequest.adIdField), clickable: try params(clickableAssets) ?? [],
        nonclickable: try params(nonclickableAssets) ?? [])
    }
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
    w.key(clickableAssets.name)
    writeNames(registered.clickable, into: &w)
    w.key(nonclickableAssets.name)
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
  static let result = FlagResult("unregistered")
  static var signature: MethodSignature {
    MethodSignature(
      summary: "Undoes registerAdView.", params: AdIDRequest.params,
      result: result.type,
      errors: DocumentedError.adErrors + [.wrongAdKind])
  }

  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }

  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      { context.service.manager.unregisterAdView(adId: request.adId, completion: $0) },
      write: { unregistered, w in result.write(unregistered, into: &w) })
  }
}

/// `reportVisibility {"adId", "visiblePixels"}` → `{"impressionRecorded", "reason"?}`: the
/// first visible pixel of a registered native ad records its impression.
enum ReportVisibility: ServiceMethod {
  static let name = "reportVisibility"
  static let visiblePixels = Field.optionalInt("visiblePixels", minimum: 0).orRequired()
  static var signature: MethodSignature {
    MethodSignature(
      summary: "The app reports visible pixels; the first visible pixel records the impression.",
      params: AdIDRequest.params + [visiblePixels.member],
      result: .shape(
        WireShape(
          nil,
          [
            Field.boolean("impressionRecorded").member,
            WireMember(name: "reason", type: .cases(of: NotRecordedReason.self), required: false),
            WireMember(
              name: "trackingURLs", type: .array(.string()), required: false,
              summary:
                "The impression trackers the caller fetches, for an ad that came from OpenRTB"
                + " (empty when nothing was recorded); absent for other ads."),
          ])), errors: DocumentedError.adErrors + [.wrongAdKind])
  }

  struct Request {
    var adId: String
    var visiblePixels: Int
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    try decoding { () throws(InvalidField) in
      Request(adId: try params(AdIDRequest.adIdField), visiblePixels: try params(visiblePixels))
    }
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
  static let result = FlagResult("dismissed")
  static var signature: MethodSignature {
    MethodSignature(
      summary:
        "The user came back from what a click opened (willDismissScreen, didDismissScreen).",
      params: AdIDRequest.params,
      result: result.type,
      errors: DocumentedError.adErrors)
  }

  static func decode(_ params: Params) throws(RPCError) -> AdIDRequest { try AdIDRequest(params) }

  static func handle(_ request: AdIDRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    try context.answer(
      name, into: &w,
      { context.service.manager.reportScreenDismissed(adId: request.adId, completion: $0) },
      write: { dismissed, w in result.write(dismissed, into: &w) })
  }
}
