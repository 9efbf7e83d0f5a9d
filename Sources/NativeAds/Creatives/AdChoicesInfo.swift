/// The AdChoices overlay of an indirect ad: its icon and the page a click on it opens.
public struct AdChoicesInfo: Sendable {
  /// The asset key under which the AdChoices image is read and clicked, for both ad kinds.
  public static let assetKey = "_adChoices"

  /// The AdChoices icon.
  public var image: AdImage
  /// The "Why this ad?" page.
  public var clickURL: String
  /// The ad attribution an indirect ad must show ("Ad", "Advertisement" or "Sponsored").
  public var attribution: String

  /// Creates AdChoices info.
  public init(image: AdImage, clickURL: String, attribution: String = "Ad") {
    self.image = image
    self.clickURL = clickURL
    self.attribution = attribution
  }
}
