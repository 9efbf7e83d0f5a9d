/// A store change that would leave the inventory invalid, thrown by ``Inventory``'s validating
/// methods (``Inventory/defineFormat(_:)``, ``Inventory/putCreative(_:)``,
/// ``Inventory/putAdUnit(_:)``, ``Inventory/remove(kind:id:)``): which item, and which rule it
/// breaks, as typed values. The RPC layer turns them into field paths and messages.
public struct InventoryError: Error, Sendable, Equatable {
  /// The kind of the item changed.
  public var kind: InventoryItemKind
  /// The ID of the item changed.
  public var id: String
  /// What is wrong with it.
  public var problem: InventoryProblem

  /// Creates an error.
  public init(_ kind: InventoryItemKind, _ id: String, _ problem: InventoryProblem) {
    self.kind = kind
    self.id = id
    self.problem = problem
  }
}
