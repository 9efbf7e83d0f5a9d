/// Why an impression or a click was not recorded (the `reason` of the wire results).
public enum NotRecordedReason: String, Sendable, CaseIterable {
  /// The impression was recorded before (impressions count once).
  case alreadyRecorded
  /// The ad is past its `expiresAt`.
  case expired
  /// The user muted the ad (Mute This Ad).
  case muted
  /// The ad view is registered and the asset is not one of its clickable assets.
  case notClickable
  /// A visibility report on a native ad whose view is not registered.
  case notRegistered
  /// A visibility report with no visible pixel.
  case notVisible
  /// A mediated ad whose adapter tracks impressions or clicks itself: the adapter was told,
  /// and its report through ``MediationNativeAdEventDelegate`` records it.
  case handledByAdapter
}
