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
    let manager = AdManager(inventory: .builtIn(), clock: clock, seed: 3, adLifetime: 10)
    let ad = Fixtures.loadOne(manager)
    #expect(ad.expiresAt == 10)
    clock.time = 10
    #expect(manager.isExpired(ad))
  }

  @Test func expiredAdsStillAnswer() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadOne(manager)
    clock.advance(by: 7200)
    #expect(manager.isExpired(ad))
    #expect(try manager.recordImpression(adId: ad.id))
    #expect(
      try manager.performClick(adId: ad.id, key: "body", openableURLSchemes: [], by: 1).recorded)
  }

  @Test func theSystemClockReadsTheRealTime() {
    let now = SystemClock().now()
    #expect(now > 1_700_000_000)  // after November 2023
    #expect(now < 4_102_444_800)  // before 2100
  }
}
