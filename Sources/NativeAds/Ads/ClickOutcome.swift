/// The result of ``AdManager/performClick(adId:key:openableURLSchemes:by:)``.
public struct ClickOutcome: Sendable, Equatable {
  /// Whether the click was counted as an ad click.
  public var recorded: Bool
  /// What the caller should do.
  public var action: ClickAction
  /// The URL to open; nil for ``ClickAction/customClickHandler``.
  public var url: String?

  /// Creates an outcome.
  public init(recorded: Bool, action: ClickAction, url: String?) {
    self.recorded = recorded
    self.action = action
    self.url = url
  }
}
