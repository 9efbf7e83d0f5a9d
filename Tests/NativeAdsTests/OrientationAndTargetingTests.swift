import NativeAds
import Testing

@Suite struct OrientationAndTargetingTests {
  /// A unit of creatives of every orientation, distinct priorities so the order is fixed.
  static func orientationInventory() -> Inventory {
    let inventory = Inventory()
    func image(_ width: Int, _ height: Int) -> AdImage {
      AdImage(
        url: "https://example.com/\(width)x\(height).png", width: width, height: height,
        mimeType: "image/png", data: [])
    }
    inventory.add(
      Creative(
        id: "wide-media", content: .native(NativeAssets(headline: "Wide")),
        media: MediaContent(aspectRatio: 16.0 / 9.0, hasVideoContent: true, duration: 5),
        priority: 7, landingPageURL: "https://example.com/wide"))
    inventory.add(
      Creative(
        id: "tall-image",
        content: .native(NativeAssets(headline: "Tall", images: [image(600, 900)])),
        priority: 6, landingPageURL: "https://example.com/tall"))
    inventory.add(
      Creative(
        id: "nearly-square",
        content: .native(NativeAssets(headline: "Sq", images: [image(1000, 1040)])),
        priority: 5, landingPageURL: "https://example.com/sq"))
    inventory.add(
      Creative(
        id: "no-ratio", content: .native(NativeAssets(headline: "None")), priority: 4,
        landingPageURL: "https://example.com/none"))
    inventory.add(
      Creative(
        id: "custom-portrait",
        content: .custom(
          formatID: "f1",
          assets: [
            (name: "Title", value: .text("T")), (name: "Picture", value: .image(image(627, 1200))),
          ]),
        priority: 3, landingPageURL: "https://example.com/custom"))
    inventory.add(
      AdUnit(
        id: "shapes",
        creativeIDs: ["wide-media", "tall-image", "nearly-square", "no-ratio", "custom-portrait"]))
    return inventory
  }

  @Test(arguments: [
    (
      MediaAspectRatio.unknown,
      ["wide-media", "tall-image", "nearly-square", "no-ratio", "custom-portrait"]
    ),
    (.any, ["wide-media", "tall-image", "nearly-square", "no-ratio", "custom-portrait"]),
    (.landscape, ["wide-media"]),
    (.portrait, ["tall-image", "custom-portrait"]),
    (.square, ["nearly-square"]),
  ])
  func mediaAspectRatioSelectsCreativesByTheOrientationOfTheirMedia(
    ratio: MediaAspectRatio, expected: [String]
  ) throws {
    let manager = Fixtures.manager(inventory: Self.orientationInventory())
    var request = Fixtures.request(
      "shapes", types: [.native, .customNative], formats: ["f1"], count: 5)
    request.options.mediaAspectRatio = ratio
    let (ads, _) = try manager.load(request, owner: 1)
    #expect(ads.map(\.creative.id) == expected)
  }

  @Test func squareAllowsFivePercentEitherSideAndNoMore() {
    #expect(MediaAspectRatio.square.accepts(ratio: 1.05))
    #expect(MediaAspectRatio.square.accepts(ratio: 0.95))
    #expect(!MediaAspectRatio.square.accepts(ratio: 1.0501))
    #expect(MediaAspectRatio.landscape.accepts(ratio: 1.0501))
    #expect(!MediaAspectRatio.landscape.accepts(ratio: 1.05))
    #expect(MediaAspectRatio.portrait.accepts(ratio: 0.9499))
    #expect(!MediaAspectRatio.portrait.accepts(ratio: 0.95))
    for ratio in [MediaAspectRatio.landscape, .portrait, .square] {
      #expect(!ratio.accepts(ratio: nil))
    }
    #expect(
      MediaAspectRatio.unknown.accepts(ratio: nil) && MediaAspectRatio.any.accepts(ratio: nil))
  }

  @Test func theOrientationRatioIsTheMediaRatioElseTheFirstImage() throws {
    let inventory = Inventory.fixture()
    #expect(inventory.creative("admob-video-1")?.orientationRatio == 1280.0 / 720.0)
    // The sample custom creative has no media ratio: its MainImage (1200x627) gives it.
    #expect(inventory.creative("custom-10063170-1")?.orientationRatio == 1200.0 / 627.0)
    let bare = Creative(
      id: "bare", content: .native(NativeAssets(headline: "Bare")), landingPageURL: "https://e.com")
    #expect(bare.orientationRatio == nil)
  }

  @Test func aPortraitRequestOnTheBuiltInDirectUnitIsNoFill() throws {
    let manager = Fixtures.manager()
    var request = Fixtures.request(
      types: [.native, .customNative], formats: [Fixtures.customFormat])
    request.options.mediaAspectRatio = .portrait
    #expect(Fixtures.loadError(manager, request)?.code == .noFill)
    request.options.mediaAspectRatio = .landscape
    #expect(Fixtures.loadOne(manager, request).creative.id == "native-app-install-1")
  }

  @Test func customTargetingNeedsEveryKeyWithASharedValue() {
    let targeting = Targeting(customTargeting: ["section": ["sports", "news"], "tier": ["gold"]])
    func request(_ values: [String: [String]]) -> AdRequest {
      AdRequest(adUnitID: "u", customTargeting: values)
    }
    #expect(targeting.matches(request(["section": ["news"], "tier": ["gold"]])))
    #expect(
      targeting.matches(request(["section": ["weather", "sports"], "tier": ["gold"], "x": ["y"]])))
    #expect(!targeting.matches(request(["section": ["news"]])))
    #expect(!targeting.matches(request(["section": ["weather"], "tier": ["gold"]])))
    #expect(!targeting.matches(request(["section": ["News"], "tier": ["gold"]])))
    #expect(!targeting.matches(request([:])))
  }

  @Test func keywordsMatchCaseInsensitively() {
    let targeting = Targeting(keywords: ["Cars", "trucks"])
    #expect(targeting.matches(AdRequest(adUnitID: "u", keywords: ["boats", "CARS"])))
    #expect(targeting.matches(AdRequest(adUnitID: "u", keywords: ["Trucks"])))
    #expect(!targeting.matches(AdRequest(adUnitID: "u", keywords: ["bikes"])))
    #expect(!targeting.matches(AdRequest(adUnitID: "u")))
  }

  @Test func contentURLsMatchByPrefix() {
    let targeting = Targeting(contentURLs: ["https://example.com/cars", "https://cars.test/"])
    #expect(targeting.matches(AdRequest(adUnitID: "u", contentURL: "https://example.com/cars/suv")))
    #expect(targeting.matches(AdRequest(adUnitID: "u", contentURL: "https://cars.test/")))
    #expect(!targeting.matches(AdRequest(adUnitID: "u", contentURL: "https://example.com/boats")))
    #expect(!targeting.matches(AdRequest(adUnitID: "u")))
  }

  @Test func everyTargetingPartMustMatchAndNoTargetingMatchesAll() {
    let targeting = Targeting(
      customTargeting: ["section": ["sports"]], keywords: ["cars"],
      contentURLs: ["https://example.com/"])
    var request = AdRequest(
      adUnitID: "u", keywords: ["cars"], contentURL: "https://example.com/a",
      customTargeting: ["section": ["sports"]])
    #expect(targeting.matches(request))
    request.keywords = []
    #expect(!targeting.matches(request))
    #expect(Targeting().matches(AdRequest(adUnitID: "u")))
    #expect(Targeting().isEmpty && !targeting.isEmpty)
  }

  @Test func aTargetedCreativeServesOnlyMatchingRequests() throws {
    let inventory = Inventory.fixture()
    var targeted = try #require(inventory.creative("native-content-1"))
    targeted.priority = 50
    targeted.targeting = Targeting(keywords: ["sleep"])
    inventory.add(targeted)
    let manager = Fixtures.manager(inventory: inventory)
    var request = Fixtures.request()
    #expect(Fixtures.loadOne(manager, request).creative.id == "native-app-install-1")
    request.keywords = ["SLEEP"]
    #expect(Fixtures.loadOne(manager, request).creative.id == "native-content-1")
  }

  @Test func isTestRequestIsEchoedInTheResponseInfo() throws {
    let manager = Fixtures.manager()
    var request = Fixtures.request()
    #expect(try manager.load(request, owner: 1).responseInfo.isTestRequest == nil)
    request.isTestRequest = true
    let loaded = try manager.load(request, owner: 1)
    #expect(loaded.responseInfo.isTestRequest == true)
    #expect(loaded.ads[0].responseInfo.isTestRequest == true)
    request.isTestRequest = false
    #expect(try manager.load(request, owner: 1).responseInfo.isTestRequest == false)

    var noFill = Fixtures.request(types: [.customNative], formats: ["999"])
    noFill.isTestRequest = true
    let error = try #require(Fixtures.loadError(manager, noFill))
    #expect(error.code == .noFill)
    #expect(error.responseInfo.isTestRequest == true)
  }
}
