import JSONRPC
import Testing

/// `registerAdView`, `unregisterAdView`, `reportVisibility`, and clicks on a registered view.
@Suite struct AdViewTests {
  private let harness = ServiceHarness()

  private func register(
    _ client: Client, _ adId: String, _ clickable: String, _ other: String = "[]"
  )
    throws -> JSONValue
  {
    try client.result(
      "registerAdView",
      #"{"adId":"\#(adId)","clickableAssets":\#(clickable),"nonclickableAssets":\#(other)}"#)
  }

  private func click(_ client: Client, _ adId: String, _ key: String) throws -> JSONValue {
    try client.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"\#(key)"}"#)
  }

  private func visibility(_ client: Client, _ adId: String, _ pixels: Int) throws -> JSONValue {
    try client.result("reportVisibility", #"{"adId":"\#(adId)","visiblePixels":\#(pixels)}"#)
  }

  private static let notClickable = JSONValue.object([
    ("recorded", .bool(false)), ("action", .string("none")), ("url", .null),
    ("reason", .string("notClickable")),
  ])

  private static func notRecorded(_ reason: String) -> JSONValue {
    .object([("impressionRecorded", .bool(false)), ("reason", .string(reason))])
  }

  private static let recorded = JSONValue.object([("impressionRecorded", .bool(true))])

  // MARK: registerAdView

  @Test func registrationAnswersCanonicalNamesWithoutDuplicates() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    #expect(
      try register(
        client, adId, #"["headline","3003","callToAction","3001","store"]"#,
        #"["3010","body","3009","body"]"#)
        == .object([
          ("registered", .bool(true)),
          (
            "clickableAssets",
            .array([
              .string("headline"), .string("icon"), .string("callToAction"), .string("store"),
            ])
          ),
          (
            "nonclickableAssets",
            .array([.string("mediaView"), .string("body"), .string("starRating")])
          ),
        ]))
  }

  @Test func keysTheAdLacksMayBeRegistered() throws {
    let client = harness.connect()
    let result = try client.load(
      #"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2,"disableImageLoading":true}}"#)
    let contentAd = try #require(result["ads"]?[1]?["adId"]?.text)  // no store, price, rating
    #expect(
      try register(client, contentAd, #"["store","price"]"#, #"["starRating"]"#)["registered"]
        == .bool(true))
  }

  @Test(arguments: [
    (#"["headline","icon","mediaView"]"#, "[]", "clickableAssets[2]"),
    (#"["3010"]"#, "[]", "clickableAssets[0]"),
  ])
  func theMediaViewMayNotBeClickable(clickable: String, other: String, field: String) throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    #expect(
      try client.error(
        "registerAdView",
        #"{"adId":"\#(adId)","clickableAssets":\#(clickable),"nonclickableAssets":\#(other)}"#)
        == invalidParamsError(field, "mediaView may not be clickable"))
  }

  @Test(arguments: [
    (#"["headline","Headline"]"#, "[]", "clickableAssets[1]", "Headline"),
    (#"["headline"]"#, #"["body","nope"]"#, "nonclickableAssets[1]", "nope"),
    (#"["3011"]"#, "[]", "clickableAssets[0]", "3011"),
    ("[]", #"["_adChoices"]"#, "nonclickableAssets[0]", "_adChoices"),
    (#"[""]"#, "[]", "clickableAssets[0]", ""),
  ])
  func aKeyThatIsNoAssetNameOrIdentifierIsInvalidParams(
    clickable: String, other: String, field: String, key: String
  ) throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    #expect(
      try client.error(
        "registerAdView",
        #"{"adId":"\#(adId)","clickableAssets":\#(clickable),"nonclickableAssets":\#(other)}"#)
        == invalidParamsError(
          field,
          #""\#(key)" is not an asset name or identifier (headline, callToAction, icon, body, advertiser, store, price, image, starRating, mediaView, 3001-3010)"#
        ))
  }

  @Test(arguments: [
    (#"{"clickableAssets":[],"nonclickableAssets":[]}"#, "adId", "is required"),
    (
      #"{"adId":"x","clickableAssets":"headline"}"#, "clickableAssets",
      "must be an array of strings"
    ),
    (#"{"adId":"x","nonclickableAssets":[3001]}"#, "nonclickableAssets[0]", "must be a string"),
  ])
  func registerParamsAreCheckedBeforeTheAdIsLookedUp(params: String, field: String, problem: String)
    throws
  {
    #expect(
      try harness.connect().error("registerAdView", params) == invalidParamsError(field, problem))
  }

  @Test func aFailedRegistrationLeavesThePreviousOneInPlace() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try register(client, adId, #"["headline"]"#)
    _ = try client.error(
      "registerAdView", #"{"adId":"\#(adId)","clickableAssets":["body","mediaView"]}"#)
    #expect(try click(client, adId, "body") == Self.notClickable)
    #expect(try click(client, adId, "headline")["recorded"] == .bool(true))
  }

  @Test(arguments: ["registerAdView", "unregisterAdView", "reportVisibility"])
  func adViewMethodsOnACustomAdAreError2003(method: String) throws {
    let client = harness.connect()
    let adId = try client.loadLightCustomAdID()
    #expect(
      try client.error(
        method,
        #"{"adId":"\#(adId)","clickableAssets":["headline"],"nonclickableAssets":[],"visiblePixels":5}"#
      )
        == adObjectError(
          2003, "wrongAdKind", adId: adId,
          message: "\(method) applies only to system-defined native ads"))
  }

  @Test(arguments: ["registerAdView", "unregisterAdView", "reportVisibility"])
  func adViewMethodsOnAnUnknownAdAreError2001(method: String) throws {
    let error = try harness.connect().error(
      method, #"{"adId":"ad-gone","clickableAssets":[],"nonclickableAssets":[],"visiblePixels":1}"#)
    #expect(
      error
        == adObjectError(
          2001, "adNotFound", adId: "ad-gone",
          message: #"No ad with ID "ad-gone": it is unknown or was released"#))
  }

  // MARK: unregisterAdView

  @Test func unregisterSaysWhetherAViewWasRegistered() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    let yes = JSONValue.object([("unregistered", .bool(true))])
    let no = JSONValue.object([("unregistered", .bool(false))])
    #expect(try client.result("unregisterAdView", #"{"adId":"\#(adId)"}"#) == no)
    _ = try register(client, adId, #"["headline"]"#)
    #expect(try client.result("unregisterAdView", #"{"adId":"\#(adId)"}"#) == yes)
    #expect(try client.result("unregisterAdView", #"{"adId":"\#(adId)"}"#) == no)
    #expect(try client.takeNotifications().isEmpty)
  }

  // MARK: Clicks on a registered view

  @Test func whileRegisteredOnlyClickableAssetsRecordClicks() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try register(client, adId, #"["headline","3003"]"#, #"["body","mediaView"]"#)
    for key in ["body", "mediaView", "callToAction", "3002", "starRating", "image"] {
      #expect(try click(client, adId, key) == Self.notClickable, "\(key)")
    }
    #expect(try client.takeNotifications().isEmpty)
    #expect(try click(client, adId, "3001")["recorded"] == .bool(true))
    #expect(try click(client, adId, "icon")["recorded"] == .bool(true))
    #expect(
      try client.takeNotifications() == [
        adEventMessage(adId, "didRecordClick", assetKey: "headline"),
        adEventMessage(adId, "willPresentScreen"),
        adEventMessage(adId, "didRecordClick", assetKey: "icon"),
        adEventMessage(adId, "willPresentScreen"),
      ])
  }

  @Test func aKeyInBothListsIsClickable() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try register(client, adId, #"["body"]"#, #"["body"]"#)
    #expect(try click(client, adId, "body")["recorded"] == .bool(true))
  }

  @Test func registeringAgainReplacesTheClickableAssets() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try register(client, adId, #"["headline"]"#)
    _ = try register(client, adId, #"["body"]"#, #"["headline"]"#)
    #expect(try click(client, adId, "headline") == Self.notClickable)
    #expect(try click(client, adId, "body")["recorded"] == .bool(true))
  }

  @Test func afterUnregisteringEveryAssetIsClickableAgain() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try register(client, adId, "[]", #"["headline"]"#)
    #expect(try click(client, adId, "headline") == Self.notClickable)
    _ = try client.result("unregisterAdView", #"{"adId":"\#(adId)"}"#)
    #expect(try click(client, adId, "headline")["recorded"] == .bool(true))
    #expect(try click(client, adId, "mediaView")["recorded"] == .bool(true))
  }

  @Test func aKeyTheAdLacksIsStill2002WhileRegistered() throws {
    let client = harness.connect()
    let result = try client.load(
      #"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2,"disableImageLoading":true}}"#)
    let contentAd = try #require(result["ads"]?[1]?["adId"]?.text)
    _ = try register(client, contentAd, #"["store"]"#)
    #expect(
      try client.error("performClickOnAsset", #"{"adId":"\#(contentAd)","key":"store"}"#)["code"]
        == .number("2002"))
  }

  @Test func adChoicesOfARegisteredIndirectAdStillOpenTheAdChoicesPage() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID(unit: Units.backfill)
    _ = try register(client, adId, "[]")
    #expect(
      try click(client, adId, "_adChoices")
        == .object([
          ("recorded", .bool(false)), ("action", .string("adChoices")),
          ("url", .string("https://adssettings.google.com/whythisad")),
        ]))
  }

  // MARK: reportVisibility

  @Test func theFirstVisiblePixelOfARegisteredViewRecordsTheImpressionOnce() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    #expect(try visibility(client, adId, 100) == Self.notRecorded("notRegistered"))
    _ = try register(client, adId, #"["headline"]"#)
    #expect(try visibility(client, adId, 0) == Self.notRecorded("notVisible"))
    #expect(try client.takeNotifications().isEmpty)
    #expect(try visibility(client, adId, 1) == Self.recorded)
    #expect(try client.takeNotifications() == [adEventMessage(adId, "didRecordImpression")])
    #expect(try visibility(client, adId, 500) == Self.notRecorded("alreadyRecorded"))
    #expect(try visibility(client, adId, 0) == Self.notRecorded("notVisible"))
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
        == .object([("recorded", .bool(false)), ("reason", .string("alreadyRecorded"))]))
    #expect(try client.takeNotifications().isEmpty)
    #expect(harness.manager.events.map(\.event) == [.didRecordImpression])
  }

  @Test func anImpressionRecordedDirectlyIsAlreadyRecordedForVisibility() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
    _ = try register(client, adId, "[]")
    #expect(try visibility(client, adId, 10) == Self.notRecorded("alreadyRecorded"))
  }

  @Test func afterUnregisteringVisibilityIsNotRegistered() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try register(client, adId, "[]")
    _ = try client.result("unregisterAdView", #"{"adId":"\#(adId)"}"#)
    #expect(try visibility(client, adId, 10) == Self.notRecorded("notRegistered"))
  }

  @Test func aMutedOrExpiredRegisteredAdRecordsNoImpression() throws {
    let client = harness.connect()
    let muted = try client.loadLightAdID(unit: Units.backfill)
    let expiring = try client.loadLightAdID()
    _ = try register(client, muted, "[]")
    _ = try register(client, expiring, "[]")
    _ = try client.result("muteThisAd", #"{"adId":"\#(muted)"}"#)
    #expect(try visibility(client, muted, 10) == Self.notRecorded("muted"))
    harness.clock.advance(by: 3600)
    #expect(try visibility(client, expiring, 10) == Self.notRecorded("expired"))
    #expect(try visibility(client, expiring, 0) == Self.notRecorded("notVisible"))
  }

  @Test func theImpressionEventGoesToTheLoaderWhoeverReports() throws {
    let loader = harness.connect()
    let reporter = harness.connect()
    let adId = try loader.loadLightAdID()
    _ = try register(reporter, adId, "[]")
    #expect(try visibility(reporter, adId, 3) == Self.recorded)
    #expect(try reporter.takeNotifications().isEmpty)
    #expect(try loader.takeNotifications() == [adEventMessage(adId, "didRecordImpression")])
  }

  @Test(arguments: [
    (#"{"adId":"x"}"#, "visiblePixels", "is required"),
    (#"{"adId":"x","visiblePixels":-1}"#, "visiblePixels", "must be at least 0"),
    (#"{"adId":"x","visiblePixels":1.5}"#, "visiblePixels", "must be an integer"),
    (#"{"adId":"x","visiblePixels":"10"}"#, "visiblePixels", "must be an integer"),
    (#"{"visiblePixels":1}"#, "adId", "is required"),
  ])
  func visibilityParamsAreCheckedBeforeTheAdIsLookedUp(
    params: String, field: String, problem: String
  ) throws {
    #expect(
      try harness.connect().error("reportVisibility", params) == invalidParamsError(field, problem))
  }
}
