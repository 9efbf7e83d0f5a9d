/// What an adapter is given to load a native ad (`GADMediationNativeAdConfiguration`).
public struct MediationNativeAdConfiguration: Sendable {
  /// The source's credentials: `settings["parameter"]` is the custom event's parameter.
  public var credentials: MediationCredentials
  /// The publisher's loader options (`numberOfAds` is 1: mediation serves one ad). Adapters
  /// must honour the image options (`disableImageLoading`: URLs only) and map
  /// `mediaAspectRatio` to their network's orientation.
  public var options: LoaderOptions
  /// Whether the app marked the request as a test request (nil when not said).
  public var isTestRequest: Bool?
  /// A seed for deterministic adapters: the request's ``AdRequest/seed`` for the first custom
  /// event a load asks (later ones get values derived from it), else one derived from the
  /// manager's seed and its load counter.
  public var seed: UInt64
  /// The class name the adapter was registered under.
  public var adapterClassName: String
  /// Identifies this adapter load (and the ad it maps) for the life of the manager, e.g.
  /// `load-7`.
  public var loadId: String

  /// Creates a configuration.
  public init(
    credentials: MediationCredentials, options: LoaderOptions = LoaderOptions(),
    isTestRequest: Bool? = nil, seed: UInt64 = 0, adapterClassName: String, loadId: String
  ) {
    self.credentials = credentials
    self.options = options
    self.isTestRequest = isTestRequest
    self.seed = seed
    self.adapterClassName = adapterClassName
    self.loadId = loadId
  }
}
