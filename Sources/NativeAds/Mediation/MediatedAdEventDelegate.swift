/// The service's ``MediationNativeAdEventDelegate``: bound to the ad a custom event filled and
/// turning the adapter's reports into changes of that ad (``AdChange/adapterImpression``...)
/// through its manager.
///
/// Holds the manager and the ad weakly: reports before the ad is bound, after it is released,
/// or after the manager is gone do nothing.
final class MediatedAdEventDelegate: MediationNativeAdEventDelegate {
  weak var manager: AdManager?
  weak var ad: NativeAd?

  init(manager: AdManager? = nil) {
    self.manager = manager
  }

  private func report(_ change: AdChange) -> Bool {
    guard let manager, let ad, !ad.isReleased else { return false }
    return manager.adapterReported(change, on: ad)
  }

  func reportImpression() -> Bool { report(.adapterImpression) }
  func reportClick() -> Bool { report(.adapterClick) }
  func willPresentFullScreenView() { _ = report(.adapterEvent(.willPresentScreen)) }
  func willDismissFullScreenView() { _ = report(.adapterEvent(.willDismissScreen)) }
  func didDismissFullScreenView() { _ = report(.adapterEvent(.didDismissScreen)) }
  func didPlayVideo() { _ = report(.adapterEvent(.videoDidPlay)) }
  func didPauseVideo() { _ = report(.adapterEvent(.videoDidPause)) }
  func didEndVideo() { _ = report(.adapterEvent(.videoDidEnd)) }
  func didMuteVideo() { _ = report(.adapterEvent(.videoDidMute)) }
  func didUnmuteVideo() { _ = report(.adapterEvent(.videoDidUnmute)) }
}
