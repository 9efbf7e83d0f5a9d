/// Every event the service reports, as the SDK's delegates would: ad events (sent as
/// `adEvent`) and video events (sent as `videoEvent`). All are kept in the event log.
public enum AdEventKind: String, Sendable, CaseIterable {
  /// The impression was recorded.
  case didRecordImpression
  /// A click was recorded (`assetKey` says on what).
  case didRecordClick
  /// Mute This Ad.
  case didMute
  /// A click opened a landing page or an app (the app leaves).
  case willPresentScreen
  /// The app reported the user's return (first of two events).
  case willDismissScreen
  /// The app reported the user's return (second of two events).
  case didDismissScreen
  /// The video started or resumed playing (`didPlay` on the wire).
  case videoDidPlay
  /// The video was paused (`didPause`).
  case videoDidPause
  /// The video was stopped, or played to its end (`didEnd`).
  case videoDidEnd
  /// The video's sound was turned off (`didMute`).
  case videoDidMute
  /// The video's sound was turned on (`didUnmute`).
  case videoDidUnmute
  /// A tracker URL of the impression handed to the caller (contract section 10).
  case impressionTracker
  /// A click tracker URL handed to the caller.
  case clickTracker

  /// Whether the event is a video controller event (`videoEvent`) or an ad event (`adEvent`).
  public var isVideoEvent: Bool {
    switch self {
    case .videoDidPlay, .videoDidPause, .videoDidEnd, .videoDidMute, .videoDidUnmute: true
    default: false
    }
  }

  /// The name on the wire: `didRecordClick`, or for video events `didPlay`, `didMute`...
  /// Whether it logs a tracker handed to the caller (not an event of the ad's delegate: it is
  /// logged, never sent as an `adEvent`).
  public var isTracker: Bool { self == .impressionTracker || self == .clickTracker }

  public var wireName: String {
    switch self {
    case .videoDidPlay: "didPlay"
    case .videoDidPause: "didPause"
    case .videoDidEnd: "didEnd"
    case .videoDidMute: "didMute"
    case .videoDidUnmute: "didUnmute"
    case .impressionTracker, .clickTracker: "tracker"
    default: rawValue
    }
  }
}
