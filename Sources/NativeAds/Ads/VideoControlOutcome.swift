/// The result of ``AdManager/videoControl(adId:action:)``.
public struct VideoControlOutcome: Sendable, Equatable {
  /// Why nothing changed.
  public enum Reason: String, Sendable, CaseIterable {
    case noVideo, customControlsNotEnabled, impressionNotRecorded, noChange
  }

  public var applied: Bool
  public var reason: Reason?
  public var state: VideoControllerState

  public init(applied: Bool, reason: Reason? = nil, state: VideoControllerState) {
    self.applied = applied
    self.reason = reason
    self.state = state
  }
}
