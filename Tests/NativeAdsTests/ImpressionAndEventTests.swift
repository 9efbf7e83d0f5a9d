import NativeAds
import Testing

@Suite struct ImpressionAndEventTests {
  @Test func theFirstImpressionIsRecorded() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    #expect(try manager.recordImpression(adId: ad.id) == .recorded)
    #expect(ad.impressionRecorded)
  }

  @Test func secondImpressionIsNotRecorded() throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager)
    #expect(try manager.recordImpression(adId: ad.id) == .recorded)
    #expect(try manager.recordImpression(adId: ad.id) == .notRecorded(.alreadyRecorded))
    #expect(
      try manager.recordImpression(adId: ad.id)
        == ImpressionOutcome(recorded: false, reason: .alreadyRecorded))
    #expect(sink.events.map(\.event) == [.didRecordImpression])
    #expect(manager.events.count == 1)
  }

  @Test func impressionsOfDifferentAdsAreIndependent() throws {
    let manager = Fixtures.manager()
    let (ads, _) = try manager.load(Fixtures.request(count: 2), owner: 1)
    #expect(try manager.recordImpression(adId: ads[0].id).recorded)
    #expect(try manager.recordImpression(adId: ads[1].id).recorded)
  }

  @Test func recordingAnImpressionOnAnUnknownAdThrowsAdNotFound() {
    let manager = Fixtures.manager()
    #expect(
      Fixtures.adError { try manager.recordImpression(adId: "nope") }
        == .adNotFound(adId: "nope"))
  }

  @Test func theEventLogKeepsEveryImpressionAndClickInOrder() throws {
    let clock = ManualClock(time: 500)
    let manager = Fixtures.manager(clock: clock)
    let sink = RecordingSink()
    manager.sink = sink
    let first = Fixtures.loadOne(manager, owner: 10)
    let second = Fixtures.loadCustom(manager, owner: 20)

    clock.advance(by: 1)
    _ = try manager.recordImpression(adId: first.id)
    clock.advance(by: 1)
    _ = try manager.performClick(adId: first.id, key: "3002", openableURLSchemes: [], by: 10)
    clock.advance(by: 1)
    _ = try manager.performClick(adId: second.id, key: "Caption", openableURLSchemes: [], by: 10)
    _ = try manager.recordImpression(adId: second.id)

    let expected = [
      AdEvent(
        sequence: 1, adId: first.id, owner: 10, event: .didRecordImpression, assetKey: nil,
        time: 501),
      AdEvent(
        sequence: 2, adId: first.id, owner: 10, event: .didRecordClick, assetKey: "callToAction",
        time: 502),
      AdEvent(
        sequence: 3, adId: first.id, owner: 10, event: .willPresentScreen, assetKey: nil,
        time: 502),
      AdEvent(
        sequence: 4, adId: second.id, owner: 20, event: .didRecordClick, assetKey: "Caption",
        time: 503),
      AdEvent(
        sequence: 5, adId: second.id, owner: 20, event: .willPresentScreen, assetKey: nil,
        time: 503),
      AdEvent(
        sequence: 6, adId: second.id, owner: 20, event: .didRecordImpression, assetKey: nil,
        time: 503),
    ]
    #expect(manager.events == expected)
    #expect(sink.events == expected)
  }

  @Test func eventsAreLoggedWithoutASink() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    _ = try manager.recordImpression(adId: ad.id)
    #expect(manager.events.map(\.sequence) == [1])
  }

  @Test func theSinkIsHeldWeakly() {
    let manager = Fixtures.manager()
    do {
      let sink = RecordingSink()
      manager.sink = sink
    }
    #expect(manager.sink == nil)
  }

  @Test func eventsSurviveTheReleaseOfTheirAd() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    _ = try manager.recordImpression(adId: ad.id)
    try manager.release(adId: ad.id)
    #expect(manager.events.map(\.adId) == [ad.id])
  }
}
