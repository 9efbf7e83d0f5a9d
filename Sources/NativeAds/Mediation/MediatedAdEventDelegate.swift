/// The service's ``MediationNativeAdEventDelegate``: bound to the ad a custom event filled and
/// turning the adapter's reports into the ad's events through its manager.
///
/// Holds the manager and the ad weakly: reports before the ad is bound, after it is released,
/// or after the manager is gone do nothing.
final class MediatedAdEventDelegate: MediationNativeAdEventDelegate {
  weak var manager: AdManager?
  weak var ad: NativeAd?

  init(manager: AdManager) {
    self.manager = manager
  }

  /// The manager and the live ad, or nil when there is nothing to report on.
  private var target: (AdManager, NativeAd)? {
    guard let manager, let ad, !ad.isReleased else { return nil }
    return (manager, ad)
  }

  func reportImpression() -> Bool {
    guard let (manager, ad) = target else { return false }
    return manager.adapterReportedImpression(on: ad)
  }

  func reportClick() -> Bool {
    guard let (manager, ad) = target else { return false }
    return manager.adapterReportedClick(on: ad)
  }

  func willPresentFullScreenView() {
    guard let (manager, ad) = target else { return }
    manager.adapterReported(.willPresentScreen, on: ad)
  }

  func willDismissFullScreenView() {
    guard let (manager, ad) = target else { return }
    manager.adapterReported(.willDismissScreen, on: ad)
  }

  func didDismissFullScreenView() {
    guard let (manager, ad) = target else { return }
    manager.adapterReported(.didDismissScreen, on: ad)
  }

  func didPlayVideo() {
    guard let (manager, ad) = target else { return }
    manager.adapterReported(.videoDidPlay, on: ad)
  }

  func didPauseVideo() {
    guard let (manager, ad) = target else { return }
    manager.adapterReported(.videoDidPause, on: ad)
  }

  func didEndVideo() {
    guard let (manager, ad) = target else { return }
    manager.adapterReported(.videoDidEnd, on: ad)
  }

  func didMuteVideo() {
    guard let (manager, ad) = target else { return }
    manager.adapterReported(.videoDidMute, on: ad)
  }

  func didUnmuteVideo() {
    guard let (manager, ad) = target else { return }
    manager.adapterReported(.videoDidUnmute, on: ad)
  }
}
