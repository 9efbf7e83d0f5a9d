import NativeAds
import Testing

@Suite struct MuteThisAdTests {
  static let reasons = [
    "Not interested in this ad", "Seen this ad multiple times", "Ad covered content", "Irrelevant",
  ]

  @Test func theFirstMuteRecordsDidMuteWithItsReason() throws {
    let clock = ManualClock(time: 100)
    let manager = Fixtures.manager(clock: clock)
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.backfillUnit), owner: 3)
    #expect(ad.creative.muteThisAdReasons == Self.reasons)
    #expect(try manager.muteThisAd(adId: ad.id, reason: "Irrelevant"))
    #expect(ad.isMuted && ad.muteReason == "Irrelevant")
    let expected = AdEvent(
      sequence: 1, adId: ad.id, owner: 3, event: .didMute, assetKey: nil, reason: "Irrelevant",
      time: 100)
    #expect(sink.events == [expected])
    #expect(manager.events == [expected])
  }

  @Test func mutingAgainChangesNothing() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.adMobUnit))
    #expect(try manager.muteThisAd(adId: ad.id, reason: nil))
    #expect(try manager.muteThisAd(adId: ad.id, reason: "Ad covered content") == false)
    #expect(ad.muteReason == nil)
    #expect(manager.events.count == 1)
    #expect(manager.events[0].reason == nil)
  }

  @Test func anAdThatOffersNoReasonsCannotBeMuted() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let error = Fixtures.adError { try manager.muteThisAd(adId: ad.id, reason: nil) }
    #expect(error == .muteNotOffered(adId: ad.id))
    #expect(!ad.isMuted)
  }

  @Test func aReasonThatIsNotOfferedIsInvalid() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.backfillUnit))
    let error = Fixtures.adError { try manager.muteThisAd(adId: ad.id, reason: "Too loud") }
    #expect(error == .invalidMuteReason(adId: ad.id, reason: "Too loud", offered: Self.reasons))
    #expect(!ad.isMuted && manager.events.isEmpty)
  }

  @Test func aMutedAdRecordsNoImpressionsOrClicks() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.backfillUnit))
    _ = try manager.muteThisAd(adId: ad.id, reason: nil)
    #expect(try manager.recordImpression(adId: ad.id) == .notRecorded(.muted))
    #expect(
      try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: [], by: 1)
        == .notRecorded(.muted))
    #expect(
      try manager.performClick(adId: ad.id, key: "_adChoices", openableURLSchemes: [], by: 1).action
        == .adChoices)
    #expect(!ad.impressionRecorded && ad.clickCount == 0)
    #expect(manager.events.map(\.event) == [.didMute])
    // Its assets can still be read.
    #expect(try manager.string(forKey: "headline", adId: ad.id) == "Backfill Puzzle Quest")
  }

  @Test func mutedTakesPrecedenceOverExpiredAndAlreadyRecorded() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.backfillUnit))
    _ = try manager.recordImpression(adId: ad.id)
    _ = try manager.muteThisAd(adId: ad.id, reason: nil)
    clock.advance(by: 4000)
    #expect(try manager.recordImpression(adId: ad.id) == .notRecorded(.muted))
    #expect(
      try manager.performClick(adId: ad.id, key: "body", openableURLSchemes: [], by: 1).reason
        == .muted)
  }

  @Test func aMutedCustomAdNeverReachesItsCustomClickHandler() throws {
    let inventory = Inventory.fixture()
    var custom = try #require(inventory.creative("custom-10063170-1"))
    custom.muteThisAdReasons = ["Irrelevant"]
    inventory.add(custom)
    let manager = Fixtures.manager(inventory: inventory)
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadCustom(manager)
    _ = try manager.setCustomClickHandler(adId: ad.id, enabled: true, by: 1)
    _ = try manager.muteThisAd(adId: ad.id, reason: "Irrelevant")
    #expect(
      try manager.performClick(adId: ad.id, key: "Headline", openableURLSchemes: [], by: 1)
        == .notRecorded(.muted))
    #expect(sink.customClicks.isEmpty)
  }
}
