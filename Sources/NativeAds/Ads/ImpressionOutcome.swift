/// The result of `recordImpression` or `reportVisibility`.
public struct ImpressionOutcome: Sendable, Equatable {
  public var recorded: Bool
  /// Why nothing was recorded; nil when `recorded`.
  public var reason: NotRecordedReason?

  public init(recorded: Bool, reason: NotRecordedReason? = nil) {
    self.recorded = recorded
    self.reason = reason
  }
}
