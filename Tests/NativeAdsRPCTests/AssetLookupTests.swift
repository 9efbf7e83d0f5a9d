import JSONRPC
import NativeAds
import Testing

@Suite struct AssetLookupTests {
  private let harness = ServiceHarness()

  // MARK: stringForKey

  @Test func stringForKeyReturnsTheTextAssetsOfANativeAd() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    let expected: [(String, JSONValue)] = [
      ("headline", .string("Flood-It! 2")),
      ("body", .string("Fill the board with a single colour before you run out of moves.")),
      ("callToAction", .string("Install")),
      ("store", .string("Google Play")),
      ("price", .string("Free")),
      ("advertiser", .null),
    ]
    for (key, value) in expected {
      #expect(
        try client.result("stringForKey", #"{"adId":"\#(adId)","key":"\#(key)"}"#) == value,
        "\(key)")
    }
  }

  @Test(arguments: ["icon", "image", "starRating", "mediaView", "Headline", "3001", "nope", ""])
  func stringForKeyIsNullForKeysThatAreNotTextAssets(key: String) throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    #expect(try client.result("stringForKey", #"{"adId":"\#(adId)","key":"\#(key)"}"#) == .null)
  }

  @Test func stringForKeyReadsTheFormatsAssetNamesOnACustomAd() throws {
    let client = harness.connect()
    let adId = try client.loadCustomAdID()
    func text(_ key: String) throws -> JSONValue {
      try client.result("stringForKey", #"{"adId":"\#(adId)","key":"\#(key)"}"#)
    }
    #expect(try text("Headline") == .string("Custom Native Ad Headline"))
    #expect(try text("Caption") == .string("A custom native format served by Ad Manager"))
    #expect(try text("MainImage") == .null)
    #expect(try text("headline") == .null)
  }

  @Test func anyConnectionMayReadAnAd() throws {
    let adId = try harness.connect().loadAdID()
    let other = harness.connect()
    #expect(
      try other.result("stringForKey", #"{"adId":"\#(adId)","key":"headline"}"#)
        == .string("Flood-It! 2"))
  }

  // MARK: imageForKey

  @Test func imageForKeyReturnsTheIconAndTheFirstImage() throws {
    let client = harness.connect()
    let ad = try #require(
      client.load(
        #"{"adUnitID":"\#(Units.direct)","options":{"shouldRequestMultipleImages":true}}"#)[
          "ads"]?[0])
    let adId = try #require(ad["adId"]?.text)
    #expect(try client.result("imageForKey", #"{"adId":"\#(adId)","key":"icon"}"#) == ad["icon"])
    #expect(
      try client.result("imageForKey", #"{"adId":"\#(adId)","key":"image"}"#) == ad["images"]?[0])
  }

  @Test(arguments: ["headline", "images", "mediaView", "_adChoices", "MainImage", "nope"])
  func imageForKeyIsNullWhenTheAdHasNoSuchImage(key: String) throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    #expect(try client.result("imageForKey", #"{"adId":"\#(adId)","key":"\#(key)"}"#) == .null)
  }

  @Test func imageForKeyReadsTheFormatsImageAssetsOnACustomAd() throws {
    let client = harness.connect()
    let adId = try client.loadCustomAdID()
    let image = try client.result("imageForKey", #"{"adId":"\#(adId)","key":"MainImage"}"#)
    #expect(
      image["url"]
        == .string("https://static.native-ads.test/creatives/custom-10063170-1/MainImage.png"))
    #expect(image["width"] == .number("1200"))
    #expect(image["height"] == .number("627"))
    #expect(image["mimeType"] == .string("image/png"))
    #expect(try client.result("imageForKey", #"{"adId":"\#(adId)","key":"Headline"}"#) == .null)
  }

  @Test func theAdChoicesImageOfAnIndirectAdIsUnderTheAdChoicesKey() throws {
    let client = harness.connect()
    let ad = try #require(client.load(#"{"adUnitID":"\#(Units.backfill)"}"#)["ads"]?[0])
    let adId = try #require(ad["adId"]?.text)
    let image = try client.result("imageForKey", #"{"adId":"\#(adId)","key":"_adChoices"}"#)
    #expect(image == ad["adChoices"]?["image"])
    #expect(image["width"] == .number("30"))
  }

  /// `stringForKey` answers from text encoded once per creative; whatever the key, that must
  /// be what the domain says (``NativeAd/string(forKey:)``), for every kind of built-in ad.
  @Test(arguments: [
    (Units.direct, false), (Units.direct, true), (Units.backfill, false), (Units.adMob, false),
    (Units.video, false), (Units.video, true),
  ])
  func stringForKeyAnswersWhatTheAdSaysForEveryKey(unit: String, custom: Bool) throws {
    let client = harness.connect()
    let formats = #""customNativeAdFormatIDs":["\#(Units.customFormat)","\#(Units.videoFormat)"]"#
    do {
      let adId = try client.loadAdID(
        unit: unit, extra: custom ? #","adTypes":["customNative"],\#(formats)"# : "")
      let ad = try harness.manager.ad(adId)
      let keys =
        ad.availableAssetKeys + NativeAssetKey.allCases.map(\.rawValue)
        + ["Headline", "Body", "CallToAction", "MainImage", "_adChoices", "", "nope", "headlin"]
      for key in keys {
        let expected = ad.string(forKey: key).map(JSONValue.string) ?? .null
        let reply = try client.result("stringForKey", #"{"adId":"\#(adId)","key":"\#(key)"}"#)
        #expect(reply == expected, "\(unit) \(key)")
        // The same key and ID spelled with escapes.
        let escapedKey = Self.escapingEveryCharacter(key)
        let escapedID = Self.escapingEveryCharacter(adId)
        #expect(
          try client.result(
            "stringForKey", #"{"adId":"\#(escapedID)","key":"\#(escapedKey)"}"#) == expected,
          "\(unit) \(key), escaped")
      }
    }
  }

  /// `"ab"` as `"\u0061\u0062"` (ASCII text only).
  private static func escapingEveryCharacter(_ text: String) -> String {
    text.unicodeScalars.map { scalar in
      let hex = String(scalar.value, radix: 16)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }.joined()
  }

  // MARK: Errors

  @Test(arguments: ["stringForKey", "imageForKey"])
  func anUnknownAdIsError2001(method: String) throws {
    let error = try harness.connect().error(method, #"{"adId":"ad-unknown","key":"headline"}"#)
    #expect(error["code"] == .number("2001"))
    #expect(
      error["message"] == .string(#"No ad with ID "ad-unknown": it is unknown or was released"#))
    #expect(error["data"]?["name"] == .string("adNotFound"))
    #expect(error["data"]?["adId"] == .string("ad-unknown"))
    // An ID written with escapes is named decoded.
    let escaped = try harness.connect().error(method, #"{"adId":"ad-\u0075nknown","key":"x"}"#)
    #expect(escaped["data"]?["adId"] == .string("ad-unknown"))
  }

  @Test(arguments: [
    ("stringForKey", #"{"key":"headline"}"#, "adId is required", "adId"),
    ("stringForKey", #"{"adId":"x"}"#, "key is required", "key"),
    ("imageForKey", #"{"adId":7,"key":"icon"}"#, "adId must be a string", "adId"),
    ("imageForKey", #"{"adId":"x","key":false}"#, "key must be a string", "key"),
  ])
  func missingOrMistypedKeysAreInvalidParams(
    method: String, params: String, problem: String, field: String
  ) throws {
    let error = try harness.connect().error(method, params)
    #expect(error["code"] == .number("-32602"))
    #expect(error["message"] == .string("Invalid params: \(problem)"))
    #expect(error["data"] == .object([("field", .string(field))]))
  }
}
