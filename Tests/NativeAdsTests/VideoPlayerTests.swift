import Testing

@testable import NativeAds

/// The ``VideoPlayer`` value on its own: a controller anchored at a time, following the clock
/// while playing.
@Suite struct VideoPlayerTests {
  /// When the players are created.
  private let start = 1_000.0
  private let duration = 30.0

  private func controller(
    muted: Bool = true, customControls: Bool = true,
    _ playbackState: VideoPlaybackState = .stopped, at currentTime: Double = 0
  ) -> VideoControllerState {
    VideoControllerState(
      isMuted: muted, customControlsEnabled: customControls, clickToExpandEnabled: false,
      playbackState: playbackState, currentTime: currentTime, duration: duration)
  }

  private func player(muted: Bool = true, customControls: Bool = true) -> VideoPlayer {
    VideoPlayer(controller(muted: muted, customControls: customControls), at: start)
  }

  /// A player that started playing at `start`.
  private func playing(customControls: Bool = true) -> VideoPlayer {
    var player = player(customControls: customControls)
    _ = player.mediaShown(at: start)
    return player
  }

  private func applied(_ state: VideoControllerState, _ event: AdEventKind?)
    -> VideoPlayer.ControlResult
  {
    VideoPlayer.ControlResult(
      outcome: VideoControlOutcome(applied: true, state: state), event: event)
  }

  private func refused(_ reason: VideoControlOutcome.Reason, _ state: VideoControllerState)
    -> VideoPlayer.ControlResult
  {
    VideoPlayer.ControlResult(
      outcome: VideoControlOutcome(applied: false, reason: reason, state: state), event: nil)
  }

  // MARK: The clock

  @Test func aNewPlayerIsStoppedAtZeroWhateverTheClock() {
    let player = player()
    #expect(player.state(at: start) == controller())
    #expect(player.state(at: start + 500) == controller())
    #expect(!player.hasPlayedToEnd(at: start + 500))
  }

  @Test func aPlayingVideoFollowsTheClockAndEndsAtItsDuration() {
    let player = playing()
    #expect(player.state(at: start) == controller(.playing, at: 0))
    #expect(player.state(at: start + 10) == controller(.playing, at: 10))
    #expect(player.state(at: start + 29.5) == controller(.playing, at: 29.5))
    #expect(player.state(at: start + duration) == controller(.ended, at: duration))
    #expect(player.state(at: start + 500) == controller(.ended, at: duration))
    // A time before the anchor does not move it back.
    #expect(player.state(at: start - 5) == controller(.playing, at: 0))
  }

  @Test func readingTheStateChangesNothing() {
    let player = playing()
    let before = player
    _ = player.state(at: start + 100)
    _ = player.hasPlayedToEnd(at: start + 100)
    #expect(player == before)
    #expect(player.state(at: start + 3) == controller(.playing, at: 3))
  }

  @Test func hasPlayedToEndIsTrueFromTheDurationOnWhilePlaying() {
    let player = playing()
    #expect(!player.hasPlayedToEnd(at: start + duration - 0.001))
    #expect(player.hasPlayedToEnd(at: start + duration))
    #expect(player.hasPlayedToEnd(at: start + duration + 60))
  }

  @Test func aVideoOfNoLengthEndsAsSoonAsItPlays() {
    var player = VideoPlayer(
      VideoControllerState(
        isMuted: true, customControlsEnabled: false, clickToExpandEnabled: false, duration: 0),
      at: start)
    #expect(player.mediaShown(at: start) == .videoDidPlay)
    #expect(player.state(at: start).playbackState == .ended)
    #expect(player.settle(at: start) == .videoDidEnd)
  }

  // MARK: Settling

  @Test func settleReturnsDidEndOnceWhenThePlaybackReachedTheEnd() {
    var player = playing()
    #expect(player.settle(at: start + 29) == nil)
    #expect(player == playing())

    #expect(player.settle(at: start + 31) == .videoDidEnd)
    #expect(player.state(at: start + 31) == controller(.ended, at: duration))
    #expect(!player.hasPlayedToEnd(at: start + 31))
    #expect(player.settle(at: start + 31) == nil)
    #expect(player.settle(at: start + 100) == nil)
    #expect(player.state(at: start + 100) == controller(.ended, at: duration))
  }

  @Test func settleDoesNothingUnlessPlaying() {
    var stopped = player()
    #expect(stopped.settle(at: start + 100) == nil)
    #expect(stopped == player())

    var paused = playing()
    _ = paused.control(.pause, playAllowed: true, at: start + 5)
    let frozen = paused
    #expect(paused.settle(at: start + 100) == nil)
    #expect(paused == frozen)
    #expect(paused.state(at: start + 100) == controller(.paused, at: 5))
  }

  // MARK: Showing the media

  @Test func showingTheMediaStartsOnlyAStoppedVideo() {
    var player = player()
    #expect(player.mediaShown(at: start + 2) == .videoDidPlay)
    #expect(player.state(at: start + 5) == controller(.playing, at: 3))
    // Playing already: nothing.
    #expect(player.mediaShown(at: start + 5) == nil)
    #expect(player.state(at: start + 6) == controller(.playing, at: 4))

    // Paused: nothing.
    _ = player.control(.pause, playAllowed: true, at: start + 6)
    #expect(player.mediaShown(at: start + 7) == nil)
    #expect(player.state(at: start + 7) == controller(.paused, at: 4))

    // Ended (noticed or not): nothing.
    var ended = playing()
    #expect(ended.mediaShown(at: start + 40) == nil)
    #expect(ended.state(at: start + 40) == controller(.ended, at: duration))
    _ = ended.settle(at: start + 40)
    #expect(ended.mediaShown(at: start + 41) == nil)

    // Stopped again: it starts from zero.
    _ = player.control(.stop, playAllowed: true, at: start + 8)
    #expect(player.mediaShown(at: start + 9) == .videoDidPlay)
    #expect(player.state(at: start + 10) == controller(.playing, at: 1))
  }

  @Test func showingTheMediaPlaysWithoutCustomControls() {
    var player = player(customControls: false)
    #expect(player.mediaShown(at: start) == .videoDidPlay)
    #expect(player.state(at: start + 1).playbackState == .playing)
  }

  // MARK: Custom controls

  @Test(arguments: VideoAction.allCases)
  func withoutCustomControlsEveryActionIsRefused(_ action: VideoAction) {
    var stopped = player(customControls: false)
    #expect(
      stopped.control(action, playAllowed: true, at: start + 1)
        == refused(.customControlsNotEnabled, controller(customControls: false)))
    #expect(stopped == player(customControls: false))

    var moving = playing(customControls: false)
    let before = moving
    #expect(
      moving.control(action, playAllowed: false, at: start + 4)
        == refused(.customControlsNotEnabled, controller(customControls: false, .playing, at: 4)))
    #expect(moving == before)
  }

  @Test func playIsRefusedWhenNotAllowedButTheOtherActionsApply() {
    var player = player()
    #expect(
      player.control(.play, playAllowed: false, at: start)
        == refused(.impressionNotRecorded, controller()))
    #expect(player == self.player())
    #expect(
      player.control(.unmute, playAllowed: false, at: start)
        == applied(controller(muted: false), .videoDidUnmute))
    #expect(
      player.control(.stop, playAllowed: false, at: start)
        == refused(.noChange, controller(muted: false)))
  }

  @Test func playStartsAStoppedOrPausedVideoAndRestartsAnEndedOne() {
    var player = player()
    #expect(
      player.control(.play, playAllowed: true, at: start)
        == applied(controller(.playing, at: 0), .videoDidPlay))
    #expect(
      player.control(.play, playAllowed: true, at: start + 4)
        == refused(.noChange, controller(.playing, at: 4)))

    _ = player.control(.pause, playAllowed: true, at: start + 5)
    #expect(
      player.control(.play, playAllowed: true, at: start + 20)
        == applied(controller(.playing, at: 5), .videoDidPlay))
    #expect(player.state(at: start + 22) == controller(.playing, at: 7))

    // Past the end (not noticed yet), play starts again from zero.
    #expect(
      player.control(.play, playAllowed: true, at: start + 60)
        == applied(controller(.playing, at: 0), .videoDidPlay))
    #expect(player.state(at: start + 61) == controller(.playing, at: 1))
  }

  @Test func pauseFreezesOnlyAPlayingVideo() {
    var player = player()
    #expect(
      player.control(.pause, playAllowed: true, at: start) == refused(.noChange, controller()))
    _ = player.control(.play, playAllowed: true, at: start)
    #expect(
      player.control(.pause, playAllowed: true, at: start + 12)
        == applied(controller(.paused, at: 12), .videoDidPause))
    #expect(player.state(at: start + 100) == controller(.paused, at: 12))
    #expect(
      player.control(.pause, playAllowed: true, at: start + 100)
        == refused(.noChange, controller(.paused, at: 12)))

    var ended = playing()
    #expect(
      ended.control(.pause, playAllowed: true, at: start + 40)
        == refused(.noChange, controller(.ended, at: duration)))
  }

  @Test func stopRewindsAndEndsARunningVideo() {
    var player = playing()
    #expect(
      player.control(.stop, playAllowed: true, at: start + 8)
        == applied(controller(.stopped, at: 0), .videoDidEnd))
    #expect(player.state(at: start + 50) == controller())
    #expect(
      player.control(.stop, playAllowed: true, at: start + 50) == refused(.noChange, controller()))

    var paused = playing()
    _ = paused.control(.pause, playAllowed: true, at: start + 3)
    #expect(
      paused.control(.stop, playAllowed: true, at: start + 9)
        == applied(controller(.stopped, at: 0), .videoDidEnd))
  }

  @Test func stoppingAnEndedVideoRewindsItWithoutAnotherEnd() {
    var noticed = playing()
    _ = noticed.settle(at: start + 40)
    #expect(
      noticed.control(.stop, playAllowed: true, at: start + 41)
        == applied(controller(.stopped, at: 0), nil))

    // Past the end but not noticed: the player already sees it ended.
    var unnoticed = playing()
    #expect(
      unnoticed.control(.stop, playAllowed: true, at: start + 41)
        == applied(controller(.stopped, at: 0), nil))
  }

  @Test func muteAndUnmuteToggleTheSoundOnly() {
    var player = playing()
    #expect(
      player.control(.mute, playAllowed: true, at: start + 2)
        == refused(.noChange, controller(.playing, at: 2)))
    #expect(
      player.control(.unmute, playAllowed: true, at: start + 2)
        == applied(controller(muted: false, .playing, at: 2), .videoDidUnmute))
    #expect(
      player.control(.unmute, playAllowed: true, at: start + 3)
        == refused(.noChange, controller(muted: false, .playing, at: 3)))
    #expect(
      player.control(.mute, playAllowed: true, at: start + 4)
        == applied(controller(.playing, at: 4), .videoDidMute))
    // The playback went on meanwhile.
    #expect(player.state(at: start + 10) == controller(.playing, at: 10))
  }

  @Test func aRefusalReportsTheControllerAtThatTimeAndStoresNothing() {
    var player = playing()
    let before = player
    let result = player.control(.play, playAllowed: true, at: start + 7)
    #expect(result == refused(.noChange, controller(.playing, at: 7)))
    #expect(player == before)
  }

  // MARK: The network's player

  @Test func theNetworksReportsMoveTheController() {
    var player = player(customControls: false)
    player.networkReported(.videoDidPlay, at: start + 1)
    #expect(player.state(at: start + 3) == controller(customControls: false, .playing, at: 2))
    player.networkReported(.videoDidPause, at: start + 4)
    #expect(player.state(at: start + 9) == controller(customControls: false, .paused, at: 3))
    player.networkReported(.videoDidPlay, at: start + 10)
    #expect(player.state(at: start + 11) == controller(customControls: false, .playing, at: 4))
    player.networkReported(.videoDidUnmute, at: start + 11)
    #expect(player.state(at: start + 11).isMuted == false)
    player.networkReported(.videoDidMute, at: start + 11)
    #expect(player.state(at: start + 11).isMuted)
    player.networkReported(.videoDidEnd, at: start + 12)
    #expect(player.state(at: start + 12) == controller(customControls: false, .ended, at: duration))
    #expect(player.settle(at: start + 100) == nil)

    // Playing after the end starts from zero.
    player.networkReported(.videoDidPlay, at: start + 20)
    #expect(player.state(at: start + 21) == controller(customControls: false, .playing, at: 1))
  }

  @Test func reportsThatAreNotVideoEventsChangeNothing() {
    var player = playing()
    let before = player
    for kind in AdEventKind.allCases where !kind.isVideoEvent {
      player.networkReported(kind, at: start + 5)
    }
    #expect(player == before)
  }
}
