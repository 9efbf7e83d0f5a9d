import JSONRPC
import Testing

@Suite struct ClickTests {
  private let harness = ServiceHarness()

  private func click(
    _ client: Client, _ adId: String, _ key: String, schemes: String? = nil
  ) throws -> JSONValue {
    let schemesMember = schemes.map { #","openableURLSchemes":\#($0)"# } ?? ""
    return try client.result(
      "performClickOnAsset", #"{"adId":"\#(adId)","key":"\#(key)"\#(schemesMember)}"#)
  }

  private func outcome(_ recorded: Bool, _ action: String, _ url: String?) -> JSONValue {
    .object([
      ("recorded", .bool(recorded)), ("action", .string(action)),
      ("url", url.map(JSONValue.string) ?? .null),
    ])
  }

  private func clickEvent(_ adId: String, _ assetKey: String) -> JSONValue {
    .object([
      ("jsonrpc", .string("2.0")), ("method", .string("adEvent")),
      (
        "params",
        .object([
          ("adId", .string(adId)), ("event", .string("didRecordClick")),
          ("assetKey", .string(assetKey)),
        ])
      ),
    ])
  }

  /// The `willPresentScreen` that follows a recorded click opening a landing page or deep link.
  private func presentEvent(_ adId: String) -> JSONValue {
    .object([
      ("jsonrpc", .string("2.0")), ("method", .string("adEvent")),
      (
        "params",
        .object([
          ("adId", .string(adId)), ("event", .string("willPresentScreen")), ("assetKey", .null),
        ])
      ),
    ])
  }

  // MARK: Actions

  @Test func aClickWithoutOpenableSchemesOpensTheLandingPage() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    #expect(
      try click(client, adId, "headline")
        == outcome(
          true, "landingPage", "https://play.google.com/store/apps/details?id=com.labpixies.flood"))
  }

  @Test func aClickOpensTheFirstDeepLinkWhoseSchemeTheCallerCanOpen() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    #expect(
      try click(client, adId, "callToAction", schemes: #"["https","market"]"#)
        == outcome(true, "deepLink", "market://details?id=com.labpixies.flood"))
    #expect(
      try click(client, adId, "callToAction", schemes: #"["myapp"]"#)
        == outcome(
          true, "landingPage", "https://play.google.com/store/apps/details?id=com.labpixies.flood"))
    #expect(
      try click(client, adId, "callToAction", schemes: "[]")
        == outcome(
          true, "landingPage", "https://play.google.com/store/apps/details?id=com.labpixies.flood"))
  }

  @Test func aCreativeWithoutDeepLinksAlwaysOpensItsLandingPage() throws {
    let client = harness.connect()
    let result = try client.load(#"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2}}"#)
    let contentAd = try #require(result["ads"]?[1]?["adId"]?.text)
    #expect(
      try click(client, contentAd, "body", schemes: #"["market","https"]"#)
        == outcome(true, "landingPage", "https://developers.google.com/admob/ios/native"))
  }

  @Test func aCustomAdWithoutItsHandlerUsesDeepLinkThenLandingPage() throws {
    let client = harness.connect()
    let adId = try client.loadCustomAdID()
    #expect(
      try click(client, adId, "Headline", schemes: #"["gadexample"]"#)
        == outcome(true, "deepLink", "gadexample://custom/10063170"))
    #expect(
      try click(client, adId, "MainImage")
        == outcome(
          true, "landingPage",
          "https://developers.google.com/ad-manager/mobile-ads-sdk/ios/native/custom-formats"))
  }

  @Test func theCustomClickHandlerTakesTheClickAndIsToldThroughCustomClick() throws {
    let client = harness.connect()
    let adId = try client.loadCustomAdID()
    #expect(
      try client.result("setCustomClickHandler", #"{"adId":"\#(adId)","enabled":true}"#)
        == .object([("enabled", .bool(true))]))
    #expect(
      try click(client, adId, "Caption", schemes: #"["gadexample"]"#)
        == outcome(true, "customClickHandler", nil))
    let notifications = try client.takeNotifications()
    #expect(notifications.contains(clickEvent(adId, "Caption")))
    #expect(
      notifications.contains(
        .object([
          ("jsonrpc", .string("2.0")), ("method", .string("customClick")),
          ("params", .object([("adId", .string(adId)), ("assetID", .string("Caption"))])),
        ])))
    #expect(notifications.count == 2)
  }

  @Test func disablingTheCustomClickHandlerRestoresNormalClicks() throws {
    let client = harness.connect()
    let adId = try client.loadCustomAdID()
    _ = try client.result("setCustomClickHandler", #"{"adId":"\#(adId)","enabled":true}"#)
    #expect(
      try client.result("setCustomClickHandler", #"{"adId":"\#(adId)","enabled":false}"#)
        == .object([("enabled", .bool(false))]))
    #expect(
      try click(client, adId, "Headline", schemes: #"["gadexample"]"#)["action"]
        == .string("deepLink"))
    #expect(
      try client.takeNotifications() == [clickEvent(adId, "Headline"), presentEvent(adId)])
  }

  @Test func theCustomClickGoesToTheConnectionThatEnabledTheHandler() throws {
    let loader = harness.connect()
    let handler = harness.connect()
    let adId = try loader.loadCustomAdID()
    _ = try handler.result("setCustomClickHandler", #"{"adId":"\#(adId)","enabled":true}"#)
    #expect(try click(handler, adId, "Headline") == outcome(true, "customClickHandler", nil))
    let handlerNotes = try handler.takeNotifications()
    #expect(handlerNotes.map { $0["method"] } == [.string("customClick")])
    #expect(handlerNotes.first?["params"]?["assetID"] == .string("Headline"))
    #expect(try loader.takeNotifications() == [clickEvent(adId, "Headline")])
  }

  @Test func aHandlerEnabledByAnotherConnectionDoesNotTakeThisConnectionsClicks() throws {
    let loader = harness.connect()
    let other = harness.connect()
    let adId = try loader.loadCustomAdID()
    _ = try loader.result("setCustomClickHandler", #"{"adId":"\#(adId)","enabled":true}"#)
    #expect(
      try click(other, adId, "Headline", schemes: #"["gadexample"]"#)
        == outcome(true, "deepLink", "gadexample://custom/10063170"))
    #expect(try other.takeNotifications().isEmpty)
    #expect(
      try loader.takeNotifications() == [clickEvent(adId, "Headline"), presentEvent(adId)])
  }

  @Test func setCustomClickHandlerOnANativeAdIsError2003() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    let error = try client.error("setCustomClickHandler", #"{"adId":"\#(adId)","enabled":true}"#)
    #expect(error["code"] == .number("2003"))
    #expect(error["data"]?["name"] == .string("wrongAdKind"))
    #expect(error["data"]?["adId"] == .string(adId))
  }

  // MARK: Events

  @Test func everyClickIsRecordedAndSentToTheLoaderAsAnAdEvent() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    for key in ["headline", "icon", "image", "mediaView", "starRating", "headline"] {
      #expect(try click(client, adId, key)["recorded"] == .bool(true))
    }
    #expect(
      try client.takeNotifications()
        == ["headline", "icon", "image", "mediaView", "starRating", "headline"].flatMap {
          [clickEvent(adId, $0), presentEvent(adId)]
        })
  }

  @Test func theLoaderGetsTheAdEventWhenAnotherConnectionClicks() throws {
    let loader = harness.connect()
    let other = harness.connect()
    let adId = try loader.loadAdID()
    _ = try loader.takeNotifications()
    var announced = 0
    loader.session.onOutput = { _ in announced += 1 }
    #expect(try click(other, adId, "body")["recorded"] == .bool(true))
    #expect(announced == 2)  // didRecordClick, then willPresentScreen
    #expect(try other.takeNotifications().isEmpty)
    #expect(try loader.takeNotifications() == [clickEvent(adId, "body"), presentEvent(adId)])
  }

  @Test func assetIdentifiersAreAliasesOfTheirNames() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    _ = try click(client, adId, "3001")
    _ = try click(client, adId, "3003")
    #expect(
      try client.takeNotifications() == [
        clickEvent(adId, "headline"), presentEvent(adId), clickEvent(adId, "icon"),
        presentEvent(adId),
      ])
  }

  @Test func clickingAdChoicesOfAnIndirectAdIsNotAnAdClick() throws {
    let client = harness.connect()
    let adId = try client.loadAdID(unit: Units.backfill)
    #expect(
      try click(client, adId, "_adChoices")
        == outcome(false, "adChoices", "https://adssettings.google.com/whythisad"))
    #expect(try client.takeNotifications().isEmpty)
    #expect(harness.manager.events.isEmpty)
  }

  // MARK: Errors

  @Test(arguments: ["store", "price", "starRating", "nope", "_adChoices", "Headline", "3010x"])
  func clickingAnAssetTheAdDoesNotHaveIsError2002(key: String) throws {
    let client = harness.connect()
    let result = try client.load(#"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2}}"#)
    let contentAd = try #require(result["ads"]?[1]?["adId"]?.text)
    let error = try client.error(
      "performClickOnAsset", #"{"adId":"\#(contentAd)","key":"\#(key)"}"#)
    #expect(error["code"] == .number("2002"))
    #expect(error["message"] == .string(#"Ad "\#(contentAd)" has no asset "\#(key)""#))
    #expect(error["data"]?["name"] == .string("assetNotFound"))
    #expect(error["data"]?["key"] == .string(key))
    #expect(try client.takeNotifications().isEmpty)
  }

  @Test func customAssetNamesAreCaseSensitive() throws {
    let client = harness.connect()
    let adId = try client.loadCustomAdID()
    let error = try client.error("performClickOnAsset", #"{"adId":"\#(adId)","key":"headline"}"#)
    #expect(error["code"] == .number("2002"))
  }

  @Test func clickingAnUnknownAdIsError2001() throws {
    let error = try harness.connect().error(
      "performClickOnAsset", #"{"adId":"nope","key":"headline"}"#)
    #expect(error["code"] == .number("2001"))
    #expect(error["data"]?["name"] == .string("adNotFound"))
  }

  @Test(arguments: [
    (
      "performClickOnAsset", #"{"adId":"nope","key":"x","openableURLSchemes":"myapp"}"#,
      "openableURLSchemes must be an array of strings", "openableURLSchemes"
    ),
    (
      "performClickOnAsset", #"{"adId":"nope","key":"x","openableURLSchemes":[1]}"#,
      "openableURLSchemes[0] must be a string", "openableURLSchemes[0]"
    ),
    ("performClickOnAsset", #"{"adId":"nope"}"#, "key is required", "key"),
    ("setCustomClickHandler", #"{"adId":"nope"}"#, "enabled is required", "enabled"),
    (
      "setCustomClickHandler", #"{"adId":"nope","enabled":"yes"}"#, "enabled must be a boolean",
      "enabled"
    ),
    ("setCustomClickHandler", #"{"enabled":true}"#, "adId is required", "adId"),
  ])
  func paramsAreCheckedBeforeTheAdIsLookedUp(
    method: String, params: String, problem: String, field: String
  ) throws {
    let error = try harness.connect().error(method, params)
    #expect(
      error
        == .object([
          ("code", .number("-32602")), ("message", .string("Invalid params: \(problem)")),
          ("data", .object([("field", .string(field))])),
        ]))
  }
}
