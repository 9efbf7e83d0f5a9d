import JSONRPC
import NativeAds
import Testing

@Suite struct LoadAdTests {
  private let harness = ServiceHarness()

  @Test func aDefaultLoadReturnsOneNativeAdAndTheResponseInfo() throws {
    let client = harness.connect()
    let result = try client.load(#"{"adUnitID":"\#(Units.direct)"}"#)
    #expect(result.keys == ["ads", "responseInfo"])
    let ads = try #require(result["ads"]?.items)
    #expect(ads.count == 1)
    let ad = ads[0]
    #expect(ad["adId"]?.text?.isEmpty == false)
    #expect(ad["kind"] == .string("native"))
    #expect(ad["responseInfo"] == result["responseInfo"])
  }

  /// The unit's ID is read the same whether it names a unit loaded a moment ago (its ID then
  /// taken from the inventory), is written with escapes, names a unit that was just removed,
  /// or names none: the same ad, the same unit kept with it, the same errors.
  @Test func theUnitIDIsReadTheSameWhateverTheUnitsLoadedBefore() throws {
    let client = harness.connect()
    let escaped = Units.direct.replacingOccurrences(of: "/", with: #"\/"#)
    var headlines: [JSONValue?] = []
    for params in [
      #"{"adUnitID":"\#(Units.direct)"}"#, #"{"adUnitID":"\#(Units.direct)"}"#,
      #"{"adUnitID":"\#(escaped)"}"#, #"{"adUnitID":"\#(Units.direct)"}"#,
    ] {
      let ad = try #require(client.load(params)["ads"]?[0])
      headlines.append(ad["headline"])
      let id = try #require(ad["adId"]?.text)
      #expect(try harness.manager.ad(id).adUnitID == Units.direct, "\(params)")
    }
    #expect(headlines.allSatisfy { $0 == .string("Flood-It! 2") }, "\(headlines)")
    // A unit ID one byte longer or shorter than a recent one, and a recent one removed.
    for unit in [Units.direct + "x", String(Units.direct.dropLast())] {
      let error = try client.error("loadAd", #"{"adUnitID":"\#(unit)"}"#)
      #expect(error["message"]?.text?.contains("unknown ad unit ID") == true, "\(unit)")
    }
    _ = try client.result("store.remove", #"{"kind":"adUnit","id":"\#(Units.direct)"}"#)
    let gone = try client.error("loadAd", #"{"adUnitID":"\#(Units.direct)"}"#)
    #expect(gone["message"]?.text?.contains("unknown ad unit ID") == true)
  }

  @Test func theBestDirectSoldCreativeIsTheAppInstallAdWithEveryNativeAsset() throws {
    let ad = try #require(
      harness.connect().load(#"{"adUnitID":"\#(Units.direct)"}"#)["ads"]?[0])
    #expect(ad["headline"] == .string("Flood-It! 2"))
    #expect(
      ad["body"] == .string("Fill the board with a single colour before you run out of moves."))
    #expect(ad["callToAction"] == .string("Install"))
    #expect(ad["store"] == .string("Google Play"))
    #expect(ad["price"] == .string("Free"))
    #expect(ad["advertiser"] == .null)
    #expect(ad["starRating"] == .number("4.5"))
    #expect(ad["extraAssets"] == .object([]))
    let icon = try #require(ad["icon"])
    #expect(
      icon["url"]
        == .string("https://static.native-ads.test/creatives/native-app-install-1/icon.png"))
    #expect(icon["scale"] == .number("1"))
    #expect(icon["width"] == .number("128"))
    #expect(icon["height"] == .number("128"))
    #expect(icon["mimeType"] == .string("image/png"))
    let images = try #require(ad["images"]?.items)
    #expect(images.count == 1)
    #expect(images[0]["width"] == .number("1200"))
    #expect(images[0]["height"] == .number("627"))
    #expect(ad["adChoices"] == .null)
  }

  @Test func aNativeAdHasNoCustomFieldsAndACustomAdHasNoNativeFields() throws {
    let client = harness.connect()
    let native = try #require(client.load(#"{"adUnitID":"\#(Units.direct)"}"#)["ads"]?[0])
    for key in [
      "headline", "body", "callToAction", "store", "price", "advertiser", "starRating",
      "icon", "images", "extraAssets", "mediaContent", "adChoices", "responseInfo", "expiresAt",
    ] {
      #expect(native[key] != nil, "native ad lacks \(key)")
    }
    #expect(native["formatID"] == nil)
    #expect(native["availableAssetKeys"] == nil)

    let custom = try #require(
      client.load(
        #"{"adUnitID":"\#(Units.direct)","adTypes":["customNative"],"customNativeAdFormatIDs":["10063170"]}"#
      )["ads"]?[0])
    #expect(custom["kind"] == .string("customNative"))
    #expect(custom["formatID"] == .string("10063170"))
    #expect(
      custom["availableAssetKeys"]
        == .array([.string("Headline"), .string("MainImage"), .string("Caption")]))
    for key in ["mediaContent", "adChoices", "responseInfo", "expiresAt", "adId"] {
      #expect(custom[key] != nil, "custom ad lacks \(key)")
    }
    for key in [
      "headline", "body", "callToAction", "store", "price", "advertiser", "starRating",
      "icon", "images", "extraAssets",
    ] {
      #expect(custom[key] == nil, "custom ad has \(key)")
    }
  }

  @Test func mediaContentDescribesTheMainImage() throws {
    let ad = try #require(harness.connect().load(#"{"adUnitID":"\#(Units.direct)"}"#)["ads"]?[0])
    let media = try #require(ad["mediaContent"])
    #expect(media["aspectRatio"] == .number("1.9138755980861244"))
    #expect(media["hasVideoContent"] == .bool(false))
    #expect(media["duration"] == .number("0"))
    #expect(media["currentTime"] == .number("0"))
    #expect(media["mainImage"] == ad["images"]?[0])
  }

  @Test func aCustomAdHasEmptyMediaContent() throws {
    let ad = try #require(
      harness.connect().load(
        #"{"adUnitID":"\#(Units.direct)","adTypes":["customNative"],"customNativeAdFormatIDs":["10063170"]}"#
      )["ads"]?[0])
    let media = try #require(ad["mediaContent"])
    #expect(media["aspectRatio"] == .number("0"))
    #expect(media["hasVideoContent"] == .bool(false))
    #expect(media["duration"] == .number("0"))
    #expect(media["currentTime"] == .number("0"))
    #expect(media["mainImage"] == .null)
  }

  @Test func theAdMobUnitServesItsVideoAdFirst() throws {
    let ad = try #require(harness.connect().load(#"{"adUnitID":"\#(Units.adMob)"}"#)["ads"]?[0])
    #expect(ad["headline"] == .string("Test Ad: Google Mobile Ads Video"))
    let media = try #require(ad["mediaContent"])
    #expect(media["hasVideoContent"] == .bool(true))
    #expect(media["duration"] == .number("30"))
    #expect(media["aspectRatio"]?.number == 1280.0 / 720.0)
    #expect(media["mainImage"]?["width"] == .number("1280"))
  }

  // MARK: Response info

  @Test func responseInfoNamesTheReservationSourceForDirectSoldAds() throws {
    let info = try #require(
      harness.connect().load(#"{"adUnitID":"\#(Units.direct)"}"#)["responseInfo"])
    #expect(
      info.keys == ["responseIdentifier", "loadedAdNetworkResponseInfo", "adNetworkInfoArray"])
    let identifier = try #require(info["responseIdentifier"]?.text)
    #expect(identifier.count == 24)
    #expect(
      identifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    )
    let loaded = JSONValue.object([
      ("adNetworkClassName", .string("GADMAdapterGoogleAdMobAds")),
      ("adSourceName", .string("Reservation")),
      ("latency", .number("0")),
      ("error", .null),
    ])
    #expect(info["loadedAdNetworkResponseInfo"] == loaded)
    #expect(info["adNetworkInfoArray"] == .array([loaded]))
  }

  @Test func responseInfoNamesTheAdMobNetworkForBackfillAds() throws {
    let info = try #require(
      harness.connect().load(#"{"adUnitID":"\#(Units.backfill)"}"#)["responseInfo"])
    #expect(info["loadedAdNetworkResponseInfo"]?["adSourceName"] == .string("AdMob Network"))
  }

  @Test func everyLoadHasAFreshResponseIdentifierAndFreshAdIds() throws {
    let client = harness.connect()
    var identifiers: Set<String> = []
    var adIds: Set<String> = []
    for _ in 0..<5 {
      let result = try client.load(#"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2}}"#)
      identifiers.insert(try #require(result["responseInfo"]?["responseIdentifier"]?.text))
      for ad in result["ads"]?.items ?? [] { adIds.insert(try #require(ad["adId"]?.text)) }
    }
    #expect(identifiers.count == 5)
    #expect(adIds.count == 10)
  }

  // MARK: Number of ads and formats

  @Test func numberOfAdsGivesDistinctCreativesBestFirst() throws {
    let result = try harness.connect().load(
      #"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2}}"#)
    let ads = try #require(result["ads"]?.items)
    #expect(
      ads.map { $0["headline"] } == [.string("Flood-It! 2"), .string("Mobile Ads, Made Simple")])
    #expect(Set(ads.compactMap { $0["adId"]?.text }).count == 2)
  }

  @Test func aUnitWithFewerCreativesThanAskedForReturnsWhatItHas() throws {
    let result = try harness.connect().load(
      #"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":4}}"#)
    #expect(result["ads"]?.items?.count == 2)
  }

  @Test func numberOfAdsAboveFiveIsClampedToFive() throws {
    for i in 1...7 {
      harness.manager.inventory.add(
        Creative(
          id: "extra-\(i)", content: .native(NativeAssets(headline: "Extra \(i)")), priority: i,
          landingPageURL: "https://example.com/\(i)"))
    }
    harness.manager.inventory.add(AdUnit(id: "seven", creativeIDs: (1...7).map { "extra-\($0)" }))
    let result = try harness.connect().load(
      #"{"adUnitID":"seven","options":{"numberOfAds":50,"disableImageLoading":true}}"#)
    let ads = try #require(result["ads"]?.items)
    #expect(
      ads.map { $0["headline"]?.text } == ["Extra 7", "Extra 6", "Extra 5", "Extra 4", "Extra 3"])
  }

  @Test func whenSeveralFormatsAreAskedTheBestCreativeWinsWhateverItsFormat() throws {
    let result = try harness.connect().load(
      #"{"adUnitID":"\#(Units.direct)","adTypes":["customNative","native"],"customNativeAdFormatIDs":["10063170"],"options":{"numberOfAds":3}}"#
    )
    let ads = try #require(result["ads"]?.items)
    #expect(
      ads.map { $0["kind"] } == [.string("native"), .string("customNative"), .string("native")])
    #expect(ads[2]["headline"] == .string("Mobile Ads, Made Simple"))
  }

  @Test func anUnknownFormatIDAmongKnownOnesIsHarmless() throws {
    let result = try harness.connect().load(
      #"{"adUnitID":"\#(Units.direct)","adTypes":["customNative"],"customNativeAdFormatIDs":["1","10063170"]}"#
    )
    #expect(result["ads"]?[0]?["formatID"] == .string("10063170"))
  }

  // MARK: Options

  @Test func adChoicesOfABackfillAdUseTheRequestedPosition() throws {
    let client = harness.connect()
    let byDefault = try #require(client.load(#"{"adUnitID":"\#(Units.backfill)"}"#)["ads"]?[0])
    let choices = try #require(byDefault["adChoices"])
    #expect(choices["position"] == .string("topRight"))
    #expect(choices["clickURL"] == .string("https://adssettings.google.com/whythisad"))
    #expect(
      choices["image"]?["url"] == .string("https://static.native-ads.test/adchoices/icon.png"))
    #expect(choices["image"]?["scale"] == .number("2"))
    #expect(choices["image"]?["width"] == .number("30"))
    #expect(choices["image"]?["height"] == .number("30"))
    for position in ["topLeft", "bottomRight", "bottomLeft", "topRight"] {
      let ad = try #require(
        client.load(
          #"{"adUnitID":"\#(Units.backfill)","options":{"adChoicesPosition":"\#(position)"}}"#)[
            "ads"]?[0])
      #expect(ad["adChoices"]?["position"] == .string(position))
    }
  }

  @Test func expiresAtIsOneHourAfterLoadingInRFC3339() throws {
    let client = harness.connect()
    let first = try #require(client.load(#"{"adUnitID":"\#(Units.direct)"}"#)["ads"]?[0])
    #expect(first["expiresAt"] == .string("2026-01-01T01:00:00Z"))
    harness.clock.advance(by: 86_400 + 61.75)
    let later = try #require(client.load(#"{"adUnitID":"\#(Units.direct)"}"#)["ads"]?[0])
    #expect(later["expiresAt"] == .string("2026-01-02T01:01:01Z"))
  }

  @Test func everyDocumentedOptionAndRequestFieldIsAccepted() throws {
    let result = try harness.connect().load(
      """
      {"adUnitID":"\(Units.direct)","adTypes":["native"],"customNativeAdFormatIDs":[],\
      "options":{"disableImageLoading":false,"shouldRequestMultipleImages":false,\
      "mediaAspectRatio":"landscape","adChoicesPosition":"bottomLeft","startMuted":false,\
      "customControlsRequested":true,"clickToExpandRequested":true,"numberOfAds":1},\
      "request":{"isTestRequest":true,"keywords":["a","b"],"contentURL":"https://example.com",\
      "customTargeting":{"k":"v","list":["x","y"]}}}
      """)
    #expect(result["ads"]?.items?.count == 1)
  }

  @Test func unknownExtraParamsAreIgnoredAndNullOptionalsMeanAbsent() throws {
    let result = try harness.connect().load(
      #"{"adUnitID":"\#(Units.direct)","adTypes":null,"customNativeAdFormatIDs":null,"options":{"numberOfAds":null,"adChoicesPosition":null,"future":1},"request":null,"unknown":{"x":[1]}}"#
    )
    #expect(result["ads"]?.items?.count == 1)
    #expect(result["ads"]?[0]?["kind"] == .string("native"))
  }
}
