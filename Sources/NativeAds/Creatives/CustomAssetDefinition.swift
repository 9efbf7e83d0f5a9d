/// One named asset of a custom native format, as defined by the publisher.
public struct CustomAssetDefinition: Sendable, Equatable {
  /// The asset name, used as the key to read the asset and to click it.
  public var name: String
  /// The asset type.
  public var type: CustomAssetType
  /// Whether every creative of the format must supply it.
  public var required: Bool

  /// Creates an asset definition.
  public init(name: String, type: CustomAssetType, required: Bool = true) {
    self.name = name
    self.type = type
    self.required = required
  }
}
