/// The result of ``AdManager/videoControl(adId:action:)``.
public struct VideoControlOutcome: Sendable, Equatable {
  /// Why nothing changed. Raw values are the wire names.
  public enum Reason: String, Sendable, CaseIterable {
    /// The ad has no video content.
    case noVideo
    /// Custom controls were not both requested by the loader and allowed by the creative.
    case customControlsNotEnabled
    /// `play` on a custom-format ad whose impression is not recorded yet.
    case impressionNotRecorded
    /// The action would change nothing (e.g. `pause` while paused).
    case noChange
  }

  /// Whether the action changed the controller.
  public var applied: Bool
  /// Why nothing changed; nil when `applied`.
  public var reason: Reason?
  /// The controller after the action; nil exactly when the ad has no video (``Reason/noVideo``).
  public var state: VideoControllerState?

  /// Creates an outcome.
  public init(applied: Bool, reason: Reason? = nil, state: VideoControllerState?) {
    self.applied = applied
    self.reason = reason
    self.state = state
  }
}
