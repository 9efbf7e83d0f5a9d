import JSONRPC
import NativeAds

/// The JSON Schemas of every value on the wire (`components.schemas` of the OpenRPC
/// document). One definition each: `schemas/*.json` are generated from these.
enum WireSchemas {
  typealias S = Schema

  static var all: [(String, JSONValue)] {
    [
      ("Image", image), ("MediaContent", mediaContent), ("VideoController", videoController),
      ("AdChoices", adChoices), ("AdNetworkError", adNetworkError),
      ("AdNetworkInfo", adNetworkInfo), ("ResponseInfo", responseInfo),
      ("NativeAd", nativeAd), ("CustomNativeAd", customNativeAd),
      ("Ad", S.oneOf([S.ref("NativeAd"), S.ref("CustomNativeAd")])),
      component(LoadAd.Options.shape), component(LoadAd.Targeting.shape),
      ("LoadAdResult", loadAdResult), ("ClickResult", clickResult),
      ("ImpressionResult", impressionResult), ("VideoState", videoState), ("Event", event),
      ("AdEventParams", adEventParams), ("VideoEventParams", videoEventParams),
      ("CustomClickParams", customClickParams),
      component(FormatShape.shape), component(AdUnitShape.shape),
      component(WaterfallSourceShape.shape), component(ImageInputShape.shape),
      component(VideoShape.shape), component(TargetingShape.shape),
      component(NativeAssetsShape.shape), component(CreativeShape.shape),
      component(MappedAdDecoder.shape), ("AdapterLoadParams", adapterLoadParams),
      ("AdapterNotificationParams", adapterNotificationParams),
    ] + openRTB
  }

  /// The OpenRTB objects read and written (docs/openrtb.md).
  static var openRTB: [(String, JSONValue)] {
    typealias R = NativeResponseShape
    typealias Q = NativeRequestShape
    return [
      R.Title.shape, R.Image.shape, R.Data.shape, R.Video.shape, R.Link.shape,
      R.EventTracker.shape, R.Asset.shape, R.Extension.shape, R.shape, Q.Title.shape,
      Q.Image.shape, Q.Video.shape, Q.Data.shape, Q.Asset.shape, Q.EventTracker.shape, Q.shape,
    ].map(component)
  }

  /// A named shape as a component.
  private static func component(_ shape: WireShape) -> (String, JSONValue) {
    (shape.name ?? "", shape.schema)
  }

  static let image = S.object(
    [
      ("url", S.string), ("scale", S.number), ("width", S.integer(minimum: 1)),
      ("height", S.integer(minimum: 1)),
      ("data", S.described(S.string, "Base64 of the bytes; absent with disableImageLoading.")),
      ("mimeType", S.string),
    ], required: ["url", "scale", "width", "height"], closed: true)

  static let videoController = S.object(
    [
      ("isMuted", S.boolean), ("customControlsEnabled", S.boolean),
      ("clickToExpandEnabled", S.boolean),
      ("playbackState", S.enumeration(VideoPlaybackState.allCases.map(\.rawValue))),
    ], required: ["isMuted", "customControlsEnabled", "clickToExpandEnabled"], closed: true)

  static let mediaContent = S.object(
    [
      ("aspectRatio", S.number), ("hasVideoContent", S.boolean), ("duration", S.number),
      ("currentTime", S.number), ("mainImage", S.nullable(S.ref("Image"))),
      ("videoController", S.ref("VideoController")),
    ], required: ["aspectRatio", "hasVideoContent", "duration", "currentTime", "mainImage"],
    closed: true)

  static let adChoices = S.object(
    [
      ("position", S.enumeration(AdChoicesPosition.allCases.map(\.rawValue))),
      ("image", S.ref("Image")), ("clickURL", S.string),
      ("attribution", S.enumeration(["Ad", "Advertisement", "Sponsored"])),
    ], required: ["position", "image", "clickURL"], closed: true)

  static let adNetworkError = S.object(
    [("code", S.integer), ("domain", S.string), ("message", S.string)],
    required: ["code", "domain", "message"], closed: true)

  static let adNetworkInfo = S.object(
    [
      ("adNetworkClassName", S.string), ("adSourceName", S.string),
      ("latency", S.described(S.number, "Seconds.")),
      ("error", S.nullable(S.ref("AdNetworkError"))),
    ], required: ["adNetworkClassName", "adSourceName", "latency", "error"], closed: true)

  static let responseInfo = S.object(
    [
      ("responseIdentifier", S.string),
      ("loadedAdNetworkResponseInfo", S.nullable(S.ref("AdNetworkInfo"))),
      ("adNetworkInfoArray", S.array(S.ref("AdNetworkInfo"))), ("isTestRequest", S.boolean),
    ], required: ["responseIdentifier", "loadedAdNetworkResponseInfo", "adNetworkInfoArray"],
    closed: true)

  private static let nullableString = S.nullable(S.string)

  private static var commonAdProperties: [(String, JSONValue)] {
    [
      ("mediaContent", S.ref("MediaContent")), ("adChoices", S.nullable(S.ref("AdChoices"))),
      ("muteThisAdReasons", S.array(S.string)), ("responseInfo", S.ref("ResponseInfo")),
      ("expiresAt", S.described(S.string, "RFC 3339 UTC.")),
    ]
  }

  static var nativeAd: JSONValue {
    S.object(
      [
        ("adId", S.string), ("kind", S.constant("native")), ("headline", S.string),
        ("body", nullableString), ("callToAction", nullableString), ("store", nullableString),
        ("price", nullableString), ("advertiser", nullableString),
        ("starRating", S.nullable(S.number(minimum: 0, maximum: 5))),
        ("icon", S.nullable(S.ref("Image"))), ("images", S.array(S.ref("Image"))),
        ("extraAssets", S.map(S.string)),
      ] + commonAdProperties,
      required: [
        "adId", "kind", "headline", "body", "callToAction", "store", "price", "advertiser",
        "starRating", "icon", "images", "extraAssets", "mediaContent", "adChoices",
        "responseInfo", "expiresAt",
      ], closed: true,
      description: "A system-defined native ad (GADNativeAd).")
  }

  static var customNativeAd: JSONValue {
    S.object(
      [
        ("adId", S.string), ("kind", S.constant("customNative")), ("formatID", S.string),
        ("availableAssetKeys", S.array(S.string)),
      ] + commonAdProperties,
      required: [
        "adId", "kind", "formatID", "availableAssetKeys", "mediaContent", "adChoices",
        "responseInfo", "expiresAt",
      ], closed: true,
      description: "A custom native format ad; its assets are read with stringForKey/imageForKey.")
  }

  static let loadAdResult = S.object(
    [("ads", S.array(S.ref("Ad"), minItems: 1)), ("responseInfo", S.ref("ResponseInfo"))],
    required: ["ads", "responseInfo"], closed: true)

  static var notRecordedReason: JSONValue {
    S.enumeration(NotRecordedReason.allCases.map(\.rawValue))
  }

  static var clickResult: JSONValue {
    S.object(
      [
        ("recorded", S.boolean),
        (
          "action",
          S.described(
            S.enumeration(ClickAction.allCases.map(\.rawValue)),
            "customClickHandler (a customClick notification went to the caller), deepLink or"
              + " landingPage (open url), adChoices (open url; not an ad click), adapter (a"
              + " mediated ad's adapter handles the click), none (nothing to open: the click was"
              + " not recorded, or, contract 1.1, it was recorded on a mediated ad whose mapped"
              + " ad gives no URL of its own, so the adapter's network handles the click-through)."
          )
        ),
        ("url", nullableString), ("reason", notRecordedReason),
        ("trackingURLs", trackingURLs),
      ], required: ["recorded", "action", "url"], closed: true)
  }

  static var impressionResult: JSONValue {
    S.object(
      [("recorded", S.boolean), ("reason", notRecordedReason), ("trackingURLs", trackingURLs)],
      required: ["recorded"], closed: true)
  }

  /// `trackingURLs` of the replies that record something for an ad written in OpenRTB.
  static var trackingURLs: JSONValue {
    S.described(
      S.array(S.string),
      "The third-party trackers the caller fetches, each once, for an ad that came from"
        + " OpenRTB (contract section 10; empty when nothing was recorded). Absent for other ads.")
  }

  static let videoState = S.object(
    [
      ("videoController", S.ref("VideoController")), ("currentTime", S.number),
      ("duration", S.number),
    ],
    required: ["videoController", "currentTime", "duration"], closed: true)

  static let event = S.object(
    [
      ("sequence", S.integer(minimum: 1)), ("time", S.string), ("adId", S.string),
      ("type", S.enumeration(["adEvent", "videoEvent", "tracker"])), ("event", S.string),
      (
        "trigger",
        S.described(
          S.enumeration(["impression", "click"]), "For a tracker: what it was handed out for.")
      ),
      ("url", S.described(S.string, "For a tracker: the URL handed to the caller.")),
      ("assetKey", nullableString), ("reason", S.string),
    ], required: ["sequence", "time", "adId", "type", "event", "assetKey"], closed: true)

  static let adEventParams = S.object(
    [("adId", S.string), ("event", S.string), ("assetKey", nullableString), ("reason", S.string)],
    required: ["adId", "event", "assetKey"], closed: true)

  static let videoEventParams = S.object(
    [
      ("adId", S.string),
      ("event", S.enumeration(["didPlay", "didPause", "didEnd", "didMute", "didUnmute"])),
    ], required: ["adId", "event"], closed: true)

  static let customClickParams = S.object(
    [("adId", S.string), ("assetID", S.string)], required: ["adId", "assetID"], closed: true)

  // MARK: Mediation

  /// Params of the notifications the service sends an adapter about the ad it mapped
  /// (`adapter.didRecordImpression`, `adapter.didRecordClickOnAsset`, `adapter.handleImpression`,
  /// `adapter.handleClick`, `adapter.didRender`, `adapter.didUntrackView`).
  static let adapterNotificationParams = S.object(
    [
      ("loadId", S.string), ("adId", S.string), ("assetKey", S.string),
      ("clickableAssets", S.array(S.string)), ("nonclickableAssets", S.array(S.string)),
    ], required: ["loadId", "adId"], closed: true)

  static let adapterLoadParams = S.object(
    [
      ("loadId", S.string), ("adapterClassName", S.string),
      (
        "adConfiguration",
        S.object(
          [
            (
              "credentials",
              S.object([("settings", S.map(S.string))], required: ["settings"])
            ),
            ("options", WireType.shape(LoadAd.Options.shape).schema),
            ("isTestRequest", S.nullable(S.boolean)),
          ], required: ["credentials", "options", "isTestRequest"])
      ),
    ], required: ["loadId", "adapterClassName", "adConfiguration"])
}
