/// The result of ``AdManager/performClick(adId:key:openableURLSchemes:by:)``.
public struct ClickOutcome: Sendable, Equatable {
  /// Whether the click was counted as an ad click.
  public var recorded: Bool
  /// What the caller should do.
  public var action: ClickAction
  /// The URL to open; nil for ``ClickAction/customClickHandler``.
  public var url: String?
  /// Why the click was not recorded (nil when recorded, and for AdChoices clicks).
  public var reason: NotRecordedReason?
  /// The click trackers the caller fetches, for an ad whose creative has tracking
  /// (``AdTracking``): empty when nothing was recorded. nil for every other ad.
  public var trackingURLs: [String]?

  /// Creates an outcome.
  public init(
    recorded: Bool, action: ClickAction, url: String?, reason: NotRecordedReason? = nil,
    trackingURLs: [String]? = nil
  ) {
    self.recorded = recorded
    self.action = action
    self.url = url
    self.reason = reason
    self.trackingURLs = trackingURLs
  }

  /// A click that records nothing and opens nothing.
  public static func notRecorded(_ reason: NotRecordedReason) -> ClickOutcome {
    ClickOutcome(recorded: false, action: .none, url: nil, reason: reason)
  }
}
