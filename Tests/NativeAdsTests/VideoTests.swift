import NativeAds
import Testing

@Suite struct VideoTests {
  @Test func theControllerStartsStoppedWithTheLoaderOptions() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadAdMobVideo(manager, startMuted: false, clickToExpand: true)
    #expect(
      manager.video(of: ad)
        == VideoControllerState(
          isMuted: false, customControlsEnabled: true, clickToExpandEnabled: false,
          playbackState: .stopped, currentTime: 0, duration: 30))
    #expect(ad.hasVideo)
    #expect(try manager.videoState(adId: ad.id) == manager.video(of: ad))

    let defaults = Fixtures.loadOne(manager, Fixtures.request(Fixtures.adMobUnit))
    #expect(manager.video(of: defaults)?.isMuted == true)
    #expect(manager.video(of: defaults)?.customControlsEnabled == false)
  }

  @Test func clickToExpandNeedsTheRequestAndTheCreative() throws {
    let manager = Fixtures.manager()
    var request = Fixtures.request(Fixtures.videoUnit)
    request.options.clickToExpandRequested = true
    let ad = Fixtures.loadOne(manager, request)
    #expect(ad.creative.id == "video-native-1")
    #expect(manager.video(of: ad)?.clickToExpandEnabled == true)
    #expect(manager.video(of: ad)?.customControlsEnabled == false)
    #expect(
      manager.video(of: Fixtures.loadOne(manager, Fixtures.request(Fixtures.videoUnit)))?
        .clickToExpandEnabled
        == false)
  }

  @Test func anAdWithoutVideoHasNoController() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    #expect(manager.video(of: ad) == nil && !ad.hasVideo)
    #expect(try manager.videoState(adId: ad.id) == nil)
    #expect(
      try manager.videoControl(adId: ad.id, action: .play)
        == VideoControlOutcome(applied: false, reason: .noVideo, state: nil))
  }

  @Test(arguments: VideoAction.allCases)
  func withoutCustomControlsNothingChanges(action: VideoAction) throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadAdMobVideo(manager, customControls: false)
    let outcome = try manager.videoControl(adId: ad.id, action: action)
    #expect(outcome.applied == false)
    #expect(outcome.reason == .customControlsNotEnabled)
    #expect(outcome.state == manager.video(of: ad))
    #expect(manager.events.isEmpty)
  }

  @Test func playPauseAndStopFollowTheClock() throws {
    let clock = ManualClock(time: 1_000)
    let manager = Fixtures.manager(clock: clock)
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadAdMobVideo(manager)

    let played = try manager.videoControl(adId: ad.id, action: .play)
    #expect(played.applied && played.reason == nil)
    #expect(played.state?.playbackState == .playing && played.state?.currentTime == 0)
    clock.advance(by: 10)
    #expect(manager.video(of: ad)?.currentTime == 10)

    let paused = try manager.videoControl(adId: ad.id, action: .pause)
    #expect(paused.state?.playbackState == .paused && paused.state?.currentTime == 10)
    clock.advance(by: 5)
    #expect(try manager.videoState(adId: ad.id)?.currentTime == 10)

    _ = try manager.videoControl(adId: ad.id, action: .play)
    clock.advance(by: 4)
    #expect(manager.video(of: ad)?.currentTime == 14)

    let stopped = try manager.videoControl(adId: ad.id, action: .stop)
    #expect(stopped.state?.playbackState == .stopped && stopped.state?.currentTime == 0)
    #expect(
      sink.events.map(\.event) == [.videoDidPlay, .videoDidPause, .videoDidPlay, .videoDidEnd])
    #expect(sink.events.allSatisfy { $0.event.isVideoEvent && $0.owner == 1 && $0.assetKey == nil })
    #expect(sink.events.map(\.time) == [1_000, 1_010, 1_015, 1_019])
  }

  @Test func stoppingAPausedVideoEndsIt() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadAdMobVideo(manager)
    _ = try manager.videoControl(adId: ad.id, action: .play)
    _ = try manager.videoControl(adId: ad.id, action: .pause)
    _ = try manager.videoControl(adId: ad.id, action: .stop)
    #expect(manager.events.map(\.event) == [.videoDidPlay, .videoDidPause, .videoDidEnd])
  }

  @Test(arguments: [
    ([VideoAction](), VideoAction.pause),
    ([], .stop),
    ([], .mute),
    ([.play], .play),
    ([.play, .pause], .pause),
    ([.unmute], .unmute),
  ])
  func anActionThatChangesNothingIsNoChange(before: [VideoAction], action: VideoAction) throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadAdMobVideo(manager)
    for earlier in before { _ = try manager.videoControl(adId: ad.id, action: earlier) }
    let eventsBefore = manager.events
    let outcome = try manager.videoControl(adId: ad.id, action: action)
    #expect(
      outcome
        == VideoControlOutcome(applied: false, reason: .noChange, state: manager.video(of: ad)))
    #expect(manager.events == eventsBefore)
  }

  @Test func muteAndUnmuteToggleTheSound() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadAdMobVideo(manager)
    #expect(try manager.videoControl(adId: ad.id, action: .unmute).state?.isMuted == false)
    #expect(try manager.videoControl(adId: ad.id, action: .mute).state?.isMuted == true)
    #expect(manager.events.map(\.event) == [.videoDidUnmute, .videoDidMute])
    #expect(manager.events.map(\.event.wireName) == ["didUnmute", "didMute"])
    #expect(manager.video(of: ad)?.playbackState == .stopped)
  }

  @Test func theEndIsNoticedByTheNextCallNamingTheAdOnce() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadAdMobVideo(manager)
    _ = try manager.videoControl(adId: ad.id, action: .play)
    clock.advance(by: 29)
    #expect(
      manager.video(of: ad)?.playbackState == .playing && manager.video(of: ad)?.currentTime == 29)
    clock.advance(by: 10)
    // Reading the snapshot shows the end but records nothing.
    #expect(
      manager.video(of: ad)?.playbackState == .ended && manager.video(of: ad)?.currentTime == 30)
    #expect(sink.events.map(\.event) == [.videoDidPlay])

    _ = try manager.string(forKey: "headline", adId: ad.id)
    #expect(sink.events.map(\.event) == [.videoDidPlay, .videoDidEnd])
    _ = try manager.image(forKey: "icon", adId: ad.id)
    _ = try manager.ad(ad.id)
    #expect(sink.events.map(\.event) == [.videoDidPlay, .videoDidEnd])
    #expect(
      try manager.videoState(adId: ad.id)
        == VideoControllerState(
          isMuted: true, customControlsEnabled: true, clickToExpandEnabled: false,
          playbackState: .ended, currentTime: 30, duration: 30))
  }

  @Test func theEndIsRecordedBeforeTheCallsOwnEvents() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadAdMobVideo(manager)
    _ = try manager.videoControl(adId: ad.id, action: .play)
    clock.advance(by: 30)
    _ = try manager.recordImpression(adId: ad.id)
    #expect(manager.events.map(\.event) == [.videoDidPlay, .videoDidEnd, .didRecordImpression])
  }

  @Test func playingAfterTheEndRestartsAtZero() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadAdMobVideo(manager)
    _ = try manager.videoControl(adId: ad.id, action: .play)
    clock.advance(by: 45)
    let replay = try manager.videoControl(adId: ad.id, action: .play)
    #expect(replay.state?.playbackState == .playing && replay.state?.currentTime == 0)
    clock.advance(by: 3)
    #expect(manager.video(of: ad)?.currentTime == 3)
    #expect(manager.events.map(\.event) == [.videoDidPlay, .videoDidEnd, .videoDidPlay])
  }

  @Test func stoppingAnEndedVideoRewindsItWithoutAnotherEnd() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadAdMobVideo(manager)
    _ = try manager.videoControl(adId: ad.id, action: .play)
    clock.advance(by: 31)
    let stopped = try manager.videoControl(adId: ad.id, action: .stop)
    #expect(stopped.applied && stopped.state?.playbackState == .stopped)
    #expect(manager.events.map(\.event) == [.videoDidPlay, .videoDidEnd])
  }

  /// Contract 1.1: a video plays once the app shows its media; for a custom format that is
  /// recording the impression (version 1 waited for an explicit play).
  @Test func contract11_aCustomFormatVideoStartsPlayingWhenItsImpressionIsRecorded() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadCustomVideo(manager)
    #expect(ad.creative.id == "custom-video-12406343-1")
    #expect(
      try manager.videoControl(adId: ad.id, action: .play)
        == VideoControlOutcome(
          applied: false, reason: .impressionNotRecorded, state: manager.video(of: ad)))
    // Other actions do not wait for the impression.
    #expect(try manager.videoControl(adId: ad.id, action: .unmute).applied)
    _ = try manager.recordImpression(adId: ad.id)
    #expect(manager.video(of: ad)?.playbackState == .playing)
    #expect(try manager.videoControl(adId: ad.id, action: .play).reason == .noChange)
    #expect(manager.video(of: ad)?.duration == 20)
    #expect(manager.events.map(\.event) == [.videoDidUnmute, .didRecordImpression, .videoDidPlay])
  }

  @Test func aSystemDefinedVideoPlaysBeforeItsImpression() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadAdMobVideo(manager)
    #expect(try manager.videoControl(adId: ad.id, action: .play).applied)
  }

  @Test func videoOfAReleasedAdIsNotFound() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadAdMobVideo(manager)
    try manager.release(adId: ad.id)
    #expect(
      Fixtures.adError { try manager.videoControl(adId: ad.id, action: .play) }
        == .adNotFound(adId: ad.id))
    #expect(Fixtures.adError { try manager.videoState(adId: ad.id) } == .adNotFound(adId: ad.id))
  }

  /// Contract 1.1: registering an ad view with the media view shows the media, and a stopped
  /// video starts playing by itself (no custom controls needed); other assets do not.
  @Test func contract11_registeringTheMediaViewStartsAStoppedVideo() throws {
    let clock = ManualClock()
    let manager = Fixtures.manager(clock: clock)
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.videoUnit))
    _ = try manager.registerAdView(adId: ad.id, clickable: ["headline"], nonclickable: ["body"])
    #expect(manager.video(of: ad)?.playbackState == .stopped)
    _ = try manager.registerAdView(adId: ad.id, clickable: [], nonclickable: ["3010"])
    #expect(manager.video(of: ad)?.playbackState == .playing)
    clock.advance(by: 2)
    _ = try manager.registerAdView(adId: ad.id, clickable: [], nonclickable: ["mediaView"])
    #expect(
      manager.video(of: ad)?.currentTime == 2, "registering again while playing changes nothing")
    let duration = try #require(manager.video(of: ad)?.duration)
    clock.advance(by: duration)
    _ = try manager.ad(ad.id)
    #expect(manager.video(of: ad)?.playbackState == .ended)
    #expect(manager.events.map(\.event) == [.videoDidPlay, .videoDidEnd])
  }

  @Test func aNativeAdWithoutVideoIgnoresTheMediaView() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    _ = try manager.registerAdView(adId: ad.id, clickable: [], nonclickable: ["mediaView"])
    #expect(manager.video(of: ad) == nil && manager.events.isEmpty)
  }
}
