/// The kinds of item an ``Inventory`` stores. Raw values are their names.
public enum InventoryItemKind: String, Sendable, CaseIterable {
  /// A custom native format.
  case format
  /// A creative.
  case creative
  /// An ad unit.
  case adUnit
}
