/// The media aspect ratio a loader asks for (`GADNativeAdMediaAdLoaderOptions.mediaAspectRatio`).
///
/// `unknown` and `any` accept every creative; the others accept only creatives whose media has
/// that orientation (see ``accepts(ratio:)``). The raw values are the wire names.
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

  /// The widest ratio that still counts as square (5% wider than tall).
  public static let squareUpperBound = 1.05
  /// The tallest ratio that still counts as square (5% taller than wide).
  public static let squareLowerBound = 0.95

  /// Whether a creative whose media ratio (width / height) is `ratio` may serve: square when
  /// `|ratio - 1| <= 0.05`, landscape when `ratio > 1.05`, portrait when `ratio < 0.95`
  /// (compared against the bounds directly, so 1.05 and 0.95 are exactly square).
  /// A creative with no ratio (nil) has no orientation: only `unknown` and `any` accept it.
  public func accepts(ratio: Double?) -> Bool {
    switch self {
    case .unknown, .any: return true
    case .landscape, .portrait, .square: break
    }
    guard let ratio, ratio > 0, ratio.isFinite else { return false }
    switch self {
    case .square: return ratio >= Self.squareLowerBound && ratio <= Self.squareUpperBound
    case .landscape: return ratio > Self.squareUpperBound
    case .portrait: return ratio < Self.squareLowerBound
    case .unknown, .any: return true
    }
  }
}
