/// The asset keys of a system-defined native ad, with the SDK's asset identifiers.
///
/// Names are preferred on the wire; the identifiers `"3001"`–`"3010"` are accepted as aliases
/// wherever a key names an asset (clicks and ad view registration).
public enum NativeAssetKey: String, Sendable, CaseIterable {
  /// The headline (3001).
  case headline
  /// The call to action (3002).
  case callToAction
  /// The icon (3003).
  case icon
  /// The body (3004).
  case body
  /// The advertiser (3005).
  case advertiser
  /// The store (3006).
  case store
  /// The price (3007).
  case price
  /// The first image (3008).
  case image
  /// The star rating (3009).
  case starRating
  /// The media view (3010).
  case mediaView

  /// The SDK's asset identifier, e.g. `"3001"` for the headline.
  public var identifier: String {
    switch self {
    case .headline: "3001"
    case .callToAction: "3002"
    case .icon: "3003"
    case .body: "3004"
    case .advertiser: "3005"
    case .store: "3006"
    case .price: "3007"
    case .image: "3008"
    case .starRating: "3009"
    case .mediaView: "3010"
    }
  }

  /// The key named by an asset name (`"headline"`) or its identifier (`"3001"`); nil otherwise.
  public init?(nameOrIdentifier key: String) {
    if let byName = NativeAssetKey(rawValue: key) {
      self = byName
      return
    }
    guard let byID = NativeAssetKey.allCases.first(where: { $0.identifier == key }) else {
      return nil
    }
    self = byID
  }

  /// The keys of a native ad's text assets.
  public static let textKeys: [NativeAssetKey] = [
    .headline, .body, .callToAction, .store, .price, .advertiser,
  ]
}
