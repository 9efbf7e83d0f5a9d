import JSONRPC
import Testing

@Suite struct ImageTests {
  private let harness = ServiceHarness()

  /// Every Image object (an object with `url` and `width`) inside `value`.
  private func images(in value: JSONValue) -> [JSONValue] {
    switch value {
    case .object(let members):
      let here = value["url"] != nil && value["width"] != nil ? [value] : []
      return here + members.flatMap { images(in: $0.1) }
    case .array(let items):
      return items.flatMap { images(in: $0) }
    default:
      return []
    }
  }

  @Test func everyImageCarriesBase64PNGBytesOfItsStatedSize() throws {
    let client = harness.connect()
    let result = try client.load(
      #"{"adUnitID":"\#(Units.backfill)","options":{"shouldRequestMultipleImages":true}}"#)
    let found = images(in: result)
    #expect(found.count == 5)  // icon, two images, main image, AdChoices icon
    for image in found {
      #expect(image["mimeType"] == .string("image/png"))
      let png = try #require(image["data"]?.text.flatMap(decodeBase64))
      #expect(Array(png.prefix(8)) == pngSignature)
      let size = try #require(pngSize(png))
      #expect(size.width == image["width"]?.integer)
      #expect(size.height == image["height"]?.integer)
    }
  }

  @Test func aCustomAdsImageAssetIsARealPNG() throws {
    let client = harness.connect()
    let adId = try client.loadCustomAdID()
    let image = try client.result("imageForKey", #"{"adId":"\#(adId)","key":"MainImage"}"#)
    let png = try #require(image["data"]?.text.flatMap(decodeBase64))
    #expect(Array(png.prefix(8)) == pngSignature)
    #expect(pngSize(png)?.width == 1200)
  }

  @Test func disableImageLoadingRemovesDataAndMimeTypeEverywhere() throws {
    let client = harness.connect()
    for unit in [Units.direct, Units.backfill, Units.adMob] {
      let result = try client.load(
        #"{"adUnitID":"\#(unit)","options":{"disableImageLoading":true,"shouldRequestMultipleImages":true,"numberOfAds":5}}"#
      )
      #expect(result["ads"]?.items?.isEmpty == false)
      #expect(result.allMembers(named: "data").isEmpty, "\(unit)")
      #expect(result.allMembers(named: "mimeType").isEmpty, "\(unit)")
      for ad in result["ads"]?.items ?? [] {
        #expect(ad["mediaContent"]?["mainImage"] == .null)
        let icon = try #require(ad["icon"])
        #expect(icon.keys == ["url", "scale", "width", "height"])
        #expect(ad["images"]?.items?.isEmpty == false)
      }
    }
  }

  @Test func disableImageLoadingAlsoAppliesToImageForKey() throws {
    let client = harness.connect()
    let adId = try client.loadAdID(
      unit: Units.backfill, extra: #","options":{"disableImageLoading":true}"#)
    for key in ["icon", "image", "_adChoices"] {
      let image = try client.result("imageForKey", #"{"adId":"\#(adId)","key":"\#(key)"}"#)
      #expect(image.keys == ["url", "scale", "width", "height"], "\(key)")
    }
    let customID = try client.loadAdID(
      extra:
        #","adTypes":["customNative"],"customNativeAdFormatIDs":["10063170"],"options":{"disableImageLoading":true}"#
    )
    let image = try client.result("imageForKey", #"{"adId":"\#(customID)","key":"MainImage"}"#)
    #expect(image.keys == ["url", "scale", "width", "height"])
  }

  @Test func imageLoadingIsDecidedPerLoad() throws {
    let client = harness.connect()
    let without = try client.load(
      #"{"adUnitID":"\#(Units.direct)","options":{"disableImageLoading":true}}"#)
    let with = try client.load(#"{"adUnitID":"\#(Units.direct)"}"#)
    #expect(without.allMembers(named: "data").isEmpty)
    #expect(with.allMembers(named: "data").count == 3)  // icon, image, main image
    #expect(with["ads"]?[0]?["mediaContent"]?["mainImage"] != .null)
    // And back, twice: the creative's encodings answer each load for its own options, not
    // for the options of the load before.
    for _ in 0..<2 {
      let again = try client.load(
        #"{"adUnitID":"\#(Units.direct)","options":{"disableImageLoading":true}}"#)
      #expect(again.allMembers(named: "data").isEmpty)
      #expect(
        try client.load(#"{"adUnitID":"\#(Units.direct)"}"#).allMembers(named: "data").count == 3)
    }
  }

  @Test func onlyTheFirstImageIsGivenUnlessMultipleImagesAreRequested() throws {
    let client = harness.connect()
    let single = try client.load(#"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2}}"#)
    #expect(single["ads"]?.items?.map { $0["images"]?.items?.count } == [1, 1])
    let multiple = try client.load(
      #"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2,"shouldRequestMultipleImages":true}}"#
    )
    let ads = try #require(multiple["ads"]?.items)
    #expect(ads.map { $0["images"]?.items?.count } == [2, 2])
    #expect(ads[0]["images"]?[1]?["width"] == .number("627"))
    #expect(ads[1]["images"]?[1]?["width"] == .number("800"))
    #expect(ads[0]["images"]?[0] == single["ads"]?[0]?["images"]?[0])
  }
}
