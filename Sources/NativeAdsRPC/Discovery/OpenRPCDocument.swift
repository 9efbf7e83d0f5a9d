import JSONRPC
import NativeAds

/// The service's OpenRPC 1.3 document: every method with its params, result, errors and
/// recorded examples (`rpc.discover`, and `schemas/openrpc.json`, which is generated from it).
enum OpenRPCDocument {
  typealias S = Schema

  struct Param {
    var name: String
    var schema: JSONValue
    var required = false
    var summary: String? = nil
  }

  struct Method {
    var name: String
    var summary: String
    var params: [Param]
    var result: JSONValue
    var errors: [String] = ["InvalidParams"]
  }

  static let version = "0.1.0"

  static func p(_ name: String, _ schema: JSONValue, required: Bool = false) -> Param {
    Param(name: name, schema: schema, required: required)
  }

  static let adID = p("adId", S.string, required: true)
  static let key = p("key", S.string, required: true)
  static let adErrors = ["InvalidParams", "AdNotFound"]

  static func object(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
    S.object(properties, required: required, closed: true)
  }

  static var methods: [Method] {
    [
      Method(
        name: "loadAd", summary: "Loads 1 to numberOfAds native or custom native ads.",
        params: [
          p("adUnitID", S.string, required: true),
          p("adTypes", S.array(S.enumeration(["native", "customNative"]))),
          p("customNativeAdFormatIDs", S.array(S.string)),
          p("options", S.ref("LoaderOptions")), p("request", S.ref("RequestTargeting")),
        ], result: S.ref("LoadAdResult"),
        errors: [
          "InvalidParams", "InvalidRequest", "NoFill", "NetworkError", "Timeout",
          "MediationAdapterError",
        ]),
      Method(
        name: "stringForKey", summary: "A text asset of an ad, or null.",
        params: [adID, key], result: S.nullable(S.string), errors: adErrors),
      Method(
        name: "imageForKey",
        summary: "An image asset of an ad (icon, image, _adChoices...), or null.",
        params: [adID, key], result: S.nullable(S.ref("Image")), errors: adErrors),
      Method(
        name: "performClickOnAsset",
        summary:
          "Records a click and says what to open: custom click handler, deep link or landing page.",
        params: [adID, key, p("openableURLSchemes", S.array(S.string))],
        result: S.ref("ClickResult"), errors: adErrors + ["AssetNotFound"]),
      Method(
        name: "recordImpression", summary: "Records the impression (once).", params: [adID],
        result: S.ref("ImpressionResult"), errors: adErrors),
      Method(
        name: "setCustomClickHandler",
        summary: "This connection handles clicks on a custom native ad itself (customClick).",
        params: [adID, p("enabled", S.boolean, required: true)],
        result: object([("enabled", S.boolean)], required: ["enabled"]),
        errors: adErrors + ["WrongAdKind"]),
      Method(
        name: "releaseAd", summary: "Releases an ad; later calls naming it get 2001.",
        params: [adID],
        result: object([("released", .object([("const", .bool(true))]))], required: ["released"]),
        errors: adErrors),
      Method(
        name: "registerAdView",
        summary: "Registers the native ad view: clickable and non-clickable assets.",
        params: [
          adID, p("clickableAssets", S.array(S.string)),
          p("nonclickableAssets", S.array(S.string)),
        ],
        result: object(
          [
            ("registered", S.boolean), ("clickableAssets", S.array(S.string)),
            ("nonclickableAssets", S.array(S.string)),
          ], required: ["registered", "clickableAssets", "nonclickableAssets"]),
        errors: adErrors + ["WrongAdKind"]),
      Method(
        name: "unregisterAdView", summary: "Undoes registerAdView.", params: [adID],
        result: object([("unregistered", S.boolean)], required: ["unregistered"]),
        errors: adErrors + ["WrongAdKind"]),
      Method(
        name: "reportVisibility",
        summary: "The app reports visible pixels; the first visible pixel records the impression.",
        params: [adID, p("visiblePixels", S.integer(minimum: 0), required: true)],
        result: object(
          [("impressionRecorded", S.boolean), ("reason", WireSchemas.notRecordedReason)],
          required: ["impressionRecorded"]),
        errors: adErrors + ["WrongAdKind"]),
      Method(
        name: "reportScreenDismissed",
        summary:
          "The user came back from what a click opened (willDismissScreen, didDismissScreen).",
        params: [adID], result: object([("dismissed", S.boolean)], required: ["dismissed"]),
        errors: adErrors),
      Method(
        name: "muteThisAd", summary: "Mute This Ad, with one of the offered reasons.",
        params: [adID, p("reason", S.string)],
        result: object([("muted", S.boolean)], required: ["muted"]),
        errors: adErrors + ["MuteNotOffered"]),
      Method(
        name: "videoControl",
        summary: "play, pause, stop, mute or unmute (only with custom controls).",
        params: [
          adID,
          p("action", S.enumeration(VideoAction.allCases.map(\.rawValue)), required: true),
        ],
        result: S.object(
          [
            ("applied", S.boolean),
            ("reason", S.enumeration(VideoControlOutcome.Reason.allCases.map(\.rawValue))),
            ("videoController", S.ref("VideoController")), ("currentTime", S.number),
            ("duration", S.number),
          ], required: ["applied"], closed: true),
        errors: adErrors),
      Method(
        name: "getVideoState", summary: "The video controller, time and duration, or null.",
        params: [adID], result: S.nullable(S.ref("VideoState")), errors: adErrors),
      Method(
        name: "getEvents", summary: "The event log, oldest first.",
        params: [
          p("adId", S.string), p("event", S.string), p("since", S.integer(minimum: 0)),
          p("limit", S.integer(minimum: 1, maximum: 10_000)),
        ],
        result: object(
          [("events", S.array(S.ref("Event"))), ("lastSequence", S.integer(minimum: 0))],
          required: ["events", "lastSequence"])),
      Method(
        name: "store.defineFormat", summary: "Defines (or replaces) a custom native format.",
        params: [p("format", S.ref("Format"), required: true)],
        result: object(
          [("formatID", S.string), ("replaced", S.boolean)], required: ["formatID", "replaced"])),
      Method(
        name: "store.putCreative", summary: "Adds or replaces a creative.",
        params: [p("creative", S.ref("Creative"), required: true)],
        result: object(
          [("creativeID", S.string), ("replaced", S.boolean)],
          required: ["creativeID", "replaced"])),
      Method(
        name: "store.putAdUnit", summary: "Adds or replaces an ad unit (with its waterfall).",
        params: [p("adUnit", S.ref("AdUnit"), required: true)],
        result: object(
          [("adUnitID", S.string), ("replaced", S.boolean)], required: ["adUnitID", "replaced"])),
      Method(
        name: "store.remove", summary: "Removes a format, creative or ad unit no longer used.",
        params: [
          p("kind", S.enumeration(["format", "creative", "adUnit"]), required: true),
          p("id", S.string, required: true),
        ], result: object([("removed", S.boolean)], required: ["removed"])),
      Method(
        name: "store.list", summary: "The inventory: formats, creatives and ad units.",
        params: [],
        result: object(
          [
            ("formats", S.array(S.ref("Format"))),
            (
              "creatives",
              S.array(
                object(
                  [
                    ("id", S.string), ("kind", S.enumeration(["native", "customNative"])),
                    ("formatID", S.string),
                  ], required: ["id", "kind"]))
            ),
            ("adUnits", S.array(S.ref("AdUnit"))),
          ], required: ["formats", "creatives", "adUnits"]),
        errors: []),
      Method(
        name: "formats.schema",
        summary: "The JSON Schema of an ad format: \"native\" or a custom format ID.",
        params: [p("formatID", S.string, required: true)], result: S.anyObject,
        errors: ["InvalidParams"]),
      Method(
        name: "mediation.registerAdapter",
        summary: "This connection answers adapter.loadNativeAd for an adapter class.",
        params: [p("adapterClassName", S.string, required: true)],
        result: object([("registered", S.boolean)], required: ["registered"])),
      Method(
        name: "mediation.unregisterAdapter", summary: "Stops answering for an adapter class.",
        params: [p("adapterClassName", S.string, required: true)],
        result: object([("unregistered", S.boolean)], required: ["unregistered"])),
      Method(
        name: "adapter.reportImpression",
        summary: "An adapter that handles impressions reports one (counted once).",
        params: [adID], result: object([("recorded", S.boolean)], required: ["recorded"]),
        errors: adErrors),
      Method(
        name: "adapter.reportClick", summary: "An adapter that handles clicks reports one.",
        params: [adID], result: object([("recorded", S.boolean)], required: ["recorded"]),
        errors: adErrors),
      Method(
        name: "adapter.reportVideoEvent", summary: "An adapter reports a video event.",
        params: [
          adID,
          p(
            "event", S.enumeration(AdapterReport.VideoEvent.allCases.map(\.rawValue)),
            required: true),
        ], result: object([("recorded", S.boolean)], required: ["recorded"]), errors: adErrors),
      Method(
        name: "adapter.reportFullScreen", summary: "An adapter reports a full-screen event.",
        params: [
          adID,
          p(
            "event", S.enumeration(AdapterReport.ScreenEvent.allCases.map(\.rawValue)),
            required: true),
        ], result: object([("recorded", S.boolean)], required: ["recorded"]), errors: adErrors),
      Method(
        name: "rpc.discover", summary: "This OpenRPC document.", params: [],
        result: S.described(S.anyObject, "An OpenRPC 1.3 document."), errors: []),
    ]
  }

  static let errors: [(String, Int, String)] = [
    ("InvalidParams", -32602, "Invalid params"),
    ("InvalidRequest", 1000, "invalidRequest"), ("NoFill", 1001, "noFill"),
    ("NetworkError", 1002, "networkError"), ("Timeout", 1005, "timeout"),
    ("MediationAdapterError", 1008, "mediationAdapterError"),
    ("AdNotFound", 2001, "adNotFound"), ("AssetNotFound", 2002, "assetNotFound"),
    ("WrongAdKind", 2003, "wrongAdKind"), ("MuteNotOffered", 2004, "muteNotOffered"),
  ]

  /// The whole document; `examples` are recorded exchanges (by method name).
  static func document(examples: [String: [JSONValue]]) -> JSONValue {
    .object([
      ("openrpc", .string("1.3.2")),
      (
        "info",
        .object([
          ("title", .string("native-ads")),
          (
            "description",
            .string(
              "Google Mobile Ads native ads as a JSON-RPC 2.0 service: loading, assets, clicks, impressions, video, Mute This Ad, the store and mediation. Wire contract version 1; see docs/wire-format.md."
            )
          ),
          ("version", .string(version)),
        ])
      ),
      (
        "methods",
        .array(
          methods.map { m in
            var members: [(String, JSONValue)] = [
              ("name", .string(m.name)), ("summary", .string(m.summary)),
              ("paramStructure", .string("by-name")),
              (
                "params",
                .array(
                  m.params.map { param in
                    .object([
                      ("name", .string(param.name)), ("required", .bool(param.required)),
                      ("schema", param.schema),
                    ])
                  })
              ),
              ("result", .object([("name", .string("result")), ("schema", m.result)])),
            ]
            if !m.errors.isEmpty {
              members.append(
                (
                  "errors",
                  .array(
                    m.errors.map { .object([("$ref", .string("#/components/errors/" + $0))]) })
                ))
            }
            if let recorded = examples[m.name], !recorded.isEmpty {
              members.append(("examples", .array(recorded)))
            }
            return .object(members)
          })
      ),
      (
        "components",
        .object([
          ("schemas", .object(WireSchemas.all)),
          (
            "errors",
            .object(
              errors.map { name, code, message in
                (name, .object([("code", .int(code)), ("message", .string(message))]))
              })
          ),
        ])
      ),
    ])
  }
}
