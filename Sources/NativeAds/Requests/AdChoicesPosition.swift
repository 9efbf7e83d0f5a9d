/// The corner in which the AdChoices overlay of an indirect ad is placed
/// (`GADNativeAdViewAdOptions.preferredAdChoicesPosition`, iOS numbering).
///
/// The raw values are the wire names.
public enum AdChoicesPosition: String, Sendable, CaseIterable {
  /// Top right corner (the default, value 0).
  case topRight
  /// Top left corner (value 1).
  case topLeft
  /// Bottom right corner (value 2).
  case bottomRight
  /// Bottom left corner (value 3).
  case bottomLeft
}
