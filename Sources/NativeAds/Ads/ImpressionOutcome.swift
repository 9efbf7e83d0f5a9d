/// The result of ``AdManager/recordImpression(adId:)`` or
/// ``AdManager/reportVisibility(adId:visiblePixels:)``.
public struct ImpressionOutcome: Sendable, Equatable {
  /// Whether the impression was recorded by this call.
  public var recorded: Bool
  /// Why nothing was recorded; nil when `recorded`.
  public var reason: NotRecordedReason?
  /// The trackers the caller fetches, for an ad whose creative has tracking (``AdTracking``):
  /// empty when nothing was recorded. nil for every other ad.
  public var trackingURLs: [String]?

  /// Creates an outcome.
  public init(recorded: Bool, reason: NotRecordedReason? = nil, trackingURLs: [String]? = nil) {
    self.recorded = recorded
    self.reason = reason
    self.trackingURLs = trackingURLs
  }

  /// The impression was recorded.
  public static let recorded = ImpressionOutcome(recorded: true)

  /// Nothing was recorded, because of `reason`.
  public static func notRecorded(_ reason: NotRecordedReason) -> ImpressionOutcome {
    ImpressionOutcome(recorded: false, reason: reason)
  }
}
