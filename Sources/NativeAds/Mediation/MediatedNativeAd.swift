/// A native ad as an adapter maps it from its network's ad (`GADMediationNativeAd`): the
/// system-defined ``NativeAssets``, plus what only a mapped ad says (its media, AdChoices, who
/// tracks clicks and impressions, where a click leads, what to forward to the adapter).
///
/// The service serves it as a system-defined native ad (see
/// ``AdManager/load(_:owner:completion:)``). Without a main image in ``media`` (and without
/// video), the media view shows the first of the assets' images.
public struct MediatedNativeAd {
  /// The assets (headline, body, images...). Image bytes are present unless the load's
  /// options disable image loading (then an image carries an empty ``AdImage/data``).
  public var assets: NativeAssets
  /// The AdChoices overlay: given, the ad is indirect.
  public var adChoices: AdChoicesInfo?
  /// The media content (aspect ratio, video, duration).
  public var media: MediaContent
  /// Whether the adapter tracks clicks itself (see ``AdManager``'s mediated ads).
  public var handlesUserClicks: Bool
  /// Whether the adapter tracks the impression itself.
  public var handlesUserImpressions: Bool
  /// The page a click opens (clicks the service tracks); nil for none.
  public var landingPageURL: String?
  /// Deep links a click tries first, in order.
  public var deepLinks: [String]
  /// What the service tells the adapter about the ad; nil tells it nothing.
  public var forwarding: (any MediatedNativeAdForwarding)?

  /// Creates a mapped ad; only the assets (that is, a headline) are required.
  public init(
    assets: NativeAssets,
    adChoices: AdChoicesInfo? = nil,
    media: MediaContent = MediaContent(),
    handlesUserClicks: Bool = false,
    handlesUserImpressions: Bool = false,
    landingPageURL: String? = nil,
    deepLinks: [String] = [],
    forwarding: (any MediatedNativeAdForwarding)? = nil
  ) {
    self.assets = assets
    self.adChoices = adChoices
    self.media = media
    self.handlesUserClicks = handlesUserClicks
    self.handlesUserImpressions = handlesUserImpressions
    self.landingPageURL = landingPageURL
    self.deepLinks = deepLinks
    self.forwarding = forwarding
  }

  /// What makes the ad unservable, or nil when it is fine: an empty headline, assets that fail
  /// ``NativeAssets/problem`` (the inventory's own check), an AdChoices or main image without
  /// a positive size, a negative or non-finite aspect ratio or duration.
  public var problem: MediatedAdProblem? {
    if assets.headline.isEmpty { return .emptyHeadline }
    if let found = assets.problem { return .assets(found) }
    if let found = adChoices?.image.problem { return .adChoicesImage(found) }
    if let found = media.mainImage?.problem { return .mainImage(found) }
    if let found = media.problem { return .media(found) }
    return nil
  }

  /// The creative the service serves for this ad: a system-defined native creative `id` with
  /// these assets, AdChoices, deep links and landing page (empty when none), and media whose
  /// main image defaults to the first image.
  func creative(id: String, eCPM: Double) -> Creative {
    var media = media
    if media.mainImage == nil, !media.hasVideoContent, let first = assets.images.first {
      media.mainImage = first
      if media.aspectRatio == 0, first.height > 0 {
        media.aspectRatio = Double(first.width) / Double(first.height)
      }
    }
    return Creative(
      id: id, content: .native(assets), media: media, adChoices: adChoices, eCPM: eCPM,
      deepLinks: deepLinks, landingPageURL: landingPageURL ?? "")
  }
}

/// Why a mapped ad cannot be served (``MediatedNativeAd/problem``).
public enum MediatedAdProblem: Sendable, Equatable, CustomStringConvertible {
  /// The headline is empty.
  case emptyHeadline
  /// The assets fail the inventory's asset check.
  case assets(NativeAssetsProblem)
  /// The AdChoices image has no positive size.
  case adChoicesImage(ImageProblem)
  /// The media's main image has no positive size.
  case mainImage(ImageProblem)
  /// The media's duration or aspect ratio is negative or not finite.
  case media(MediaProblem)

  /// The problem in words, for the source's error in the response info (e.g. `the icon has
  /// no positive width`).
  public var description: String {
    func image(_ what: String, _ problem: ImageProblem) -> String {
      switch problem {
      case .nonPositiveWidth: "\(what) has no positive width"
      case .nonPositiveHeight: "\(what) has no positive height"
      }
    }
    switch self {
    case .emptyHeadline: return "the headline is empty"
    case .assets(.starRatingOutOfRange):
      let range = NativeAssets.starRatingRange
      return "the star rating is not within \(range.lowerBound) to \(range.upperBound)"
    case .assets(.icon(let problem)): return image("the icon", problem)
    case .assets(.image(let index, let problem)): return image("image \(index + 1)", problem)
    case .adChoicesImage(let problem): return image("the AdChoices image", problem)
    case .mainImage(let problem): return image("the main image", problem)
    case .media(.invalidDuration): return "the video duration is negative or not finite"
    case .media(.invalidAspectRatio): return "the aspect ratio is negative or not finite"
    }
  }
}
