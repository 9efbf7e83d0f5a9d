import NativeAds
import Testing

@Suite struct AssetLookupTests {
  @Test func nativeTextKeysAnswerTheirAssets() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    #expect(try manager.string(forKey: "headline", adId: ad.id) == "Flood-It! 2")
    #expect(
      try manager.string(forKey: "body", adId: ad.id)
        == "Fill the board with a single colour before you run out of moves.")
    #expect(try manager.string(forKey: "callToAction", adId: ad.id) == "Install")
    #expect(try manager.string(forKey: "store", adId: ad.id) == "Google Play")
    #expect(try manager.string(forKey: "price", adId: ad.id) == "Free")
    #expect(try manager.string(forKey: "advertiser", adId: ad.id) == nil)
  }

  @Test func otherKeysOfANativeAdHaveNoString() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    for key in ["icon", "image", "starRating", "3001", "Headline", "nonsense", ""] {
      #expect(try manager.string(forKey: key, adId: ad.id) == nil, "key \(key)")
    }
  }

  @Test func customTextKeysAnswerTheirAssetsAndImageKeysDoNot() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadCustom(manager)
    #expect(try manager.string(forKey: "Headline", adId: ad.id) == "Custom Native Ad Headline")
    #expect(
      try manager.string(forKey: "Caption", adId: ad.id)
        == "A custom native format served by Ad Manager")
    #expect(try manager.string(forKey: "MainImage", adId: ad.id) == nil)
    #expect(try manager.string(forKey: "headline", adId: ad.id) == nil)
  }

  @Test func nativeImageKeysAreIconAndTheFirstImage() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let icon = try #require(try manager.image(forKey: "icon", adId: ad.id))
    #expect(icon.url == "https://static.native-ads.test/creatives/native-app-install-1/icon.png")
    #expect((icon.width, icon.height) == (128, 128))
    let image = try #require(try manager.image(forKey: "image", adId: ad.id))
    #expect(image.url == "https://static.native-ads.test/creatives/native-app-install-1/image1.png")
    #expect(try manager.image(forKey: "headline", adId: ad.id) == nil)
    #expect(try manager.image(forKey: "_adChoices", adId: ad.id) == nil)
  }

  @Test func customImageKeysAreTheFormatsImageAssets() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadCustom(manager)
    let image = try #require(try manager.image(forKey: "MainImage", adId: ad.id))
    #expect((image.width, image.height) == (1200, 627))
    #expect(try manager.image(forKey: "Headline", adId: ad.id) == nil)
    #expect(try manager.image(forKey: "icon", adId: ad.id) == nil)
  }

  @Test func indirectAdsExposeTheAdChoicesImage() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.backfillUnit))
    let adChoices = try #require(try manager.image(forKey: "_adChoices", adId: ad.id))
    #expect(adChoices.url == "https://static.native-ads.test/adchoices/icon.png")
    #expect(adChoices.scale == 2)
    #expect((adChoices.width, adChoices.height) == (30, 30))
  }

  @Test func lookupsOnAnUnknownAdThrowAdNotFound() {
    let manager = Fixtures.manager()
    #expect(
      Fixtures.adError { try manager.string(forKey: "headline", adId: "ad-x") }
        == .adNotFound(adId: "ad-x"))
    #expect(
      Fixtures.adError { try manager.image(forKey: "icon", adId: "ad-x") }
        == .adNotFound(adId: "ad-x"))
  }

  @Test func onlyTheFirstImageIsExposedUnlessMultipleImagesWereRequested() throws {
    let manager = Fixtures.manager()
    let single = Fixtures.loadOne(manager)
    #expect(single.images.count == 1)
    var request = Fixtures.request()
    request.options.shouldRequestMultipleImages = true
    let multiple = Fixtures.loadOne(manager, request)
    #expect(multiple.images.map(\.width) == [1200, 627])
  }

  @Test func availableAssetKeysListWhatTheAdHas() throws {
    let manager = Fixtures.manager()
    #expect(
      Fixtures.loadCustom(manager).availableAssetKeys == ["Headline", "MainImage", "Caption"])
    #expect(
      Fixtures.loadOne(manager).availableAssetKeys == [
        "headline", "callToAction", "icon", "body", "store", "price", "image", "starRating",
        "mediaView",
      ])
  }
}
