import JSONRPC
import NativeAds
import NativeAdsRPC
import Testing

@testable import Fleet

/// An ad written to Redis and read back in another process is the same ad: every built-in
/// creative (native, custom, indirect with AdChoices, video), with its options, response info
/// and recorded state.
@Suite struct AdRecordCodecTests {
  private let clock = ManualClock()
  private let manager: AdManager

  init() {
    manager = AdManager(inventory: StoreLoader.builtInInventory(), clock: clock, seed: 7)
  }

  /// Every ad the built-in units serve, loaded with options that are not the defaults.
  private func loadEveryBuiltInAd() throws -> [NativeAd] {
    let units = [
      "/21775744923/example/native", "/21775744923/example/native-backfill",
      "ca-app-pub-3940256099942544/3986624511", "/21775744923/example/native-video",
    ]
    var ads: [NativeAd] = []
    for unit in units {
      for round in 0..<3 {
        let options = LoaderOptions(
          disableImageLoading: round == 1, shouldRequestMultipleImages: true,
          mediaAspectRatio: round == 2 ? .landscape : .any, adChoicesPosition: .bottomLeft,
          startMuted: round != 0, customControlsRequested: true, clickToExpandRequested: true,
          numberOfAds: 5)
        let request = AdRequest(
          adUnitID: unit, adTypes: [.native, .customNative],
          customNativeAdFormatIDs: ["10063170", "12406343"], options: options,
          isTestRequest: round == 0 ? true : nil)
        var loaded: [NativeAd] = []
        manager.load(request, owner: 0x0003_0000_0000_0009) { result in
          if case .success(let fill) = result { loaded = fill.ads }
        }
        ads += loaded
      }
    }
    #expect(Set(ads.map(\.creative.id)).count >= 6)
    #expect(ads.contains { $0.kind == .customNative })
    #expect(ads.contains { $0.hasVideo })
    #expect(ads.contains { $0.creative.adChoices != nil })
    return ads
  }

  private func roundTrip(_ ad: NativeAd) throws -> NativeAd {
    let record = Array(AdRecordCodec.record(ad).jsonText.utf8)
    let state = Array(AdRecordCodec.state(ad.state).jsonText.utf8)
    return try AdRecordCodec.ad(
      record: try SnapshotReader(parsing: record, path: "record"),
      state: try AdRecordCodec.state(try SnapshotReader(parsing: state, path: "state")))
  }

  @Test func everyBuiltInAdReadsBackAsWritten() throws {
    for ad in try loadEveryBuiltInAd() {
      let back = try roundTrip(ad)
      #expect(AdRecordCodec.record(back) == AdRecordCodec.record(ad), "ad \(ad.creative.id)")
      #expect(back.state == ad.state)
      #expect(back.id == ad.id && back.owner == ad.owner)
      #expect(back.availableAssetKeys == ad.availableAssetKeys)
      for key in ad.availableAssetKeys {
        #expect(back.string(forKey: key) == ad.string(forKey: key))
        #expect(back.image(forKey: key)?.data == ad.image(forKey: key)?.data, "\(key)")
      }
      #expect(back.images.map(\.data) == ad.images.map(\.data))
      #expect(back.creative.media.mainImage?.data == ad.creative.media.mainImage?.data)
    }
  }

  @Test func aRecordedStateReadsBackAsWritten() throws {
    let ads = try loadEveryBuiltInAd()
    let native = try #require(ads.first { $0.kind == .native && $0.hasVideo })
    clock.advance(by: 1)
    var registered: AdViewRegistration?
    manager.registerAdView(
      adId: native.id, clickable: ["headline", "3002"], nonclickable: ["mediaView"]
    ) { registered = try? $0.get() }
    #expect(registered != nil)
    manager.recordImpression(adId: native.id) { _ in }
    manager.performClick(
      adId: native.id, key: "headline", openableURLSchemes: [], by: 12
    ) { _ in }
    clock.advance(by: 2.5)
    let custom = try #require(ads.first { $0.kind == .customNative })
    manager.setCustomClickHandler(adId: custom.id, enabled: true, by: 99) { _ in }
    manager.setCustomClickHandler(adId: custom.id, enabled: true, by: 4) { _ in }
    for ad in [native, custom] {
      let back = try roundTrip(ad)
      #expect(back.state == ad.state)
      #expect(back.video(at: clock.now()) == ad.video(at: clock.now()))
    }
    #expect(native.state.impressionRecorded && native.state.clickCount == 1)
    #expect(native.state.adView != nil && native.state.isScreenPresented)
    #expect(native.video(at: clock.now())?.playbackState == .playing)
  }

  @Test func aValueThatDoesNotReadNamesItsPlace() throws {
    let ad = try #require(try loadEveryBuiltInAd().first)
    var text = AdRecordCodec.record(ad).jsonText
    text = text.replacing("\"headline\":", with: "\"headlin\":")
    #expect {
      try AdRecordCodec.ad(
        record: try SnapshotReader(parsing: Array(text.utf8), path: "record"), state: ad.state)
    } throws: { error in
      (error as? SnapshotError)?.description == "record.creative.content.native.headline is missing"
    }
    #expect(throws: SnapshotError.self) {
      try SnapshotReader(parsing: Array("{".utf8), path: "state")
    }
  }
}
