/// What makes a creative's media unservable (``MediaContent/problem``).
public enum MediaProblem: Sendable, Equatable {
  /// The duration is negative or not finite.
  case invalidDuration
  /// The aspect ratio is negative or not finite.
  case invalidAspectRatio
}

extension MediaContent {
  /// The longest video a store creative may state, in seconds (one day).
  public static let maximumDuration: Double = 86_400
  /// The durations a store video may state, in seconds.
  public static let videoDurationRange: ClosedRange<Double> = 0.001...maximumDuration
  /// The widest (and, inverted, the tallest) aspect ratio media may state.
  public static let maximumAspectRatio: Double = 100
  /// The aspect ratios a store video may state.
  public static let videoAspectRatioRange: ClosedRange<Double> = 0.01...maximumAspectRatio

  /// A negative or non-finite duration or aspect ratio, or nil when both are fine.
  public var problem: MediaProblem? {
    guard duration.isFinite, duration >= 0 else { return .invalidDuration }
    guard aspectRatio.isFinite, aspectRatio >= 0 else { return .invalidAspectRatio }
    return nil
  }
}
