/// A video controller as a value: its state as of an anchor time, with playback time following
/// the clock from there. Owns every video transition, whoever drives it (the app's custom
/// controls, the app showing the media, a mediation adapter reporting its network's player).
///
/// Invariants: `stored.currentTime` is in `0...stored.duration`; while playing, the position at
/// time `t` is `stored.currentTime + (t - anchor)`, capped at the duration (then `ended`).
public struct VideoPlayer: Sendable, Equatable {
  /// The controller as of ``anchor``.
  var stored: VideoControllerState
  /// When ``stored`` was taken (the clock time playback last started or changed).
  var anchor: Double

  /// A stopped controller at 0, anchored at `now`.
  public init(_ state: VideoControllerState, at now: Double) {
    stored = state
    anchor = now
  }

  /// The controller at time `now`: a playing video advances with the clock, and one that has
  /// played to its end shows as `ended` at its duration. Changes nothing.
  public func state(at now: Double) -> VideoControllerState {
    guard stored.playbackState == .playing else { return stored }
    var state = stored
    let position = state.currentTime + max(0, now - anchor)
    if position >= state.duration {
      state.playbackState = .ended
      state.currentTime = state.duration
    } else {
      state.currentTime = position
    }
    return state
  }

  private mutating func store(_ state: VideoControllerState, at now: Double) {
    stored = state
    anchor = now
  }

  /// Whether the video is playing (its time follows the clock).
  public var isPlaying: Bool { stored.playbackState == .playing }

  /// Whether the video is playing and has reached its end by `now` (``settle(at:)`` would
  /// record it).
  public func hasPlayedToEnd(at now: Double) -> Bool {
    stored.playbackState == .playing && state(at: now).playbackState == .ended
  }

  /// Notices a video that has played to its end: stores it as ended and returns
  /// `videoDidEnd` (once: it is no longer playing afterwards); nil otherwise.
  public mutating func settle(at now: Double) -> AdEventKind? {
    guard stored.playbackState == .playing else { return nil }
    let state = state(at: now)
    guard state.playbackState == .ended else { return nil }
    store(state, at: now)
    return .videoDidEnd
  }

  /// The app showed the media (a media view got the media content): a stopped video starts
  /// playing by itself, whatever the custom controls. Returns `videoDidPlay` when it did.
  public mutating func mediaShown(at now: Double) -> AdEventKind? {
    var state = state(at: now)
    guard state.playbackState == .stopped else { return nil }
    state.playbackState = .playing
    store(state, at: now)
    return .videoDidPlay
  }

  /// What a custom-controls action did: the outcome, and the event to emit (if any).
  public struct ControlResult: Sendable, Equatable {
    public var outcome: VideoControlOutcome
    public var event: AdEventKind?
  }

  /// Applies a custom-controls `action` (see ``AdManager/videoControl(adId:action:completion:)``
  /// for the rules). `playAllowed` false refuses `play` (a custom-format ad before its
  /// impression).
  public mutating func control(_ action: VideoAction, playAllowed: Bool, at now: Double)
    -> ControlResult
  {
    var state = state(at: now)
    let current = state
    func refused(_ reason: VideoControlOutcome.Reason) -> ControlResult {
      ControlResult(
        outcome: VideoControlOutcome(applied: false, reason: reason, state: current), event: nil)
    }
    guard state.customControlsEnabled else { return refused(.customControlsNotEnabled) }
    if action == .play, !playAllowed { return refused(.impressionNotRecorded) }

    let event: AdEventKind?
    switch action {
    case .play:
      switch state.playbackState {
      case .playing: return refused(.noChange)
      case .ended: state.currentTime = 0
      case .stopped, .paused: break
      }
      state.playbackState = .playing
      event = .videoDidPlay
    case .pause:
      guard state.playbackState == .playing else { return refused(.noChange) }
      state.playbackState = .paused
      event = .videoDidPause
    case .stop:
      let wasRunning = state.playbackState == .playing || state.playbackState == .paused
      guard state.playbackState != .stopped else { return refused(.noChange) }
      state.playbackState = .stopped
      state.currentTime = 0
      event = wasRunning ? .videoDidEnd : nil
    case .mute:
      guard !state.isMuted else { return refused(.noChange) }
      state.isMuted = true
      event = .videoDidMute
    case .unmute:
      guard state.isMuted else { return refused(.noChange) }
      state.isMuted = false
      event = .videoDidUnmute
    }
    store(state, at: now)
    return ControlResult(outcome: VideoControlOutcome(applied: true, state: state), event: event)
  }

  /// A mediation adapter reported its network's player moved (`kind`, a video event): the
  /// controller follows it.
  public mutating func networkReported(_ kind: AdEventKind, at now: Double) {
    var state = state(at: now)
    switch kind {
    case .videoDidPlay:
      if state.playbackState == .ended { state.currentTime = 0 }
      state.playbackState = .playing
    case .videoDidPause: state.playbackState = .paused
    case .videoDidEnd:
      state.playbackState = .ended
      state.currentTime = state.duration
    case .videoDidMute: state.isMuted = true
    case .videoDidUnmute: state.isMuted = false
    default: return
    }
    store(state, at: now)
  }
}
