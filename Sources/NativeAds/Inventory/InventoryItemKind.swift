/// The kinds of item an ``Inventory`` stores (`store.remove`'s `kind`). Raw values are the wire
/// names.
public enum InventoryItemKind: String, Sendable, CaseIterable {
  /// A custom native format.
  case format
  /// A creative.
  case creative
  /// An ad unit.
  case adUnit
}
