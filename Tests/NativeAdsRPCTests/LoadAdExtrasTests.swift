import JSONRPC
import Testing

/// What `loadAd` gained: `responseInfo.isTestRequest` and `adChoices.attribution`.
@Suite struct LoadAdExtrasTests {
  private let harness = ServiceHarness()

  // MARK: responseInfo.isTestRequest

  @Test(arguments: [true, false])
  func isTestRequestIsEchoedInEveryResponseInfo(isTestRequest: Bool) throws {
    let result = try harness.connect().load(
      #"{"adUnitID":"\#(Units.direct)","request":{"isTestRequest":\#(isTestRequest)},"options":{"numberOfAds":2,"disableImageLoading":true}}"#
    )
    let info = try #require(result["responseInfo"])
    #expect(
      info.keys == [
        "responseIdentifier", "loadedAdNetworkResponseInfo", "adNetworkInfoArray", "isTestRequest",
      ])
    #expect(info["isTestRequest"] == .bool(isTestRequest))
    for ad in result["ads"]?.items ?? [] { #expect(ad["responseInfo"] == info) }
  }

  @Test func isTestRequestIsAbsentWhenNotGiven() throws {
    let client = harness.connect()
    for request in [#""#, #","request":{}"#, #","request":{"isTestRequest":null}"#] {
      let info = try #require(
        client.load(
          #"{"adUnitID":"\#(Units.direct)"\#(request),"options":{"disableImageLoading":true}}"#)[
            "responseInfo"])
      #expect(info["isTestRequest"] == nil, "\(request)")
    }
  }

  @Test func failedLoadsEchoIsTestRequestToo() throws {
    let client = harness.connect()
    let noFill = try client.error(
      "loadAd",
      #"{"adUnitID":"\#(Units.backfill)","adTypes":["customNative"],"customNativeAdFormatIDs":["10063170"],"request":{"isTestRequest":true}}"#
    )
    #expect(noFill["code"] == .number("1001"))
    #expect(noFill["data"]?["responseInfo"]?["isTestRequest"] == .bool(true))
    let invalid = try client.error(
      "loadAd", #"{"adUnitID":"nope","request":{"isTestRequest":false}}"#)
    #expect(invalid["code"] == .number("1000"))
    #expect(invalid["data"]?["responseInfo"]?["isTestRequest"] == .bool(false))
    let plain = try client.error("loadAd", #"{"adUnitID":"nope"}"#)
    #expect(plain["data"]?["responseInfo"]?["isTestRequest"] == nil)
  }

  // MARK: adChoices.attribution

  @Test func indirectAdsAttributeThemselvesAsAnAd() throws {
    let client = harness.connect()
    for unit in [Units.backfill, Units.adMob] {
      let ads = try #require(
        client.load(
          #"{"adUnitID":"\#(unit)","options":{"numberOfAds":2,"disableImageLoading":true,"adChoicesPosition":"bottomLeft"}}"#
        )["ads"]?.items)
      #expect(ads.count == 2)
      for ad in ads {
        #expect(
          ad["adChoices"]
            == .object([
              ("position", .string("bottomLeft")),
              (
                "image",
                .object([
                  ("url", .string("https://static.native-ads.test/adchoices/icon.png")),
                  ("scale", .number("2")), ("width", .number("30")), ("height", .number("30")),
                ])
              ),
              ("clickURL", .string("https://adssettings.google.com/whythisad")),
              ("attribution", .string("Ad")),
            ]), "\(unit)")
      }
    }
  }

  @Test(arguments: ["Ad", "Advertisement", "Sponsored"])
  func aStoredIndirectCreativeChoosesItsAttributionAndAdChoices(attribution: String) throws {
    let client = harness.connect()
    _ = try client.result(
      "store.putCreative",
      #"{"creative":{"id":"c","kind":"native","indirect":true,"adChoices":{"attribution":"\#(attribution)","clickURL":"https://x.test/why","image":{"url":"https://x.test/ac.png","width":20,"height":10}},"assets":{"headline":"h"},"landingPageURL":"l"}}"#
    )
    _ = try client.result("store.putAdUnit", #"{"adUnit":{"id":"u","creatives":["c"]}}"#)
    let ad = try #require(
      client.load(#"{"adUnitID":"u","options":{"disableImageLoading":true}}"#)["ads"]?[0])
    #expect(
      ad["adChoices"]
        == .object([
          ("position", .string("topRight")),
          (
            "image",
            .object([
              ("url", .string("https://x.test/ac.png")), ("scale", .number("1")),
              ("width", .number("20")), ("height", .number("10")),
            ])
          ),
          ("clickURL", .string("https://x.test/why")),
          ("attribution", .string(attribution)),
        ]))
    #expect(
      ad["responseInfo"]?["loadedAdNetworkResponseInfo"]?["adSourceName"]
        == .string("AdMob Network"))
    let adId = try #require(ad["adId"]?.text)
    #expect(
      try client.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"_adChoices"}"#)
        == .object([
          ("recorded", .bool(false)), ("action", .string("adChoices")),
          ("url", .string("https://x.test/why")),
        ]))
  }

  @Test func anIndirectCustomAdListsAndServesItsAdChoicesImage() throws {
    let client = harness.connect()
    _ = try client.result(
      "store.putCreative",
      #"{"creative":{"id":"c","kind":"customNative","formatID":"10063170","indirect":true,"assets":{"Headline":"h","MainImage":{"url":"u","width":2,"height":2},"Caption":"c"},"landingPageURL":"l"}}"#
    )
    _ = try client.result("store.putAdUnit", #"{"adUnit":{"id":"u","creatives":["c"]}}"#)
    let ad = try #require(
      client.load(
        #"{"adUnitID":"u","adTypes":["customNative"],"customNativeAdFormatIDs":["10063170"],"options":{"disableImageLoading":true}}"#
      )["ads"]?[0])
    #expect(
      ad["availableAssetKeys"]
        == .array([
          .string("Headline"), .string("MainImage"), .string("Caption"), .string("_adChoices"),
        ]))
    #expect(ad["adChoices"]?["attribution"] == .string("Ad"))
    let adId = try #require(ad["adId"]?.text)
    #expect(
      try client.result("imageForKey", #"{"adId":"\#(adId)","key":"_adChoices"}"#)
        == ad["adChoices"]?["image"])
  }

  @Test func directSoldAdsHaveNoAdChoices() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    #expect(try client.result("imageForKey", #"{"adId":"\#(adId)","key":"_adChoices"}"#) == .null)
    #expect(
      try client.error("performClickOnAsset", #"{"adId":"\#(adId)","key":"_adChoices"}"#)["code"]
        == .number("2002"))
  }
}
