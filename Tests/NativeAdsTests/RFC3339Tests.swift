import NativeAds
import Testing

@Suite struct RFC3339Tests {
  @Test(arguments: [
    (0.0, "1970-01-01T00:00:00Z"),
    (1_796_003_300.0, "2026-11-30T01:48:20Z"),
    (1_796_003_300.999, "2026-11-30T01:48:20Z"),
    (951_782_400.0, "2000-02-29T00:00:00Z"),
    (1_767_225_599.0, "2025-12-31T23:59:59Z"),
    (4_107_542_400.0, "2100-03-01T00:00:00Z"),
    (-1.0, "1969-12-31T23:59:59Z"),
    (-0.5, "1969-12-31T23:59:59Z"),
    (253_402_300_799.0, "9999-12-31T23:59:59Z"),
  ])
  func timesAreFormattedInUTCWithWholeSeconds(seconds: Double, expected: String) {
    #expect(formatRFC3339(seconds) == expected)
  }

  @Test func anAdsExpiryFormatsOneHourAfterItsLoad() {
    let clock = ManualClock(time: 1_795_999_700)
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadOne(manager)
    #expect(formatRFC3339(ad.loadedAt) == "2026-11-30T00:48:20Z")
    #expect(formatRFC3339(ad.expiresAt) == "2026-11-30T01:48:20Z")
  }
}
