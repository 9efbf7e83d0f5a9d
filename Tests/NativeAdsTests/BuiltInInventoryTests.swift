import Testing

@testable import NativeAds

/// A built-in image with a readable test case name.
struct BuiltInImage: Sendable, CustomTestStringConvertible {
  var image: AdImage
  var testDescription: String { "\(image.url) \(image.width)x\(image.height)" }

  /// Every distinct image of the built-in inventory: icons, images, media, custom image assets
  /// and the AdChoices icon.
  static func all() -> [BuiltInImage] {
    var images: [AdImage] = []
    for creative in Inventory.builtIn().creatives.values.sorted(by: { $0.id < $1.id }) {
      switch creative.content {
      case .native(let assets):
        images += [assets.icon].compactMap { $0 } + assets.images
      case .custom(_, let assets):
        images += assets.compactMap(\.value.image)
      }
      images += [creative.media.mainImage, creative.adChoices?.image].compactMap { $0 }
    }
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
    #expect(decoded.decompressedSize == image.height * (1 + image.width * 3))
    // Fixed Huffman codes spend 13 bits per 258-byte run, so flat pictures come to about 0.63%
    // of their raw size (15 KB for 1200x627); 1% leaves room for the shapes' edges, and the
    // constant covers the fixed overhead of small images.
    #expect(image.data.count < decoded.decompressedSize / 100 + 1_000)
  }

  @Test func builtInImagesFollowTheURLConvention() {
    for image in BuiltInImage.all().map(\.image) where !image.url.contains("/adchoices/") {
      #expect(image.url.hasPrefix("https://static.native-ads.test/creatives/"))
      #expect(image.url.hasSuffix(".png"))
      #expect(image.scale == 1)
    }
  }

  @Test func buildingTheInventoryEncodesNoImage() {
    let inventory = Inventory.builtIn()
    let creative = inventory.creative("native-app-install-1")
    let icon = creative?.content.nativeAssets?.icon
    #expect(icon?.isDataMaterialized == false)
    _ = icon?.data
    #expect(icon?.isDataMaterialized == true)
  }

  @Test func buildingTheInventoryIsFast() {
    let clock = SystemClock()
    _ = Inventory.builtIn()
    let start = clock.now()
    for _ in 0..<10 { _ = Inventory.builtIn() }
    let perBuild = (clock.now() - start) / 10
    // Well under 1 ms in release builds; debug builds and busy machines get slack.
    #expect(perBuild < 0.005)
  }

  @Test func imageBytesAreCachedAndSharedByTheMediaImage() throws {
    let inventory = Inventory.builtIn()
    let creative = try #require(inventory.creative("native-content-1"))
    let media = try #require(creative.media.mainImage)
    let first = try #require(creative.content.nativeAssets?.images.first)
    #expect(media == first)
    _ = first.data
    #expect(media.isDataMaterialized)
  }

  @Test func theBuiltInUnitsListTheirCreatives() {
    let inventory = Inventory.builtIn()
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
    #expect(inventory.creatives.count == 7)
  }

  @Test func theSampleCustomFormatHasThreeRequiredAssets() throws {
    let format = try #require(Inventory.builtIn().format("10063170"))
    #expect(
      format.assets == [
        CustomAssetDefinition(name: "Headline", type: .text, required: true),
        CustomAssetDefinition(name: "MainImage", type: .image, required: true),
        CustomAssetDefinition(name: "Caption", type: .text, required: true),
      ])
  }

  @Test func directSoldCreativesHaveNoAdChoicesAndIndirectOnesDo() {
    let inventory = Inventory.builtIn()
    for id in ["native-app-install-1", "native-content-1", "custom-10063170-1"] {
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
    let creative = try #require(Inventory.builtIn().creative("native-app-install-1"))
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
    let creative = try #require(Inventory.builtIn().creative("custom-10063170-1"))
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
    let creative = try #require(Inventory.builtIn().creative("admob-video-1"))
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
