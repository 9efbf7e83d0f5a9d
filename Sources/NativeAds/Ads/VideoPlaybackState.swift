/// Where a video is in its playback.
public enum VideoPlaybackState: String, Sendable, CaseIterable {
  case stopped, playing, paused, ended
}
