/// Everything a load asks for: the ad unit, the formats the app can render, the loader
/// options and the request targeting.
///
/// Built by the RPC layer from the call's params and passed to ``AdManager/load(_:owner:)``.
/// The targeting fields (`keywords`, `contentURL`, `customTargeting`) are matched against each
/// creative's ``Targeting``; `isTestRequest` is echoed in the response info.
public struct AdRequest: Sendable {
  /// The ad unit to load from, e.g. `/21775744923/example/native`.
  public var adUnitID: String
  /// The ad kinds the app can render. Must not be empty. Default `[.native]`.
  public var adTypes: [AdKind]
  /// The custom native format IDs the app can render; required and non-empty when `adTypes`
  /// contains ``AdKind/customNative``.
  public var customNativeAdFormatIDs: [String]
  /// The loader options.
  public var options: LoaderOptions
  /// Whether the app marked this as a test request (nil when not said).
  public var isTestRequest: Bool?
  /// Targeting keywords.
  public var keywords: [String]
  /// The URL of the content next to which the ad is shown.
  public var contentURL: String?
  /// Custom targeting key-values (a single string value is a one-element array).
  public var customTargeting: [String: [String]]
  /// The seed handed to mediation adapters (``MediationNativeAdConfiguration/seed``), so that
  /// deterministic adapters such as ``SampleCustomEvent`` give a chosen outcome; nil derives
  /// one from the manager's seed and its load counter.
  public var seed: UInt64?

  /// Creates a request for `adUnitID`; every other field defaults to the SDK's default.
  public init(
    adUnitID: String,
    adTypes: [AdKind] = [.native],
    customNativeAdFormatIDs: [String] = [],
    options: LoaderOptions = LoaderOptions(),
    isTestRequest: Bool? = nil,
    keywords: [String] = [],
    contentURL: String? = nil,
    customTargeting: [String: [String]] = [:],
    seed: UInt64? = nil
  ) {
    self.adUnitID = adUnitID
    self.adTypes = adTypes
    self.customNativeAdFormatIDs = customNativeAdFormatIDs
    self.options = options
    self.isTestRequest = isTestRequest
    self.keywords = keywords
    self.contentURL = contentURL
    self.customTargeting = customTargeting
    self.seed = seed
  }
}
