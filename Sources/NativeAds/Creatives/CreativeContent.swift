/// What a creative shows: system-defined native assets or a custom format's named assets.
public enum CreativeContent: Sendable {
  /// A system-defined native creative.
  case native(NativeAssets)
  /// A custom native creative of format `formatID`, with its assets in format order.
  case custom(formatID: String, assets: [(name: String, value: CustomAssetValue)])

  /// The ad kind this content is served as.
  public var kind: AdKind {
    switch self {
    case .native: .native
    case .custom: .customNative
    }
  }

  /// The native assets, for a native creative.
  public var nativeAssets: NativeAssets? {
    if case .native(let assets) = self { return assets }
    return nil
  }

  /// The custom format ID, for a custom creative.
  public var customFormatID: String? {
    if case .custom(let formatID, _) = self { return formatID }
    return nil
  }

  /// The value of the custom asset called `name`, for a custom creative.
  public func customAsset(named name: String) -> CustomAssetValue? {
    guard case .custom(_, let assets) = self else { return nil }
    return assets.first { $0.name == name }?.value
  }
}
