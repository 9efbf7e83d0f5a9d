import Testing

@testable import NativeAds

/// `AdState.apply(_:to:at:)` as a pure value: each test copies the state of a loaded ad and
/// applies changes to the copy directly, without the manager or a store.
@Suite struct AdStateTransitionTests {
  private let clock = ManualClock()
  private var now: Double { clock.now() }

  /// Applies `change` to `state` at `time` (default: now).
  private func apply(
    _ change: AdChange, _ state: inout AdState, of ad: NativeAd, at time: Double? = nil
  ) -> AdTransition {
    state.apply(change, to: ad, at: time ?? now)
  }

  private func nativeAd() -> NativeAd { Fixtures.loadOne(Fixtures.manager(clock: clock)) }

  private func mediatedAd(_ mapped: MediatedNativeAd) -> NativeAd {
    MediationFixtures.mediatedAd(mapped, clock: clock).ad
  }

  private let landingPage = "https://play.google.com/store/apps/details?id=com.labpixies.flood"

  // MARK: Impressions

  @Test func theFirstImpressionIsRecordedWithOneEvent() {
    let ad = nativeAd()
    var state = ad.state
    #expect(
      apply(.recordImpression, &state, of: ad)
        == AdTransition(outcome: .impression(.recorded), effects: [.event(.didRecordImpression)]))
    #expect(state.impressionRecorded)
    #expect(
      apply(.recordImpression, &state, of: ad)
        == AdTransition(outcome: .impression(.notRecorded(.alreadyRecorded)), effects: []))
  }

  @Test func impressionRulesApplyInOrderMutedThenExpiredThenAlreadyRecorded() {
    let ad = nativeAd()
    var recorded = ad.state
    _ = apply(.recordImpression, &recorded, of: ad)

    // Recorded before, and expired: expired wins.
    var expired = recorded
    #expect(
      apply(.recordImpression, &expired, of: ad, at: ad.expiresAt)
        == AdTransition(outcome: .impression(.notRecorded(.expired)), effects: []))

    // Recorded before, expired and muted: muted wins.
    var muted = recorded
    _ = apply(.mute(reason: nil), &muted, of: ad)
    #expect(
      apply(.recordImpression, &muted, of: ad, at: ad.expiresAt)
        == AdTransition(outcome: .impression(.notRecorded(.muted)), effects: []))

    // A fresh ad: muted before expired, expired from `expiresAt` on, recorded just before.
    var fresh = ad.state
    #expect(
      apply(.recordImpression, &fresh, of: ad, at: ad.expiresAt).outcome
        == .impression(.notRecorded(.expired)))
    #expect(!fresh.impressionRecorded)
    var freshMuted = ad.state
    _ = apply(.mute(reason: nil), &freshMuted, of: ad)
    #expect(
      apply(.recordImpression, &freshMuted, of: ad, at: ad.expiresAt).outcome
        == .impression(.notRecorded(.muted)))
    #expect(
      apply(.recordImpression, &fresh, of: ad, at: ad.expiresAt - 0.001).outcome
        == .impression(.recorded))
  }

  @Test func visibilityChecksTheViewAndThePixelsBeforeTheImpressionRules() {
    let ad = nativeAd()
    var state = ad.state
    _ = apply(.mute(reason: nil), &state, of: ad)
    #expect(
      apply(.reportVisibility(visiblePixels: 10), &state, of: ad)
        == AdTransition(outcome: .impression(.notRecorded(.notRegistered)), effects: []))

    var registered = ad.state
    _ = apply(
      .registerAdView(AdViewRegistration(clickable: [.headline], nonclickable: [])), &registered,
      of: ad)
    var mutedAndRegistered = registered
    _ = apply(.mute(reason: nil), &mutedAndRegistered, of: ad)
    #expect(
      apply(.reportVisibility(visiblePixels: 0), &mutedAndRegistered, of: ad).outcome
        == .impression(.notRecorded(.notVisible)))
    #expect(
      apply(.reportVisibility(visiblePixels: 1), &mutedAndRegistered, of: ad).outcome
        == .impression(.notRecorded(.muted)))
    #expect(
      apply(.reportVisibility(visiblePixels: 1), &registered, of: ad)
        == AdTransition(outcome: .impression(.recorded), effects: [.event(.didRecordImpression)]))
    #expect(
      apply(.reportVisibility(visiblePixels: 1), &registered, of: ad).outcome
        == .impression(.notRecorded(.alreadyRecorded)))
  }

  @Test func aServiceTrackedMediatedImpressionTellsTheAdapterAfterTheEvent() {
    let ad = mediatedAd(TestAdapter.ad())
    var state = ad.state
    #expect(
      apply(.recordImpression, &state, of: ad)
        == AdTransition(
          outcome: .impression(.recorded),
          effects: [.event(.didRecordImpression), .adapter(.didRecordImpression)]))
  }

  @Test func anAdapterTrackedImpressionAsksTheAdapterOnceAndItsReportRecords() {
    let ad = mediatedAd(TestAdapter.ad(impressions: true))
    #expect(ad.impressionTracker == .adapter)
    var state = ad.state
    #expect(
      apply(.recordImpression, &state, of: ad)
        == AdTransition(
          outcome: .impression(.notRecorded(.handledByAdapter)),
          effects: [.adapter(.handleImpression)]))
    #expect(!state.impressionRecorded)
    #expect(
      apply(.recordImpression, &state, of: ad)
        == AdTransition(outcome: .impression(.notRecorded(.handledByAdapter)), effects: []))

    #expect(
      apply(.adapterImpression, &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: [.event(.didRecordImpression)]))
    #expect(state.impressionRecorded)
    #expect(
      apply(.adapterImpression, &state, of: ad)
        == AdTransition(outcome: .changed(false), effects: []))
    #expect(
      apply(.recordImpression, &state, of: ad).outcome
        == .impression(.notRecorded(.alreadyRecorded)))
  }

  @Test func theImpressionRulesComeBeforeTheAdapter() {
    let ad = mediatedAd(TestAdapter.ad(impressions: true))
    var muted = ad.state
    _ = apply(.mute(reason: nil), &muted, of: ad)
    #expect(
      apply(.recordImpression, &muted, of: ad)
        == AdTransition(outcome: .impression(.notRecorded(.muted)), effects: []))
    #expect(
      apply(.adapterImpression, &muted, of: ad)
        == AdTransition(outcome: .changed(false), effects: []))

    var expired = ad.state
    #expect(
      apply(.recordImpression, &expired, of: ad, at: ad.expiresAt)
        == AdTransition(outcome: .impression(.notRecorded(.expired)), effects: []))
    #expect(
      apply(.adapterImpression, &expired, of: ad, at: ad.expiresAt)
        == AdTransition(outcome: .changed(false), effects: []))
    #expect(!expired.impressionRecorded)

    // The adapter was never asked, so a later impression still asks it.
    #expect(apply(.recordImpression, &expired, of: ad).effects == [.adapter(.handleImpression)])
  }

  @Test func aCustomFormatImpressionStartsItsVideoAfterTheEvent() throws {
    let ad = Fixtures.loadCustomVideo(Fixtures.manager(clock: clock))
    var state = ad.state
    #expect(
      apply(.recordImpression, &state, of: ad)
        == AdTransition(
          outcome: .impression(.recorded),
          effects: [.event(.didRecordImpression), .event(.videoDidPlay)]))
    clock.advance(by: 5)
    let video = try #require(state.video?.state(at: now))
    #expect(video.playbackState == .playing)
    #expect(video.currentTime == 5)
  }

  @Test func aSystemDefinedImpressionDoesNotStartItsVideo() {
    let ad = Fixtures.loadAdMobVideo(Fixtures.manager(clock: clock))
    var state = ad.state
    #expect(apply(.recordImpression, &state, of: ad).effects == [.event(.didRecordImpression)])
    #expect(state.video?.state(at: now).playbackState == .stopped)
  }

  // MARK: Clicks

  @Test func aClickOpensTheFirstOpenableDeepLinkElseTheLandingPageAndPresentsAScreen() {
    let ad = nativeAd()
    var state = ad.state
    #expect(
      apply(.click(assetKey: "headline", openableURLSchemes: [], caller: 1), &state, of: ad)
        == AdTransition(
          outcome: .click(ClickOutcome(recorded: true, action: .landingPage, url: landingPage)),
          effects: [.event(.didRecordClick, assetKey: "headline"), .event(.willPresentScreen)]))
    #expect(state.isScreenPresented)
    #expect(
      apply(.click(assetKey: "body", openableURLSchemes: ["market"], caller: 1), &state, of: ad)
        == AdTransition(
          outcome: .click(
            ClickOutcome(
              recorded: true, action: .deepLink, url: "market://details?id=com.labpixies.flood")),
          effects: [.event(.didRecordClick, assetKey: "body"), .event(.willPresentScreen)]))
    #expect(state.clickCount == 2)
  }

  @Test func clickRulesApplyInOrderMutedThenExpiredThenNotClickable() {
    let ad = nativeAd()
    var registered = ad.state
    _ = apply(
      .registerAdView(AdViewRegistration(clickable: [.headline], nonclickable: [.body])),
      &registered, of: ad)
    let body = AdChange.click(assetKey: "body", openableURLSchemes: [], caller: 1)

    var state = registered
    #expect(
      apply(body, &state, of: ad)
        == AdTransition(outcome: .click(.notRecorded(.notClickable)), effects: []))
    #expect(
      apply(body, &state, of: ad, at: ad.expiresAt)
        == AdTransition(outcome: .click(.notRecorded(.expired)), effects: []))
    _ = apply(.mute(reason: nil), &state, of: ad)
    #expect(
      apply(body, &state, of: ad, at: ad.expiresAt)
        == AdTransition(outcome: .click(.notRecorded(.muted)), effects: []))
    #expect(
      apply(.click(assetKey: "headline", openableURLSchemes: [], caller: 1), &state, of: ad)
        .outcome == .click(.notRecorded(.muted)))
    #expect(state.clickCount == 0)
    #expect(!state.isScreenPresented)

    // The clickable asset of the registered view records.
    var clickable = registered
    #expect(
      apply(.click(assetKey: "headline", openableURLSchemes: [], caller: 1), &clickable, of: ad)
        .outcome == .click(ClickOutcome(recorded: true, action: .landingPage, url: landingPage)))
  }

  @Test func theCustomClickHandlerTakesTheClickOfTheCallerThatEnabledIt() {
    let ad = Fixtures.loadCustom(Fixtures.manager(clock: clock))
    #expect(ad.creative.hasCustomClickAction)
    var state = ad.state
    #expect(
      apply(.setCustomClickHandler(enabled: true, caller: 2), &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: []))
    #expect(state.customClickHandlerOwners == [2])
    #expect(
      apply(
        .click(assetKey: "MainImage", openableURLSchemes: ["gadexample"], caller: 2), &state,
        of: ad)
        == AdTransition(
          outcome: .click(ClickOutcome(recorded: true, action: .customClickHandler, url: nil)),
          effects: [
            .event(.didRecordClick, assetKey: "MainImage"),
            .customClick(assetID: "MainImage", owner: 2),
          ]))
    #expect(!state.isScreenPresented)

    // Another caller's click opens the deep link.
    #expect(
      apply(
        .click(assetKey: "Headline", openableURLSchemes: ["gadexample"], caller: 1), &state,
        of: ad)
        == AdTransition(
          outcome: .click(
            ClickOutcome(recorded: true, action: .deepLink, url: "gadexample://custom/10063170")),
          effects: [.event(.didRecordClick, assetKey: "Headline"), .event(.willPresentScreen)]))

    // Disabled again, the caller's clicks open the deep link too.
    #expect(
      apply(.setCustomClickHandler(enabled: false, caller: 2), &state, of: ad)
        == AdTransition(outcome: .changed(false), effects: []))
    #expect(state.customClickHandlerOwners.isEmpty)
    #expect(
      apply(
        .click(assetKey: "Caption", openableURLSchemes: ["gadexample"], caller: 2), &state, of: ad
      ).outcome
        == .click(
          ClickOutcome(recorded: true, action: .deepLink, url: "gadexample://custom/10063170")))
    #expect(state.clickCount == 3)
  }

  @Test func theCustomClickHandlerTakesTheClickWhateverTheCreative() {
    // Contract 1.1: a creative without a custom click action still hands the click over.
    let ad = Fixtures.loadCustomVideo(Fixtures.manager(clock: clock))
    #expect(!ad.creative.hasCustomClickAction)
    var state = ad.state
    _ = apply(.setCustomClickHandler(enabled: true, caller: 1), &state, of: ad)
    #expect(
      apply(.click(assetKey: "Headline", openableURLSchemes: [], caller: 1), &state, of: ad)
        == AdTransition(
          outcome: .click(ClickOutcome(recorded: true, action: .customClickHandler, url: nil)),
          effects: [
            .event(.didRecordClick, assetKey: "Headline"),
            .customClick(assetID: "Headline", owner: 1),
          ]))
  }

  @Test func theCustomClickHandlerStillObeysTheClickRules() {
    let ad = Fixtures.loadCustom(Fixtures.manager(clock: clock))
    var state = ad.state
    _ = apply(.setCustomClickHandler(enabled: true, caller: 1), &state, of: ad)
    #expect(
      apply(
        .click(assetKey: "Headline", openableURLSchemes: [], caller: 1), &state, of: ad,
        at: ad.expiresAt)
        == AdTransition(outcome: .click(.notRecorded(.expired)), effects: []))
  }

  @Test func aSystemDefinedAdNeverHandsClicksToACustomClickHandler() {
    // The manager refuses the handler for native ads; even set on the state, it is ignored.
    let ad = nativeAd()
    var state = ad.state
    _ = apply(.setCustomClickHandler(enabled: true, caller: 1), &state, of: ad)
    #expect(
      apply(.click(assetKey: "headline", openableURLSchemes: [], caller: 1), &state, of: ad)
        .outcome == .click(ClickOutcome(recorded: true, action: .landingPage, url: landingPage)))
  }

  @Test func aServiceTrackedMediatedClickTellsTheAdapterBeforeTheScreen() {
    let ad = mediatedAd(TestAdapter.ad())
    var state = ad.state
    #expect(
      apply(.click(assetKey: "headline", openableURLSchemes: [], caller: 1), &state, of: ad)
        == AdTransition(
          outcome: .click(
            ClickOutcome(recorded: true, action: .landingPage, url: "https://example.test/landing")
          ),
          effects: [
            .event(.didRecordClick, assetKey: "headline"),
            .adapter(.didRecordClick(assetKey: "headline")), .event(.willPresentScreen),
          ]))
    #expect(
      apply(.click(assetKey: "body", openableURLSchemes: ["testapp"], caller: 1), &state, of: ad)
        .outcome == .click(ClickOutcome(recorded: true, action: .deepLink, url: "testapp://open")))
  }

  @Test func aMediatedAdWithoutALandingPageOpensNothingAndPresentsNoScreen() {
    var mapped = TestAdapter.ad()
    mapped.landingPageURL = nil
    let ad = mediatedAd(mapped)
    var state = ad.state
    #expect(
      apply(.click(assetKey: "headline", openableURLSchemes: [], caller: 1), &state, of: ad)
        == AdTransition(
          outcome: .click(ClickOutcome(recorded: true, action: .none, url: nil)),
          effects: [
            .event(.didRecordClick, assetKey: "headline"),
            .adapter(.didRecordClick(assetKey: "headline")),
          ]))
    #expect(!state.isScreenPresented)
    #expect(state.clickCount == 1)

    // An openable deep link still opens.
    #expect(
      apply(
        .click(assetKey: "headline", openableURLSchemes: ["testapp"], caller: 1), &state, of: ad
      )
      .effects.last == .event(.willPresentScreen))
    #expect(state.isScreenPresented)
  }

  @Test func anAdapterTrackedClickIsHandedToTheAdapterEachTimeAndItsReportRecordsIt() {
    let ad = mediatedAd(TestAdapter.ad(clicks: true))
    #expect(ad.clickTracker == .adapter)
    var state = ad.state
    let handled = AdChange.click(assetKey: "headline", openableURLSchemes: ["testapp"], caller: 1)
    #expect(
      apply(handled, &state, of: ad)
        == AdTransition(
          outcome: .click(
            ClickOutcome(recorded: false, action: .adapter, url: nil, reason: .handledByAdapter)),
          effects: [.adapter(.handleClick(assetKey: "headline"))]))
    #expect(
      apply(.click(assetKey: "body", openableURLSchemes: [], caller: 1), &state, of: ad).effects
        == [.adapter(.handleClick(assetKey: "body"))])
    #expect(state.clickCount == 0)
    #expect(!state.isScreenPresented)

    // The adapter's report records the last click handed to it, then one without an asset.
    #expect(
      apply(.adapterClick, &state, of: ad)
        == AdTransition(
          outcome: .changed(true), effects: [.event(.didRecordClick, assetKey: "body")]))
    #expect(
      apply(.adapterClick, &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: [.event(.didRecordClick)]))
    #expect(state.clickCount == 2)

    // Muted or expired, neither the click nor the report records.
    var muted = state
    _ = apply(.mute(reason: nil), &muted, of: ad)
    #expect(
      apply(handled, &muted, of: ad)
        == AdTransition(outcome: .click(.notRecorded(.muted)), effects: []))
    #expect(
      apply(.adapterClick, &muted, of: ad) == AdTransition(outcome: .changed(false), effects: []))
    #expect(
      apply(.adapterClick, &state, of: ad, at: ad.expiresAt)
        == AdTransition(outcome: .changed(false), effects: []))
    #expect(state.clickCount == 2)
  }

  @Test func anAdapterTrackedClickOnANonclickableAssetIsNotHandedOver() {
    let ad = mediatedAd(TestAdapter.ad(clicks: true))
    var state = ad.state
    _ = apply(
      .registerAdView(AdViewRegistration(clickable: [.headline], nonclickable: [.body])), &state,
      of: ad)
    #expect(
      apply(.click(assetKey: "body", openableURLSchemes: [], caller: 1), &state, of: ad)
        == AdTransition(outcome: .click(.notRecorded(.notClickable)), effects: []))
  }

  // MARK: Screens, mutes, views

  @Test func dismissingAPresentedScreenRecordsBothEventsOnce() {
    let ad = nativeAd()
    var state = ad.state
    #expect(
      apply(.dismissScreen, &state, of: ad) == AdTransition(outcome: .changed(false), effects: []))
    _ = apply(.click(assetKey: "headline", openableURLSchemes: [], caller: 1), &state, of: ad)
    #expect(state.isScreenPresented)
    #expect(
      apply(.dismissScreen, &state, of: ad)
        == AdTransition(
          outcome: .changed(true),
          effects: [.event(.willDismissScreen), .event(.didDismissScreen)]))
    #expect(!state.isScreenPresented)
    #expect(
      apply(.dismissScreen, &state, of: ad) == AdTransition(outcome: .changed(false), effects: []))
  }

  @Test func theAdaptersFullScreenReportsMoveTheScreenState() {
    let ad = mediatedAd(TestAdapter.ad())
    var state = ad.state
    #expect(
      apply(.adapterEvent(.willPresentScreen), &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: [.event(.willPresentScreen)]))
    #expect(state.isScreenPresented)
    #expect(
      apply(.adapterEvent(.willDismissScreen), &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: [.event(.willDismissScreen)]))
    #expect(state.isScreenPresented)
    #expect(
      apply(.adapterEvent(.didDismissScreen), &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: [.event(.didDismissScreen)]))
    #expect(!state.isScreenPresented)
    #expect(
      apply(.dismissScreen, &state, of: ad) == AdTransition(outcome: .changed(false), effects: []))
  }

  @Test func theFirstMuteRecordsItsReasonAndLaterOnesChangeNothing() {
    let ad = Fixtures.loadOne(Fixtures.manager(clock: clock), Fixtures.request(Fixtures.adMobUnit))
    var state = ad.state
    #expect(
      apply(.mute(reason: "Irrelevant"), &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: [.event(.didMute, reason: "Irrelevant")]))
    #expect(state.isMuted)
    #expect(state.muteReason == "Irrelevant")
    #expect(
      apply(.mute(reason: "Ad covered content"), &state, of: ad)
        == AdTransition(outcome: .changed(false), effects: []))
    #expect(state.muteReason == "Irrelevant")

    var unexplained = ad.state
    #expect(apply(.mute(reason: nil), &unexplained, of: ad).effects == [.event(.didMute)])
    #expect(unexplained.muteReason == nil)
  }

  @Test func registeringTheMediaViewStartsAStoppedVideo() throws {
    let ad = Fixtures.loadAdMobVideo(Fixtures.manager(clock: clock))
    let registration = AdViewRegistration(clickable: [.headline], nonclickable: [.mediaView])
    var state = ad.state
    #expect(
      apply(.registerAdView(registration), &state, of: ad)
        == AdTransition(outcome: .adView(registration), effects: [.event(.videoDidPlay)]))
    #expect(state.adView == registration)
    #expect(state.video?.state(at: now).playbackState == .playing)
    // Registering again does not restart it.
    #expect(
      apply(.registerAdView(registration), &state, of: ad)
        == AdTransition(outcome: .adView(registration), effects: []))

    var withoutMedia = ad.state
    #expect(
      apply(
        .registerAdView(AdViewRegistration(clickable: [.headline], nonclickable: [])),
        &withoutMedia, of: ad
      ).effects.isEmpty)
    #expect(withoutMedia.video?.state(at: now).playbackState == .stopped)
  }

  @Test func aMediatedViewIsRenderedThenItsVideoPlays() {
    var mapped = TestAdapter.ad()
    mapped.media = MediaContent(aspectRatio: 2, hasVideoContent: true, duration: 10)
    let ad = mediatedAd(mapped)
    let registration = AdViewRegistration(
      clickable: [.headline, .callToAction], nonclickable: [.icon, .mediaView])
    var state = ad.state
    #expect(
      apply(.registerAdView(registration), &state, of: ad)
        == AdTransition(
          outcome: .adView(registration),
          effects: [
            .adapter(
              .didRender(
                clickable: ["headline", "callToAction"], nonclickable: ["icon", "mediaView"])),
            .event(.videoDidPlay),
          ]))
  }

  @Test func unregisteringAndReleasingUntrackAMediatedView() {
    let ad = mediatedAd(TestAdapter.ad())
    let registration = AdViewRegistration(clickable: [.headline], nonclickable: [])
    var state = ad.state
    #expect(
      apply(.release, &state, of: ad) == AdTransition(outcome: .changed(false), effects: []))
    #expect(
      apply(.unregisterAdView, &state, of: ad)
        == AdTransition(outcome: .changed(false), effects: []))

    _ = apply(.registerAdView(registration), &state, of: ad)
    var released = state
    #expect(
      apply(.release, &released, of: ad)
        == AdTransition(outcome: .changed(true), effects: [.adapter(.didUntrackView)]))
    #expect(released.adView == registration)

    #expect(
      apply(.unregisterAdView, &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: [.adapter(.didUntrackView)]))
    #expect(state.adView == nil)
    #expect(
      apply(.unregisterAdView, &state, of: ad)
        == AdTransition(outcome: .changed(false), effects: []))
  }

  @Test func anInventoryAdsViewHasNoAdapterToTell() {
    let ad = nativeAd()
    let registration = AdViewRegistration(clickable: [.headline], nonclickable: [.icon])
    var state = ad.state
    #expect(
      apply(.registerAdView(registration), &state, of: ad)
        == AdTransition(outcome: .adView(registration), effects: []))
    #expect(
      apply(.release, &state, of: ad) == AdTransition(outcome: .changed(true), effects: []))
    #expect(
      apply(.unregisterAdView, &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: []))
  }

  // MARK: Video and settling

  @Test func everyChangeFirstNoticesAVideoThatPlayedToItsEnd() {
    let ad = Fixtures.loadAdMobVideo(Fixtures.manager(clock: clock))
    var playing = ad.state
    #expect(apply(.videoControl(.play), &playing, of: ad).effects == [.event(.videoDidPlay)])
    let end = now + 30

    var settled = playing
    #expect(
      apply(.settle, &settled, of: ad, at: end - 0.5)
        == AdTransition(outcome: .changed(false), effects: []))
    #expect(
      apply(.settle, &settled, of: ad, at: end)
        == AdTransition(outcome: .changed(true), effects: [.event(.videoDidEnd)]))
    #expect(
      apply(.settle, &settled, of: ad, at: end + 10)
        == AdTransition(outcome: .changed(false), effects: []))

    var impression = playing
    #expect(
      apply(.recordImpression, &impression, of: ad, at: end + 1)
        == AdTransition(
          outcome: .impression(.recorded),
          effects: [.event(.videoDidEnd), .event(.didRecordImpression)]))

    var muted = playing
    #expect(
      apply(.mute(reason: nil), &muted, of: ad, at: end).effects
        == [.event(.videoDidEnd), .event(.didMute)])

    var dismissed = playing
    #expect(
      apply(.dismissScreen, &dismissed, of: ad, at: end)
        == AdTransition(outcome: .changed(false), effects: [.event(.videoDidEnd)]))

    var stopped = playing
    #expect(
      apply(.videoControl(.stop), &stopped, of: ad, at: end)
        == AdTransition(
          outcome: .video(
            VideoControlOutcome(
              applied: true,
              state: VideoControllerState(
                isMuted: true, customControlsEnabled: true, clickToExpandEnabled: false,
                playbackState: .stopped, currentTime: 0, duration: 30))),
          effects: [.event(.videoDidEnd)]))
  }

  @Test func videoControlsGoThroughTheVideoPlayer() {
    let ad = Fixtures.loadAdMobVideo(Fixtures.manager(clock: clock))
    var state = ad.state
    clock.advance(by: 2)
    let paused = apply(.videoControl(.pause), &state, of: ad)
    #expect(paused.effects.isEmpty)
    #expect(
      paused.outcome
        == .video(
          VideoControlOutcome(
            applied: false, reason: .noChange, state: state.video?.state(at: now))))
    #expect(apply(.videoControl(.unmute), &state, of: ad).effects == [.event(.videoDidUnmute)])
    #expect(state.video?.state(at: now).isMuted == false)
  }

  @Test func aCustomFormatVideoPlaysOnlyAfterItsImpression() {
    let ad = Fixtures.loadCustomVideo(Fixtures.manager(clock: clock))
    var state = ad.state
    let refused = apply(.videoControl(.play), &state, of: ad)
    #expect(refused.effects.isEmpty)
    guard case .video(let outcome) = refused.outcome else {
      Issue.record("expected a video outcome, got \(refused.outcome)")
      return
    }
    #expect(outcome.reason == .impressionNotRecorded)
    #expect(apply(.videoControl(.unmute), &state, of: ad).effects == [.event(.videoDidUnmute)])
    _ = apply(.recordImpression, &state, of: ad)
    #expect(apply(.videoControl(.pause), &state, of: ad).effects == [.event(.videoDidPause)])
    #expect(apply(.videoControl(.play), &state, of: ad).effects == [.event(.videoDidPlay)])
  }

  @Test func anAdWithoutVideoAnswersNoVideo() {
    let ad = nativeAd()
    var state = ad.state
    #expect(state.video == nil)
    for action in VideoAction.allCases {
      #expect(
        apply(.videoControl(action), &state, of: ad)
          == AdTransition(
            outcome: .video(VideoControlOutcome(applied: false, reason: .noVideo, state: nil)),
            effects: []))
    }
    #expect(
      apply(.adapterEvent(.videoDidPlay), &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: [.event(.videoDidPlay)]))
    #expect(state.video == nil)
  }

  @Test func theAdaptersVideoReportsDriveTheVideo() {
    var mapped = TestAdapter.ad()
    mapped.media = MediaContent(aspectRatio: 2, hasVideoContent: true, duration: 10)
    let ad = mediatedAd(mapped)
    var state = ad.state
    #expect(
      apply(.adapterEvent(.videoDidPlay), &state, of: ad)
        == AdTransition(outcome: .changed(true), effects: [.event(.videoDidPlay)]))
    clock.advance(by: 4)
    #expect(state.video?.state(at: now).currentTime == 4)
    _ = apply(.adapterEvent(.videoDidEnd), &state, of: ad)
    #expect(state.video?.state(at: now).playbackState == .ended)
    #expect(state.video?.state(at: now).currentTime == 10)
  }

  // MARK: Values

  @Test func applyingToACopyLeavesTheAdsStoredStateAlone() throws {
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadOne(manager)
    let original = ad.state
    var copy = ad.state
    _ = apply(.recordImpression, &copy, of: ad)
    _ = apply(.click(assetKey: "headline", openableURLSchemes: [], caller: 1), &copy, of: ad)
    _ = apply(.mute(reason: nil), &copy, of: ad)
    _ = apply(
      .registerAdView(AdViewRegistration(clickable: [.headline], nonclickable: [])), &copy, of: ad)
    #expect(copy != original)
    #expect(ad.state == original)
    #expect(!ad.state.impressionRecorded)
    #expect(ad.state.clickCount == 0)
    #expect(!ad.state.isMuted)
    #expect(ad.state.adView == nil)
    #expect(manager.events.isEmpty)

    // The ad still records through its store.
    #expect(try manager.recordImpression(adId: ad.id) == .recorded)
    #expect(ad.state.impressionRecorded)
    #expect(!original.impressionRecorded)
  }

  @Test func aVideoStateCopyIsIndependentToo() {
    let ad = Fixtures.loadAdMobVideo(Fixtures.manager(clock: clock))
    var copy = ad.state
    _ = apply(.videoControl(.play), &copy, of: ad)
    clock.advance(by: 3)
    #expect(copy.video?.state(at: now).currentTime == 3)
    #expect(ad.video(at: now)?.playbackState == .stopped)
    #expect(ad.video(at: now)?.currentTime == 0)
  }

  @Test func aNewStateFollowsTheLoaderOptionsAndTheCreative() {
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadAdMobVideo(
      manager, startMuted: false, customControls: true, clickToExpand: true)
    #expect(
      ad.state.video?.state(at: now)
        == VideoControllerState(
          isMuted: false, customControlsEnabled: true, clickToExpandEnabled: false, duration: 30))
    let fresh = AdState(creative: ad.creative, options: ad.options, at: now)
    #expect(fresh == ad.state)
    #expect(!fresh.impressionRecorded && fresh.clickCount == 0 && fresh.adView == nil)
  }
}
