/// What makes a set of system-defined native assets unservable (``NativeAssets/problem``).
public enum NativeAssetsProblem: Sendable, Equatable {
  /// The star rating is outside ``NativeAssets/starRatingRange``.
  case starRatingOutOfRange
  /// The icon has no positive size.
  case icon(ImageProblem)
  /// The image at `index` of ``NativeAssets/images`` has no positive size.
  case image(index: Int, ImageProblem)
}

extension NativeAssets {
  /// The star ratings an ad may carry: 0 to 5 stars.
  public static let starRatingRange: ClosedRange<Double> = 0...5

  /// The one asset check of the domain, used by the inventory (``Inventory/putCreative(_:)``)
  /// and by mediation (``MediatedNativeAd/problem``): the first problem found, or nil.
  public var problem: NativeAssetsProblem? {
    if let starRating, !Self.starRatingRange.contains(starRating) {
      return .starRatingOutOfRange
    }
    if let found = icon?.problem { return .icon(found) }
    for (index, image) in images.enumerated() {
      if let found = image.problem { return .image(index: index, found) }
    }
    return nil
  }
}
