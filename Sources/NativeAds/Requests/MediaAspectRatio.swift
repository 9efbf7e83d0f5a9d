/// The media aspect ratio a loader asks for (`GADNativeAdMediaAdLoaderOptions.mediaAspectRatio`).
///
/// `unknown` and `any` accept every orientation; `square` means close to square.
/// The raw values are the wire names.
public enum MediaAspectRatio: String, Sendable, CaseIterable {
  /// No preference (the SDK's default, value 0).
  case unknown
  /// Any aspect ratio (value 1).
  case any
  /// Wider than tall (value 2).
  case landscape
  /// Taller than wide (value 3).
  case portrait
  /// Close to square (value 4).
  case square
}
