import JSONRPC
import Testing

@Suite struct ImpressionTests {
  private let harness = ServiceHarness()

  private func impressionEvent(_ adId: String) -> JSONValue {
    .object([
      ("jsonrpc", .string("2.0")), ("method", .string("adEvent")),
      (
        "params",
        .object([
          ("adId", .string(adId)), ("event", .string("didRecordImpression")), ("assetKey", .null),
        ])
      ),
    ])
  }

  @Test func firstImpressionIsRecordedAndSentAsAnAdEvent() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    #expect(try client.takeNotifications().isEmpty)
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
        == .object([("recorded", .bool(true))]))
    #expect(try client.takeNotifications() == [impressionEvent(adId)])
  }

  @Test func secondImpressionIsNotRecorded() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    _ = try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
    _ = try client.takeNotifications()
    for _ in 0..<3 {
      #expect(
        try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
          == .object([("recorded", .bool(false)), ("reason", .string("alreadyRecorded"))]))
    }
    #expect(try client.takeNotifications().isEmpty)
    #expect(harness.manager.events.filter { $0.event == .didRecordImpression }.count == 1)
  }

  @Test func impressionsAreCountedPerAd() throws {
    let client = harness.connect()
    let result = try client.load(#"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2}}"#)
    let ids = try (result["ads"]?.items ?? []).map { try #require($0["adId"]?.text) }
    #expect(ids.count == 2)
    for adId in ids {
      #expect(
        try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)["recorded"] == .bool(true))
    }
    #expect(try client.takeNotifications() == ids.map(impressionEvent))
  }

  @Test func anImpressionRecordedByAnotherConnectionIsSentToTheLoader() throws {
    let loader = harness.connect()
    let other = harness.connect()
    let adId = try loader.loadAdID()
    #expect(
      try other.result("recordImpression", #"{"adId":"\#(adId)"}"#)["recorded"] == .bool(true))
    #expect(try other.takeNotifications().isEmpty)
    #expect(try loader.takeNotifications() == [impressionEvent(adId)])
    #expect(
      try loader.result("recordImpression", #"{"adId":"\#(adId)"}"#)["recorded"] == .bool(false))
  }

  @Test func customAdsRecordImpressionsToo() throws {
    let client = harness.connect()
    let adId = try client.loadCustomAdID()
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)["recorded"] == .bool(true))
    #expect(try client.takeNotifications() == [impressionEvent(adId)])
  }

  @Test func recordingTheImpressionOfAnUnknownAdIsError2001() throws {
    let error = try harness.connect().error("recordImpression", #"{"adId":"ad-x-1"}"#)
    #expect(error["code"] == .number("2001"))
    #expect(error["data"]?["adId"] == .string("ad-x-1"))
  }

  @Test func eventsAreKeptInTheEventLog() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    _ = try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"icon"}"#)
    let events = harness.manager.events
    #expect(events.map(\.event) == [.didRecordImpression, .didRecordClick, .willPresentScreen])
    #expect(events.map(\.adId) == [adId, adId, adId])
    #expect(events.map(\.assetKey) == [nil, "icon", nil])
    #expect(events.map(\.sequence) == [1, 2, 3])
  }

  @Test func anImpressionNotificationIsNotAnsweredButStillRecorded() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    let messages = try client.send(
      #"{"jsonrpc":"2.0","method":"recordImpression","params":{"adId":"\#(adId)"}}"#)
    #expect(messages == [impressionEvent(adId)])
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)["recorded"] == .bool(false))
  }
}
