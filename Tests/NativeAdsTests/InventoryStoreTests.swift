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
        == InventoryError(.format, "", .emptyID))
    let unnamed = CustomFormat(
      id: "1",
      assets: [
        CustomAssetDefinition(name: "A", type: .text), CustomAssetDefinition(name: "", type: .text),
      ])
    #expect(
      Fixtures.inventoryError { try inventory.defineFormat(unnamed) }
        == InventoryError(.format, "1", .emptyAssetName(index: 1)))
    let twice = CustomFormat(
      id: "1",
      assets: [
        CustomAssetDefinition(name: "A", type: .text),
        CustomAssetDefinition(name: "B", type: .image),
        CustomAssetDefinition(name: "A", type: .image),
      ])
    let error = Fixtures.inventoryError { try inventory.defineFormat(twice) }
    #expect(
      error == InventoryError(.format, "1", .repeatedAssetName(index: 2, firstIndex: 0, name: "A")))
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
          .format, "10063170",
          .wouldInvalidateCreative(
            id: "custom-10063170-1",
            .customAsset(name: "Subtitle", .requiredByFormat(formatID: "10063170")))))
    var retyped = original
    retyped.assets[1].type = .text
    #expect(
      Fixtures.inventoryError { try inventory.defineFormat(retyped) }?.problem
        == .wouldInvalidateCreative(
          id: "custom-10063170-1",
          .customAsset(name: "MainImage", .wrongType(expected: .text, formatID: "10063170"))))
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
      InventoryProblem.unknownFormat("99")
    ),
    (
      "missing required asset", "10063170",
      [(name: "Headline", value: .text("H")), (name: "MainImage", value: .image(image()))],
      MediaContent(),
      .customAsset(name: "Caption", .requiredByFormat(formatID: "10063170"))
    ),
    (
      "unknown asset", "10063170", [(name: "Subtitle", value: .text("S"))], MediaContent(),
      .customAsset(name: "Subtitle", .notInFormat(formatID: "10063170"))
    ),
    (
      "wrong type", "10063170", [(name: "Headline", value: .image(image()))], MediaContent(),
      .customAsset(name: "Headline", .wrongType(expected: .text, formatID: "10063170"))
    ),
    (
      "image for text", "10063170", [(name: "MainImage", value: .text("x"))], MediaContent(),
      .customAsset(name: "MainImage", .wrongType(expected: .image, formatID: "10063170"))
    ),
    (
      "asset twice", "10063170",
      [(name: "Headline", value: .text("a")), (name: "Headline", value: .text("b"))],
      MediaContent(), .customAsset(name: "Headline", .givenTwice)
    ),
    (
      "video without video media", "v2", [(name: "Video", value: .video)], MediaContent(),
      .customAsset(name: "Video", .videoWithoutVideoContent)
    ),
    (
      "two video assets", "v2", [(name: "Video", value: .video), (name: "Clip", value: .video)],
      videoMedia,
      .customAsset(name: "Clip", .secondVideo(first: "Video"))
    ),
    (
      "text for video", "v2", [(name: "Video", value: .text("x"))], videoMedia,
      .customAsset(name: "Video", .wrongType(expected: .video, formatID: "v2"))
    ),
    (
      "zero-width image", "10063170", [(name: "MainImage", value: .image(image(0, 5)))],
      MediaContent(),
      .customAsset(name: "MainImage", .image(.nonPositiveWidth))
    ),
  ])
  func anInvalidCustomCreativeIsRefused(
    _ what: String, format: String, assets: [(name: String, value: CustomAssetValue)],
    media: MediaContent, expected: InventoryProblem
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
    #expect(
      Fixtures.inventoryError { try inventory.putCreative(creative) }
        == InventoryError(.creative, "c1", expected), "\(what)")
    #expect(inventory.creative("c1") == nil)
  }

  @Test func aNativeCreativeIsCheckedToo() {
    let inventory = Inventory()
    func put(_ creative: Creative) -> InventoryError? {
      Fixtures.inventoryError { try inventory.putCreative(creative) }
    }
    #expect(
      put(Creative(id: "", content: .native(NativeAssets(headline: "x")), landingPageURL: "u"))
        == InventoryError(.creative, "", .emptyID))
    #expect(
      put(
        Creative(
          id: "n", content: .native(NativeAssets(headline: "x", starRating: 5.5)),
          landingPageURL: "u"))
        == InventoryError(.creative, "n", .nativeAssets(.starRatingOutOfRange)))
    #expect(
      put(
        Creative(
          id: "n",
          content: .native(NativeAssets(headline: "x", images: [Self.image(), Self.image(3, 0)])),
          landingPageURL: "u"))
        == InventoryError(.creative, "n", .nativeAssets(.image(index: 1, .nonPositiveHeight))))
    #expect(
      put(
        Creative(
          id: "n", content: .native(NativeAssets(headline: "x")), eCPM: -1, landingPageURL: "u"))
        == InventoryError(.creative, "n", .invalidECPM))
    #expect(
      put(
        Creative(
          id: "n", content: .native(NativeAssets(headline: "x")), landingPageURL: "u",
          muteThisAdReasons: ["A", "A"]))
        == InventoryError(.creative, "n", .repeatedMuteReason(index: 1, reason: "A")))
    #expect(inventory.creatives.isEmpty)
  }

  @Test func anAdUnitListsStoredCreativesOnce() throws {
    let inventory = Inventory.fixture()
    #expect(
      Fixtures.inventoryError {
        try inventory.putAdUnit(AdUnit(id: "u", creativeIDs: ["native-content-1", "ghost"]))
      } == InventoryError(.adUnit, "u", .unknownCreative(index: 1, creativeID: "ghost")))
    #expect(
      Fixtures.inventoryError {
        try inventory.putAdUnit(
          AdUnit(id: "u", creativeIDs: ["native-content-1", "admob-video-1", "native-content-1"]))
      }
        == InventoryError(
          .adUnit, "u", .repeatedCreative(index: 2, firstIndex: 0, creativeID: "native-content-1")))
    #expect(
      Fixtures.inventoryError { try inventory.putAdUnit(AdUnit(id: "", creativeIDs: [])) }
        == InventoryError(.adUnit, "", .emptyID))
    #expect(inventory.adUnit("u") == nil)
    #expect(try inventory.putAdUnit(AdUnit(id: "u", creativeIDs: ["native-content-1"])) == false)
    #expect(try inventory.putAdUnit(AdUnit(id: "u", creativeIDs: [])) == true)
  }

  @Test func itemsInUseCannotBeRemoved() throws {
    let inventory = Inventory.fixture()
    #expect(
      Fixtures.inventoryError { try inventory.remove(kind: .format, id: "10063170") }
        == InventoryError(.format, "10063170", .formatInUse(creativeID: "custom-10063170-1")))
    #expect(
      Fixtures.inventoryError { try inventory.remove(kind: .creative, id: "custom-10063170-1") }
        == InventoryError(
          .creative, "custom-10063170-1",
          .creativeInUse(adUnitID: "/21775744923/example/native")))
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
