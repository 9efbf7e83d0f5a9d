import NativeAds
import Testing

/// Who tracks a mediated ad's clicks and impressions, in the four combinations.
struct TrackingCase: Sendable, CustomTestStringConvertible {
  var clicks: Bool
  var impressions: Bool
  var testDescription: String {
    "handlesUserClicks \(clicks), handlesUserImpressions \(impressions)"
  }

  static let all = [false, true].flatMap { clicks in
    [false, true].map { TrackingCase(clicks: clicks, impressions: $0) }
  }
}

@Suite struct MediatedAdTrackingTests {
  typealias M = MediationFixtures

  @Test(arguments: TrackingCase.all)
  func eachSideTracksWhatTheMappedAdSaysExactlyOnce(_ tracking: TrackingCase) throws {
    let forwarding = RecordingForwarding()
    let (manager, ad, delegate) = M.mediatedAd(
      TestAdapter.ad(
        clicks: tracking.clicks, impressions: tracking.impressions,
        forwarding: forwarding))
    let sink = RecordingSink()
    manager.sink = sink
    #expect(ad.mediation?.handlesUserClicks == tracking.clicks)
    #expect(ad.mediation?.handlesUserImpressions == tracking.impressions)

    // The app shows the ad twice, then the adapter reports an impression twice.
    let first = try manager.recordImpression(adId: ad.id)
    let second = try manager.recordImpression(adId: ad.id)
    let firstReport = delegate.reportImpression()
    let secondReport = delegate.reportImpression()
    if tracking.impressions {
      #expect(first == .notRecorded(.handledByAdapter))
      #expect(second == .notRecorded(.handledByAdapter))
      #expect(firstReport && !secondReport)
      #expect(forwarding.calls.filter { $0 == "handleImpression" }.count == 1)
      #expect(!forwarding.calls.contains("didRecordImpression"))
    } else {
      #expect(first == .recorded)
      #expect(second == .notRecorded(.alreadyRecorded))
      #expect(!firstReport && !secondReport)
      #expect(forwarding.calls.filter { $0 == "didRecordImpression" }.count == 1)
      #expect(!forwarding.calls.contains("handleImpression"))
    }
    #expect(try manager.recordImpression(adId: ad.id) == .notRecorded(.alreadyRecorded))
    #expect(sink.events.filter { $0.event == .didRecordImpression }.count == 1)

    // The app clicks the headline once; the adapter reports one click.
    let click = try manager.performClick(
      adId: ad.id, key: "headline", openableURLSchemes: [], by: 1)
    let reported = delegate.reportClick()
    #expect(reported)
    let clicks = sink.events.filter { $0.event == .didRecordClick }
    if tracking.clicks {
      #expect(
        click
          == ClickOutcome(recorded: false, action: .adapter, url: nil, reason: .handledByAdapter))
      #expect(forwarding.calls.filter { $0.hasPrefix("handleClick") } == ["handleClick:headline"])
      #expect(!forwarding.calls.contains { $0.hasPrefix("didRecordClickOnAsset") })
      #expect(clicks.map(\.assetKey) == ["headline"])
    } else {
      #expect(
        click
          == ClickOutcome(recorded: true, action: .landingPage, url: "https://example.test/landing")
      )
      #expect(
        forwarding.calls.filter { $0.hasPrefix("didRecordClickOnAsset") } == [
          "didRecordClickOnAsset:headline"
        ])
      #expect(!forwarding.calls.contains { $0.hasPrefix("handleClick") })
      #expect(clicks.map(\.assetKey) == ["headline", nil])
    }
    #expect(ad.clickCount == clicks.count)
  }

  @Test func anAdapterThatReportsAtOnceMakesTheAppsCallRecord() throws {
    let forwarding = RecordingForwarding()
    forwarding.reportsAtOnce = true
    let (manager, ad, delegate) = M.mediatedAd(
      TestAdapter.ad(clicks: true, impressions: true, forwarding: forwarding))
    forwarding.delegate = delegate
    #expect(try manager.recordImpression(adId: ad.id) == .recorded)
    #expect(
      try manager.performClick(adId: ad.id, key: "body", openableURLSchemes: [], by: 1)
        == ClickOutcome(recorded: true, action: .adapter, url: nil))
    #expect(manager.events.map(\.event) == [.didRecordImpression, .didRecordClick])
    #expect(manager.events.last?.assetKey == "body")
  }

  @Test func visibilityOfARegisteredViewHandsTheImpressionToTheAdapter() throws {
    let forwarding = RecordingForwarding()
    let (manager, ad, _) = M.mediatedAd(TestAdapter.ad(impressions: true, forwarding: forwarding))
    _ = try manager.registerAdView(adId: ad.id, clickable: ["headline"], nonclickable: [])
    #expect(
      try manager.reportVisibility(adId: ad.id, visiblePixels: 0) == .notRecorded(.notVisible))
    #expect(
      try manager.reportVisibility(adId: ad.id, visiblePixels: 10)
        == .notRecorded(.handledByAdapter))
    #expect(forwarding.calls.last == "handleImpression")
    #expect(manager.events.isEmpty)
  }

  @Test func clicksTheAdapterHandlesStillRespectTheAdView() throws {
    let forwarding = RecordingForwarding()
    let (manager, ad, _) = M.mediatedAd(TestAdapter.ad(clicks: true, forwarding: forwarding))
    _ = try manager.registerAdView(adId: ad.id, clickable: ["headline"], nonclickable: ["body"])
    #expect(
      try manager.performClick(adId: ad.id, key: "body", openableURLSchemes: [], by: 1)
        == .notRecorded(.notClickable))
    #expect(!forwarding.calls.contains { $0.hasPrefix("handleClick") })
  }

  @Test func registeringAndUnregisteringTheViewTellsTheAdapter() throws {
    let forwarding = RecordingForwarding()
    let (manager, ad, _) = M.mediatedAd(TestAdapter.ad(forwarding: forwarding))
    _ = try manager.registerAdView(
      adId: ad.id, clickable: ["3001", "callToAction"], nonclickable: ["icon", "mediaView"])
    #expect(forwarding.calls == ["didRender:headline,callToAction|icon,mediaView"])
    #expect(try manager.unregisterAdView(adId: ad.id))
    #expect(try !manager.unregisterAdView(adId: ad.id))
    #expect(forwarding.calls.last == "didUntrackView")
    #expect(forwarding.calls.count == 2)
  }

  @Test func releasingAnAdWithARegisteredViewUntracksIt() throws {
    let forwarding = RecordingForwarding()
    let (manager, ad, _) = M.mediatedAd(TestAdapter.ad(forwarding: forwarding))
    _ = try manager.registerAdView(adId: ad.id, clickable: [], nonclickable: ["headline"])
    try manager.release(adId: ad.id)
    #expect(forwarding.calls == ["didRender:|headline", "didUntrackView"])

    let other = RecordingForwarding()
    let (unviewedManager, unviewed, _) = M.mediatedAd(TestAdapter.ad(forwarding: other))
    #expect(unviewedManager.releaseAll(ownedBy: unviewed.owner) == 1)
    #expect(other.calls.isEmpty)

    let viewed = RecordingForwarding()
    let (allManager, viewedAd, _) = M.mediatedAd(TestAdapter.ad(forwarding: viewed))
    _ = try allManager.registerAdView(adId: viewedAd.id, clickable: ["headline"], nonclickable: [])
    allManager.releaseAll(ownedBy: viewedAd.owner)
    #expect(viewed.calls.last == "didUntrackView")
  }

  @Test func theDelegateTurnsFullScreenAndVideoReportsIntoEvents() throws {
    var mapped = TestAdapter.ad()
    mapped.media = MediaContent(aspectRatio: 16.0 / 9.0, hasVideoContent: true, duration: 30)
    let clock = ManualClock()
    let (manager, ad, delegate) = M.mediatedAd(mapped, clock: clock)
    let sink = RecordingSink()
    manager.sink = sink
    delegate.willPresentFullScreenView()
    #expect(ad.isScreenPresented)
    delegate.willDismissFullScreenView()
    delegate.didDismissFullScreenView()
    #expect(!ad.isScreenPresented)
    delegate.didPlayVideo()
    clock.advance(by: 5)
    #expect(manager.video(of: ad)?.currentTime == 5)
    delegate.didPauseVideo()
    delegate.didMuteVideo()
    delegate.didUnmuteVideo()
    #expect(manager.video(of: ad)?.isMuted == false)
    delegate.didEndVideo()
    #expect(manager.video(of: ad)?.playbackState == .ended)
    #expect(
      sink.events.map(\.event) == [
        .willPresentScreen, .willDismissScreen, .didDismissScreen, .videoDidPlay, .videoDidPause,
        .videoDidMute, .videoDidUnmute, .videoDidEnd,
      ])
    #expect(sink.events.allSatisfy { $0.adId == ad.id && $0.owner == 1 })
  }

  @Test func reportsAfterReleaseDoNothing() throws {
    let (manager, ad, delegate) = M.mediatedAd(TestAdapter.ad(clicks: true, impressions: true))
    try manager.release(adId: ad.id)
    #expect(!delegate.reportImpression())
    #expect(!delegate.reportClick())
    delegate.willPresentFullScreenView()
    delegate.didPlayVideo()
    #expect(manager.events.isEmpty)
  }

  @Test func reportsOnAMutedOrExpiredAdRecordNothing() throws {
    let clock = ManualClock()
    let (manager, ad, delegate) = M.mediatedAd(
      TestAdapter.ad(clicks: true, impressions: true), clock: clock)
    clock.advance(by: 3600)
    #expect(manager.isExpired(ad))
    #expect(!delegate.reportImpression())
    #expect(!delegate.reportClick())
    #expect(manager.events.isEmpty)
  }

  @Test func aMappedAdWithoutALandingPageAnswersNoActionOnARecordedClick() throws {
    var mapped = TestAdapter.ad()
    mapped.landingPageURL = nil
    let (manager, ad, _) = M.mediatedAd(mapped)
    #expect(
      try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: [], by: 1)
        == ClickOutcome(recorded: true, action: .none, url: nil))
    #expect(
      try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: ["testapp"], by: 1)
        == ClickOutcome(recorded: true, action: .deepLink, url: "testapp://open"))
    #expect(manager.events.map(\.event) == [.didRecordClick, .didRecordClick, .willPresentScreen])
  }

  @Test func aMappedAdWithAdChoicesIsIndirect() throws {
    var mapped = TestAdapter.ad()
    mapped.adChoices = AdChoicesInfo(
      image: AdImage(
        url: "https://example.test/info.png",
        picture: .placeholder(width: 20, height: 20, colorKey: "x", shapeKey: "y")),
      clickURL: "https://example.test/why")
    let forwarding = RecordingForwarding()
    mapped.forwarding = forwarding
    let (manager, ad, _) = M.mediatedAd(mapped)
    #expect(ad.creative.isIndirect)
    #expect(
      try manager.performClick(adId: ad.id, key: "_adChoices", openableURLSchemes: [], by: 1)
        == ClickOutcome(recorded: false, action: .adChoices, url: "https://example.test/why"))
    #expect(forwarding.calls.isEmpty)
  }

  @Test func theMediaViewShowsTheFirstImageWhenTheMappedAdGivesNoMedia() throws {
    let (_, ad, _) = M.mediatedAd(TestAdapter.ad())
    #expect(ad.creative.media.mainImage?.url == "https://example.test/image.png")
    #expect(ad.creative.media.aspectRatio == 2)
    #expect(ad.string(forKey: "callToAction") == "Go")
    #expect(ad.image(forKey: "icon")?.width == 64)
  }
}
