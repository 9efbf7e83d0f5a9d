/// A store change that would leave the inventory invalid, thrown by ``Inventory``'s validating
/// methods (``Inventory/defineFormat(_:)``, ``Inventory/putCreative(_:)``,
/// ``Inventory/putAdUnit(_:)``, ``Inventory/remove(kind:id:)``).
///
/// The RPC layer reports it as `Invalid params: <item>.<path> <message>`, the store-file loader
/// as `<file>: <item path>.<path>: <message>`.
public struct InventoryError: Error, Sendable, Equatable {
  /// Where in the item the problem is, relative to the item: e.g. `assets.MainImage`,
  /// `creatives[2]`, `id`; empty when the problem is the item as a whole.
  public var path: String
  /// What is wrong, phrased to follow the path: e.g. `is required by format 10063170`.
  public var message: String

  /// Creates an error.
  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  /// The path and the message as one phrase, e.g. `assets.Caption is required by format
  /// 10063170` (just the message when the path is empty).
  public var description: String { path.isEmpty ? message : path + " " + message }
}
