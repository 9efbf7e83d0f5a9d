/// A snapshot of an ad's video controller (`mediaContent.videoController`, plus the times).
public struct VideoControllerState: Sendable, Equatable {
  /// Whether the sound is off. Starts as the loader's `startMuted`.
  public var isMuted: Bool
  /// Custom controls were requested by the loader and allowed by the creative.
  public var customControlsEnabled: Bool
  /// Click to expand was requested by the loader and allowed by the creative.
  public var clickToExpandEnabled: Bool
  /// Where the video is in its playback.
  public var playbackState: VideoPlaybackState
  /// Seconds into the video, never past ``duration``.
  public var currentTime: Double
  /// The video's length in seconds.
  public var duration: Double

  /// Creates a snapshot; a new controller is stopped at 0.
  public init(
    isMuted: Bool, customControlsEnabled: Bool, clickToExpandEnabled: Bool,
    playbackState: VideoPlaybackState = .stopped, currentTime: Double = 0, duration: Double
  ) {
    self.isMuted = isMuted
    self.customControlsEnabled = customControlsEnabled
    self.clickToExpandEnabled = clickToExpandEnabled
    self.playbackState = playbackState
    self.currentTime = currentTime
    self.duration = duration
  }
}
