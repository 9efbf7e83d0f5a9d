import JSONRPC
import Testing

/// Ads expire `--ad-lifetime` seconds after their load.
@Suite struct ExpiryTests {
  private static let expiredImpression = JSONValue.object([
    ("recorded", .bool(false)), ("reason", .string("expired")),
  ])
  private static let expiredClick = JSONValue.object([
    ("recorded", .bool(false)), ("action", .string("none")), ("url", .null),
    ("reason", .string("expired")),
  ])

  @Test func anAdRecordsUntilItsLifetimeEndsAndNothingFromThen() throws {
    let harness = ServiceHarness()
    let client = harness.connect()
    let first = try client.loadLightAdID()
    let second = try client.loadLightAdID()
    harness.clock.advance(by: 3599.5)
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(first)"}"#)
        == .object([("recorded", .bool(true))]))
    #expect(
      try client.result("performClickOnAsset", #"{"adId":"\#(first)","key":"body"}"#)["recorded"]
        == .bool(true))
    _ = try client.takeNotifications()
    harness.clock.advance(by: 0.5)
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(second)"}"#) == Self.expiredImpression)
    #expect(
      try client.result("performClickOnAsset", #"{"adId":"\#(second)","key":"headline"}"#)
        == Self.expiredClick)
    #expect(
      try client.result("performClickOnAsset", #"{"adId":"\#(first)","key":"3001"}"#)
        == Self.expiredClick)
    #expect(try client.takeNotifications().isEmpty)
  }

  @Test func anExpiredAdCanStillBeReadAndReleased() throws {
    let harness = ServiceHarness()
    let client = harness.connect()
    let adId = try client.loadLightAdID(unit: Units.backfill)
    harness.clock.advance(by: 7200)
    #expect(
      try client.result("stringForKey", #"{"adId":"\#(adId)","key":"headline"}"#)
        == .string("Backfill Puzzle Quest"))
    #expect(
      try client.result("imageForKey", #"{"adId":"\#(adId)","key":"icon"}"#)["width"]
        == .number("128"))
    #expect(
      try client.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"_adChoices"}"#)["action"]
        == .string("adChoices"))
    #expect(
      try client.result("releaseAd", #"{"adId":"\#(adId)"}"#)
        == .object([("released", .bool(true))]))
  }

  @Test func aMutedExpiredAdGivesMutedAsTheReason() throws {
    let harness = ServiceHarness()
    let client = harness.connect()
    let adId = try client.loadLightAdID(unit: Units.backfill)
    _ = try client.result("muteThisAd", #"{"adId":"\#(adId)"}"#)
    harness.clock.advance(by: 3600)
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
        == .object([("recorded", .bool(false)), ("reason", .string("muted"))]))
  }

  @Test func anAlreadyRecordedExpiredAdGivesExpiredAsTheReason() throws {
    let harness = ServiceHarness()
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
    harness.clock.advance(by: 3600)
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#) == Self.expiredImpression)
  }

  @Test func theLifetimeIsConfigurable() throws {
    let harness = ServiceHarness(adLifetime: 90)
    let client = harness.connect()
    harness.clock.advance(by: 30.75)
    let ad = try #require(
      client.load(#"{"adUnitID":"\#(Units.direct)","options":{"disableImageLoading":true}}"#)[
        "ads"]?[0])
    #expect(ad["expiresAt"] == .string("2026-01-01T00:02:00Z"))
    let adId = try #require(ad["adId"]?.text)
    harness.clock.advance(by: 89.9)
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)["recorded"] == .bool(true))
    let other = try client.loadLightAdID()
    harness.clock.advance(by: 90)
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(other)"}"#) == Self.expiredImpression)
  }
}
