import JSONRPC
import NativeAds
import Testing

/// A valid custom creative of the built-in format 10063170 with an ID and extra members.
private func customCreative(_ id: String = "bad", _ members: String = "") -> String {
  #"{"id":"\#(id)","kind":"customNative","formatID":"10063170","assets":{"Headline":"H","MainImage":{"url":"https://x.test/m.png","width":8,"height":4},"Caption":"C"},"landingPageURL":"https://x.test"\#(members)}"#
}

/// `store.defineFormat`, `store.putCreative`, `store.putAdUnit`, `store.remove`, `store.list`.
@Suite struct StoreMethodTests {
  private let harness = ServiceHarness()

  private func putCreative(_ client: Client, _ creative: String) throws -> JSONValue {
    try client.result("store.putCreative", #"{"creative":\#(creative)}"#)
  }

  private func putUnit(_ client: Client, _ id: String, _ creatives: [String]) throws -> JSONValue {
    let list = creatives.map { "\"\($0)\"" }.joined(separator: ",")
    return try client.result(
      "store.putAdUnit", #"{"adUnit":{"id":"\#(id)","creatives":[\#(list)]}}"#)
  }

  // MARK: store.defineFormat

  @Test func defineFormatAddsAFormatThenReplacesIt() throws {
    let client = harness.connect()
    let format =
      #"{"format":{"id":"f1","description":"d","assets":[{"name":"Title","type":"text","required":true},{"name":"Picture","type":"image"},{"name":"Clip","type":"video","required":false}]}}"#
    #expect(
      try client.result("store.defineFormat", format)
        == .object([("formatID", .string("f1")), ("replaced", .bool(false))]))
    #expect(
      try client.result("store.defineFormat", format)
        == .object([("formatID", .string("f1")), ("replaced", .bool(true))]))
    let formats = try #require(client.result("store.list")["formats"]?.items)
    #expect(
      formats.first { $0["id"] == .string("f1") }
        == .object([
          ("id", .string("f1")),
          (
            "assets",
            .array([
              .object([
                ("name", .string("Title")), ("type", .string("text")), ("required", .bool(true)),
              ]),
              .object([
                ("name", .string("Picture")), ("type", .string("image")),
                ("required", .bool(false)),
              ]),
              .object([
                ("name", .string("Clip")), ("type", .string("video")), ("required", .bool(false)),
              ]),
            ])
          ),
        ]))
  }

  @Test func aFormatCanBeRedefinedCompatiblyWhileCreativesUseIt() throws {
    let client = harness.connect()
    #expect(
      try client.result(
        "store.defineFormat",
        #"{"format":{"id":"10063170","assets":[{"name":"Headline","type":"text","required":true},{"name":"MainImage","type":"image","required":true},{"name":"Caption","type":"text"},{"name":"Extra","type":"text"}]}}"#
      ) == .object([("formatID", .string("10063170")), ("replaced", .bool(true))]))
    #expect(harness.manager.inventory.format("10063170")?.assets.count == 4)
  }

  @Test func redefiningAFormatSoThatAStoredCreativeBreaksIsRefusedNamingTheCreative() throws {
    let client = harness.connect()
    let before = harness.manager.inventory.format("10063170")
    let error = try client.error(
      "store.defineFormat",
      #"{"format":{"id":"10063170","assets":[{"name":"Headline","type":"text","required":true},{"name":"MainImage","type":"image","required":true}]}}"#
    )
    #expect(
      error
        == invalidParamsError(
          "format",
          "would make creative custom-10063170-1 invalid: assets.Caption is not an asset of format 10063170"
        ))
    #expect(harness.manager.inventory.format("10063170") == before)
  }

  @Test(arguments: [
    (#"{}"#, "format", "is required"),
    (#"{"format":[]}"#, "format", "must be an object"),
    (#"{"format":{"assets":[]}}"#, "format.id", "is required"),
    (#"{"format":{"id":"","assets":[]}}"#, "format.id", "must not be empty"),
    (#"{"format":{"id":"f"}}"#, "format.assets", "is required"),
    (#"{"format":{"id":"f","assets":{}}}"#, "format.assets", "must be an array"),
    (#"{"format":{"id":"f","assets":["x"]}}"#, "format.assets[0]", "must be an object"),
    (#"{"format":{"id":"f","assets":[],"colour":"red"}}"#, "format.colour", "is not a known field"),
    (
      #"{"format":{"id":"f","assets":[{"name":"A","type":"text","size":1}]}}"#,
      "format.assets[0].size", "is not a known field"
    ),
    (
      #"{"format":{"id":"f","assets":[{"name":"A","type":"text"},{"type":"text"}]}}"#,
      "format.assets[1].name", "is required"
    ),
    (
      #"{"format":{"id":"f","assets":[{"name":"","type":"text"}]}}"#, "format.assets[0].name",
      "must not be empty"
    ),
    (#"{"format":{"id":"f","assets":[{"name":"A"}]}}"#, "format.assets[0].type", "is required"),
    (
      #"{"format":{"id":"f","assets":[{"name":"A","type":"audio"}]}}"#, "format.assets[0].type",
      #"must be one of "text", "image", "video""#
    ),
    (
      #"{"format":{"id":"f","assets":[{"name":"A","type":"text","required":"yes"}]}}"#,
      "format.assets[0].required", "must be a boolean"
    ),
    (
      #"{"format":{"id":"f","assets":[{"name":"A","type":"text"},{"name":"B","type":"text"},{"name":"A","type":"image"}]}}"#,
      "format.assets[2].name", #"repeats assets[0].name ("A")"#
    ),
  ])
  func anInvalidFormatIsInvalidParamsNamingTheField(params: String, field: String, problem: String)
    throws
  {
    let client = harness.connect()
    #expect(try client.error("store.defineFormat", params) == invalidParamsError(field, problem))
    #expect(harness.manager.inventory.format("f") == nil)
  }

  // MARK: store.putCreative

  @Test func putCreativeStoresACreativeThatNewLoadsServe() throws {
    let client = harness.connect()
    #expect(
      try putCreative(
        client,
        #"{"id":"c1","kind":"native","priority":3,"eCPM":1.25,"assets":{"headline":"Hello","body":"World","callToAction":"Go","store":"S","price":"P","advertiser":"A","starRating":3.5,"extraAssets":{"k":"v"}},"landingPageURL":"https://x.test/lp","deepLinks":["app://x"],"description":"note"}"#
      ) == .object([("creativeID", .string("c1")), ("replaced", .bool(false))]))
    #expect(
      try putUnit(client, "/1/u", ["c1"])
        == .object([("adUnitID", .string("/1/u")), ("replaced", .bool(false))]))
    let ad = try #require(
      client.load(#"{"adUnitID":"/1/u","options":{"disableImageLoading":true}}"#)["ads"]?[0])
    #expect(ad["headline"] == .string("Hello"))
    #expect(ad["body"] == .string("World"))
    #expect(ad["callToAction"] == .string("Go"))
    #expect(ad["store"] == .string("S"))
    #expect(ad["price"] == .string("P"))
    #expect(ad["advertiser"] == .string("A"))
    #expect(ad["starRating"] == .number("3.5"))
    #expect(ad["icon"] == .null)
    #expect(ad["images"] == .array([]))
    #expect(ad["extraAssets"] == .object([("k", .string("v"))]))
    #expect(ad["adChoices"] == .null)
    #expect(ad["muteThisAdReasons"] == nil)
    let adId = try #require(ad["adId"]?.text)
    #expect(
      try client.result(
        "performClickOnAsset", #"{"adId":"\#(adId)","key":"body","openableURLSchemes":["app"]}"#)
        == .object([
          ("recorded", .bool(true)), ("action", .string("deepLink")), ("url", .string("app://x")),
        ]))
  }

  @Test func putCreativeOfACustomFormatIsServedForThatFormat() throws {
    let client = harness.connect()
    #expect(
      try putCreative(client, customCreative("c2", #","priority":50"#))
        == .object([("creativeID", .string("c2")), ("replaced", .bool(false))]))
    _ = try putUnit(client, "/1/u", ["c2"])
    let ad = try #require(
      client.load(
        #"{"adUnitID":"/1/u","adTypes":["customNative"],"customNativeAdFormatIDs":["10063170"],"options":{"disableImageLoading":true}}"#
      )["ads"]?[0])
    #expect(ad["formatID"] == .string("10063170"))
    #expect(
      ad["availableAssetKeys"]
        == .array([.string("Headline"), .string("MainImage"), .string("Caption")]))
    let adId = try #require(ad["adId"]?.text)
    #expect(
      try client.result("stringForKey", #"{"adId":"\#(adId)","key":"Caption"}"#) == .string("C"))
  }

  @Test(arguments: [
    (#"{}"#, "creative", "is required"),
    (#"{"creative":"x"}"#, "creative", "must be an object"),
    (
      #"{"creative":\#(customCreative("bad", ""))}"#.replacingFirst(#""width":8"#, #""width":0"#),
      "creative.assets.MainImage.width", "must be a positive integer"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(#""height":4"#, #""height":-4"#),
      "creative.assets.MainImage.height", "must be a positive integer"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(#""width":8"#, #""width":"8""#),
      "creative.assets.MainImage.width", "must be an integer"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(#""width":8"#, #""width":8193"#),
      "creative.assets.MainImage.width", "must be at most 8192"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst("10063170", "999"),
      "creative.formatID", "names no defined custom format"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(#""formatID":"10063170","#, ""),
      "creative.formatID", "is required"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(
        #""Caption":"C""#, #""Caption":"C","Nope":"x""#),
      "creative.assets.Nope", "is not an asset of custom format 10063170"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(#","Caption":"C""#, ""),
      "creative.assets.Caption", "is required by format 10063170"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(#""Headline":"H""#, #""Headline":7"#),
      "creative.assets.Headline", "must be a string"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(
        #""Caption":"C""#, #""Caption":{"url":"u","width":1,"height":1}"#),
      "creative.assets.Caption", "must be a string"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(
        #"{"url":"https://x.test/m.png","width":8,"height":4}"#, #""m.png""#),
      "creative.assets.MainImage", "must be an object"
    ),
    (
      #"{"creative":\#(customCreative("bad", #","colour":"red""#))}"#, "creative.colour",
      "is not a known field"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(
        #""height":4"#, #""height":4,"alt":"x""#),
      "creative.assets.MainImage.alt", "is not a known field"
    ),
    (
      #"{"creative":\#(customCreative("bad", #","video":{"duration":5}"#))}"#, "creative.video",
      "applies only to native creatives (use a video asset)"
    ),
    (
      #"{"creative":\#(customCreative("bad", #","indirect":true,"adChoices":{"attribution":"Promoted"}"#))}"#,
      "creative.adChoices.attribution", #"must be one of "Ad", "Advertisement", "Sponsored""#
    ),
    (
      #"{"creative":\#(customCreative("bad", #","indirect":true,"adChoices":{"url":"https://a.test"}"#))}"#,
      "creative.adChoices.url", "is not a known field"
    ),
    (
      #"{"creative":\#(customCreative("bad", #","muteThisAdReasons":["A","B","A"]"#))}"#,
      "creative.muteThisAdReasons[2]", #"repeats the reason "A""#
    ),
    (
      #"{"creative":\#(customCreative("bad", #","muteThisAdReasons":[""]"#))}"#,
      "creative.muteThisAdReasons[0]", "must not be empty"
    ),
    (
      #"{"creative":\#(customCreative("bad", #","eCPM":-1"#))}"#, "creative.eCPM",
      "must be between 0 and 1000000"
    ),
    (
      #"{"creative":\#(customCreative("bad", #","priority":1.5"#))}"#, "creative.priority",
      "must be an integer"
    ),
    (
      #"{"creative":\#(customCreative("bad", #","targeting":{"customTargeting":{"k":[]}}"#))}"#,
      "creative.targeting.customTargeting.k", "must be a string or a non-empty array of strings"
    ),
    (
      #"{"creative":\#(customCreative("bad", #","targeting":{"keyword":["a"]}"#))}"#,
      "creative.targeting.keyword", "is not a known field"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(
        #","landingPageURL":"https://x.test""#, ""),
      "creative.landingPageURL", "is required"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(#""id":"bad""#, #""id":"""#),
      "creative.id", "must not be empty"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst(#""kind":"customNative","#, ""),
      "creative.kind", "is required"
    ),
    (
      #"{"creative":\#(customCreative())}"#.replacingFirst("customNative", "banner"),
      "creative.kind", #"must be one of "native", "customNative""#
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","formatID":"10063170","assets":{"headline":"h"},"landingPageURL":"l"}}"#,
      "creative.formatID", "applies only to customNative creatives"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","landingPageURL":"l"}}"#, "creative.assets",
      "is required"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"body":"b"},"landingPageURL":"l"}}"#,
      "creative.assets.headline", "is required"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h","colour":"red"},"landingPageURL":"l"}}"#,
      "creative.assets.colour", "is not a known field"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h","starRating":5.5},"landingPageURL":"l"}}"#,
      "creative.assets.starRating", "must be between 0 and 5"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h","icon":{"url":"u","width":1}},"landingPageURL":"l"}}"#,
      "creative.assets.icon.height", "is required"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h","icon":{"url":"","width":1,"height":1}},"landingPageURL":"l"}}"#,
      "creative.assets.icon.url", "must not be empty"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h","icon":{"url":"u","width":1,"height":1,"scale":20}},"landingPageURL":"l"}}"#,
      "creative.assets.icon.scale", "must be between 0.1 and 10"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h","icon":{"url":"u","width":1,"height":1,"data":"!!"}},"landingPageURL":"l"}}"#,
      "creative.assets.icon.data", "must be non-empty base64"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h","icon":{"url":"u","width":1,"height":1,"mimeType":"image/jpeg"}},"landingPageURL":"l"}}"#,
      "creative.assets.icon.mimeType", "must be image/png when the image bytes are generated"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h","images":[{"url":"u","width":1,"height":1},{"url":"v","width":1,"height":0}]},"landingPageURL":"l"}}"#,
      "creative.assets.images[1].height", "must be a positive integer"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h","images":[1]},"landingPageURL":"l"}}"#,
      "creative.assets.images[0]", "must be an object"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h","extraAssets":{"k":1}},"landingPageURL":"l"}}"#,
      "creative.assets.extraAssets.k", "must be a string"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h"},"video":{},"landingPageURL":"l"}}"#,
      "creative.video.duration", "is required"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h"},"video":{"duration":0},"landingPageURL":"l"}}"#,
      "creative.video.duration", "must be between 0.001 and 86400"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h"},"video":{"duration":5,"autoplay":true},"landingPageURL":"l"}}"#,
      "creative.video.autoplay", "is not a known field"
    ),
    (
      #"{"creative":{"id":"bad","kind":"native","assets":{"headline":"h"},"video":{"duration":5,"poster":{"url":"p","width":0,"height":1}},"landingPageURL":"l"}}"#,
      "creative.video.poster.width", "must be a positive integer"
    ),
    (
      #"{"creative":{"id":"bad","kind":"customNative","formatID":"12406343","assets":{"Headline":"h","Video":{}},"landingPageURL":"l"}}"#,
      "creative.assets.Video.duration", "is required"
    ),
    (
      #"{"creative":{"id":"bad","kind":"customNative","formatID":"12406343","assets":{"Headline":"h"},"landingPageURL":"l"}}"#,
      "creative.assets.Video", "is required by format 12406343"
    ),
  ])
  func anInvalidCreativeIsInvalidParamsNamingTheFieldAndStoresNothing(
    params: String, field: String, problem: String
  ) throws {
    let client = harness.connect()
    #expect(try client.error("store.putCreative", params) == invalidParamsError(field, problem))
    #expect(harness.manager.inventory.creative("bad") == nil)
    #expect(harness.manager.inventory.creatives.count == 9)
  }

  @Test func imagesWithoutDataAreGeneratedPNGsOfTheStatedSize() throws {
    let client = harness.connect()
    _ = try putCreative(
      client,
      #"{"id":"c1","kind":"native","assets":{"headline":"h","icon":{"url":"https://x.test/i.png","width":40,"height":30,"scale":2},"images":[{"url":"https://x.test/a.png","width":24,"height":12},{"url":"https://x.test/b","width":7,"height":9}]},"landingPageURL":"l"}"#
    )
    _ = try putCreative(
      client, customCreative("c2", #","priority":-1"#).replacingFirst(#""width":8"#, #""width":33"#)
    )
    _ = try putUnit(client, "/1/u", ["c1", "c2"])
    let ads = try #require(
      client.load(
        #"{"adUnitID":"/1/u","adTypes":["native","customNative"],"customNativeAdFormatIDs":["10063170"],"options":{"numberOfAds":2,"shouldRequestMultipleImages":true}}"#
      )["ads"]?.items)
    #expect(ads.count == 2)
    let icon = try #require(ads[0]["icon"])
    #expect(icon["scale"] == .number("2"))
    let imageForKey = try client.result(
      "imageForKey", #"{"adId":"\#(ads[1]["adId"]?.text ?? "")","key":"MainImage"}"#)
    let images = [icon] + (ads[0]["images"]?.items ?? []) + [imageForKey]
    let expectedSizes = [(40, 30), (24, 12), (7, 9), (33, 4)]
    #expect(images.count == expectedSizes.count)
    for (image, size) in zip(images, expectedSizes) {
      #expect(image["mimeType"] == .string("image/png"))
      #expect(image["width"] == .int(size.0))
      #expect(image["height"] == .int(size.1))
      let png = try #require(image["data"]?.text.flatMap(decodeBase64))
      let decoded = try #require(pngSize(png))
      #expect(decoded.width == size.0)
      #expect(decoded.height == size.1)
    }
  }

  @Test func base64DataIsKeptWithItsMimeType() throws {
    let client = harness.connect()
    _ = try putCreative(
      client,
      #"{"id":"c1","kind":"native","assets":{"headline":"h","icon":{"url":"https://x.test/i.jpg","width":3,"height":2,"mimeType":"image/jpeg","data":"AAECAwQ="},"images":[{"url":"https://x.test/a.png","width":1,"height":1,"data":"iVBORw0KGgo="}]},"landingPageURL":"l"}"#
    )
    _ = try putUnit(client, "/1/u", ["c1"])
    let ad = try #require(client.load(#"{"adUnitID":"/1/u"}"#)["ads"]?[0])
    let icon = JSONValue.object([
      ("url", .string("https://x.test/i.jpg")), ("scale", .number("1")), ("width", .number("3")),
      ("height", .number("2")), ("data", .string("AAECAwQ=")), ("mimeType", .string("image/jpeg")),
    ])
    #expect(ad["icon"] == icon)
    #expect(ad["images"]?[0]?["data"] == .string("iVBORw0KGgo="))
    #expect(ad["images"]?[0]?["mimeType"] == .string("image/png"))
    #expect(ad["mediaContent"]?["mainImage"] == ad["images"]?[0])
    let adId = try #require(ad["adId"]?.text)
    #expect(try client.result("imageForKey", #"{"adId":"\#(adId)","key":"icon"}"#) == icon)
  }

  @Test func replacingACreativeChangesNewLoadsButNotLoadedAds() throws {
    let client = harness.connect()
    let options = #""options":{"disableImageLoading":true}"#
    let before = try #require(
      client.load(#"{"adUnitID":"\#(Units.direct)",\#(options)}"#)["ads"]?[0])
    #expect(before["headline"] == .string("Flood-It! 2"))
    #expect(
      try putCreative(
        client,
        #"{"id":"native-app-install-1","kind":"native","priority":10,"eCPM":2,"assets":{"headline":"Replaced","icon":{"url":"https://x.test/new.png","width":64,"height":64}},"landingPageURL":"https://x.test/new"}"#
      ) == .object([("creativeID", .string("native-app-install-1")), ("replaced", .bool(true))]))
    // The same load options as before: a stale cached encoding would still say Flood-It! 2.
    let after = try #require(
      client.load(#"{"adUnitID":"\#(Units.direct)",\#(options)}"#)["ads"]?[0])
    #expect(after["headline"] == .string("Replaced"))
    #expect(after["store"] == .null)
    #expect(after["icon"]?["width"] == .number("64"))
    #expect(after["images"] == .array([]))

    let oldID = try #require(before["adId"]?.text)
    let newID = try #require(after["adId"]?.text)
    func headline(_ adId: String) throws -> JSONValue {
      try client.result("stringForKey", #"{"adId":"\#(adId)","key":"headline"}"#)
    }
    #expect(try headline(oldID) == .string("Flood-It! 2"))
    #expect(try headline(newID) == .string("Replaced"))
    #expect(
      try client.result("stringForKey", #"{"adId":"\#(oldID)","key":"store"}"#)
        == .string("Google Play"))
    #expect(
      try client.result("performClickOnAsset", #"{"adId":"\#(oldID)","key":"store"}"#)["url"]
        == .string("https://play.google.com/store/apps/details?id=com.labpixies.flood"))
    #expect(
      try client.result("performClickOnAsset", #"{"adId":"\#(newID)","key":"headline"}"#)["url"]
        == .string("https://x.test/new"))
  }

  @Test func replacingACreativeInvalidatesEveryCachedVariant() throws {
    let client = harness.connect()
    _ = try putCreative(
      client, #"{"id":"c1","kind":"native","assets":{"headline":"v1"},"landingPageURL":"l"}"#)
    _ = try putUnit(client, "/1/u", ["c1"])
    let variants = [
      #"{"adUnitID":"/1/u"}"#,
      #"{"adUnitID":"/1/u","options":{"disableImageLoading":true}}"#,
      #"{"adUnitID":"/1/u","options":{"shouldRequestMultipleImages":true,"adChoicesPosition":"bottomLeft"}}"#,
    ]
    for variant in variants {
      #expect(try client.load(variant)["ads"]?[0]?["headline"] == .string("v1"))
    }
    _ = try putCreative(
      client, #"{"id":"c1","kind":"native","assets":{"headline":"v2"},"landingPageURL":"l"}"#)
    for variant in variants {
      #expect(try client.load(variant)["ads"]?[0]?["headline"] == .string("v2"), "\(variant)")
    }
  }

  @Test func aCreativeRemovedAndPutAgainIsServedFresh() throws {
    let client = harness.connect()
    _ = try putCreative(
      client, #"{"id":"c1","kind":"native","assets":{"headline":"v1"},"landingPageURL":"l"}"#)
    _ = try putUnit(client, "/1/u", ["c1"])
    #expect(try client.load(#"{"adUnitID":"/1/u"}"#)["ads"]?[0]?["headline"] == .string("v1"))
    _ = try putUnit(client, "/1/u", [])
    #expect(
      try client.result("store.remove", #"{"kind":"creative","id":"c1"}"#)
        == .object([("removed", .bool(true))]))
    #expect(
      try putCreative(
        client, #"{"id":"c1","kind":"native","assets":{"headline":"v2"},"landingPageURL":"l"}"#)
        == .object([("creativeID", .string("c1")), ("replaced", .bool(false))]))
    _ = try putUnit(client, "/1/u", ["c1"])
    #expect(try client.load(#"{"adUnitID":"/1/u"}"#)["ads"]?[0]?["headline"] == .string("v2"))
  }

  // MARK: store.putAdUnit

  @Test func putAdUnitAddsThenReplacesAUnit() throws {
    let client = harness.connect()
    #expect(
      try putUnit(client, "/1/u", ["native-content-1"])
        == .object([("adUnitID", .string("/1/u")), ("replaced", .bool(false))]))
    let light = #""options":{"disableImageLoading":true}"#
    #expect(
      try client.load(#"{"adUnitID":"/1/u",\#(light)}"#)["ads"]?[0]?["headline"]
        == .string("Mobile Ads, Made Simple"))
    #expect(
      try putUnit(client, "/1/u", ["backfill-content-1"])
        == .object([("adUnitID", .string("/1/u")), ("replaced", .bool(true))]))
    #expect(
      try client.load(#"{"adUnitID":"/1/u",\#(light)}"#)["ads"]?[0]?["headline"]
        == .string("Backfill: Ten Tips for Better Sleep"))
    #expect(
      try client.result("store.putAdUnit", #"{"adUnit":{"id":"/1/empty"}}"#)
        == .object([("adUnitID", .string("/1/empty")), ("replaced", .bool(false))]))
    #expect(try client.error("loadAd", #"{"adUnitID":"/1/empty"}"#)["code"] == .number("1001"))
  }

  @Test(arguments: [
    (#"{}"#, "adUnit", "is required"),
    (#"{"adUnit":{"creatives":[]}}"#, "adUnit.id", "is required"),
    (#"{"adUnit":{"id":""}}"#, "adUnit.id", "must not be empty"),
    (#"{"adUnit":{"id":"u","creatives":"c"}}"#, "adUnit.creatives", "must be an array of strings"),
    (#"{"adUnit":{"id":"u","creatives":[1]}}"#, "adUnit.creatives[0]", "must be a string"),
    (#"{"adUnit":{"id":"u","size":"300x250"}}"#, "adUnit.size", "is not a known field"),
    (
      #"{"adUnit":{"id":"u","creatives":["native-content-1","nope"]}}"#, "adUnit.creatives[1]",
      #"names no stored creative ("nope")"#
    ),
    (
      #"{"adUnit":{"id":"u","creatives":["native-content-1","video-native-1","native-content-1"]}}"#,
      "adUnit.creatives[2]", #"repeats creatives[0] ("native-content-1")"#
    ),
  ])
  func anInvalidAdUnitIsInvalidParamsNamingTheField(params: String, field: String, problem: String)
    throws
  {
    let client = harness.connect()
    #expect(try client.error("store.putAdUnit", params) == invalidParamsError(field, problem))
    #expect(harness.manager.inventory.adUnit("u") == nil)
  }

  // MARK: store.remove

  @Test func removingAFormatUsedByACreativeIsRefusedNamingTheCreative() throws {
    let client = harness.connect()
    #expect(
      try client.error("store.remove", #"{"kind":"format","id":"10063170"}"#)
        == invalidParamsError("id", "format 10063170 is still used by creative custom-10063170-1"))
    #expect(harness.manager.inventory.format("10063170") != nil)
  }

  @Test func removingACreativeListedByAdUnitsIsRefusedNamingTheFirstUnitByID() throws {
    let client = harness.connect()
    _ = try putUnit(client, "/0/first", ["native-content-1"])
    #expect(
      try client.error("store.remove", #"{"kind":"creative","id":"native-content-1"}"#)
        == invalidParamsError("id", "creative native-content-1 is still listed by ad unit /0/first")
    )
    #expect(
      try client.error("store.remove", #"{"kind":"creative","id":"video-native-1"}"#)
        == invalidParamsError(
          "id",
          "creative video-native-1 is still listed by ad unit /21775744923/example/native-video"))
    #expect(harness.manager.inventory.creative("native-content-1") != nil)
  }

  @Test func removingInDependencyOrderSucceedsAndUnknownIDsAreNotRemoved() throws {
    let client = harness.connect()
    func remove(_ kind: String, _ id: String) throws -> JSONValue {
      try client.result("store.remove", #"{"kind":"\#(kind)","id":"\#(id)"}"#)
    }
    let removed = JSONValue.object([("removed", .bool(true))])
    let notRemoved = JSONValue.object([("removed", .bool(false))])
    #expect(try remove("adUnit", Units.direct) == removed)
    #expect(try remove("adUnit", Units.direct) == notRemoved)
    #expect(try remove("creative", "custom-10063170-1") == removed)
    #expect(try remove("format", Units.customFormat) == removed)
    #expect(try remove("format", Units.customFormat) == notRemoved)
    #expect(try remove("creative", "nope") == notRemoved)
    #expect(try remove("adUnit", "nope") == notRemoved)
    let error = try client.error("loadAd", #"{"adUnitID":"\#(Units.direct)"}"#)
    #expect(error["code"] == .number("1000"))
    let list = try client.result("store.list")
    #expect(list["formats"]?.items?.map { $0["id"] } == [.string(Units.videoFormat)])
    #expect(list["creatives"]?.items?.count == 8)
    #expect(list["adUnits"]?.items?.count == 4)
  }

  @Test func anAdWhoseCreativeWasRemovedStillWorks() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID()
    _ = try client.result("store.remove", #"{"kind":"adUnit","id":"\#(Units.direct)"}"#)
    _ = try client.result("store.remove", #"{"kind":"creative","id":"native-app-install-1"}"#)
    #expect(
      try client.result("stringForKey", #"{"adId":"\#(adId)","key":"headline"}"#)
        == .string("Flood-It! 2"))
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
        == .object([("recorded", .bool(true))]))
  }

  @Test(arguments: [
    (#"{"id":"x"}"#, "kind", "is required"),
    (#"{"kind":"unit","id":"x"}"#, "kind", #"must be one of "format", "creative", "adUnit""#),
    (#"{"kind":"format"}"#, "id", "is required"),
    (#"{"kind":"format","id":5}"#, "id", "must be a string"),
  ])
  func removeParamsAreChecked(params: String, field: String, problem: String) throws {
    #expect(
      try harness.connect().error("store.remove", params) == invalidParamsError(field, problem))
  }

  // MARK: store.list

  @Test func listDescribesTheBuiltInInventorySortedByID() throws {
    let list = try harness.connect().result("store.list", "{}")
    #expect(list.keys == ["formats", "creatives", "adUnits"])
    func creative(_ id: String, _ formatID: String? = nil) -> JSONValue {
      formatID.map {
        .object([
          ("id", .string(id)), ("kind", .string("customNative")), ("formatID", .string($0)),
        ])
      } ?? .object([("id", .string(id)), ("kind", .string("native"))])
    }
    #expect(
      list["creatives"]
        == .array([
          creative("admob-app-install-1"), creative("admob-video-1"),
          creative("backfill-app-install-1"), creative("backfill-content-1"),
          creative("custom-10063170-1", "10063170"),
          creative("custom-video-12406343-1", "12406343"), creative("native-app-install-1"),
          creative("native-content-1"), creative("video-native-1"),
        ]))
    func unit(_ id: String, _ creatives: [String]) -> JSONValue {
      .object([("id", .string(id)), ("creatives", .array(creatives.map(JSONValue.string)))])
    }
    #expect(
      list["adUnits"]
        == .array([
          unit(Units.direct, ["native-app-install-1", "native-content-1", "custom-10063170-1"]),
          unit(Units.backfill, ["backfill-app-install-1", "backfill-content-1"]),
          unit(Units.video, ["video-native-1", "custom-video-12406343-1"]),
          unit(Units.adMob, ["admob-video-1", "admob-app-install-1"]),
          .object([
            ("id", .string("native-ads/mediation/sample-waterfall")),
            (
              "creatives",
              .array([.string("backfill-app-install-1"), .string("backfill-content-1")])
            ),
            (
              "waterfall",
              .array([
                .object([
                  ("type", .string("customEvent")),
                  ("adapterClassName", .string("SampleCustomEvent")),
                  ("parameter", .string("sample-unit-1")), ("eCPM", .number("2.5")),
                  ("timeoutMs", .number("2000")), ("label", .string("Sample network")),
                ]),
                .object([
                  ("type", .string("inventory")), ("eCPM", .number("0.5")),
                  ("label", .string("Backfill")),
                ]),
              ])
            ),
          ]),
        ]))
    func asset(_ name: String, _ type: String, _ required: Bool) -> JSONValue {
      .object([("name", .string(name)), ("type", .string(type)), ("required", .bool(required))])
    }
    #expect(
      list["formats"]
        == .array([
          .object([
            ("id", .string("10063170")),
            (
              "assets",
              .array([
                asset("Headline", "text", true), asset("MainImage", "image", true),
                asset("Caption", "text", true),
              ])
            ),
          ]),
          .object([
            ("id", .string("12406343")),
            (
              "assets",
              .array([
                asset("Headline", "text", true), asset("Video", "video", true),
                asset("Caption", "text", false),
              ])
            ),
          ]),
        ]))
  }

  @Test func listShowsAdditionsInIDOrder() throws {
    let client = harness.connect()
    _ = try client.result("store.defineFormat", #"{"format":{"id":"0-first","assets":[]}}"#)
    _ = try putCreative(
      client, #"{"id":"aaa","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"}"#)
    _ = try putUnit(client, "/0/u", ["aaa", "native-content-1"])
    let list = try client.result("store.list")
    #expect(
      list["formats"]?[0] == .object([("id", .string("0-first")), ("assets", .array([]))]))
    #expect(
      list["creatives"]?[0] == .object([("id", .string("aaa")), ("kind", .string("native"))]))
    #expect(
      list["adUnits"]?[0]
        == .object([
          ("id", .string("/0/u")),
          ("creatives", .array([.string("aaa"), .string("native-content-1")])),
        ]))
    #expect(list["creatives"]?.items?.count == 10)
  }

  // MARK: Duplicate keys

  @Test
  func aRepeatedExtraAssetKeyKeepsTheLastValueOnce() throws {
    let client = harness.connect()
    _ = try putCreative(
      client,
      #"{"id":"c1","kind":"native","assets":{"headline":"h","extraAssets":{"a":"1","a":"2"}},"landingPageURL":"l"}"#
    )
    _ = try putUnit(client, "/1/u", ["c1"])
    let ad = try #require(
      client.load(#"{"adUnitID":"/1/u","options":{"disableImageLoading":true}}"#)["ads"]?[0])
    #expect(ad["extraAssets"] == .object([("a", .string("2"))]))
  }

  @Test
  func aRepeatedCustomAssetKeyKeepsTheLastValue() throws {
    let client = harness.connect()
    #expect(
      try putCreative(
        client,
        customCreative("c1").replacingFirst(#""Headline":"H""#, #""Headline":"H1","Headline":"H2""#)
      ) == .object([("creativeID", .string("c1")), ("replaced", .bool(false))]))
    _ = try putUnit(client, "/1/u", ["c1"])
    let adId = try client.loadAdID(
      unit: "/1/u",
      extra: #","adTypes":["customNative"],"customNativeAdFormatIDs":["10063170"]"#)
    #expect(
      try client.result("stringForKey", #"{"adId":"\#(adId)","key":"Headline"}"#) == .string("H2"))
  }
}

extension String {
  /// The string with the first occurrence of `target` replaced (unchanged when absent).
  func replacingFirst(_ target: String, _ replacement: String) -> String {
    replacing(target, with: replacement, maxReplacements: 1)
  }
}
