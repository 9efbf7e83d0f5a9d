import NativeAds
import Testing

@Suite struct EventLogTests {
  /// A manager with one AdMob video ad (custom controls) and one backfill ad, and the five
  /// events numbered in the body.
  static func populated(maxEvents: Int = 100_000) throws -> (
    AdManager, video: String, other: String
  ) {
    let manager = AdManager(
      inventory: .fixture(), clock: ManualClock(), seed: 1, maxEvents: maxEvents)
    let video = Fixtures.loadAdMobVideo(manager)
    let other = Fixtures.loadOne(manager, Fixtures.request(Fixtures.backfillUnit))
    _ = try manager.videoControl(adId: video.id, action: .unmute)  // 1 videoDidUnmute
    _ = try manager.videoControl(adId: video.id, action: .mute)  // 2 videoDidMute
    _ = try manager.recordImpression(adId: other.id)  // 3 didRecordImpression
    _ = try manager.muteThisAd(adId: other.id, reason: "Irrelevant")  // 4 didMute
    _ = try manager.recordImpression(adId: video.id)  // 5 didRecordImpression
    return (manager, video.id, other.id)
  }

  @Test func eventsAreFilteredByAdAndByWireName() throws {
    let (manager, video, other) = try Self.populated()
    #expect(
      manager.events(adId: nil, event: nil, since: nil, limit: 100).map(\.sequence) == [
        1, 2, 3, 4, 5,
      ])
    #expect(
      manager.events(adId: video, event: nil, since: nil, limit: 100).map(\.sequence) == [1, 2, 5])
    #expect(
      manager.events(adId: other, event: nil, since: nil, limit: 100).map(\.sequence) == [3, 4])
    // "didMute" is the wire name of both the video mute and Mute This Ad.
    let mutes = manager.events(adId: nil, event: "didMute", since: nil, limit: 100)
    #expect(mutes.map(\.event) == [.videoDidMute, .didMute])
    #expect(
      manager.events(adId: video, event: "didMute", since: nil, limit: 100).map(\.sequence) == [2])
    #expect(manager.events(adId: nil, event: "videoDidMute", since: nil, limit: 100).isEmpty)
    #expect(manager.events(adId: "nobody", event: nil, since: nil, limit: 100).isEmpty)
  }

  @Test func sinceAndLimitPageThroughTheLogOldestFirst() throws {
    let (manager, _, _) = try Self.populated()
    #expect(
      manager.events(adId: nil, event: nil, since: 2, limit: 100).map(\.sequence) == [3, 4, 5])
    #expect(manager.events(adId: nil, event: nil, since: 2, limit: 2).map(\.sequence) == [3, 4])
    #expect(manager.events(adId: nil, event: nil, since: 5, limit: 100).isEmpty)
    #expect(manager.events(adId: nil, event: nil, since: 99, limit: 100).isEmpty)
    #expect(manager.events(adId: nil, event: nil, since: -3, limit: 1).map(\.sequence) == [1])
    #expect(manager.events(adId: nil, event: nil, since: nil, limit: 0).isEmpty)
    #expect(
      manager.events(adId: nil, event: "didRecordImpression", since: 3, limit: 10).map(\.sequence)
        == [5])
    #expect(manager.lastSequence == 5)
  }

  @Test func theLogKeepsOnlyTheLatestMaxEvents() throws {
    let (manager, _, _) = try Self.populated(maxEvents: 3)
    #expect(manager.events.map(\.sequence) == [3, 4, 5])
    #expect(manager.lastSequence == 5)
    #expect(
      manager.events(adId: nil, event: nil, since: 1, limit: 10).map(\.sequence) == [3, 4, 5])
    #expect(manager.events(adId: nil, event: nil, since: 3, limit: 10).map(\.sequence) == [4, 5])
  }

  @Test func sequenceNumbersKeepIncreasingPastTheCap() throws {
    let manager = AdManager(inventory: .fixture(), clock: ManualClock(), seed: 1, maxEvents: 5)
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadAdMobVideo(manager)
    for index in 0..<1_000 {
      _ = try manager.videoControl(adId: ad.id, action: index.isMultiple(of: 2) ? .unmute : .mute)
    }
    #expect(manager.lastSequence == 1_000)
    #expect(manager.events.map(\.sequence) == Array(996...1_000))
    #expect(
      manager.events(adId: ad.id, event: "didMute", since: nil, limit: 10).map(\.sequence) == [
        996, 998, 1_000,
      ])
    #expect(sink.events.count == 1_000)
  }

  @Test func aZeroCapKeepsNothingButStillNumbersAndSends() throws {
    let manager = AdManager(inventory: .fixture(), clock: ManualClock(), seed: 1, maxEvents: 0)
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager)
    _ = try manager.recordImpression(adId: ad.id)
    #expect(manager.events.isEmpty && manager.lastSequence == 1)
    #expect(manager.events(adId: nil, event: nil, since: nil, limit: 10).isEmpty)
    #expect(sink.events.map(\.sequence) == [1])
  }

  @Test func eventKindsKnowTheirWireNamesAndChannels() {
    let video: [AdEventKind] = [
      .videoDidPlay, .videoDidPause, .videoDidEnd, .videoDidMute, .videoDidUnmute,
    ]
    #expect(video.map(\.wireName) == ["didPlay", "didPause", "didEnd", "didMute", "didUnmute"])
    #expect(AdEventKind.allCases.filter(\.isVideoEvent) == video)
    #expect(AdEventKind.didMute.wireName == "didMute" && !AdEventKind.didMute.isVideoEvent)
    #expect(AdEventKind.willPresentScreen.wireName == "willPresentScreen")
  }
}
