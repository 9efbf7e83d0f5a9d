import JSONRPC
import NativeAds
import Testing

/// The RPC layer over a live-ad store that answers later (``HeldLiveAdStore``): a call that
/// records is answered, exactly once, when the store answers, and the connection is served
/// meanwhile.
@Suite struct DeferredStoreTests {
  private let harness = HeldStoreHarness()
  private let landingPage = "https://play.google.com/store/apps/details?id=com.labpixies.flood"

  private func request(_ id: Int?, _ method: String, _ params: String) -> String {
    let idMember = id.map { #","id":\#($0)"# } ?? ""
    return #"{"jsonrpc":"2.0"\#(idMember),"method":"\#(method)","params":\#(params)}"#
  }

  private func reply(_ id: Int, _ result: JSONValue) -> JSONValue {
    .object([("jsonrpc", .string("2.0")), ("id", .int(id)), ("result", result)])
  }

  private func adParams(_ adId: String, _ extra: String = "") -> String {
    #"{"adId":"\#(adId)"\#(extra)}"#
  }

  /// Loads the direct unit's first ad (without image bytes), answering the store's `insert`.
  private func loadAd(_ client: Client, unit: String = Units.direct, options: String = "")
    throws -> String
  {
    let sent = try client.send(
      request(
        1000, "loadAd",
        #"{"adUnitID":"\#(unit)","options":{"disableImageLoading":true\#(options)}}"#))
    #expect(sent.isEmpty)
    #expect(harness.store.releaseAll() == ["insert"])
    let messages = try client.takeNotifications()
    try #require(messages.count == 1)
    return try #require(messages[0]["result"]?["ads"]?[0]?["adId"]?.text)
  }

  @Test func loadAdIsAnsweredOnceTheStoreKeptTheAds() throws {
    let client = harness.connect()
    let sent = try client.send(
      request(7, "loadAd", #"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2}}"#))
    #expect(sent.isEmpty)
    #expect(harness.store.heldCalls == ["insert"])
    #expect(harness.manager.ads.isEmpty)

    #expect(harness.store.releaseNext() == "insert")
    let messages = try client.takeNotifications()
    #expect(messages.count == 1)
    #expect(messages.first?["id"] == .int(7))
    let ids = (messages.first?["result"]?["ads"]?.items ?? []).compactMap { $0["adId"]?.text }
    #expect(ids.count == 2)
    #expect(Set(harness.manager.ads.map(\.id)) == Set(ids))
    #expect(try client.takeNotifications().isEmpty)
  }

  @Test func recordImpressionIsAnsweredOnlyWhenTheStoreAnswers() throws {
    let client = harness.connect()
    let adId = try loadAd(client)
    #expect(try client.send(request(2, "recordImpression", adParams(adId))).isEmpty)
    #expect(harness.store.heldCalls == ["apply recordImpression"])
    #expect(try client.takeNotifications().isEmpty)
    #expect(harness.manager.events.isEmpty)

    #expect(harness.store.releaseNext() == "apply recordImpression")
    #expect(
      try client.takeNotifications() == [
        adEventMessage(adId, "didRecordImpression"),
        reply(2, .object([("recorded", .bool(true))])),
      ])
    #expect(harness.store.releaseAll().isEmpty)
    #expect(try client.takeNotifications().isEmpty)
    #expect(harness.manager.events.map(\.event) == [.didRecordImpression])
  }

  @Test func performClickOnAssetIsAnsweredOnlyWhenTheStoreAnswers() throws {
    let client = harness.connect()
    let adId = try loadAd(client)
    #expect(
      try client.send(request(3, "performClickOnAsset", adParams(adId, #","key":"3001""#)))
        .isEmpty)
    #expect(harness.store.heldCalls == ["apply click"])
    #expect(try client.takeNotifications().isEmpty)

    harness.store.releaseNext()
    #expect(
      try client.takeNotifications() == [
        adEventMessage(adId, "didRecordClick", assetKey: "headline"),
        adEventMessage(adId, "willPresentScreen"),
        reply(
          3,
          .object([
            ("recorded", .bool(true)), ("action", .string("landingPage")),
            ("url", .string(landingPage)),
          ])),
      ])
    #expect(try client.takeNotifications().isEmpty)
  }

  @Test func releaseAdIsAnsweredOnceTheStoreReleasedTheAd() throws {
    let client = harness.connect()
    let adId = try loadAd(client)
    #expect(try client.send(request(4, "releaseAd", adParams(adId))).isEmpty)
    #expect(harness.store.heldCalls == ["release"])
    #expect(try client.takeNotifications().isEmpty)

    harness.store.releaseNext()
    #expect(try client.takeNotifications() == [reply(4, .object([("released", .bool(true))]))])
    #expect(harness.manager.ads.isEmpty)
    let error = try client.error("stringForKey", adParams(adId, #","key":"headline""#))
    #expect(error["code"] == .int(2001))
  }

  @Test func errorsFoundBeforeTheStoreIsAskedAreAnsweredAtOnce() throws {
    let client = harness.connect()
    let adId = try loadAd(client)
    let unknown = try client.error("recordImpression", adParams("ad-unknown-1"))
    #expect(unknown["code"] == .int(2001))
    let asset = try client.error("performClickOnAsset", adParams(adId, #","key":"nope""#))
    #expect(asset["code"] == .int(2002))
    #expect(harness.store.heldCalls.isEmpty)
  }

  @Test func otherRequestsOnTheConnectionAreAnsweredMeanwhile() throws {
    let client = harness.connect()
    let adId = try loadAd(client)
    #expect(try client.send(request(20, "recordImpression", adParams(adId))).isEmpty)

    #expect(
      try client.result("stringForKey", adParams(adId, #","key":"headline""#))
        == .string("Flood-It! 2"))
    #expect(try client.result("getEvents", "{}")["events"] == .array([]))
    // A second impression waits behind the first.
    #expect(try client.send(request(21, "recordImpression", adParams(adId))).isEmpty)
    #expect(harness.store.heldCalls == ["apply recordImpression", "apply recordImpression"])

    harness.store.releaseAll()
    #expect(
      try client.takeNotifications() == [
        adEventMessage(adId, "didRecordImpression"),
        reply(20, .object([("recorded", .bool(true))])),
        reply(21, .object([("recorded", .bool(false)), ("reason", .string("alreadyRecorded"))])),
      ])
    #expect(
      try client.result("getEvents", "{}")["events"]?.items?.compactMap { $0["event"]?.text }
        == ["didRecordImpression"])
  }

  @Test func aBatchReplyWaitsForItsDeferredMembers() throws {
    let client = harness.connect()
    let adId = try loadAd(client)
    let batch = [
      request(10, "recordImpression", adParams(adId)),
      request(11, "stringForKey", adParams(adId, #","key":"body""#)),
      request(12, "performClickOnAsset", adParams(adId, #","key":"headline""#)),
    ]
    #expect(try client.send("[" + batch.joined(separator: ",") + "]").isEmpty)
    #expect(harness.store.heldCalls == ["apply recordImpression", "apply click"])

    harness.store.releaseNext()
    #expect(try client.takeNotifications() == [adEventMessage(adId, "didRecordImpression")])

    harness.store.releaseNext()
    let messages = try client.takeNotifications()
    #expect(
      messages == [
        adEventMessage(adId, "didRecordClick", assetKey: "headline"),
        adEventMessage(adId, "willPresentScreen"),
        .array([
          reply(10, .object([("recorded", .bool(true))])),
          reply(11, .string("Fill the board with a single colour before you run out of moves.")),
          reply(
            12,
            .object([
              ("recorded", .bool(true)), ("action", .string("landingPage")),
              ("url", .string(landingPage)),
            ])),
        ]),
      ])
    #expect(try client.takeNotifications().isEmpty)
  }

  @Test func aNotificationIsNeverAnsweredButItsChangeStillApplies() throws {
    let client = harness.connect()
    let adId = try loadAd(client)
    #expect(try client.send(request(nil, "recordImpression", adParams(adId))).isEmpty)
    #expect(harness.store.heldCalls == ["apply recordImpression"])
    harness.store.releaseAll()
    #expect(try client.takeNotifications() == [adEventMessage(adId, "didRecordImpression")])
  }

  @Test func theLoaderGetsTheEventWhenAnotherConnectionsCallIsAnswered() throws {
    let loader = harness.connect()
    let other = harness.connect()
    let adId = try loadAd(loader)
    #expect(try other.send(request(5, "recordImpression", adParams(adId))).isEmpty)
    #expect(try loader.takeNotifications().isEmpty)

    harness.store.releaseAll()
    #expect(try loader.takeNotifications() == [adEventMessage(adId, "didRecordImpression")])
    #expect(try other.takeNotifications() == [reply(5, .object([("recorded", .bool(true))]))])
  }

  @Test func aVideoEndNoticedByReadsWhileTheStoreIsBusyIsSentOnce() throws {
    let client = harness.connect()
    let adId = try loadAd(client, unit: Units.adMob, options: #","customControlsRequested":true"#)
    #expect(
      try client.send(request(30, "videoControl", adParams(adId, #","action":"play""#))).isEmpty)
    #expect(harness.store.releaseAll() == ["apply videoControl"])
    let played = try client.takeNotifications()
    #expect(played.first == videoEventMessage(adId, "didPlay"))
    #expect(played.count == 2)
    #expect(played.last?["id"] == .int(30))
    #expect(played.last?["result"]?["applied"] == .bool(true))

    harness.clock.advance(by: 31)
    for _ in 0..<2 {
      let state = try client.result("getVideoState", adParams(adId))
      #expect(state["videoController"]?["playbackState"] == .string("ended"))
    }
    #expect(harness.store.heldCalls == ["apply settle", "apply settle"])
    #expect(try client.takeNotifications().isEmpty)
    harness.store.releaseAll()
    #expect(try client.takeNotifications() == [videoEventMessage(adId, "didEnd")])
  }

  @Test func aConnectionClosingWhileARecordingReplyIsPendingDoesNotCrash() throws {
    let client = harness.connect()
    let adId = try loadAd(client)
    let watcher = harness.connect()
    #expect(try client.send(request(6, "recordImpression", adParams(adId))).isEmpty)
    #expect(
      try client.send(
        "[" + request(7, "recordImpression", adParams(adId)) + ","
          + request(8, "stringForKey", adParams(adId, #","key":"headline""#)) + "]"
      ).isEmpty)

    client.session.close()
    // Closing releases the connection's ads, through the store too.
    #expect(
      harness.store.heldCalls == [
        "apply recordImpression", "apply recordImpression", "release",
      ])

    #expect(
      harness.store.releaseAll() == [
        "apply recordImpression", "apply recordImpression", "release",
      ])
    #expect(try client.takeNotifications().isEmpty)
    #expect(try watcher.takeNotifications().isEmpty)
    #expect(harness.manager.ads.isEmpty)
    #expect(harness.manager.events.map(\.event) == [.didRecordImpression])
    // The service goes on serving the other connections.
    #expect(try watcher.result("getEvents", "{}")["lastSequence"] == .int(1))
  }

  @Test func aLoadAnsweredAfterItsConnectionClosedLeavesNoLiveAds() throws {
    let client = harness.connect()
    #expect(
      try client.send(request(9, "loadAd", #"{"adUnitID":"\#(Units.direct)"}"#)).isEmpty)
    #expect(harness.store.heldCalls == ["insert"])
    client.session.close()
    // The owner's connection closed while the store kept the ads: they are released as soon
    // as the store has them, and nobody is answered.
    #expect(harness.store.releaseAll() == ["insert", "release"])
    #expect(try client.takeNotifications().isEmpty)
    let leftover = harness.store.ads.filter { $0.owner == client.session.id }.map(\.id)
    #expect(leftover.isEmpty)
  }
}
