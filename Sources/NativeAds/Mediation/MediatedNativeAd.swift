/// A native ad as an adapter maps it from its network's ad (`GADMediationNativeAd`).
///
/// The service serves it as a system-defined native ad (see
/// ``AdManager/load(_:owner:completion:)``). Without a main image in ``media`` (and without
/// video), the media view shows the first of ``images``.
public struct MediatedNativeAd {
  /// The headline; required (not empty).
  public var headline: String
  /// The body text.
  public var body: String?
  /// The call-to-action text.
  public var callToAction: String?
  /// The app store name.
  public var store: String?
  /// The price.
  public var price: String?
  /// The advertiser name.
  public var advertiser: String?
  /// The star rating, 0 to 5.
  public var starRating: Double?
  /// The icon.
  public var icon: AdImage?
  /// The images, best first. Bytes unless the load's options disable image loading (then an
  /// image carries an empty ``AdImage/data``).
  public var images: [AdImage]
  /// Network-specific assets, in order.
  public var extraAssets: [(key: String, value: String)]
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

  /// Creates a mapped ad; only the headline is required.
  public init(
    headline: String,
    body: String? = nil,
    callToAction: String? = nil,
    store: String? = nil,
    price: String? = nil,
    advertiser: String? = nil,
    starRating: Double? = nil,
    icon: AdImage? = nil,
    images: [AdImage] = [],
    extraAssets: [(key: String, value: String)] = [],
    adChoices: AdChoicesInfo? = nil,
    media: MediaContent = MediaContent(),
    handlesUserClicks: Bool = false,
    handlesUserImpressions: Bool = false,
    landingPageURL: String? = nil,
    deepLinks: [String] = [],
    forwarding: (any MediatedNativeAdForwarding)? = nil
  ) {
    self.headline = headline
    self.body = body
    self.callToAction = callToAction
    self.store = store
    self.price = price
    self.advertiser = advertiser
    self.starRating = starRating
    self.icon = icon
    self.images = images
    self.extraAssets = extraAssets
    self.adChoices = adChoices
    self.media = media
    self.handlesUserClicks = handlesUserClicks
    self.handlesUserImpressions = handlesUserImpressions
    self.landingPageURL = landingPageURL
    self.deepLinks = deepLinks
    self.forwarding = forwarding
  }

  /// What makes the ad unservable, phrased after its field (e.g. `images[0].width must be a
  /// positive integer`), or nil when it is fine: an empty headline, a star rating outside
  /// 0–5, an image without a positive size, a negative or non-finite aspect ratio or duration.
  public var validationProblem: String? {
    if headline.isEmpty { return "headline must not be empty" }
    if let starRating, !(starRating >= 0 && starRating <= 5) {
      return "starRating must be between 0 and 5"
    }
    func problem(_ image: AdImage?, _ path: String) -> String? {
      guard let image else { return nil }
      if image.width <= 0 { return path + ".width must be a positive integer" }
      if image.height <= 0 { return path + ".height must be a positive integer" }
      return nil
    }
    if let found = problem(icon, "icon") { return found }
    for (index, image) in images.enumerated() {
      if let found = problem(image, "images[\(index)]") { return found }
    }
    if let found = problem(adChoices?.image, "adChoices.image") { return found }
    if let found = problem(media.mainImage, "media.mainImage") { return found }
    guard media.aspectRatio.isFinite, media.aspectRatio >= 0 else {
      return "media.aspectRatio must be a number of at least 0"
    }
    guard media.duration.isFinite, media.duration >= 0 else {
      return "media.duration must be a number of at least 0"
    }
    return nil
  }

  /// The creative the service serves for this ad: a system-defined native creative `id` with
  /// these assets, AdChoices, deep links and landing page (empty when none), and media whose
  /// main image defaults to the first image.
  func creative(id: String, eCPM: Double) -> Creative {
    var media = media
    if media.mainImage == nil, !media.hasVideoContent, let first = images.first {
      media.mainImage = first
      if media.aspectRatio == 0, first.height > 0 {
        media.aspectRatio = Double(first.width) / Double(first.height)
      }
    }
    return Creative(
      id: id,
      content: .native(
        NativeAssets(
          headline: headline, body: body, callToAction: callToAction, store: store,
          price: price, advertiser: advertiser, starRating: starRating, icon: icon,
          images: images, extraAssets: extraAssets)),
      media: media, adChoices: adChoices, eCPM: eCPM, deepLinks: deepLinks,
      landingPageURL: landingPageURL ?? "")
  }
}
