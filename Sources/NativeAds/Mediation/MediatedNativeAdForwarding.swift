/// What the service tells an adapter about the ad it mapped (the `GADMediationNativeAd`
/// callbacks, plus headless stand-ins for the network seeing its view). Every method has a
/// default that does nothing.
///
/// Called on the event loop thread, after the manager's state is updated, so an adapter may
/// report back (through its ``MediationNativeAdEventDelegate``) from inside a call.
public protocol MediatedNativeAdForwarding: AnyObject {
  /// The service recorded the ad's impression (ads with `handlesUserImpressions` false; once).
  func didRecordImpression(adId: String)
  /// The service recorded a click on the asset `named` (ads with `handlesUserClicks` false).
  func didRecordClickOnAsset(named: String, adId: String)
  /// The app showed the ad (ads with `handlesUserImpressions` true; once): the network should
  /// see its view and report the impression.
  func handleImpression(adId: String)
  /// The app clicked the asset `assetKey` (ads with `handlesUserClicks` true): the network
  /// should handle the click and report it.
  func handleClick(assetKey: String, adId: String)
  /// The app registered the ad view with these asset names.
  func didRender(adId: String, clickable: [String], nonclickable: [String])
  /// The ad view no longer shows the ad (unregistered, or a registered ad released).
  func didUntrackView(adId: String)
}

extension MediatedNativeAdForwarding {
  /// Does nothing.
  public func didRecordImpression(adId: String) {}
  /// Does nothing.
  public func didRecordClickOnAsset(named: String, adId: String) {}
  /// Does nothing.
  public func handleImpression(adId: String) {}
  /// Does nothing.
  public func handleClick(assetKey: String, adId: String) {}
  /// Does nothing.
  public func didRender(adId: String, clickable: [String], nonclickable: [String]) {}
  /// Does nothing.
  public func didUntrackView(adId: String) {}
}
