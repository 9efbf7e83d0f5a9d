import NativeAds
import Testing

@Suite struct ExpiryTests {
  @Test func anAdExpiresOneHourAfterLoading() throws {
    let clock = ManualClock(time: 1_800_000_000)
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadOne(manager)
    #expect(ad.expiresAt == 1_800_003_600)
    #expect(!manager.isExpired(ad))
    clock.advance(by: 3599.999)
    #expect(!manager.isExpired(ad))
    clock.advance(by: 0.001)
    #expect(manager.isExpired(ad))
  }

  @Test func theLifetimeIsConfigurable() throws {
    let clock = ManualClock(time: 0)
    let manager = AdManager(inventory: .fixture(), clock: clock, seed: 3, adLifetime: 10)
    let ad = Fixtures.loadOne(manager)
    #expect(ad.expiresAt == 10)
    clock.time = 10
    #expect(manager.isExpired(ad))
  }

  @Test func anExpiredAdRecordsNoImpressionAndNoClick() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager)
    clock.advance(by: 3600)
    #expect(manager.isExpired(ad))
    #expect(try manager.recordImpression(adId: ad.id) == .notRecorded(.expired))
    #expect(
      try manager.performClick(adId: ad.id, key: "body", openableURLSchemes: [], by: 1)
        == ClickOutcome(recorded: false, action: .none, url: nil, reason: .expired))
    #expect(!ad.impressionRecorded && ad.clickCount == 0)
    #expect(manager.events.isEmpty && sink.events.isEmpty)
  }

  @Test func anExpiredAdsAssetsCanStillBeReadAndItCanBeReleased() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadOne(manager)
    clock.advance(by: 7200)
    #expect(try manager.string(forKey: "headline", adId: ad.id) == "Flood-It! 2")
    #expect(try manager.image(forKey: "icon", adId: ad.id)?.width == 128)
    try manager.release(adId: ad.id)
    #expect(ad.isReleased)
  }

  @Test func anImpressionRecordedBeforeExpiryIsReportedAsExpiredAfterwards() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadOne(manager)
    #expect(try manager.recordImpression(adId: ad.id) == .recorded)
    clock.advance(by: 3600)
    // Expiry takes precedence over alreadyRecorded.
    #expect(try manager.recordImpression(adId: ad.id) == .notRecorded(.expired))
  }

  @Test func adChoicesStillAnswersOnAnExpiredAd() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.backfillUnit))
    clock.advance(by: 3600)
    #expect(
      try manager.performClick(adId: ad.id, key: "_adChoices", openableURLSchemes: [], by: 1)
        == ClickOutcome(
          recorded: false, action: .adChoices, url: "https://adssettings.google.com/whythisad"))
  }

  @Test func theSystemClockReadsTheRealTime() {
    let now = SystemClock().now()
    #expect(now > 1_700_000_000)  // after November 2023
    #expect(now < 4_102_444_800)  // before 2100
  }
}
