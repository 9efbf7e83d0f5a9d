/// One ad source tried during a load (`GADAdNetworkResponseInfo`).
public struct AdNetworkInfo: Sendable, Equatable {
  /// The class name of the adapter that served the source, e.g. `GADMAdapterGoogleAdMobAds`.
  public var adNetworkClassName: String
  /// The source's display name, e.g. `Reservation` or `AdMob Network`.
  public var adSourceName: String
  /// How long the source took, in seconds (0 for a source not tried).
  public var latency: Double
  /// The source's error, or nil when it filled (or was not tried).
  public var error: AdNetworkError? {
    get { errorBox?.error }
    set { errorBox = newValue.map(ErrorBox.init) }
  }
  /// Whether there is an ``error``, read without copying it.
  public var hasError: Bool { errorBox != nil }
  /// ``error``, boxed: the entry of a source that filled (every load's) holds one nil
  /// reference, and the entry is copied and destroyed inline, where an optional error of
  /// strings inline made every copy go through value witnesses.
  private var errorBox: ErrorBox?

  private final class ErrorBox: Sendable {
    let error: AdNetworkError
    init(_ error: AdNetworkError) { self.error = error }
  }

  /// Creates network info.
  public init(
    adNetworkClassName: String, adSourceName: String, latency: Double, error: AdNetworkError?
  ) {
    self.adNetworkClassName = adNetworkClassName
    self.adSourceName = adSourceName
    self.latency = latency
    self.errorBox = error.map(ErrorBox.init)
  }

  public static func == (a: AdNetworkInfo, b: AdNetworkInfo) -> Bool {
    a.adNetworkClassName == b.adNetworkClassName && a.adSourceName == b.adSourceName
      && a.latency == b.latency && (a.errorBox === b.errorBox || a.error == b.error)
  }

  /// The adapter class name of Google's own networks (Ad Manager reservations and AdMob).
  public static let googleAdapterClassName = "GADMAdapterGoogleAdMobAds"
  /// The source name of direct-sold (reservation) ads.
  public static let reservationSourceName = "Reservation"
  /// The source name of indirect ads from the AdMob network.
  public static let adMobNetworkSourceName = "AdMob Network"
}
