/// A custom native format: an ID (numeric in Ad Manager) and an ordered list of named assets.
public struct CustomFormat: Sendable, Equatable {
  /// The format ID, e.g. `10063170`.
  public var id: String
  /// The format's assets, in definition order.
  public var assets: [CustomAssetDefinition]

  /// Creates a format.
  public init(id: String, assets: [CustomAssetDefinition]) {
    self.id = id
    self.assets = assets
  }

  /// The definition of the asset called `name`, if the format has one.
  public func asset(named name: String) -> CustomAssetDefinition? {
    assets.first { $0.name == name }
  }
}
