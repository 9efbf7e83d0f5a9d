/// The assets of a system-defined native creative (`GADNativeAd`).
///
/// Every asset but the headline (and the media, kept on ``Creative``) may be missing.
public struct NativeAssets: Sendable {
  /// The headline; always present.
  public var headline: String
  /// The body text.
  public var body: String?
  /// The call-to-action text, e.g. "Install".
  public var callToAction: String?
  /// The app store name, for app-install ads.
  public var store: String?
  /// The price, for app-install ads.
  public var price: String?
  /// The advertiser name.
  public var advertiser: String?
  /// The star rating, 0 to 5.
  public var starRating: Double?
  /// The icon (or logo).
  public var icon: AdImage?
  /// The images, best first.
  public var images: [AdImage]
  /// Network-specific extra assets, in order (mediation's `extraAssets`).
  public var extraAssets: [(key: String, value: String)]

  /// Creates native assets; only the headline is required.
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
    extraAssets: [(key: String, value: String)] = []
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
  }

  /// The text asset named by a ``NativeAssetKey`` (nil for image, rating and media keys, and
  /// for missing assets).
  public func text(for key: NativeAssetKey) -> String? {
    switch key {
    case .headline: headline
    case .body: body
    case .callToAction: callToAction
    case .store: store
    case .price: price
    case .advertiser: advertiser
    case .icon, .image, .starRating, .mediaView: nil
    }
  }

  /// Whether the creative has the asset named by `key` (the media view always exists).
  public func has(_ key: NativeAssetKey) -> Bool {
    switch key {
    case .headline, .mediaView: true
    case .body, .callToAction, .store, .price, .advertiser: text(for: key) != nil
    case .icon: icon != nil
    case .image: !images.isEmpty
    case .starRating: starRating != nil
    }
  }
}
