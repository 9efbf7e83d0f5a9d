/// How an adapter reports the events of the ad it mapped
/// (`GADMediationNativeAdEventDelegate`); returned by
/// ``MediationNativeLoadCompletion/succeed(with:)``.
///
/// Each call becomes the ad's `adEvent` / `videoEvent` to the app, through the manager's event
/// log and sink. Calls before the ad exists, after it is released, or after the manager is
/// gone do nothing (and report false).
public protocol MediationNativeAdEventDelegate: AnyObject {
  /// The network recorded the impression: records it (once). Returns whether this call
  /// recorded it (false when already recorded, muted, expired or released).
  func reportImpression() -> Bool
  /// The network recorded a click: records one (`didRecordClick`, with the asset of the last
  /// ``MediatedNativeAdForwarding/handleClick(assetKey:adId:)`` when there was one). Returns
  /// whether it was recorded (false when muted, expired or released).
  func reportClick() -> Bool
  /// The network presents a full-screen view (`willPresentScreen`).
  func willPresentFullScreenView()
  /// The network's full-screen view is about to close (`willDismissScreen`).
  func willDismissFullScreenView()
  /// The network's full-screen view closed (`didDismissScreen`).
  func didDismissFullScreenView()
  /// The video started or resumed playing (`didPlay`).
  func didPlayVideo()
  /// The video paused (`didPause`).
  func didPauseVideo()
  /// The video ended (`didEnd`).
  func didEndVideo()
  /// The video's sound was turned off (`didMute`).
  func didMuteVideo()
  /// The video's sound was turned on (`didUnmute`).
  func didUnmuteVideo()
}
