/// Every event the service reports, as the SDK's delegates would: ad events (sent as
/// `adEvent`) and video events (sent as `videoEvent`). All are kept in the event log.
public enum AdEventKind: String, Sendable, CaseIterable {
  case didRecordImpression
  case didRecordClick
  /// Mute This Ad.
  case didMute
  /// A click opened a landing page or an app (the app leaves).
  case willPresentScreen
  case willDismissScreen
  case didDismissScreen
  case videoDidPlay
  case videoDidPause
  case videoDidEnd
  case videoDidMute
  case videoDidUnmute

  /// Whether the event is a video controller event (`videoEvent`) or an ad event (`adEvent`).
  public var isVideoEvent: Bool {
    switch self {
    case .videoDidPlay, .videoDidPause, .videoDidEnd, .videoDidMute, .videoDidUnmute: true
    default: false
    }
  }

  /// The name on the wire: `didRecordClick`, or for video events `didPlay`, `didMute`...
  public var wireName: String {
    switch self {
    case .videoDidPlay: "didPlay"
    case .videoDidPause: "didPause"
    case .videoDidEnd: "didEnd"
    case .videoDidMute: "didMute"
    case .videoDidUnmute: "didUnmute"
    default: rawValue
    }
  }
}
