import JSONRPC
import Testing

/// `willPresentScreen` after clicks that leave the app, and `reportScreenDismissed`.
@Suite struct FullScreenTests {
  private let harness = ServiceHarness()

  private func dismiss(_ client: Client, _ adId: String) throws -> JSONValue {
    try client.result("reportScreenDismissed", #"{"adId":"\#(adId)"}"#)
  }

  private static let dismissed = JSONValue.object([("dismissed", .bool(true))])
  private static let notDismissed = JSONValue.object([("dismissed", .bool(false))])

  @Test func aLandingPageClickPresentsAScreenThatTheAppReportsDismissed() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    #expect(
      try client.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"headline"}"#)["action"]
        == .string("landingPage"))
    #expect(
      try client.takeNotifications() == [
        adEventMessage(adId, "didRecordClick", assetKey: "headline"),
        adEventMessage(adId, "willPresentScreen"),
      ])
    #expect(try dismiss(client, adId) == Self.dismissed)
    #expect(
      try client.takeNotifications() == [
        adEventMessage(adId, "willDismissScreen"), adEventMessage(adId, "didDismissScreen"),
      ])
    #expect(try dismiss(client, adId) == Self.notDismissed)
    #expect(try client.takeNotifications().isEmpty)
  }

  @Test func aDeepLinkClickPresentsAScreenToo() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    let messages = try client.send(
      #"{"jsonrpc":"2.0","id":7,"method":"performClickOnAsset","params":{"adId":"\#(adId)","key":"3002","openableURLSchemes":["market"]}}"#
    )
    // Events caused by a request come before its reply.
    #expect(
      messages == [
        adEventMessage(adId, "didRecordClick", assetKey: "callToAction"),
        adEventMessage(adId, "willPresentScreen"),
        .object([
          ("jsonrpc", .string("2.0")), ("id", .number("7")),
          (
            "result",
            .object([
              ("recorded", .bool(true)), ("action", .string("deepLink")),
              ("url", .string("market://details?id=com.labpixies.flood")),
            ])
          ),
        ]),
      ])
    #expect(try dismiss(client, adId) == Self.dismissed)
  }

  @Test func aCustomAdsLandingPageClickPresentsAScreen() throws {
    let client = harness.connect()
    let adId = try client.loadLightCustomAdID()
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"Caption"}"#)
    #expect(
      try client.takeNotifications() == [
        adEventMessage(adId, "didRecordClick", assetKey: "Caption"),
        adEventMessage(adId, "willPresentScreen"),
      ])
    #expect(try dismiss(client, adId) == Self.dismissed)
  }

  @Test func theCustomClickHandlerPresentsNoScreen() throws {
    let client = harness.connect()
    let adId = try client.loadLightCustomAdID()
    _ = try client.result("setCustomClickHandler", #"{"adId":"\#(adId)","enabled":true}"#)
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"Headline"}"#)
    #expect(
      try client.takeNotifications() == [
        adEventMessage(adId, "didRecordClick", assetKey: "Headline"),
        .object([
          ("jsonrpc", .string("2.0")), ("method", .string("customClick")),
          ("params", .object([("adId", .string(adId)), ("assetID", .string("Headline"))])),
        ]),
      ])
    #expect(try dismiss(client, adId) == Self.notDismissed)
    #expect(try client.takeNotifications().isEmpty)
  }

  @Test func clicksThatRecordNothingPresentNoScreen() throws {
    let client = harness.connect()
    let backfill = try client.loadLightAdID(unit: Units.backfill)
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(backfill)","key":"_adChoices"}"#)
    #expect(try dismiss(client, backfill) == Self.notDismissed)

    let registered = try client.loadLightAdID()
    _ = try client.result(
      "registerAdView", #"{"adId":"\#(registered)","clickableAssets":[],"nonclickableAssets":[]}"#)
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(registered)","key":"headline"}"#)
    #expect(try dismiss(client, registered) == Self.notDismissed)

    _ = try client.result("muteThisAd", #"{"adId":"\#(backfill)","reason":"Irrelevant"}"#)
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(backfill)","key":"headline"}"#)
    #expect(try dismiss(client, backfill) == Self.notDismissed)
    #expect(
      try client.takeNotifications() == [adEventMessage(backfill, "didMute", reason: "Irrelevant")])
  }

  @Test func twoClicksNeedOneDismissal() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"headline"}"#)
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"body"}"#)
    #expect(try dismiss(client, adId) == Self.dismissed)
    #expect(try dismiss(client, adId) == Self.notDismissed)
    #expect(
      harness.manager.events.map(\.event.rawValue) == [
        "didRecordClick", "willPresentScreen", "didRecordClick", "willPresentScreen",
        "willDismissScreen", "didDismissScreen",
      ])
  }

  @Test func dismissalEventsGoToTheLoaderWhoeverReports() throws {
    let loader = harness.connect()
    let other = harness.connect()
    let adId = try loader.loadLightAdID()
    _ = try other.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"headline"}"#)
    #expect(try dismiss(other, adId) == Self.dismissed)
    #expect(try other.takeNotifications().isEmpty)
    #expect(
      try loader.takeNotifications() == [
        adEventMessage(adId, "didRecordClick", assetKey: "headline"),
        adEventMessage(adId, "willPresentScreen"),
        adEventMessage(adId, "willDismissScreen"),
        adEventMessage(adId, "didDismissScreen"),
      ])
  }

  @Test func reportScreenDismissedNeedsAKnownAd() throws {
    let client = harness.connect()
    #expect(
      try client.error("reportScreenDismissed", "{}") == invalidParamsError("adId", "is required"))
    #expect(
      try client.error("reportScreenDismissed", #"{"adId":"ad-x"}"#)
        == adObjectError(
          2001, "adNotFound", adId: "ad-x",
          message: #"No ad with ID "ad-x": it is unknown or was released"#))
  }
}
