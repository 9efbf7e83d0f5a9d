/// The built-in adapter `SampleCustomEvent`: reproduces Google's sample ad network and its
/// custom event (adapter version `1.0.0.0`, reported as 1.0.0; SDK version 1.0.0).
///
/// Every load is decided by ``outcome(seed:parameter:)`` from the configuration's seed and
/// parameter, and answers synchronously, inside ``loadNativeAd(for:completion:)``:
/// - an empty or missing `parameter` (the network's ad unit) is a bad request;
/// - otherwise 85% fill, and 5% each an unknown error, a network error (marked
///   ``AdNetworkError/isNetworkError``) or no inventory.
///
/// Errors carry the sample's code 101 (the load failure callback) in the domain
/// `com.google.mediation.sample`, with the network's reason in the message. Ads are "app"
/// style (price `$0.99`, star rating 4.5, store `Sample Store`) or "content" style (advertiser
/// `Sample Advertiser`), chosen by the seed, with the extra asset `DegreeOfAwesomeness`
/// (`Quite Awesome`) and the network's ad info icon as AdChoices. Images are generated PNGs
/// under `https://static.native-ads.test/sample-network/`, with empty bytes when the options
/// disable image loading. The main image is landscape (1200x627) unless `mediaAspectRatio`
/// asks portrait (627x1200) or square (600x600). The service tracks clicks and impressions.
public final class SampleCustomEvent: MediationAdapter {
  /// The class name it is registered under.
  public static let className = "SampleCustomEvent"
  /// The domain of its errors.
  public static let errorDomain = "com.google.mediation.sample"
  /// The code of its load failures (the sample's "ad load failure callback").
  public static let loadFailureCode = 101
  /// Where its images live.
  public static let imageBaseURL = "https://static.native-ads.test/sample-network/"
  /// The extra asset every sample ad carries.
  public static let extraAsset = (key: "DegreeOfAwesomeness", value: "Quite Awesome")

  /// The two ad styles of the sample network.
  public enum Style: String, Sendable, CaseIterable {
    /// An app install ad: price, star rating and store.
    case app
    /// A content ad: advertiser.
    case content
  }

  /// What a load does.
  public enum Outcome: Sendable, Equatable {
    /// An ad of `style`.
    case fill(Style)
    /// The parameter (ad unit) is missing: `SampleErrorCodeBadRequest`.
    case badRequest
    /// `SampleErrorCodeUnknown`.
    case unknownError
    /// `SampleErrorCodeNetworkError`.
    case networkError
    /// `SampleErrorCodeNoInventory`.
    case noInventory
  }

  /// 1.0.0.0, reported as 1.0.0.
  public let adapterVersion = AdapterVersion.fromFourPart(1, 0, 0, 0)
  /// 1.0.0.
  public let adSDKVersion = AdapterVersion(major: 1, minor: 0, patch: 0)

  /// Creates the adapter.
  public init() {}

  /// The outcome of a load with `seed` and `parameter`: a bad request without a parameter;
  /// else the first draw of a ``SplitMix64`` seeded with `seed`, modulo 100, fills below 85
  /// (the second draw's lowest bit picks the style: 0 app, 1 content), then 85–89 unknown
  /// error, 90–94 network error, 95–99 no inventory.
  public static func outcome(seed: UInt64, parameter: String?) -> Outcome {
    guard let parameter, !parameter.isEmpty else { return .badRequest }
    var random = SplitMix64(seed: seed)
    let roll = random.next() % 100
    switch roll {
    case 0..<85: return .fill(random.next() & 1 == 0 ? .app : .content)
    case 85..<90: return .unknownError
    case 90..<95: return .networkError
    default: return .noInventory
    }
  }

  /// Answers the load synchronously (see the type's discussion).
  public func loadNativeAd(
    for configuration: MediationNativeAdConfiguration, completion: MediationNativeLoadCompletion
  ) {
    let outcome = Self.outcome(
      seed: configuration.seed, parameter: configuration.credentials.parameter)
    func failure(_ code: String, network: Bool = false) -> AdNetworkError {
      AdNetworkError(
        code: Self.loadFailureCode, domain: Self.errorDomain,
        message: "Sample SDK returned an ad load failure callback with error code: " + code,
        isNetworkError: network)
    }
    switch outcome {
    case .fill(let style):
      completion.succeed(with: Self.ad(style: style, options: configuration.options))
    case .badRequest: completion.fail(with: failure("SampleErrorCodeBadRequest"))
    case .unknownError: completion.fail(with: failure("SampleErrorCodeUnknown"))
    case .networkError: completion.fail(with: failure("SampleErrorCodeNetworkError", network: true))
    case .noInventory: completion.fail(with: failure("SampleErrorCodeNoInventory"))
    }
  }

  /// The sample network's ad of `style`, mapped for `options` (image loading, media aspect
  /// ratio).
  public static func ad(style: Style, options: LoaderOptions) -> MediatedNativeAd {
    let (width, height) =
      switch options.mediaAspectRatio {
      case .portrait: (627, 1200)
      case .square: (600, 600)
      case .unknown, .any, .landscape: (1200, 627)
      }
    let colorKey = "sample-network-" + style.rawValue
    func image(_ name: String, _ width: Int, _ height: Int) -> AdImage {
      let url = imageBaseURL + style.rawValue + "/" + name + ".png"
      if options.disableImageLoading {
        return AdImage(url: url, width: width, height: height, mimeType: "image/png", data: [])
      }
      return AdImage(
        url: url,
        picture: .placeholder(width: width, height: height, colorKey: colorKey, shapeKey: name))
    }
    let icon = image("icon", 128, 128)
    let main = image("image-\(width)x\(height)", width, height)
    let adInfoURL = imageBaseURL + "ad-info.png"
    let adInfo =
      options.disableImageLoading
      ? AdImage(url: adInfoURL, width: 30, height: 30, mimeType: "image/png", data: [])
      : AdImage(
        url: adInfoURL,
        picture: .placeholder(
          width: 30, height: 30, colorKey: "sample-network-ad-info", shapeKey: "ad-info"))
    var ad = MediatedNativeAd(
      assets: NativeAssets(
        headline: style == .app ? "Sample App Install Ad" : "Sample Content Ad",
        body: "This ad comes from the sample ad network, through a custom event.",
        icon: icon, images: [main], extraAssets: [extraAsset]),
      adChoices: AdChoicesInfo(
        image: adInfo, clickURL: "https://sample-network.native-ads.test/ad-info"),
      media: .image(main),
      landingPageURL: "https://sample-network.native-ads.test/\(style.rawValue)-ad")
    switch style {
    case .app:
      ad.assets.callToAction = "Install"
      ad.assets.price = "$0.99"
      ad.assets.starRating = 4.5
      ad.assets.store = "Sample Store"
    case .content:
      ad.assets.callToAction = "Learn More"
      ad.assets.advertiser = "Sample Advertiser"
    }
    return ad
  }
}
