/// An ad unit: an ID apps load from and the creatives it can serve, in listing order (the last
/// tie-breaker in decisioning), optionally behind a mediation waterfall.
public struct AdUnit: Sendable, Equatable {
  /// The ad unit ID, e.g. `/21775744923/example/native`.
  public var id: String
  /// The IDs of the creatives the unit serves, in listing order. With a ``waterfall`` they
  /// serve through its ``WaterfallSource/inventory(eCPM:label:)`` source only.
  public var creativeIDs: [String]
  /// The mediation waterfall: the unit's ad sources, asked by eCPM, highest first (see
  /// ``AdManager/load(_:owner:completion:)``). Nil for a unit without mediation, whose
  /// creatives are its only source.
  public var waterfall: [WaterfallSource]?
  /// The deadline of a whole waterfall load in milliseconds; nil uses the manager's
  /// ``AdManager/mediationDeadlineMs``. Ignored without a ``waterfall``.
  public var deadlineMs: UInt64?

  /// Creates an ad unit.
  public init(
    id: String, creativeIDs: [String], waterfall: [WaterfallSource]? = nil,
    deadlineMs: UInt64? = nil
  ) {
    self.id = id
    self.creativeIDs = creativeIDs
    self.waterfall = waterfall
    self.deadlineMs = deadlineMs
  }
}
