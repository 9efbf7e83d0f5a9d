/// A snapshot of an ad's video controller (`mediaContent.videoController`).
public struct VideoControllerState: Sendable, Equatable {
  public var isMuted: Bool
  /// Custom controls were requested by the loader and allowed by the creative.
  public var customControlsEnabled: Bool
  /// Click to expand was requested by the loader and allowed by the creative.
  public var clickToExpandEnabled: Bool
  public var playbackState: VideoPlaybackState
  /// Seconds into the video, never past ``duration``.
  public var currentTime: Double
  public var duration: Double

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
