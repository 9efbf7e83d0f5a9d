/// Everything a load asks for: the ad unit, the formats the app can render, the loader
/// options and the request targeting.
///
/// Built by the RPC layer from the call's params and passed to ``AdManager/load(_:owner:)``.
/// The targeting fields (`keywords`, `contentURL`, `customTargeting`) are matched against each
/// creative's ``Targeting``; `isTestRequest` is echoed in the response info.
public struct AdRequest: Sendable {
  /// The ad unit to load from, e.g. `/21775744923/example/native`.
  public var adUnitID: String
  /// The loader options.
  public var options: LoaderOptions
  /// Whether the app marked this as a test request (nil when not said).
  public var isTestRequest: Bool?
  /// The seed handed to mediation adapters (``MediationNativeAdConfiguration/seed``), so that
  /// deterministic adapters such as ``SampleCustomEvent`` give a chosen outcome; nil derives
  /// one from the manager's seed and its load counter.
  public var seed: UInt64?
  /// The fields the common request leaves at their defaults (`{"adUnitID": ...}` alone), kept
  /// behind one reference that is nil while all of them are: a request is copied several
  /// times on its way through a load, and each copy of five arrays, a dictionary and a string
  /// was as many reference counts.
  @usableFromInline var rare: Rare?

  /// The ad kinds the app can render. Must not be empty. Default `[.native]`.
  public var adTypes: [AdKind] {
    get { rare?.fields.adTypes ?? [.native] }
    set { change { $0.adTypes = newValue } }
  }
  /// The custom native format IDs the app can render; required and non-empty when `adTypes`
  /// contains ``AdKind/customNative``.
  public var customNativeAdFormatIDs: [String] {
    get { rare?.fields.customNativeAdFormatIDs ?? [] }
    set { change { $0.customNativeAdFormatIDs = newValue } }
  }
  /// Targeting keywords.
  public var keywords: [String] {
    get { rare?.fields.keywords ?? [] }
    set { change { $0.keywords = newValue } }
  }
  /// The URL of the content next to which the ad is shown.
  public var contentURL: String? {
    get { rare?.fields.contentURL }
    set { change { $0.contentURL = newValue } }
  }
  /// Custom targeting key-values (a single string value is a one-element array).
  public var customTargeting: [String: [String]] {
    get { rare?.fields.customTargeting ?? [:] }
    set { change { $0.customTargeting = newValue } }
  }

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
    self.options = options
    self.isTestRequest = isTestRequest
    self.seed = seed
    let rare = Rare.Fields(
      adTypes: adTypes, customNativeAdFormatIDs: customNativeAdFormatIDs, keywords: keywords,
      contentURL: contentURL, customTargeting: customTargeting)
    self.rare = rare.isDefault ? nil : Rare(rare)
  }

  /// A request for `adUnitID` with every other field at its default: the common load's.
  /// (Inlinable: built where it is used, not in a temporary copied out and destroyed.)
  @inlinable @inline(__always)
  public init(adUnitID: String) {
    self.adUnitID = adUnitID
    options = LoaderOptions()
    rare = nil
  }

  /// Sets one of the rare fields: a new reference holds them (an immutable object may be
  /// shared by copies of the request), or none when all are back at their defaults.
  private mutating func change(_ body: (inout Rare.Fields) -> Void) {
    var fields = rare?.fields ?? Rare.Fields()
    body(&fields)
    rare = fields.isDefault ? nil : Rare(fields)
  }

  @usableFromInline final class Rare: Sendable {
    struct Fields: Sendable {
      var adTypes: [AdKind] = [.native]
      var customNativeAdFormatIDs: [String] = []
      var keywords: [String] = []
      var contentURL: String?
      var customTargeting: [String: [String]] = [:]

      var isDefault: Bool {
        adTypes == [.native] && customNativeAdFormatIDs.isEmpty && keywords.isEmpty
          && contentURL == nil && customTargeting.isEmpty
      }
    }
    let fields: Fields
    init(_ fields: Fields) { self.fields = fields }
  }
}
