import NativeAds
import Testing

@Suite struct ClickTests {
  @Test func aClickWithNoOpenableDeepLinkOpensTheLandingPage() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let outcome = try manager.performClick(
      adId: ad.id, key: "headline", openableURLSchemes: [], by: 1)
    #expect(
      outcome
        == ClickOutcome(
          recorded: true, action: .landingPage,
          url: "https://play.google.com/store/apps/details?id=com.labpixies.flood"))
    #expect(ad.clickCount == 1)
  }

  @Test func aClickOpensTheFirstDeepLinkWhoseSchemeTheCallerCanOpen() throws {
    let inventory = Inventory.fixture()
    inventory.add(
      Creative(
        id: "linked", content: .native(NativeAssets(headline: "Linked")),
        deepLinks: ["first://a", "second:b", "third://c"],
        landingPageURL: "https://example.com/linked"))
    inventory.add(AdUnit(id: "linked-unit", creativeIDs: ["linked"]))
    let manager = Fixtures.manager(inventory: inventory)
    let ad = Fixtures.loadOne(manager, Fixtures.request("linked-unit"))
    func click(_ schemes: [String]) throws -> ClickOutcome {
      try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: schemes, by: 1)
    }
    #expect(try click(["third", "second"]).url == "second:b")
    #expect(
      try click(["THIRD"]) == ClickOutcome(recorded: true, action: .deepLink, url: "third://c"))
    #expect(try click(["First://"]).url == "first://a")
    #expect(try click(["second:"]).url == "second:b")
    #expect(try click(["fir", "https"]).action == .landingPage)
    #expect(ad.clickCount == 5)
  }

  @Test func theBuiltInAppInstallAdDeepLinksToTheMarket() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let outcome = try manager.performClick(
      adId: ad.id, key: "callToAction", openableURLSchemes: ["market"], by: 1)
    #expect(
      outcome
        == ClickOutcome(
          recorded: true, action: .deepLink, url: "market://details?id=com.labpixies.flood"))
  }

  @Test func theCustomClickHandlerTakesClicksForTheCallerThatEnabledIt() throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadCustom(manager, owner: 1)
    #expect(try manager.setCustomClickHandler(adId: ad.id, enabled: true, by: 2))
    #expect(ad.customClickHandlerOwners == [2])

    let outcome = try manager.performClick(
      adId: ad.id, key: "MainImage", openableURLSchemes: ["gadexample"], by: 2)
    #expect(outcome == ClickOutcome(recorded: true, action: .customClickHandler, url: nil))
    #expect(sink.customClicks == [.init(adId: ad.id, assetID: "MainImage", owner: 2)])
    // The click event still goes to the ad's owner.
    #expect(sink.events.map(\.owner) == [1])
    #expect(sink.events.map(\.assetKey) == ["MainImage"])
  }

  @Test func anotherCallerDoesNotGetTheCustomClickHandler() throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadCustom(manager, owner: 1)
    _ = try manager.setCustomClickHandler(adId: ad.id, enabled: true, by: 2)

    let deepLink = try manager.performClick(
      adId: ad.id, key: "Headline", openableURLSchemes: ["gadexample"], by: 1)
    #expect(
      deepLink
        == ClickOutcome(recorded: true, action: .deepLink, url: "gadexample://custom/10063170"))
    let landing = try manager.performClick(
      adId: ad.id, key: "Headline", openableURLSchemes: [], by: 3)
    #expect(landing.action == .landingPage)
    #expect(
      landing.url
        == "https://developers.google.com/ad-manager/mobile-ads-sdk/ios/native/custom-formats")
    #expect(sink.customClicks.isEmpty)
    #expect(ad.clickCount == 2)
  }

  @Test func disablingTheCustomClickHandlerRestoresTheDefaultAction() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadCustom(manager)
    _ = try manager.setCustomClickHandler(adId: ad.id, enabled: true, by: 1)
    #expect(try manager.setCustomClickHandler(adId: ad.id, enabled: false, by: 1) == false)
    #expect(ad.customClickHandlerOwners.isEmpty)
    let outcome = try manager.performClick(
      adId: ad.id, key: "Caption", openableURLSchemes: [], by: 1)
    #expect(outcome.action == .landingPage)
  }

  /// Contract 1.1: a set handler runs and the SDK takes no other action, whatever the creative
  /// (version 1 also required a custom click action on the creative).
  @Test func contract11_theCustomClickHandlerTakesTheClickEvenWithoutACustomClickAction() throws {
    let inventory = Inventory.fixture()
    var plain = try #require(inventory.creative("custom-10063170-1"))
    plain.hasCustomClickAction = false
    inventory.add(plain)
    let manager = Fixtures.manager(inventory: inventory)
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadCustom(manager)
    _ = try manager.setCustomClickHandler(adId: ad.id, enabled: true, by: 1)
    let outcome = try manager.performClick(
      adId: ad.id, key: "Headline", openableURLSchemes: ["gadexample"], by: 1)
    #expect(outcome == ClickOutcome(recorded: true, action: .customClickHandler, url: nil))
    #expect(sink.customClicks == [.init(adId: ad.id, assetID: "Headline", owner: 1)])
  }

  @Test func theCustomClickHandlerIsOnlyForCustomAds() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let error = Fixtures.adError {
      try manager.setCustomClickHandler(adId: ad.id, enabled: true, by: 1)
    }
    #expect(
      error
        == .wrongAdKind(adId: ad.id, applies: .customNative))
  }

  @Test(arguments: [
    ("3001", "headline"), ("3002", "callToAction"), ("3003", "icon"), ("3004", "body"),
    ("3006", "store"), ("3007", "price"), ("3008", "image"), ("3009", "starRating"),
    ("3010", "mediaView"),
  ])
  func assetIdentifiersAreAliasesForAssetNames(alias: String, name: String) throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager)
    let outcome = try manager.performClick(adId: ad.id, key: alias, openableURLSchemes: [], by: 1)
    #expect(outcome.recorded)
    #expect(sink.events.first?.assetKey == name)
  }

  @Test func theAdvertiserAliasWorksWhenTheAdHasAnAdvertiser() throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let (ads, _) = try manager.load(Fixtures.request(Fixtures.backfillUnit, count: 2), owner: 1)
    let content = try #require(ads.first { $0.creative.id == "backfill-content-1" })
    _ = try manager.performClick(adId: content.id, key: "3005", openableURLSchemes: [], by: 1)
    #expect(sink.events.first?.assetKey == "advertiser")
  }

  @Test(arguments: ["advertiser", "3005", "Headline", "nonsense", "3011", "", "_adChoices"])
  func clickingAnAssetTheNativeAdLacksThrowsAssetNotFound(key: String) throws {
    // The direct app-install ad has no advertiser and, being direct-sold, no AdChoices.
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let error = Fixtures.adError {
      try manager.performClick(adId: ad.id, key: key, openableURLSchemes: [], by: 1)
    }
    #expect(error == .assetNotFound(adId: ad.id, key: key))
    #expect(ad.clickCount == 0)
    #expect(manager.events.isEmpty)
  }

  @Test func missingOptionalAssetsCannotBeClicked() throws {
    let manager = Fixtures.manager()
    let (ads, _) = try manager.load(Fixtures.request(Fixtures.backfillUnit, count: 2), owner: 1)
    let content = try #require(ads.first { $0.creative.id == "backfill-content-1" })
    for key in ["store", "price", "starRating"] {
      #expect(
        Fixtures.adError {
          try manager.performClick(adId: content.id, key: key, openableURLSchemes: [], by: 1)
        } == .assetNotFound(adId: content.id, key: key))
    }
    #expect(
      try manager.performClick(adId: content.id, key: "mediaView", openableURLSchemes: [], by: 1)
        .recorded)
  }

  @Test func anAdWithoutImagesHasNoImageAsset() throws {
    let inventory = Inventory()
    inventory.add(
      Creative(
        id: "bare", content: .native(NativeAssets(headline: "Bare")),
        landingPageURL: "https://example.com"))
    inventory.add(AdUnit(id: "u", creativeIDs: ["bare"]))
    let manager = Fixtures.manager(inventory: inventory)
    let ad = Fixtures.loadOne(manager, Fixtures.request("u"))
    for key in ["image", "3008", "icon", "body"] {
      #expect(
        Fixtures.adError {
          try manager.performClick(adId: ad.id, key: key, openableURLSchemes: [], by: 1)
        } == .assetNotFound(adId: ad.id, key: key))
    }
    #expect(
      try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: [], by: 1).recorded
    )
  }

  @Test(arguments: ["headline", "3001", "MainImage", "_adChoices"])
  func customAdsAcceptOnlyTheirFormatsAssetNames(key: String) throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadCustom(manager)
    #expect(
      Fixtures.adError {
        try manager.performClick(adId: ad.id, key: key, openableURLSchemes: [], by: 1)
      } == (key == "MainImage" ? nil : .assetNotFound(adId: ad.id, key: key)))
  }

  @Test func clickingAdChoicesOnAnIndirectAdOpensTheAdChoicesPageWithoutCounting() throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.adMobUnit))
    let outcome = try manager.performClick(
      adId: ad.id, key: "_adChoices", openableURLSchemes: ["https"], by: 1)
    #expect(
      outcome
        == ClickOutcome(
          recorded: false, action: .adChoices, url: "https://adssettings.google.com/whythisad"))
    #expect(ad.clickCount == 0)
    #expect(manager.events.isEmpty)
    #expect(sink.events.isEmpty)
  }

  @Test func clickingAdChoicesOnAnIndirectCustomAdOpensTheAdChoicesPage() throws {
    let inventory = Inventory.fixture()
    var custom = try #require(inventory.creative("custom-10063170-1"))
    let backfill = try #require(inventory.creative("backfill-content-1"))
    custom.adChoices = backfill.adChoices
    custom.isIndirect = true
    inventory.add(custom)
    let manager = Fixtures.manager(inventory: inventory)
    let ad = Fixtures.loadCustom(manager)
    #expect(ad.creative.isIndirect)
    #expect(try manager.image(forKey: "_adChoices", adId: ad.id) != nil)
    let outcome = try manager.performClick(
      adId: ad.id, key: "_adChoices", openableURLSchemes: [], by: 1)
    #expect(outcome.action == .adChoices && !outcome.recorded)
    #expect(ad.clickCount == 0)
  }

  @Test func clickingAReleasedAdThrowsAdNotFound() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    try manager.release(adId: ad.id)
    #expect(
      Fixtures.adError {
        try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: [], by: 1)
      } == .adNotFound(adId: ad.id))
  }
}
