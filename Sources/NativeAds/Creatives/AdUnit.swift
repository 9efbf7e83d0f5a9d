/// An ad unit: an ID apps load from and the creatives it can serve, in listing order (the last
/// tie-breaker in decisioning).
public struct AdUnit: Sendable, Equatable {
  /// The ad unit ID, e.g. `/21775744923/example/native`.
  public var id: String
  /// The IDs of the creatives the unit serves, in listing order.
  public var creativeIDs: [String]

  /// Creates an ad unit.
  public init(id: String, creativeIDs: [String]) {
    self.id = id
    self.creativeIDs = creativeIDs
  }
}
