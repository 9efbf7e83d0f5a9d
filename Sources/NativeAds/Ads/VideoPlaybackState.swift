/// Where a video is in its playback. Raw values are the wire names.
public enum VideoPlaybackState: String, Sendable, CaseIterable {
  /// At the first frame, not playing (the initial state, and after `stop`).
  case stopped
  /// Playing: the current time advances with the clock.
  case playing
  /// Frozen by `pause`.
  case paused
  /// Played to the end; the current time equals the duration.
  case ended
}
