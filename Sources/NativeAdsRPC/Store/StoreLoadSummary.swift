/// What a store load stored, and what it took.
public struct StoreLoadSummary: Sendable, Equatable {
  public var formats: Int
  public var creatives: Int
  public var adUnits: Int
  /// Creatives kept packed until first served (``CreativePacker``), and the bytes their
  /// packed details take.
  public var packedCreatives: Int
  public var packedBytes: Int
  /// Bytes read from the source, over every pass.
  public var bytes: Int
  /// Passes over the document: 2 when its sections needed another order.
  public var passes: Int
}
