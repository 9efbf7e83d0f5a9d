import NativeAds
import PNGTestSupport
import Testing

@Suite struct SampleCustomEventTests {
  /// Loads through the adapter directly with `seed`; returns the ad or the error.
  static func load(
    seed: UInt64, parameter: String? = "sample-unit-1", options: LoaderOptions = LoaderOptions()
  ) -> Result<MediatedNativeAd, AdNetworkError> {
    var answer: Result<MediatedNativeAd, AdNetworkError>?
    let completion = MediationNativeLoadCompletion { result in
      answer = result
      return nil
    }
    let settings = parameter.map { ["parameter": $0] } ?? [:]
    SampleCustomEvent().loadNativeAd(
      for: MediationNativeAdConfiguration(
        credentials: MediationCredentials(settings: settings), options: options, seed: seed,
        adapterClassName: "SampleCustomEvent", loadId: "load-\(seed)"),
      completion: completion)
    guard let answer else { fatalError("SampleCustomEvent did not answer synchronously") }
    return answer
  }

  /// The first seed whose outcome is `outcome`.
  static func seed(for outcome: SampleCustomEvent.Outcome) -> UInt64 {
    guard
      let seed = (0..<UInt64(10_000)).first(where: {
        SampleCustomEvent.outcome(seed: $0, parameter: "p") == outcome
      })
    else { fatalError("no seed gives \(outcome)") }
    return seed
  }

  /// A short summary of a load's answer.
  static func summary(_ result: Result<MediatedNativeAd, AdNetworkError>) -> String {
    switch result {
    case .success(let ad): "fill:" + ad.assets.headline
    case .failure(let error): "\(error.code):\(error.message)"
    }
  }

  @Test func itReportsTheSamplesVersions() {
    let adapter = SampleCustomEvent()
    #expect(adapter.adapterVersion == AdapterVersion(major: 1, minor: 0, patch: 0))
    #expect(adapter.adSDKVersion == AdapterVersion(major: 1, minor: 0, patch: 0))
    #expect(
      AdapterVersion.fromFourPart(8, 13, 0, 1) == AdapterVersion(major: 8, minor: 13, patch: 1))
    #expect(AdapterVersion.fromFourPart(1, 2, 3, 4).description == "1.2.304")
  }

  @Test func athousandSeedsGiveTheSameOutcomesTwiceAndTheSamplesRates() {
    let first = (0..<UInt64(1000)).map { Self.summary(Self.load(seed: $0)) }
    let second = (0..<UInt64(1000)).map { Self.summary(Self.load(seed: $0)) }
    #expect(first == second)
    let fills = first.filter { $0.hasPrefix("fill:") }.count
    #expect((800...900).contains(fills))
    let prefix = "101:Sample SDK returned an ad load failure callback with error code: "
    for code in [
      "SampleErrorCodeUnknown", "SampleErrorCodeNetworkError", "SampleErrorCodeNoInventory",
    ] {
      let count = first.filter { $0 == prefix + code }.count
      #expect((20...80).contains(count), "\(code): \(count)")
    }
    #expect(first.filter { $0.hasPrefix("fill:") || $0.hasPrefix(prefix) }.count == 1000)
    for seed in 0..<UInt64(1000) {
      let outcome = SampleCustomEvent.outcome(seed: seed, parameter: "sample-unit-1")
      if case .fill = outcome {
        #expect(first[Int(seed)].hasPrefix("fill:"))
      } else {
        #expect(first[Int(seed)].hasPrefix(prefix))
      }
    }
  }

  @Test func errorsCarryTheSamplesCodeAndDomain() throws {
    for (outcome, code) in [
      (SampleCustomEvent.Outcome.unknownError, "SampleErrorCodeUnknown"),
      (.networkError, "SampleErrorCodeNetworkError"), (.noInventory, "SampleErrorCodeNoInventory"),
    ] {
      guard case .failure(let error) = Self.load(seed: Self.seed(for: outcome)) else {
        Issue.record("\(outcome) filled")
        continue
      }
      #expect(error.code == 101)
      #expect(error.domain == "com.google.mediation.sample")
      #expect(error.message.hasSuffix(code))
      #expect(error.isNetworkError == (outcome == .networkError))
    }
  }

  @Test func aMissingOrEmptyParameterIsABadRequest() {
    for parameter in [nil, ""] as [String?] {
      #expect(SampleCustomEvent.outcome(seed: 0, parameter: parameter) == .badRequest)
      guard case .failure(let error) = Self.load(seed: 0, parameter: parameter) else {
        Issue.record("a load without parameter filled")
        continue
      }
      #expect(error.code == 101)
      #expect(error.message.hasSuffix("SampleErrorCodeBadRequest"))
      #expect(!error.isNetworkError)
    }
  }

  @Test func appStyleAdsHaveAPriceARatingAndAStore() throws {
    let ad = try Self.load(seed: Self.seed(for: .fill(.app))).get()
    #expect(ad.assets.headline == "Sample App Install Ad")
    #expect(ad.assets.price == "$0.99")
    #expect(ad.assets.starRating == 4.5)
    #expect(ad.assets.store == "Sample Store")
    #expect(ad.assets.advertiser == nil)
    #expect(ad.assets.extraAssets.map(\.key) == ["DegreeOfAwesomeness"])
    #expect(ad.assets.extraAssets.map(\.value) == ["Quite Awesome"])
    #expect(!ad.handlesUserClicks && !ad.handlesUserImpressions)
  }

  @Test func contentStyleAdsHaveAnAdvertiser() throws {
    let ad = try Self.load(seed: Self.seed(for: .fill(.content))).get()
    #expect(ad.assets.headline == "Sample Content Ad")
    #expect(ad.assets.advertiser == "Sample Advertiser")
    #expect(ad.assets.price == nil && ad.assets.starRating == nil && ad.assets.store == nil)
    #expect(ad.assets.extraAssets.first?.key == "DegreeOfAwesomeness")
    #expect(ad.assets.extraAssets.first?.value == "Quite Awesome")
  }

  @Test func imagesAreGeneratedPNGsUnlessImageLoadingIsDisabled() throws {
    let seed = Self.seed(for: .fill(.app))
    let loaded = try Self.load(seed: seed).get()
    let images = [loaded.assets.icon, loaded.assets.images.first, loaded.adChoices?.image]
      .compactMap { $0 }
    #expect(images.count == 3)
    for image in images {
      #expect(image.url.hasPrefix("https://static.native-ads.test/sample-network/"))
      let decoded = try DecodedPNG(image.data)
      #expect(decoded.width == image.width && decoded.height == image.height)
    }
    var options = LoaderOptions()
    options.disableImageLoading = true
    let urlsOnly = try Self.load(seed: seed, options: options).get()
    let bare = [urlsOnly.assets.icon, urlsOnly.assets.images.first, urlsOnly.adChoices?.image]
      .compactMap { $0 }
    #expect(bare.map(\.url) == images.map(\.url))
    #expect(bare.map(\.width) == images.map(\.width))
    #expect(bare.allSatisfy { $0.data.isEmpty })
  }

  @Test(arguments: [
    (MediaAspectRatio.unknown, 1200, 627), (.any, 1200, 627), (.landscape, 1200, 627),
    (.portrait, 627, 1200), (.square, 600, 600),
  ])
  func theMainImageFollowsTheRequestedOrientation(
    _ ratio: MediaAspectRatio, _ width: Int, _ height: Int
  ) throws {
    var options = LoaderOptions()
    options.mediaAspectRatio = ratio
    let ad = try Self.load(seed: Self.seed(for: .fill(.content)), options: options).get()
    #expect(ad.assets.images.map(\.width) == [width])
    #expect(ad.assets.images.map(\.height) == [height])
    #expect(ad.media.mainImage?.width == width)
    #expect(ad.media.aspectRatio == Double(width) / Double(height))
    #expect(ratio.accepts(ratio: ad.media.aspectRatio))
  }

  @Test func theBuiltInWaterfallServesTheSampleNetworkWhenItFills() throws {
    let manager = Fixtures.manager()
    let seed = Self.seed(for: .fill(.app))
    let load = MediationFixtures.load(
      manager, AdRequest(adUnitID: Inventory.sampleWaterfallAdUnitID, seed: seed))
    let ad = try #require(load.ad)
    #expect(ad.mediation?.adapterClassName == "SampleCustomEvent")
    #expect(ad.string(forKey: "price") == "$0.99")
    #expect(ad.creative.eCPM == 2.5)
    #expect(ad.creative.isIndirect)
    let entry = MediationFixtures.entry("SampleCustomEvent", name: "Sample network")
    #expect(load.responseInfo?.adNetworkInfoArray == [entry])
    #expect(load.responseInfo?.loadedAdNetworkResponseInfo == entry)
    #expect(try manager.recordImpression(adId: ad.id) == .recorded)
    #expect(
      try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: [], by: 1)
        .recorded)
  }

  @Test func theBuiltInWaterfallFallsBackToTheBackfillWhenTheSampleFails() throws {
    let manager = Fixtures.manager()
    let load = MediationFixtures.load(
      manager,
      AdRequest(
        adUnitID: Inventory.sampleWaterfallAdUnitID, seed: Self.seed(for: .noInventory)))
    let ad = try #require(load.ad)
    #expect(ad.creative.id.hasPrefix("backfill-"))
    let tried = try #require(load.responseInfo?.adNetworkInfoArray)
    #expect(tried.map(\.adSourceName) == ["Sample network", "AdMob Network"])
    #expect(tried[0].error?.domain == "com.google.mediation.sample")
    #expect(tried[1].error == nil)
  }

  @Test func aSampleNetworkErrorFailsALoadWithNothingElseWithNetworkError() throws {
    let inventory = Inventory.fixture()
    inventory.add(
      AdUnit(
        id: "sample-only", creativeIDs: [],
        waterfall: [
          .customEvent(
            adapterClassName: "SampleCustomEvent", parameter: "x", eCPM: 1, timeoutMs: 10,
            label: nil)
        ]))
    let manager = Fixtures.manager(inventory: inventory)
    let failed = MediationFixtures.load(
      manager, AdRequest(adUnitID: "sample-only", seed: Self.seed(for: .networkError)))
    #expect(failed.error?.code == .networkError)
    let noInventory = MediationFixtures.load(
      manager, AdRequest(adUnitID: "sample-only", seed: Self.seed(for: .noInventory)))
    #expect(noInventory.error?.code == .noFill)
  }

  @Test func loadsWithoutASeedAreDeterministicForAManagerSeed() {
    func outcomes(_ seed: UInt64) -> [String] {
      let manager = Fixtures.manager(seed: seed)
      return (0..<50).map { _ in
        let load = MediationFixtures.load(
          manager, AdRequest(adUnitID: Inventory.sampleWaterfallAdUnitID))
        let id = load.ad?.creative.id ?? "failed"
        return id.hasPrefix("mediated-SampleCustomEvent-") ? "sample" : id
      }
    }
    let first = outcomes(3)
    #expect(first == outcomes(3))
    #expect(first.contains("sample"))
    #expect(first.contains { $0.hasPrefix("backfill-") })
  }
}
