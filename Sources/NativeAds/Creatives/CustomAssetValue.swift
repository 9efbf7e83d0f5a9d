/// The value of one asset in a custom native creative.
public enum CustomAssetValue: Sendable {
  /// A text asset.
  case text(String)
  /// An image asset.
  case image(AdImage)
  /// A video asset: the creative's ``Creative/media`` describes it.
  case video

  /// The text, when this is a text asset.
  public var text: String? {
    if case .text(let text) = self { return text }
    return nil
  }

  /// The image, when this is an image asset.
  public var image: AdImage? {
    if case .image(let image) = self { return image }
    return nil
  }
}

extension CustomAssetValue {
  /// The asset type this value is of.
  public var type: CustomAssetType {
    switch self {
    case .text: .text
    case .image: .image
    case .video: .video
    }
  }
}
