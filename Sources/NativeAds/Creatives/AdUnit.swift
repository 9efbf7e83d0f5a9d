/// An ad unit: an ID apps load from and the creatives it can serve, in listing order (the last
/// tie-breaker in decisioning), optionally behind a mediation waterfall.
///
/// A value kept in one immutable reference, as ``ResponseInfo`` is: a load copies its unit
/// from the inventory into its plan and reads it on the way, and each copy of the fields
/// would count each of them. Setting a member makes a new reference.
public struct AdUnit: Sendable, Equatable {
  private final class Fields: Sendable {
    let id: String
    let creativeIDs: [String]
    let waterfall: [WaterfallSource]?
    let deadlineMs: UInt64?

    init(
      _ id: String, _ creativeIDs: [String], _ waterfall: [WaterfallSource]?, _ deadline: UInt64?
    ) {
      self.id = id
      self.creativeIDs = creativeIDs
      self.waterfall = waterfall
      self.deadlineMs = deadline
    }
  }

  private var fields: Fields

  /// The ad unit ID, e.g. `/21775744923/example/native`.
  public var id: String {
    get { fields.id }
    set { fields = Fields(newValue, creativeIDs, waterfall, deadlineMs) }
  }
  /// The IDs of the creatives the unit serves, in listing order. With a ``waterfall`` they
  /// serve through its ``WaterfallSource/inventory(eCPM:label:)`` source only.
  public var creativeIDs: [String] {
    get { fields.creativeIDs }
    set { fields = Fields(id, newValue, waterfall, deadlineMs) }
  }
  /// The mediation waterfall: the unit's ad sources, asked by eCPM, highest first (see
  /// ``AdManager/load(_:owner:completion:)``). Nil for a unit without mediation, whose
  /// creatives are its only source.
  public var waterfall: [WaterfallSource]? {
    get { fields.waterfall }
    set { fields = Fields(id, creativeIDs, newValue, deadlineMs) }
  }
  /// The deadline of a whole waterfall load in milliseconds; nil uses the manager's
  /// ``AdManager/mediationDeadlineMs``. Ignored without a ``waterfall``.
  public var deadlineMs: UInt64? {
    get { fields.deadlineMs }
    set { fields = Fields(id, creativeIDs, waterfall, newValue) }
  }
  /// Whether the unit has a waterfall, read without copying it.
  public var hasWaterfall: Bool { fields.waterfall != nil }

  /// Creates an ad unit.
  public init(
    id: String, creativeIDs: [String], waterfall: [WaterfallSource]? = nil,
    deadlineMs: UInt64? = nil
  ) {
    fields = Fields(id, creativeIDs, waterfall, deadlineMs)
  }

  public static func == (a: AdUnit, b: AdUnit) -> Bool {
    a.fields === b.fields
      || (a.id == b.id && a.creativeIDs == b.creativeIDs && a.waterfall == b.waterfall
        && a.deadlineMs == b.deadlineMs)
  }
}
