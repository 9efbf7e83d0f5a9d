import NativeAds
import Testing

@Suite struct AdViewTests {
  @Test func registeringAnAdViewAnswersCanonicalKeys() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let registered = try manager.registerAdView(
      adId: ad.id, clickable: ["headline", "3002", "3001", "icon"],
      nonclickable: ["3010", "body", "advertiser"])
    #expect(registered.clickable == [.headline, .callToAction, .icon])
    #expect(registered.nonclickable == [.mediaView, .body, .advertiser])
    #expect(
      ad.adView
        == AdViewRegistration(
          clickable: [.headline, .callToAction, .icon],
          nonclickable: [.mediaView, .body, .advertiser]))
  }

  @Test(arguments: [
    (["headline", "nonsense"], [String](), true, 1, "nonsense"),
    (["headline"], ["body", "3011"], false, 1, "3011"),
    ([], ["Headline"], false, 0, "Headline"),
    (["_adChoices"], [], true, 0, "_adChoices"),
  ])
  func aKeyThatIsNoAssetNameOrIdentifierIsInvalid(
    clickable: [String], nonclickable: [String], inClickable: Bool, index: Int, key: String
  ) throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let error = Fixtures.adError {
      try manager.registerAdView(adId: ad.id, clickable: clickable, nonclickable: nonclickable)
    }
    #expect(
      error == .invalidAssetKey(adId: ad.id, clickable: inClickable, index: index, key: key))
    #expect(ad.adView == nil)
  }

  @Test(arguments: ["mediaView", "3010"])
  func theMediaViewMayNotBeClickable(key: String) throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let error = Fixtures.adError {
      try manager.registerAdView(
        adId: ad.id, clickable: ["headline", "body", key], nonclickable: [])
    }
    #expect(error == .mediaViewNotClickable(adId: ad.id, index: 2))
  }

  @Test func registeringAgainReplacesAndAFailedRegistrationChangesNothing() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    _ = try manager.registerAdView(adId: ad.id, clickable: ["headline"], nonclickable: ["body"])
    _ = try manager.registerAdView(adId: ad.id, clickable: ["body"], nonclickable: [])
    #expect(ad.adView == AdViewRegistration(clickable: [.body], nonclickable: []))
    _ = Fixtures.adError {
      try manager.registerAdView(adId: ad.id, clickable: ["icon"], nonclickable: ["bogus"])
    }
    #expect(ad.adView == AdViewRegistration(clickable: [.body], nonclickable: []))
  }

  @Test func unregisteringSaysWhetherAViewWasRegistered() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    #expect(try manager.unregisterAdView(adId: ad.id) == false)
    _ = try manager.registerAdView(adId: ad.id, clickable: ["headline"], nonclickable: [])
    #expect(try manager.unregisterAdView(adId: ad.id))
    #expect(ad.adView == nil)
    #expect(try manager.unregisterAdView(adId: ad.id) == false)
  }

  @Test func adViewMethodsApplyOnlyToSystemDefinedAds() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadCustom(manager)
    #expect(
      Fixtures.adError { try manager.registerAdView(adId: ad.id, clickable: [], nonclickable: []) }
        == .wrongAdKind(adId: ad.id, applies: .native))
    #expect(
      Fixtures.adError { try manager.unregisterAdView(adId: ad.id) }
        == .wrongAdKind(adId: ad.id, applies: .native))
    #expect(
      Fixtures.adError { try manager.reportVisibility(adId: ad.id, visiblePixels: 10) }
        == .wrongAdKind(adId: ad.id, applies: .native))
    #expect(
      Fixtures.adError { try manager.registerAdView(adId: "gone", clickable: [], nonclickable: []) }
        == .adNotFound(adId: "gone"))
  }

  @Test func theFirstVisiblePixelOfARegisteredViewRecordsTheImpressionOnce() throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager)
    #expect(
      try manager.reportVisibility(adId: ad.id, visiblePixels: 100) == .notRecorded(.notRegistered))
    _ = try manager.registerAdView(adId: ad.id, clickable: ["headline"], nonclickable: [])
    #expect(
      try manager.reportVisibility(adId: ad.id, visiblePixels: 0) == .notRecorded(.notVisible))
    #expect(try manager.reportVisibility(adId: ad.id, visiblePixels: 1) == .recorded)
    #expect(
      try manager.reportVisibility(adId: ad.id, visiblePixels: 500)
        == .notRecorded(.alreadyRecorded))
    #expect(try manager.recordImpression(adId: ad.id) == .notRecorded(.alreadyRecorded))
    #expect(sink.events.map(\.event) == [.didRecordImpression])
    #expect(ad.impressionRecorded)
  }

  @Test func visibilityOfAnExpiredOrMutedAdRecordsNothing() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let (ads, _) = try manager.load(Fixtures.request(Fixtures.backfillUnit, count: 2), owner: 1)
    for ad in ads {
      _ = try manager.registerAdView(adId: ad.id, clickable: ["headline"], nonclickable: [])
    }
    _ = try manager.muteThisAd(adId: ads[0].id, reason: nil)
    #expect(try manager.reportVisibility(adId: ads[0].id, visiblePixels: 5) == .notRecorded(.muted))
    clock.advance(by: 3600)
    #expect(
      try manager.reportVisibility(adId: ads[1].id, visiblePixels: 5) == .notRecorded(.expired))
    #expect(manager.events.map(\.event) == [.didMute])
  }

  @Test func aRegisteredViewCountsClicksOnlyOnClickableAssets() throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager)
    _ = try manager.registerAdView(
      adId: ad.id, clickable: ["headline", "callToAction"], nonclickable: ["body", "mediaView"])
    func click(_ key: String) throws -> ClickOutcome {
      try manager.performClick(adId: ad.id, key: key, openableURLSchemes: [], by: 1)
    }
    let notClickable = ClickOutcome(recorded: false, action: .none, url: nil, reason: .notClickable)
    #expect(try click("body") == notClickable)
    #expect(try click("icon") == notClickable)
    #expect(try click("3010") == notClickable)
    #expect(ClickOutcome.notRecorded(.notClickable) == notClickable)
    #expect(try click("3002").recorded)
    #expect(try click("headline").action == .landingPage)
    #expect(ad.clickCount == 2)
    #expect(
      sink.events.filter { $0.event == .didRecordClick }.map(\.assetKey) == [
        "callToAction", "headline",
      ])
    // Assets the ad lacks are still errors, registered or not.
    #expect(
      Fixtures.adError { try click("advertiser") } == .assetNotFound(adId: ad.id, key: "advertiser")
    )

    _ = try manager.unregisterAdView(adId: ad.id)
    #expect(try click("body").recorded)
  }

  @Test func adChoicesAnswersTheSameWhateverTheRegistration() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.backfillUnit))
    _ = try manager.registerAdView(adId: ad.id, clickable: ["headline"], nonclickable: [])
    let outcome = try manager.performClick(
      adId: ad.id, key: "_adChoices", openableURLSchemes: [], by: 1)
    #expect(
      outcome
        == ClickOutcome(
          recorded: false, action: .adChoices, url: "https://adssettings.google.com/whythisad"))
    #expect(outcome.reason == nil)
  }
}
