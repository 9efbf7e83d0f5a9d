/// The result of ``AdManager/recordImpression(adId:)`` or
/// ``AdManager/reportVisibility(adId:visiblePixels:)``.
public struct ImpressionOutcome: Sendable, Equatable {
  /// Whether the impression was recorded by this call.
  public var recorded: Bool
  /// Why nothing was recorded; nil when `recorded`.
  public var reason: NotRecordedReason?

  /// Creates an outcome.
  public init(recorded: Bool, reason: NotRecordedReason? = nil) {
    self.recorded = recorded
    self.reason = reason
  }

  /// The impression was recorded.
  public static let recorded = ImpressionOutcome(recorded: true)

  /// Nothing was recorded, because of `reason`.
  public static func notRecorded(_ reason: NotRecordedReason) -> ImpressionOutcome {
    ImpressionOutcome(recorded: false, reason: reason)
  }
}
