/// How a mediated ad was loaded and who tracks it: ``NativeAd/mediation`` of an ad a custom
/// event filled (nil for ads from the inventory).
public struct MediationInfo {
  /// The adapter class name of the source that filled.
  public var adapterClassName: String
  /// The adapter load that mapped the ad (``MediationNativeAdConfiguration/loadId``).
  public var loadId: String
  /// Who registered the adapter (the RPC layer's connection); nil for built-in and
  /// in-process adapters. Only this owner may report on the ad.
  public var adapterOwner: OwnerID?
  /// Whether the adapter tracks clicks itself.
  public var handlesUserClicks: Bool
  /// Whether the adapter tracks the impression itself.
  public var handlesUserImpressions: Bool
  /// What the service tells the adapter about the ad.
  public var forwarding: (any MediatedNativeAdForwarding)?
  /// The delegate the adapter reports through (the one its completion returned); always set
  /// on the ads the manager serves.
  public var eventDelegate: (any MediationNativeAdEventDelegate)?

  /// Creates mediation info.
  public init(
    adapterClassName: String, loadId: String, adapterOwner: OwnerID?, handlesUserClicks: Bool,
    handlesUserImpressions: Bool, forwarding: (any MediatedNativeAdForwarding)?,
    eventDelegate: (any MediationNativeAdEventDelegate)?
  ) {
    self.adapterClassName = adapterClassName
    self.loadId = loadId
    self.adapterOwner = adapterOwner
    self.handlesUserClicks = handlesUserClicks
    self.handlesUserImpressions = handlesUserImpressions
    self.forwarding = forwarding
    self.eventDelegate = eventDelegate
  }
}
