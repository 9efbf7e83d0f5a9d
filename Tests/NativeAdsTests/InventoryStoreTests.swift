import NativeAds
import Testing

@Suite struct InventoryStoreTests {
  static func image(_ width: Int = 600, _ height: Int = 600) -> AdImage {
    AdImage(
      url: "https://example.com/i.png", width: width, height: height, mimeType: "image/png",
      data: [])
  }

  static func custom(
    _ id: String = "c1", format: String = "10063170",
    assets: [(name: String, value: CustomAssetValue)], media: MediaContent = MediaContent()
  ) -> Creative {
    Creative(
      id: id, content: .custom(formatID: format, assets: assets), media: media,
      landingPageURL: "https://example.com")
  }

  static let videoMedia = MediaContent(aspectRatio: 16.0 / 9.0, hasVideoContent: true, duration: 10)

  @Test func definingAFormatSaysWhetherItReplacedOne() throws {
    let inventory = Inventory()
    let format = CustomFormat(id: "1", assets: [CustomAssetDefinition(name: "Title", type: .text)])
    #expect(try inventory.defineFormat(format) == false)
    #expect(try inventory.defineFormat(format) == true)
    #expect(inventory.format("1") == format)
  }

  @Test func aFormatNeedsAnIDAndUniqueNonEmptyAssetNames() {
    let inventory = Inventory()
    #expect(
      Fixtures.inventoryError { try inventory.defineFormat(CustomFormat(id: "", assets: [])) }
        == InventoryError(path: "id", message: "must not be empty"))
    let unnamed = CustomFormat(
      id: "1",
      assets: [
        CustomAssetDefinition(name: "A", type: .text), CustomAssetDefinition(name: "", type: .text),
      ])
    #expect(
      Fixtures.inventoryError { try inventory.defineFormat(unnamed) }
        == InventoryError(path: "assets[1].name", message: "must not be empty"))
    let twice = CustomFormat(
      id: "1",
      assets: [
        CustomAssetDefinition(name: "A", type: .text),
        CustomAssetDefinition(name: "B", type: .image),
        CustomAssetDefinition(name: "A", type: .image),
      ])
    let error = Fixtures.inventoryError { try inventory.defineFormat(twice) }
    #expect(
      error == InventoryError(path: "assets[2].name", message: "repeats assets[0].name (\"A\")"))
    #expect(error?.description == "assets[2].name repeats assets[0].name (\"A\")")
    #expect(inventory.formats.isEmpty)
  }

  @Test func redefiningAFormatMustKeepItsCreativesValid() throws {
    let inventory = Inventory.fixture()
    let original = try #require(inventory.format("10063170"))
    var stricter = original
    stricter.assets.append(CustomAssetDefinition(name: "Subtitle", type: .text, required: true))
    #expect(
      Fixtures.inventoryError { try inventory.defineFormat(stricter) }
        == InventoryError(
          path: "",
          message:
            "would make creative custom-10063170-1 invalid: assets.Subtitle is required by format 10063170"
        ))
    var retyped = original
    retyped.assets[1].type = .text
    #expect(
      Fixtures.inventoryError { try inventory.defineFormat(retyped) }?.message
        == "would make creative custom-10063170-1 invalid: assets.MainImage must be a text asset "
        + "(format 10063170 defines it so)")
    #expect(inventory.format("10063170") == original)

    var looser = original
    looser.assets[2].required = false
    looser.assets.append(CustomAssetDefinition(name: "Subtitle", type: .text, required: false))
    #expect(try inventory.defineFormat(looser))
  }

  @Test func aValidCreativeIsStoredAndReplaced() throws {
    let inventory = Inventory.fixture()
    let creative = Self.custom(
      assets: [
        (name: "Headline", value: .text("H")), (name: "MainImage", value: .image(Self.image())),
        (name: "Caption", value: .text("C")),
      ])
    #expect(try inventory.putCreative(creative) == false)
    #expect(try inventory.putCreative(creative) == true)
    let native = Creative(
      id: "n1",
      content: .native(
        NativeAssets(headline: "N", starRating: 5, icon: Self.image(), images: [Self.image()])),
      landingPageURL: "https://example.com", muteThisAdReasons: ["Irrelevant"])
    #expect(try inventory.putCreative(native) == false)
  }

  @Test(arguments: [
    (
      "unknown format", "99", [(name: String, value: CustomAssetValue)](), MediaContent(),
      InventoryError(path: "formatID", message: "names no defined custom format (\"99\")")
    ),
    (
      "missing required asset", "10063170",
      [(name: "Headline", value: .text("H")), (name: "MainImage", value: .image(image()))],
      MediaContent(),
      InventoryError(path: "assets.Caption", message: "is required by format 10063170")
    ),
    (
      "unknown asset", "10063170", [(name: "Subtitle", value: .text("S"))], MediaContent(),
      InventoryError(path: "assets.Subtitle", message: "is not an asset of format 10063170")
    ),
    (
      "wrong type", "10063170", [(name: "Headline", value: .image(image()))], MediaContent(),
      InventoryError(
        path: "assets.Headline", message: "must be a text asset (format 10063170 defines it so)")
    ),
    (
      "image for text", "10063170", [(name: "MainImage", value: .text("x"))], MediaContent(),
      InventoryError(
        path: "assets.MainImage", message: "must be an image asset (format 10063170 defines it so)")
    ),
    (
      "asset twice", "10063170",
      [(name: "Headline", value: .text("a")), (name: "Headline", value: .text("b"))],
      MediaContent(), InventoryError(path: "assets.Headline", message: "is given twice")
    ),
    (
      "video without video media", "v2", [(name: "Video", value: .video)], MediaContent(),
      InventoryError(path: "assets.Video", message: "needs the creative to have video content")
    ),
    (
      "two video assets", "v2", [(name: "Video", value: .video), (name: "Clip", value: .video)],
      videoMedia,
      InventoryError(
        path: "assets.Clip", message: "is a second video asset (assets.Video is the first)")
    ),
    (
      "text for video", "v2", [(name: "Video", value: .text("x"))], videoMedia,
      InventoryError(
        path: "assets.Video", message: "must be a video asset (format v2 defines it so)")
    ),
    (
      "zero-width image", "10063170", [(name: "MainImage", value: .image(image(0, 5)))],
      MediaContent(),
      InventoryError(path: "assets.MainImage.width", message: "must be a positive integer")
    ),
  ])
  func anInvalidCustomCreativeIsRefused(
    _ what: String, format: String, assets: [(name: String, value: CustomAssetValue)],
    media: MediaContent, expected: InventoryError
  ) throws {
    let inventory = Inventory.fixture()
    _ = try inventory.defineFormat(
      CustomFormat(
        id: "v2",
        assets: [
          CustomAssetDefinition(name: "Video", type: .video, required: false),
          CustomAssetDefinition(name: "Clip", type: .video, required: false),
        ]))
    let creative = Self.custom(format: format, assets: assets, media: media)
    #expect(Fixtures.inventoryError { try inventory.putCreative(creative) } == expected, "\(what)")
    #expect(inventory.creative("c1") == nil)
  }

  @Test func aNativeCreativeIsCheckedToo() {
    let inventory = Inventory()
    func put(_ creative: Creative) -> InventoryError? {
      Fixtures.inventoryError { try inventory.putCreative(creative) }
    }
    #expect(
      put(Creative(id: "", content: .native(NativeAssets(headline: "x")), landingPageURL: "u"))
        == InventoryError(path: "id", message: "must not be empty"))
    #expect(
      put(
        Creative(
          id: "n", content: .native(NativeAssets(headline: "x", starRating: 5.5)),
          landingPageURL: "u"))
        == InventoryError(path: "assets.starRating", message: "must be between 0 and 5"))
    #expect(
      put(
        Creative(
          id: "n",
          content: .native(NativeAssets(headline: "x", images: [Self.image(), Self.image(3, 0)])),
          landingPageURL: "u"))
        == InventoryError(path: "assets.images[1].height", message: "must be a positive integer"))
    #expect(
      put(
        Creative(
          id: "n", content: .native(NativeAssets(headline: "x")), eCPM: -1, landingPageURL: "u"))
        == InventoryError(path: "eCPM", message: "must be a number of at least 0"))
    #expect(
      put(
        Creative(
          id: "n", content: .native(NativeAssets(headline: "x")), landingPageURL: "u",
          muteThisAdReasons: ["A", "A"]))
        == InventoryError(path: "muteThisAdReasons[1]", message: "repeats the reason \"A\""))
    #expect(inventory.creatives.isEmpty)
  }

  @Test func anAdUnitListsStoredCreativesOnce() throws {
    let inventory = Inventory.fixture()
    #expect(
      Fixtures.inventoryError {
        try inventory.putAdUnit(AdUnit(id: "u", creativeIDs: ["native-content-1", "ghost"]))
      } == InventoryError(path: "creatives[1]", message: "names no stored creative (\"ghost\")"))
    #expect(
      Fixtures.inventoryError {
        try inventory.putAdUnit(
          AdUnit(id: "u", creativeIDs: ["native-content-1", "admob-video-1", "native-content-1"]))
      }
        == InventoryError(
          path: "creatives[2]", message: "repeats creatives[0] (\"native-content-1\")"))
    #expect(
      Fixtures.inventoryError { try inventory.putAdUnit(AdUnit(id: "", creativeIDs: [])) }
        == InventoryError(path: "id", message: "must not be empty"))
    #expect(inventory.adUnit("u") == nil)
    #expect(try inventory.putAdUnit(AdUnit(id: "u", creativeIDs: ["native-content-1"])) == false)
    #expect(try inventory.putAdUnit(AdUnit(id: "u", creativeIDs: [])) == true)
  }

  @Test func itemsInUseCannotBeRemoved() throws {
    let inventory = Inventory.fixture()
    #expect(
      Fixtures.inventoryError { try inventory.remove(kind: .format, id: "10063170") }
        == InventoryError(
          path: "", message: "format 10063170 is still used by creative custom-10063170-1"))
    #expect(
      Fixtures.inventoryError { try inventory.remove(kind: .creative, id: "custom-10063170-1") }
        == InventoryError(
          path: "",
          message:
            "creative custom-10063170-1 is still listed by ad unit /21775744923/example/native"))
    #expect(inventory.creative("custom-10063170-1") != nil && inventory.format("10063170") != nil)

    #expect(try inventory.remove(kind: .adUnit, id: "/21775744923/example/native"))
    #expect(try inventory.remove(kind: .creative, id: "custom-10063170-1"))
    #expect(try inventory.remove(kind: .format, id: "10063170"))
    #expect(try inventory.remove(kind: .format, id: "10063170") == false)
    #expect(try inventory.remove(kind: .creative, id: "ghost") == false)
    #expect(try inventory.remove(kind: .adUnit, id: "ghost") == false)
    #expect(InventoryItemKind.allCases.map(\.rawValue) == ["format", "creative", "adUnit"])
  }

  @Test func loadedAdsKeepTheCreativeTheyWereLoadedWith() throws {
    let inventory = Inventory.fixture()
    let manager = Fixtures.manager(inventory: inventory)
    let ad = Fixtures.loadOne(manager)
    var changed = try #require(inventory.creative("native-app-install-1"))
    changed.content = .native(NativeAssets(headline: "Changed"))
    #expect(try inventory.putCreative(changed))
    #expect(try manager.string(forKey: "headline", adId: ad.id) == "Flood-It! 2")
    #expect(try manager.string(forKey: "headline", adId: Fixtures.loadOne(manager).id) == "Changed")
  }

  @Test func theBuiltInInventoryPassesTheStoreValidation() throws {
    let builtIn = Inventory.fixture()
    let copy = Inventory()
    for format in builtIn.formats.values { _ = try copy.defineFormat(format) }
    for creative in builtIn.creatives.values { _ = try copy.putCreative(creative) }
    for unit in builtIn.adUnits.values { _ = try copy.putAdUnit(unit) }
    #expect(copy.creatives.count == builtIn.creatives.count)
    #expect(copy.adUnits.count == builtIn.adUnits.count)
  }
}
