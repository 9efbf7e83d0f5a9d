/// A creative's media: what a media view shows (`GADMediaContent`).
///
/// For system-defined ads without video the media view shows ``mainImage``; a custom format's
/// media view is empty without video (its `mainImage` is nil).
public struct MediaContent: Sendable {
  /// Width divided by height; 0 when unknown.
  public var aspectRatio: Double
  /// Whether the media is a video.
  public var hasVideoContent: Bool
  /// The video duration in seconds (0 without video).
  public var duration: Double
  /// The image shown when there is no video.
  public var mainImage: AdImage?
  /// Whether the video may be driven by the app's own controls (granted only when the loader
  /// also asked for custom controls).
  public var customControlsAllowed: Bool
  /// Whether the video may expand on click (granted only when the loader asked for it).
  public var clickToExpandAllowed: Bool

  /// Creates media content; defaults describe empty media.
  public init(
    aspectRatio: Double = 0, hasVideoContent: Bool = false, duration: Double = 0,
    mainImage: AdImage? = nil, customControlsAllowed: Bool = false,
    clickToExpandAllowed: Bool = false
  ) {
    self.aspectRatio = aspectRatio
    self.hasVideoContent = hasVideoContent
    self.duration = duration
    self.mainImage = mainImage
    self.customControlsAllowed = customControlsAllowed
    self.clickToExpandAllowed = clickToExpandAllowed
  }

  /// Media with no video showing `image`, with the image's aspect ratio.
  public static func image(_ image: AdImage) -> MediaContent {
    MediaContent(
      aspectRatio: image.height > 0 ? Double(image.width) / Double(image.height) : 0,
      mainImage: image)
  }
}
