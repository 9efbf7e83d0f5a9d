/// The type of an asset in a custom native format. Raw values are the wire names.
public enum CustomAssetType: String, Sendable, CaseIterable {
  /// A text asset.
  case text
  /// An image asset.
  case image
  /// A video asset, shown through the ad's media content.
  case video
}
