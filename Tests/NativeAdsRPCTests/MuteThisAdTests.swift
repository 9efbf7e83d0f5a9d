import JSONRPC
import Testing

/// `muteThisAdReasons` on loaded ads, and `muteThisAd`.
@Suite struct MuteThisAdTests {
  private let harness = ServiceHarness()

  private static let builtInReasons = JSONValue.array([
    .string("Not interested in this ad"), .string("Seen this ad multiple times"),
    .string("Ad covered content"), .string("Irrelevant"),
  ])

  private static let muted = JSONValue.object([("muted", .bool(true))])

  // MARK: muteThisAdReasons

  @Test func onlyAdsWhoseCreativeOffersMuteThisAdCarryReasons() throws {
    let client = harness.connect()
    let light = #""disableImageLoading":true,"numberOfAds":5"#
    let offering = [Units.backfill, Units.adMob]
    for unit in offering {
      let ads = try #require(
        client.load(#"{"adUnitID":"\#(unit)","options":{\#(light)}}"#)["ads"]?.items)
      #expect(ads.count == 2)
      for ad in ads { #expect(ad["muteThisAdReasons"] == Self.builtInReasons, "\(unit)") }
    }
    for unit in [Units.direct, Units.video] {
      let ads = try #require(
        client.load(
          #"{"adUnitID":"\#(unit)","adTypes":["native","customNative"],"customNativeAdFormatIDs":["\#(Units.customFormat)","\#(Units.videoFormat)"],"options":{\#(light)}}"#
        )["ads"]?.items)
      #expect(ads.count >= 2)
      for ad in ads {
        #expect(ad["muteThisAdReasons"] == nil, "\(unit): the member is absent, not null")
      }
    }
  }

  @Test func aStoredCustomCreativeMayOfferReasons() throws {
    let client = harness.connect()
    _ = try client.result(
      "store.putCreative",
      #"{"creative":{"id":"c","kind":"customNative","formatID":"10063170","assets":{"Headline":"h","MainImage":{"url":"u","width":1,"height":1},"Caption":"c"},"landingPageURL":"l","muteThisAdReasons":["Too loud","Off topic"]}}"#
    )
    _ = try client.result("store.putAdUnit", #"{"adUnit":{"id":"u","creatives":["c"]}}"#)
    let ad = try #require(
      client.load(
        #"{"adUnitID":"u","adTypes":["customNative"],"customNativeAdFormatIDs":["10063170"],"options":{"disableImageLoading":true}}"#
      )["ads"]?[0])
    #expect(ad["muteThisAdReasons"] == .array([.string("Too loud"), .string("Off topic")]))
    let adId = try #require(ad["adId"]?.text)
    #expect(
      try client.result("muteThisAd", #"{"adId":"\#(adId)","reason":"Off topic"}"#) == Self.muted)
    #expect(
      try client.takeNotifications() == [adEventMessage(adId, "didMute", reason: "Off topic")])
  }

  // MARK: muteThisAd

  @Test func theFirstMuteSendsDidMuteWithTheReasonAndLaterMutesChangeNothing() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID(unit: Units.backfill)
    #expect(
      try client.result("muteThisAd", #"{"adId":"\#(adId)","reason":"Irrelevant"}"#) == Self.muted)
    #expect(
      try client.takeNotifications() == [adEventMessage(adId, "didMute", reason: "Irrelevant")])
    #expect(
      try client.result("muteThisAd", #"{"adId":"\#(adId)","reason":"Ad covered content"}"#)
        == Self.muted)
    #expect(try client.result("muteThisAd", #"{"adId":"\#(adId)"}"#) == Self.muted)
    #expect(try client.takeNotifications().isEmpty)
    let events = harness.manager.events
    #expect(events.map(\.event) == [.didMute])
    #expect(events.map(\.reason) == ["Irrelevant"])
  }

  @Test func aMuteWithoutAReasonSendsDidMuteWithNoReason() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID(unit: Units.adMob)
    #expect(try client.result("muteThisAd", #"{"adId":"\#(adId)","reason":null}"#) == Self.muted)
    let notifications = try client.takeNotifications()
    #expect(notifications.count == 1)
    let params = try #require(notifications.first?["params"])
    #expect(notifications.first?["method"] == .string("adEvent"))
    #expect(params["adId"] == .string(adId))
    #expect(params["event"] == .string("didMute"))
    #expect(params["assetKey"] == .null)
    #expect(params["reason"] == nil || params["reason"] == .null)
  }

  @Test func aMutedAdRecordsNoImpressionOrClickButCanStillBeRead() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID(unit: Units.backfill)
    _ = try client.result("muteThisAd", #"{"adId":"\#(adId)","reason":"Irrelevant"}"#)
    _ = try client.takeNotifications()
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
        == .object([("recorded", .bool(false)), ("reason", .string("muted"))]))
    for key in ["headline", "3004", "mediaView"] {
      #expect(
        try client.result("performClickOnAsset", #"{"adId":"\#(adId)","key":"\#(key)"}"#)
          == .object([
            ("recorded", .bool(false)), ("action", .string("none")), ("url", .null),
            ("reason", .string("muted")),
          ]))
    }
    #expect(
      try client.error("performClickOnAsset", #"{"adId":"\#(adId)","key":"nope"}"#)["code"]
        == .number("2002"))
    #expect(try client.takeNotifications().isEmpty)
    #expect(
      try client.result("stringForKey", #"{"adId":"\#(adId)","key":"headline"}"#)
        == .string("Backfill Puzzle Quest"))
    #expect(
      try client.result("releaseAd", #"{"adId":"\#(adId)"}"#)
        == .object([("released", .bool(true))]))
  }

  @Test func muteThisAdOnAnAdThatOffersNoReasonsIsError2004() throws {
    let client = harness.connect()
    for adId in [try client.loadLightAdID(), try client.loadLightCustomAdID()] {
      #expect(
        try client.error("muteThisAd", #"{"adId":"\#(adId)"}"#)
          == adObjectError(
            2004, "muteNotOffered", adId: adId,
            message: #"Ad "\#(adId)" does not offer Mute This Ad"#))
      #expect(
        try client.error("muteThisAd", #"{"adId":"\#(adId)","reason":"Irrelevant"}"#)["code"]
          == .number("2004"))
    }
    #expect(try client.takeNotifications().isEmpty)
    #expect(harness.manager.events.isEmpty)
  }

  @Test func aReasonTheAdDoesNotOfferIsInvalidParamsEvenWhenAlreadyMuted() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID(unit: Units.backfill)
    let expected = invalidParamsError(
      "reason",
      #"must be one of the reasons the ad offers: "Not interested in this ad", "Seen this ad multiple times", "Ad covered content", "Irrelevant""#
    )
    #expect(
      try client.error("muteThisAd", #"{"adId":"\#(adId)","reason":"irrelevant"}"#) == expected)
    #expect(try client.takeNotifications().isEmpty)
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)["recorded"] == .bool(true))
    _ = try client.result("muteThisAd", #"{"adId":"\#(adId)"}"#)
    #expect(try client.error("muteThisAd", #"{"adId":"\#(adId)","reason":"Boring"}"#) == expected)
  }

  @Test func theMuteEventGoesToTheLoaderWhoeverMutes() throws {
    let loader = harness.connect()
    let other = harness.connect()
    let adId = try loader.loadLightAdID(unit: Units.adMob)
    _ = try other.result("muteThisAd", #"{"adId":"\#(adId)","reason":"Ad covered content"}"#)
    #expect(try other.takeNotifications().isEmpty)
    #expect(
      try loader.takeNotifications() == [
        adEventMessage(adId, "didMute", reason: "Ad covered content")
      ])
  }

  @Test(arguments: [
    (#"{"reason":"x"}"#, "adId", "is required"),
    (#"{"adId":"x","reason":3}"#, "reason", "must be a string"),
  ])
  func muteParamsAreCheckedBeforeTheAdIsLookedUp(params: String, field: String, problem: String)
    throws
  {
    #expect(try harness.connect().error("muteThisAd", params) == invalidParamsError(field, problem))
  }

  @Test func mutingAnUnknownAdIsError2001() throws {
    #expect(
      try harness.connect().error("muteThisAd", #"{"adId":"ad-x","reason":"Irrelevant"}"#)["code"]
        == .number("2001"))
  }
}
