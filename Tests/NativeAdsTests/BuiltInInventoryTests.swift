import PNGTestSupport
import Testing

@testable import NativeAds

/// A built-in image with a readable test case name.
struct BuiltInImage: Sendable, CustomTestStringConvertible {
  var image: AdImage
  var testDescription: String { "\(image.url) \(image.width)x\(image.height)" }

  /// Every distinct image of the built-in inventory: icons, images, media, custom image assets
  /// and the AdChoices icon.
  static func all() -> [BuiltInImage] {
    let images = Inventory.fixture().creatives.values.sorted(by: { $0.id < $1.id })
      .flatMap(\.allImages)
    var seen: Set<String> = []
    return images.filter { seen.insert($0.url).inserted }.map(BuiltInImage.init)
  }
}

@Suite struct BuiltInInventoryTests {
  @Test(arguments: BuiltInImage.all())
  func everyBuiltInImageIsAValidPNGOfItsStatedSize(_ builtIn: BuiltInImage) throws {
    let image = builtIn.image
    #expect(image.mimeType == "image/png")
    let decoded = try DecodedPNG(image.data)
    #expect(decoded.width == image.width)
    #expect(decoded.height == image.height)
    #expect(decoded.decompressedSize == image.height * (1 + decoded.bytesPerRow))
    // zlib's run-length coding brings flat pictures to about 0.65% of their raw size (1.2 KB
    // for 1200x627); 1% leaves room for the shapes' edges, and the constant covers the fixed
    // chunks and the Huffman tables of small images.
    #expect(image.data.count < decoded.decompressedSize / 100 + 300)
  }

  @Test func builtInImagesFollowTheURLConvention() {
    for image in BuiltInImage.all().map(\.image) where !image.url.contains("/adchoices/") {
      #expect(image.url.hasPrefix("https://static.native-ads.test/creatives/"))
      #expect(image.url.hasSuffix(".png"))
      #expect(image.scale == 1)
    }
  }

  @Test func buildingTheInventoryEncodesNoImage() {
    let inventory = Inventory.fixture()
    let creative = inventory.creative("native-app-install-1")
    let icon = creative?.content.nativeAssets?.icon
    #expect(icon?.isDataMaterialized == false)
    _ = icon?.data
    #expect(icon?.isDataMaterialized == true)
  }

  @Test func buildingTheInventoryIsFast() {
    let clock = SystemClock()
    _ = Inventory.fixture()
    let start = clock.now()
    for _ in 0..<10 { _ = Inventory.fixture() }
    let perBuild = (clock.now() - start) / 10
    // Well under 1 ms in release builds; debug builds and busy machines get slack.
    #expect(perBuild < 0.005)
  }

  @Test func imageBytesAreCachedAndSharedByTheMediaImage() throws {
    let inventory = Inventory.fixture()
    let creative = try #require(inventory.creative("native-content-1"))
    let media = try #require(creative.media.mainImage)
    let first = try #require(creative.content.nativeAssets?.images.first)
    #expect(media == first)
    _ = first.data
    #expect(media.isDataMaterialized)
  }

  @Test func theBuiltInUnitsListTheirCreatives() {
    let inventory = Inventory.fixture()
    #expect(
      inventory.adUnit("/21775744923/example/native")?.creativeIDs == [
        "native-app-install-1", "native-content-1", "custom-10063170-1",
      ])
    #expect(
      inventory.adUnit("/21775744923/example/native-backfill")?.creativeIDs == [
        "backfill-app-install-1", "backfill-content-1",
      ])
    #expect(
      inventory.adUnit("ca-app-pub-3940256099942544/3986624511")?.creativeIDs == [
        "admob-video-1", "admob-app-install-1",
      ])
    #expect(
      inventory.adUnit("/21775744923/example/native-video")?.creativeIDs == [
        "video-native-1", "custom-video-12406343-1",
      ])
    #expect(inventory.creatives.count == 9)
    #expect(
      inventory.adUnit("native-ads/mediation/sample-waterfall")?.creativeIDs == [
        "backfill-app-install-1", "backfill-content-1",
      ])
    #expect(inventory.adUnits.count == 5)
    #expect(Set(inventory.formats.keys) == ["10063170", "12406343"])
  }

  @Test func theSampleCustomFormatHasThreeRequiredAssets() throws {
    let format = try #require(Inventory.fixture().format("10063170"))
    #expect(
      format.assets == [
        CustomAssetDefinition(name: "Headline", type: .text, required: true),
        CustomAssetDefinition(name: "MainImage", type: .image, required: true),
        CustomAssetDefinition(name: "Caption", type: .text, required: true),
      ])
  }

  @Test func directSoldCreativesHaveNoAdChoicesAndIndirectOnesDo() {
    let inventory = Inventory.fixture()
    for id in [
      "native-app-install-1", "native-content-1", "custom-10063170-1", "video-native-1",
      "custom-video-12406343-1",
    ] {
      #expect(inventory.creative(id)?.isIndirect == false)
      #expect(inventory.creative(id)?.adChoices == nil)
    }
    for id in [
      "backfill-app-install-1", "backfill-content-1", "admob-video-1", "admob-app-install-1",
    ] {
      let creative = inventory.creative(id)
      #expect(creative?.isIndirect == true)
      #expect(creative?.adChoices?.clickURL == "https://adssettings.google.com/whythisad")
      #expect(creative?.adChoices?.image.url == "https://static.native-ads.test/adchoices/icon.png")
    }
  }

  @Test func theAppInstallCreativeMatchesItsDescription() throws {
    let creative = try #require(Inventory.fixture().creative("native-app-install-1"))
    let assets = try #require(creative.content.nativeAssets)
    #expect(creative.priority == 10 && creative.eCPM == 2.0)
    #expect(assets.headline == "Flood-It! 2")
    #expect(assets.starRating == 4.5)
    #expect(assets.advertiser == nil)
    #expect(assets.images.map { [$0.width, $0.height] } == [[1200, 627], [627, 627]])
    #expect(assets.extraAssets.isEmpty)
    #expect(creative.media.aspectRatio == 1200.0 / 627.0)
    #expect(creative.media.mainImage == assets.images[0])
    #expect(!creative.media.hasVideoContent && creative.media.duration == 0)
    #expect(creative.deepLinks == ["market://details?id=com.labpixies.flood"])
    #expect(!creative.hasCustomClickAction)
  }

  @Test func theCustomCreativeHasNoMediaImage() throws {
    let creative = try #require(Inventory.fixture().creative("custom-10063170-1"))
    #expect(creative.kind == .customNative)
    #expect(creative.media.mainImage == nil && creative.media.aspectRatio == 0)
    #expect(creative.hasCustomClickAction)
    #expect(creative.priority == 8 && creative.eCPM == 1.8)
    guard case .custom(let formatID, let assets) = creative.content else {
      Issue.record("not custom")
      return
    }
    #expect(formatID == "10063170")
    #expect(assets.map(\.name) == ["Headline", "MainImage", "Caption"])
  }

  @Test func theVideoCreativeHasSixteenByNineVideoMedia() throws {
    let creative = try #require(Inventory.fixture().creative("admob-video-1"))
    #expect(creative.media.hasVideoContent)
    #expect(creative.media.duration == 30)
    #expect(creative.media.aspectRatio == 16.0 / 9.0)
    #expect(creative.media.mainImage?.width == 1280)
    #expect(creative.priority == 10 && creative.eCPM == 2.5)
  }

  @Test func assetIdentifiersMapBothWays() {
    for key in NativeAssetKey.allCases {
      #expect(NativeAssetKey(nameOrIdentifier: key.identifier) == key)
      #expect(NativeAssetKey(nameOrIdentifier: key.rawValue) == key)
    }
    #expect(NativeAssetKey.allCases.map(\.identifier) == (3001...3010).map(String.init))
    #expect(NativeAssetKey(nameOrIdentifier: "3011") == nil)
  }
}

@Suite struct BuiltInVideoAndMuteTests {
  static let reasons = [
    "Not interested in this ad", "Seen this ad multiple times", "Ad covered content", "Irrelevant",
  ]

  @Test func theNativeVideoCreativeMatchesItsDescription() throws {
    let creative = try #require(Inventory.fixture().creative("video-native-1"))
    let assets = try #require(creative.content.nativeAssets)
    #expect(assets.headline == "Ad Manager Native Video")
    #expect(assets.body == "A direct-sold native ad with video.")
    #expect(assets.callToAction == "Watch now" && assets.advertiser == "Google")
    #expect(assets.icon.map { [$0.width, $0.height] } == [128, 128])
    #expect(assets.images.map { [$0.width, $0.height] } == [[1280, 720]])
    #expect(creative.media.hasVideoContent && creative.media.duration == 15)
    #expect(creative.media.aspectRatio == 16.0 / 9.0)
    #expect(creative.media.mainImage == assets.images[0])
    #expect(creative.media.customControlsAllowed && creative.media.clickToExpandAllowed)
    #expect(creative.priority == 10 && creative.eCPM == 2.0)
    #expect(
      creative.landingPageURL
        == "https://developers.google.com/ad-manager/mobile-ads-sdk/ios/native/video")
    #expect(!creative.isIndirect && creative.muteThisAdReasons.isEmpty)
  }

  @Test func theCustomVideoFormatAndCreativeMatchTheirDescription() throws {
    let inventory = Inventory.fixture()
    #expect(
      inventory.format("12406343")?.assets == [
        CustomAssetDefinition(name: "Headline", type: .text, required: true),
        CustomAssetDefinition(name: "Video", type: .video, required: true),
        CustomAssetDefinition(name: "Caption", type: .text, required: false),
      ])
    let creative = try #require(inventory.creative("custom-video-12406343-1"))
    #expect(creative.content.customFormatID == "12406343")
    #expect(creative.content.customAsset(named: "Headline")?.text == "Custom Native Video")
    #expect(
      creative.content.customAsset(named: "Caption")?.text == "A custom native format with video")
    #expect(creative.media.hasVideoContent && creative.media.duration == 20)
    #expect(creative.media.aspectRatio == 16.0 / 9.0 && creative.media.mainImage == nil)
    #expect(creative.media.customControlsAllowed && !creative.media.clickToExpandAllowed)
    #expect(!creative.hasCustomClickAction && creative.priority == 8 && creative.eCPM == 1.8)
    #expect(
      creative.landingPageURL
        == "https://developers.google.com/ad-manager/mobile-ads-sdk/ios/native/custom-formats#video"
    )
    #expect(creative.muteThisAdReasons.isEmpty)
  }

  @Test func theVideoUnitServesTheNativeVideoFirstAndTheCustomVideoOnRequest() throws {
    let manager = Fixtures.manager()
    let request = Fixtures.request(
      Fixtures.videoUnit, types: [.native, .customNative], formats: [Fixtures.videoFormat], count: 2
    )
    let (ads, info) = try manager.load(request, owner: 1)
    #expect(ads.map(\.creative.id) == ["video-native-1", "custom-video-12406343-1"])
    #expect(info.loadedAdNetworkResponseInfo?.adSourceName == "Reservation")
    #expect(ads[1].availableAssetKeys == ["Headline", "Video", "Caption"])
    #expect(try manager.string(forKey: "Video", adId: ads[1].id) == nil)
  }

  @Test func onlyIndirectCreativesOfferMuteThisAd() {
    let inventory = Inventory.fixture()
    for creative in inventory.creatives.values {
      #expect(
        creative.muteThisAdReasons == (creative.isIndirect ? Self.reasons : []), "\(creative.id)")
    }
  }

  @Test func theAdMobVideoAllowsCustomControlsButNotClickToExpand() throws {
    let media = try #require(Inventory.fixture().creative("admob-video-1")).media
    #expect(media.customControlsAllowed && !media.clickToExpandAllowed)
  }

  @Test func indirectAdsCarryTheAdAttribution() {
    for creative in Inventory.fixture().creatives.values where creative.isIndirect {
      #expect(creative.adChoices?.attribution == "Ad")
    }
  }

  @Test func indirectCustomAdsListAdChoicesAmongTheirAssetKeys() throws {
    let inventory = Inventory.fixture()
    var custom = try #require(inventory.creative("custom-10063170-1"))
    custom.adChoices = inventory.creative("backfill-content-1")?.adChoices
    inventory.add(custom)
    let manager = Fixtures.manager(inventory: inventory)
    #expect(
      Fixtures.loadCustom(manager).availableAssetKeys == [
        "Headline", "MainImage", "Caption", "_adChoices",
      ])
    #expect(
      Fixtures.loadCustom(Fixtures.manager()).availableAssetKeys == [
        "Headline", "MainImage", "Caption",
      ])
  }
}
