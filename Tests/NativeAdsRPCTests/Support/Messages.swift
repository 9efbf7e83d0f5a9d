import JSONRPC

/// The `adEvent` notification the loader of `adId` receives for `event`.
func adEventMessage(
  _ adId: String, _ event: String, assetKey: String? = nil, reason: String? = nil
) -> JSONValue {
  var params: [(String, JSONValue)] = [
    ("adId", .string(adId)), ("event", .string(event)),
    ("assetKey", assetKey.map(JSONValue.string) ?? .null),
  ]
  if let reason { params.append(("reason", .string(reason))) }
  return .object([
    ("jsonrpc", .string("2.0")), ("method", .string("adEvent")), ("params", .object(params)),
  ])
}

/// The `videoEvent` notification the loader of `adId` receives for `event`.
func videoEventMessage(_ adId: String, _ event: String) -> JSONValue {
  .object([
    ("jsonrpc", .string("2.0")), ("method", .string("videoEvent")),
    ("params", .object([("adId", .string(adId)), ("event", .string(event))])),
  ])
}

/// The `-32602` error object naming `field`: `Invalid params: <field> <problem>`.
func invalidParamsError(_ field: String, _ problem: String) -> JSONValue {
  .object([
    ("code", .number("-32602")), ("message", .string("Invalid params: \(field) \(problem)")),
    ("data", .object([("field", .string(field))])),
  ])
}

/// The error object of an `AdObjectError` with code 2001–2004 (`data` names the ad).
func adObjectError(_ code: Int, _ name: String, adId: String, message: String) -> JSONValue {
  .object([
    ("code", .number(String(code))), ("message", .string(message)),
    ("data", .object([("name", .string(name)), ("adId", .string(adId))])),
  ])
}

/// The `videoController` object of a `mediaContent` or a video state.
func videoControllerJSON(
  muted: Bool, customControls: Bool, clickToExpand: Bool, state: String = "stopped"
) -> JSONValue {
  .object([
    ("isMuted", .bool(muted)), ("customControlsEnabled", .bool(customControls)),
    ("clickToExpandEnabled", .bool(clickToExpand)), ("playbackState", .string(state)),
  ])
}

extension Client {
  /// Loads one ad from `unit` without image bytes (fast) and returns its ID.
  func loadLightAdID(unit: String = Units.direct, options: String = "", extra: String = "")
    throws -> String
  {
    let comma = options.isEmpty ? "" : ","
    return try loadAdID(
      unit: unit, extra: #","options":{"disableImageLoading":true\#(comma)\#(options)}\#(extra)"#)
  }

  /// Loads the custom native ad of the direct unit without image bytes and returns its ID.
  func loadLightCustomAdID() throws -> String {
    try loadLightAdID(
      extra: #","adTypes":["customNative"],"customNativeAdFormatIDs":["\#(Units.customFormat)"]"#)
  }
}
