import Glibc
import NativeAds
import Testing

@testable import NativeAdsRPC

/// Loads `text` as a store document into `inventory`; the error, or nil when it loaded.
private func load(_ text: String, into inventory: Inventory = Inventory()) -> StoreLoadError? {
  var failure: StoreLoadError?
  Array(text.utf8).withUnsafeBytes { bytes in
    do throws(StoreLoadError) {
      try StoreLoader.load(bytes, into: inventory)
    } catch {
      failure = error
    }
  }
  return failure
}

/// The bytes of the file at `path`, nil when it cannot be read.
private func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 64 * 1024)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count <= 0 { break }
    bytes += buffer[0..<count]
  }
  return ferror(file) == 0 ? bytes : nil
}

/// `Sources/NativeAdsRPC/Resources/builtin-store.json`, found from this file's path.
private func builtInStorePath(_ testFile: String = #filePath) -> String {
  // <package>/Tests/NativeAdsRPCTests/StoreLoaderTests.swift
  let package = testFile.split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
  return package.joined(separator: "/") + "/Sources/NativeAdsRPC/Resources/builtin-store.json"
}

@Suite struct StoreLoaderTests {
  /// The example of docs/sdk-behaviour.md ("The store").
  static let documentedExample = """
    {
      "formats": [
        {"id": "10063170", "assets": [
          {"name": "Headline", "type": "text", "required": true},
          {"name": "MainImage", "type": "image", "required": true},
          {"name": "Caption", "type": "text", "required": false}]}
      ],
      "creatives": [
        {"id": "my-native-1", "kind": "native", "priority": 10, "eCPM": 2.0,
         "assets": {"headline": "Hello", "body": "World", "callToAction": "Install",
                    "starRating": 4.5, "icon": {"url": "https://example.com/icon.png", "width": 128, "height": 128},
                    "images": [{"url": "https://example.com/1.png", "width": 1200, "height": 627}]},
         "landingPageURL": "https://example.com", "deepLinks": ["myapp://open"],
         "indirect": false, "muteThisAdReasons": ["Not interested"],
         "video": {"duration": 30, "aspectRatio": 1.7778, "customControlsAllowed": true, "clickToExpandAllowed": false},
         "targeting": {"keywords": ["cars"]}},
        {"id": "my-custom-1", "kind": "customNative", "formatID": "10063170",
         "assets": {"Headline": "Hi", "MainImage": {"url": "https://example.com/m.png", "width": 600, "height": 600}},
         "customClickAction": true, "landingPageURL": "https://example.com"}
      ],
      "adUnits": [{"id": "/1234/my-unit", "creatives": ["my-native-1", "my-custom-1"]}]
    }
    """

  // MARK: Good documents

  @Test func theDocumentedExampleLoads() throws {
    let inventory = Inventory()
    #expect(load(Self.documentedExample, into: inventory) == nil)
    #expect(
      inventory.format("10063170")
        == CustomFormat(
          id: "10063170",
          assets: [
            CustomAssetDefinition(name: "Headline", type: .text, required: true),
            CustomAssetDefinition(name: "MainImage", type: .image, required: true),
            CustomAssetDefinition(name: "Caption", type: .text, required: false),
          ]))
    #expect(
      inventory.adUnits
        == [
          "/1234/my-unit": AdUnit(id: "/1234/my-unit", creativeIDs: ["my-native-1", "my-custom-1"])
        ])
    #expect(inventory.creatives.keys.sorted() == ["my-custom-1", "my-native-1"])

    let native = try #require(inventory.creative("my-native-1"))
    #expect(native.kind == .native)
    #expect(native.priority == 10)
    #expect(native.eCPM == 2)
    #expect(native.landingPageURL == "https://example.com")
    #expect(native.deepLinks == ["myapp://open"])
    #expect(native.adChoices == nil)
    #expect(native.muteThisAdReasons == ["Not interested"])
    #expect(native.targeting.keywords == ["cars"])
    let assets = try #require(native.content.nativeAssets)
    #expect(assets.headline == "Hello")
    #expect(assets.body == "World")
    #expect(assets.callToAction == "Install")
    #expect(assets.starRating == 4.5)
    #expect(assets.icon?.width == 128)
    #expect(assets.images.map(\.url) == ["https://example.com/1.png"])
    #expect(native.media.hasVideoContent)
    #expect(native.media.duration == 30)
    #expect(native.media.aspectRatio == 1.7778)
    #expect(native.media.customControlsAllowed)
    #expect(!native.media.clickToExpandAllowed)
    #expect(native.media.mainImage?.url == "https://example.com/1.png")  // the poster

    let custom = try #require(inventory.creative("my-custom-1"))
    #expect(custom.kind == .customNative)
    #expect(custom.content.customFormatID == "10063170")
    #expect(custom.hasCustomClickAction)
    #expect(custom.content.customAsset(named: "Headline")?.text == "Hi")
    #expect(custom.content.customAsset(named: "MainImage")?.image?.width == 600)
    #expect(custom.content.customAsset(named: "Caption") == nil)
  }

  @Test func imagesWithoutDataAreGeneratedAndDataIsDecoded() throws {
    let inventory = Inventory()
    #expect(
      load(
        #"{"creatives":[{"id":"c","kind":"native","assets":{"headline":"h","icon":{"url":"https://x.test/i.png","width":5,"height":3},"images":[{"url":"https://x.test/j","width":2,"height":2,"mimeType":"image/gif","data":"AAECAwQ="}]},"indirect":true,"adChoices":{"image":{"url":"https://x.test/ac.png","width":4,"height":4},"clickURL":"https://x.test/why","attribution":"Advertisement"},"landingPageURL":"l"}]}"#,
        into: inventory) == nil)
    let creative = try #require(inventory.creative("c"))
    let icon = try #require(creative.content.nativeAssets?.icon)
    #expect(icon.mimeType == "image/png")
    #expect(pngSize(icon.data)?.width == 5)
    #expect(pngSize(icon.data)?.height == 3)
    let image = try #require(creative.content.nativeAssets?.images.first)
    #expect(image.data == [0, 1, 2, 3, 4])
    #expect(image.mimeType == "image/gif")
    let adChoices = try #require(creative.adChoices)
    #expect(adChoices.attribution == "Advertisement")
    #expect(adChoices.clickURL == "https://x.test/why")
    #expect(pngSize(adChoices.image.data)?.width == 4)
  }

  @Test(arguments: [
    "{}",
    #"{"$schema":"../schemas/store.schema.json","description":"nothing yet"}"#,
    #"{"formats":[],"creatives":[],"adUnits":[]}"#,
    " \n{\"formats\":null}\n",
  ])
  func anEmptyDocumentLoadsNothing(text: String) {
    let inventory = Inventory()
    #expect(load(text, into: inventory) == nil)
    #expect(inventory.formats.isEmpty)
    #expect(inventory.creatives.isEmpty)
    #expect(inventory.adUnits.isEmpty)
  }

  @Test func sectionsLoadFormatsThenCreativesThenUnitsWhateverTheirOrder() {
    let inventory = Inventory()
    #expect(
      load(
        #"{"adUnits":[{"id":"u","creatives":["c"]}],"creatives":[{"id":"c","kind":"customNative","formatID":"f","assets":{"T":"t"},"landingPageURL":"l"}],"formats":[{"id":"f","assets":[{"name":"T","type":"text","required":true}]}]}"#,
        into: inventory) == nil)
    #expect(inventory.adUnit("u")?.creativeIDs == ["c"])
  }

  @Test func aDocumentAddsToAnInventoryThatAlreadyHasItems() {
    let inventory = StoreLoader.builtInInventory()
    #expect(
      load(
        #"{"creatives":[{"id":"extra","kind":"customNative","formatID":"10063170","assets":{"Headline":"h","MainImage":{"url":"u","width":1,"height":1},"Caption":"c"},"landingPageURL":"l"}],"adUnits":[{"id":"/1/mine","creatives":["extra","native-content-1"]}]}"#,
        into: inventory) == nil)
    #expect(inventory.creatives.count == 10)
    #expect(inventory.adUnits.count == 6)
    #expect(inventory.adUnit(Units.direct) != nil)
  }

  // MARK: Bad documents

  @Test(arguments: [
    (
      #"{"creatives":[{"id":"a","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"},{"id":"b","kind":"native","assets":{"headline":"h","icon":{"url":"u","width":0,"height":2}},"landingPageURL":"l"}]}"#,
      "creatives[1].assets.icon.width", "must be a positive integer"
    ),
    (
      #"{"creatives":[{"id":"a","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"}],"adUnits":[{"id":"u","creatives":"a"}]}"#,
      "adUnits[0].creatives", "must be an array of strings"
    ),
    (
      #"{"creatives":[{"id":"a","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"}],"adUnits":[{"id":"u","creatives":["a","b"]}]}"#,
      "adUnits[0].creatives[1]", #"names no stored creative ("b")"#
    ),
    (
      #"{"creatives":[{"id":"a","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"}],"adUnits":[{"id":"u","creatives":["a"]},{"id":"v","creatives":["a","a"]}]}"#,
      "adUnits[1].creatives[1]", #"repeats creatives[0] ("a")"#
    ),
    (
      #"{"formats":[{"id":"f","assets":[{"name":"MainImage","type":"image","required":true}]}],"creatives":[{"id":"a","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"},{"id":"b","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"},{"id":"c","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"},{"id":"d","kind":"customNative","formatID":"f","assets":{"MainImage":{"url":"u","width":-5,"height":5}},"landingPageURL":"l"}]}"#,
      "creatives[3].assets.MainImage.width", "must be a positive integer"
    ),
    (
      #"{"formats":[{"id":"f","assets":[{"name":"MainImage","type":"image","required":true},{"name":"Caption","type":"text"}]}],"creatives":[{"id":"a","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"},{"id":"b","kind":"customNative","formatID":"f","assets":{"Caption":"x"},"landingPageURL":"l"}]}"#,
      "creatives[1].assets.MainImage", "is required by format f"
    ),
    (
      #"{"creatives":[{"id":"a","kind":"customNative","formatID":"f","assets":{},"landingPageURL":"l"}]}"#,
      "creatives[0].formatID", "names no defined custom format"
    ),
    (
      #"{"formats":[{"id":"f","assets":[]}],"creatives":[{"id":"a","kind":"customNative","formatID":"f","assets":{"Nope":"x"},"landingPageURL":"l"}]}"#,
      "creatives[0].assets.Nope", "is not an asset of custom format f"
    ),
    (
      #"{"creatives":[{"id":"a","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"},{"id":"v","kind":"native","assets":{"headline":"h"},"video":{"duration":0},"landingPageURL":"l"}]}"#,
      "creatives[1].video.duration", "must be between 0.001 and 86400"
    ),
    (
      #"{"creatives":[{"id":"a","kind":"native","assets":{"headline":"h"},"landingPageURL":"l","muteThisAdReasons":["x","x"]}]}"#,
      "creatives[0].muteThisAdReasons[1]", #"repeats the reason "x""#
    ),
    (
      #"{"creatives":[{"id":"a","kind":"native","assets":{"headline":"h"},"landingPage":"l"}]}"#,
      "creatives[0].landingPage", "is not a known field"
    ),
    (
      #"{"formats":[{"id":"f","assets":[{"name":"A","type":"text"},{"name":"A","type":"text"}]}]}"#,
      "formats[0].assets[1].name", #"repeats assets[0].name ("A")"#
    ),
    (
      #"{"formats":[{"id":"f","assets":[{"name":"A","type":"gif"}]}]}"#,
      "formats[0].assets[0].type", #"must be one of "text", "image", "video""#
    ),
    (#"{"formats":{}}"#, "formats", "must be an array"),
    (#"{"creatives":[[]]}"#, "creatives[0]", "must be an object"),
    (#"{"adUnits":[{"creatives":[]}]}"#, "adUnits[0].id", "is required"),
    (#"{"colour":"red"}"#, "colour", "is not a known field"),
    ("[1]", "", "a store file must be a JSON object"),
    (#""formats""#, "", "a store file must be a JSON object"),
    ("42", "", "a store file must be a JSON object"),
    ("null", "", "a store file must be a JSON object"),
    (#"{"formats": ["#, "", "not valid JSON: unexpected end of input at byte 13"),
  ])
  func aBadDocumentNamesThePathAndTheProblem(text: String, path: String, problem: String) {
    #expect(load(text) == StoreLoadError(path: path, problem: problem))
  }

  @Test func notJSONIsReportedWithThePathOfTheDocument() throws {
    let error = try #require(load("formats: []"))
    #expect(error.path == "")
    #expect(error.problem.hasPrefix("not valid JSON: "))
    #expect(error.description == error.problem)
  }

  @Test func theDescriptionJoinsPathAndProblem() {
    #expect(
      StoreLoadError(
        path: "creatives[3].assets.MainImage.width", problem: "must be a positive integer"
      )
      .description == "creatives[3].assets.MainImage.width: must be a positive integer")
    #expect(
      StoreLoadError(path: "", problem: "a store file must be a JSON object").description
        == "a store file must be a JSON object")
  }

  @Test func redefiningABuiltInFormatSoThatABuiltInCreativeBreaksFails() {
    let inventory = StoreLoader.builtInInventory()
    #expect(
      load(
        #"{"formats":[{"id":"10063170","assets":[{"name":"Headline","type":"text"}]}]}"#,
        into: inventory)
        == StoreLoadError(
          path: "formats[0]",
          problem:
            "would make creative custom-10063170-1 invalid: assets.MainImage is not an asset of format 10063170"
        ))
    #expect(inventory.format("10063170")?.assets.count == 3)
  }

  // MARK: The built-in inventory

  @Test func theBuiltInInventoryHasFiveUnitsNineCreativesAndTwoFormats() {
    let inventory = StoreLoader.builtInInventory()
    #expect(
      inventory.adUnits
        == [
          Units.direct: AdUnit(
            id: Units.direct,
            creativeIDs: ["native-app-install-1", "native-content-1", "custom-10063170-1"]),
          Units.backfill: AdUnit(
            id: Units.backfill, creativeIDs: ["backfill-app-install-1", "backfill-content-1"]),
          Units.adMob: AdUnit(
            id: Units.adMob, creativeIDs: ["admob-video-1", "admob-app-install-1"]),
          Units.video: AdUnit(
            id: Units.video, creativeIDs: ["video-native-1", "custom-video-12406343-1"]),
          "native-ads/mediation/sample-waterfall": AdUnit(
            id: "native-ads/mediation/sample-waterfall",
            creativeIDs: ["backfill-app-install-1", "backfill-content-1"],
            waterfall: [
              .customEvent(
                adapterClassName: "SampleCustomEvent", parameter: "sample-unit-1", eCPM: 2.5,
                timeoutMs: 2000, label: "Sample network"),
              .inventory(eCPM: 0.5, label: "Backfill"),
            ]),
        ])
    #expect(
      inventory.creatives.keys.sorted() == [
        "admob-app-install-1", "admob-video-1", "backfill-app-install-1", "backfill-content-1",
        "custom-10063170-1", "custom-video-12406343-1", "native-app-install-1", "native-content-1",
        "video-native-1",
      ])
    #expect(inventory.formats.keys.sorted() == [Units.customFormat, Units.videoFormat])
    let indirect = inventory.creatives.values.filter(\.isIndirect).map(\.id).sorted()
    #expect(
      indirect == [
        "admob-app-install-1", "admob-video-1", "backfill-app-install-1", "backfill-content-1",
      ])
    let video = inventory.creatives.values.filter(\.media.hasVideoContent).map(\.id).sorted()
    #expect(video == ["admob-video-1", "custom-video-12406343-1", "video-native-1"])
  }

  @Test func theBuiltInInventoryIsTheResourceFile() throws {
    let path = builtInStorePath()
    let file = try #require(readFile(path), "cannot read \(path)")
    #expect(file == PackageResources.builtin_store_json)

    let fromFile = Inventory()
    #expect(
      file.withUnsafeBytes { bytes in
        do {
          try StoreLoader.load(bytes, into: fromFile)
          return true
        } catch {
          return false
        }
      })
    let builtIn = StoreLoader.builtInInventory()
    #expect(fromFile.formats == builtIn.formats)
    #expect(fromFile.adUnits == builtIn.adUnits)
    #expect(fromFile.creatives.keys.sorted() == builtIn.creatives.keys.sorted())
    for (id, expected) in builtIn.creatives {
      let actual = try #require(fromFile.creative(id))
      #expect(actual.kind == expected.kind, "\(id)")
      #expect(actual.content.customFormatID == expected.content.customFormatID, "\(id)")
      #expect(actual.content.nativeAssets?.headline == expected.content.nativeAssets?.headline)
      #expect(actual.priority == expected.priority, "\(id)")
      #expect(actual.eCPM == expected.eCPM, "\(id)")
      #expect(actual.landingPageURL == expected.landingPageURL, "\(id)")
      #expect(actual.deepLinks == expected.deepLinks, "\(id)")
      #expect(actual.muteThisAdReasons == expected.muteThisAdReasons, "\(id)")
      #expect(actual.isIndirect == expected.isIndirect, "\(id)")
      #expect(actual.media.duration == expected.media.duration, "\(id)")
      #expect(actual.media.aspectRatio == expected.media.aspectRatio, "\(id)")
    }
  }
}
