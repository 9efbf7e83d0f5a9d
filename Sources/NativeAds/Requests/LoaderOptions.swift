/// The ad loader options a publisher passes with a load, with the SDK's defaults.
///
/// The domain validates `numberOfAds` and selects creatives by `mediaAspectRatio` (see
/// ``AdManager/load(_:owner:)``); the video options set up each ad's video controller. All of
/// them are kept on each loaded ``NativeAd`` so that the RPC layer can honour the rest when it
/// encodes the ad (for example, leaving out image bytes when `disableImageLoading` is set).
public struct LoaderOptions: Sendable, Equatable {
  /// When true only image URLs and scales are given, never bytes. Default false.
  public var disableImageLoading: Bool
  /// When false a native ad exposes only its first image. Default false.
  public var shouldRequestMultipleImages: Bool
  /// The preferred media aspect ratio. Default ``MediaAspectRatio/unknown``.
  public var mediaAspectRatio: MediaAspectRatio
  /// The preferred AdChoices corner for indirect ads. Default ``AdChoicesPosition/topRight``.
  public var adChoicesPosition: AdChoicesPosition
  /// Whether video starts muted. Default true.
  public var startMuted: Bool
  /// Whether the app asks for custom video controls. Default false.
  public var customControlsRequested: Bool
  /// Whether the app asks for click-to-expand video. Default false.
  public var clickToExpandRequested: Bool
  /// How many ads to load: below 1 the request is invalid, above
  /// ``LoaderOptions/maximumNumberOfAds`` it is clamped. Default 1.
  public var numberOfAds: Int

  /// The most ads a single load returns; larger `numberOfAds` values are clamped to it.
  public static let maximumNumberOfAds = 5

  /// Creates options; every parameter defaults to the SDK's default.
  @inlinable
  public init(
    disableImageLoading: Bool = false,
    shouldRequestMultipleImages: Bool = false,
    mediaAspectRatio: MediaAspectRatio = .unknown,
    adChoicesPosition: AdChoicesPosition = .topRight,
    startMuted: Bool = true,
    customControlsRequested: Bool = false,
    clickToExpandRequested: Bool = false,
    numberOfAds: Int = 1
  ) {
    self.disableImageLoading = disableImageLoading
    self.shouldRequestMultipleImages = shouldRequestMultipleImages
    self.mediaAspectRatio = mediaAspectRatio
    self.adChoicesPosition = adChoicesPosition
    self.startMuted = startMuted
    self.customControlsRequested = customControlsRequested
    self.clickToExpandRequested = clickToExpandRequested
    self.numberOfAds = numberOfAds
  }
}
