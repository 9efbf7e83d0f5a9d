import JSONRPC
import Testing

/// `getEvents`: the event log.
@Suite struct EventLogTests {
  private let harness = ServiceHarness()

  /// One Event object of a `getEvents` result.
  private static func event(
    _ sequence: Int, _ time: String, _ adId: String, _ event: String, type: String = "adEvent",
    assetKey: String? = nil, reason: String? = nil
  ) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("sequence", .int(sequence)), ("time", .string(time)), ("adId", .string(adId)),
      ("type", .string(type)), ("event", .string(event)),
      ("assetKey", assetKey.map(JSONValue.string) ?? .null),
    ]
    if let reason { members.append(("reason", .string(reason))) }
    return .object(members)
  }

  private func events(_ client: Client, _ params: String = "{}") throws -> JSONValue {
    try client.result("getEvents", params)
  }

  /// The sequence numbers of a `getEvents` result's events.
  private func sequences(_ result: JSONValue) -> [Int] {
    (result["events"]?.items ?? []).compactMap { $0["sequence"]?.integer }
  }

  /// Records `count` clicks on `adId` in one batch: `2 * count` events (click, screen).
  private func click(_ client: Client, _ adId: String, times count: Int) throws {
    let calls = (0..<count).map {
      #"{"jsonrpc":"2.0","id":"c\#($0)","method":"performClickOnAsset","params":{"adId":"\#(adId)","key":"body"}}"#
    }
    _ = try client.send("[" + calls.joined(separator: ",") + "]")
  }

  @Test func anEmptyLogHasNoEventsAndLastSequenceZero() throws {
    let client = harness.connect()
    let empty = JSONValue.object([("events", .array([])), ("lastSequence", .number("0"))])
    #expect(try events(client) == empty)
    #expect(try client.result("getEvents") == empty)
    _ = try client.loadLightAdID()
    #expect(try events(client) == empty)
  }

  @Test func everyAdAndVideoEventIsLoggedOldestFirstWithMillisecondTimes() throws {
    let client = harness.connect()
    let native = try client.loadLightAdID()
    let backfill = try client.loadLightAdID(unit: Units.backfill)
    let video = try client.loadLightAdID(
      unit: Units.video, options: #""customControlsRequested":true"#)
    _ = try client.result("recordImpression", #"{"adId":"\#(native)"}"#)
    harness.clock.advance(by: 0.0625)
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(native)","key":"3001"}"#)
    harness.clock.advance(by: 61.0625)
    _ = try client.result("muteThisAd", #"{"adId":"\#(backfill)","reason":"Irrelevant"}"#)
    harness.clock.advance(by: 0.375)
    _ = try client.result("videoControl", #"{"adId":"\#(video)","action":"play"}"#)
    harness.clock.advance(by: 86_400 + 0.75)
    _ = try client.result("reportScreenDismissed", #"{"adId":"\#(native)"}"#)
    #expect(
      try events(client)
        == .object([
          (
            "events",
            .array([
              Self.event(1, "2026-01-01T00:00:00.000Z", native, "didRecordImpression"),
              Self.event(
                2, "2026-01-01T00:00:00.062Z", native, "didRecordClick", assetKey: "headline"),
              Self.event(3, "2026-01-01T00:00:00.062Z", native, "willPresentScreen"),
              Self.event(4, "2026-01-01T00:01:01.125Z", backfill, "didMute", reason: "Irrelevant"),
              Self.event(5, "2026-01-01T00:01:01.500Z", video, "didPlay", type: "videoEvent"),
              Self.event(6, "2026-01-02T00:01:02.250Z", native, "willDismissScreen"),
              Self.event(7, "2026-01-02T00:01:02.250Z", native, "didDismissScreen"),
            ])
          ),
          ("lastSequence", .number("7")),
        ]))
    // The video is noticed to have ended when it is touched, then logged.
    _ = try client.result("getVideoState", #"{"adId":"\#(video)"}"#)
    let last = try events(client, #"{"since":7}"#)
    #expect(
      last
        == .object([
          (
            "events",
            .array([Self.event(8, "2026-01-02T00:01:02.250Z", video, "didEnd", type: "videoEvent")])
          ),
          ("lastSequence", .number("8")),
        ]))
  }

  @Test func filtersCombineAndLastSequenceIgnoresThem() throws {
    let client = harness.connect()
    let first = try client.loadLightAdID(
      unit: Units.adMob, options: #""customControlsRequested":true,"startMuted":false"#)
    let second = try client.loadLightAdID()
    _ = try client.result("recordImpression", #"{"adId":"\#(first)"}"#)  // 1
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(second)","key":"icon"}"#)  // 2, 3
    _ = try client.result("videoControl", #"{"adId":"\#(first)","action":"mute"}"#)  // 4
    _ = try client.result("muteThisAd", #"{"adId":"\#(first)"}"#)  // 5
    _ = try client.result("recordImpression", #"{"adId":"\#(second)"}"#)  // 6
    _ = try client.result("performClickOnAsset", #"{"adId":"\#(second)","key":"body"}"#)  // 7, 8

    let cases: [(String, [Int])] = [
      ("{}", [1, 2, 3, 4, 5, 6, 7, 8]),
      (#"{"adId":"\#(first)"}"#, [1, 4, 5]),
      (#"{"adId":"\#(second)"}"#, [2, 3, 6, 7, 8]),
      (#"{"event":"didRecordImpression"}"#, [1, 6]),
      (#"{"event":"didMute"}"#, [4, 5]),
      (#"{"event":"didRecordClick","adId":"\#(second)"}"#, [2, 7]),
      (#"{"since":0}"#, [1, 2, 3, 4, 5, 6, 7, 8]),
      (#"{"since":5}"#, [6, 7, 8]),
      (#"{"since":8}"#, []),
      (#"{"since":1000}"#, []),
      (#"{"limit":3}"#, [1, 2, 3]),
      (#"{"since":2,"limit":2}"#, [3, 4]),
      (#"{"adId":"\#(second)","since":3,"limit":2}"#, [6, 7]),
      (#"{"event":"willPresentScreen","limit":1}"#, [3]),
      (#"{"adId":"ad-nope"}"#, []),
      (#"{"event":"nope"}"#, []),
      (#"{"event":"videoDidMute"}"#, []),
      (#"{"adId":null,"event":null,"since":null,"limit":null}"#, [1, 2, 3, 4, 5, 6, 7, 8]),
    ]
    for (params, expected) in cases {
      let result = try events(client, params)
      #expect(sequences(result) == expected, "\(params)")
      #expect(result["lastSequence"] == .number("8"), "\(params)")
    }
    let mutes = try #require(events(client, #"{"event":"didMute"}"#)["events"]?.items)
    #expect(mutes.map { $0["type"] } == [.string("videoEvent"), .string("adEvent")])
  }

  @Test func theLimitIs1000ByDefaultAndAtMost10000() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    try click(client, adId, times: 501)
    let byDefault = try events(client)
    #expect(sequences(byDefault) == Array(1...1000))
    #expect(byDefault["lastSequence"] == .number("1002"))
    #expect(sequences(try events(client, #"{"limit":10000}"#)) == Array(1...1002))
    #expect(sequences(try events(client, #"{"since":1000}"#)) == [1001, 1002])
  }

  @Test func eventsOfReleasedAdsStayInTheLog() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
    _ = try client.result("releaseAd", #"{"adId":"\#(adId)"}"#)
    let other = harness.connect()
    let closing = try other.loadLightAdID()
    _ = try other.result("recordImpression", #"{"adId":"\#(closing)"}"#)
    other.session.close()
    let result = try events(client)
    #expect(
      result["events"]?.items?.map { $0["adId"] } == [.string(adId), .string(closing)])
  }

  @Test func theLogKeepsTheLastMaxEventsAndSequencesKeepGrowing() throws {
    let small = ServiceHarness(maxEvents: 3)
    let client = small.connect()
    let adId = try client.loadLightAdID()
    _ = try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)  // 1
    try click(client, adId, times: 2)  // 2...5
    #expect(sequences(try client.result("getEvents")) == [3, 4, 5])
    #expect(sequences(try client.result("getEvents", #"{"since":1}"#)) == [3, 4, 5])
    #expect(sequences(try client.result("getEvents", #"{"since":3}"#)) == [4, 5])
    #expect(sequences(try client.result("getEvents", #"{"since":3,"limit":1}"#)) == [4])
    try click(client, adId, times: 4)  // 6...13
    let result = try client.result("getEvents")
    #expect(sequences(result) == [11, 12, 13])
    #expect(result["lastSequence"] == .number("13"))
    #expect(sequences(try client.result("getEvents", #"{"since":11}"#)) == [12, 13])
    #expect(sequences(try client.result("getEvents", #"{"since":13}"#)) == [])
  }

  @Test func aLogOfSizeZeroKeepsNothingButCounts() throws {
    let none = ServiceHarness(maxEvents: 0)
    let client = none.connect()
    let adId = try client.loadLightAdID()
    _ = try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
    #expect(
      try client.result("getEvents")
        == .object([("events", .array([])), ("lastSequence", .number("1"))]))
    #expect(
      try client.takeNotifications() == [adEventMessage(adId, "didRecordImpression")])
  }

  @Test(arguments: [
    (#"{"limit":0}"#, "limit", "must be between 1 and 10000"),
    (#"{"limit":10001}"#, "limit", "must be between 1 and 10000"),
    (#"{"limit":-3}"#, "limit", "must be between 1 and 10000"),
    (#"{"limit":2.5}"#, "limit", "must be an integer"),
    (#"{"limit":"10"}"#, "limit", "must be an integer"),
    (#"{"since":-1}"#, "since", "must be at least 0"),
    (#"{"since":"3"}"#, "since", "must be an integer"),
    (#"{"adId":5}"#, "adId", "must be a string"),
    (#"{"event":["didMute"]}"#, "event", "must be a string"),
  ])
  func badParamsAreInvalidParamsNamingTheField(params: String, field: String, problem: String)
    throws
  {
    #expect(try harness.connect().error("getEvents", params) == invalidParamsError(field, problem))
  }
}
