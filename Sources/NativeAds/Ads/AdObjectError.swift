/// A call about a loaded ad that cannot be served, thrown by ``AdManager``'s ad methods.
///
/// The RPC layer maps the cases to JSON-RPC errors: 2001 (`adNotFound`), 2002
/// (`assetNotFound`), 2003 (`wrongAdKind`), 2004 (`muteNotOffered`), and `-32602` Invalid
/// params for ``invalidAssetKey(adId:field:key:)``, ``mediaViewNotClickable(adId:field:)`` and
/// ``invalidMuteReason(adId:reason:offered:)`` (``field`` names the offending param). In every
/// case ``message`` is the error message (the RPC layer prefixes `Invalid params: ` for the
/// invalid-params cases).
public enum AdObjectError: Error, Sendable, Equatable {
  /// The ad ID is unknown, or the ad was released.
  case adNotFound(adId: String)
  /// A click named a key the ad does not have.
  case assetNotFound(adId: String, key: String)
  /// The method applies only to the other ad kind.
  case wrongAdKind(adId: String, message: String)
  /// `registerAdView` named a key that is neither a native asset name nor an identifier
  /// `"3001"`–`"3010"`; `field` is where, e.g. `clickableAssets[1]`.
  case invalidAssetKey(adId: String, field: String, key: String)
  /// `registerAdView` listed the media view as clickable; `field` is where, e.g.
  /// `clickableAssets[2]`.
  case mediaViewNotClickable(adId: String, field: String)
  /// `muteThisAd` on an ad whose creative offers no Mute This Ad reasons.
  case muteNotOffered(adId: String)
  /// `muteThisAd` with a reason the ad does not offer.
  case invalidMuteReason(adId: String, reason: String, offered: [String])

  /// The ad the error is about.
  public var adId: String {
    switch self {
    case .adNotFound(let adId), .assetNotFound(let adId, _), .wrongAdKind(let adId, _),
      .invalidAssetKey(let adId, _, _), .mediaViewNotClickable(let adId, _),
      .muteNotOffered(let adId), .invalidMuteReason(let adId, _, _):
      adId
    }
  }

  /// The camelCase name used on the wire, e.g. `adNotFound`.
  public var name: String {
    switch self {
    case .adNotFound: "adNotFound"
    case .assetNotFound: "assetNotFound"
    case .wrongAdKind: "wrongAdKind"
    case .invalidAssetKey: "invalidAssetKey"
    case .mediaViewNotClickable: "mediaViewNotClickable"
    case .muteNotOffered: "muteNotOffered"
    case .invalidMuteReason: "invalidMuteReason"
    }
  }

  /// The request param at fault, for the invalid-params cases (`clickableAssets[1]`,
  /// `nonclickableAssets[0]`, `reason`); nil for the others.
  public var field: String? {
    switch self {
    case .invalidAssetKey(_, let field, _), .mediaViewNotClickable(_, let field): field
    case .invalidMuteReason: "reason"
    case .adNotFound, .assetNotFound, .wrongAdKind, .muteNotOffered: nil
    }
  }

  /// A sentence saying what is wrong, naming the ad (and key), or for the invalid-params cases
  /// starting with the field, e.g. `clickableAssets[2] mediaView may not be clickable`.
  public var message: String {
    switch self {
    case .adNotFound(let adId):
      "No ad with ID \"\(adId)\": it is unknown or was released"
    case .assetNotFound(let adId, let key):
      "Ad \"\(adId)\" has no asset \"\(key)\""
    case .wrongAdKind(_, let message):
      message
    case .invalidAssetKey(_, let field, let key):
      "\(field) must be a native asset name or an identifier from 3001 to 3010 (got \"\(key)\")"
    case .mediaViewNotClickable(_, let field):
      "\(field) mediaView may not be clickable"
    case .muteNotOffered(let adId):
      "Ad \"\(adId)\" does not offer Mute This Ad"
    case .invalidMuteReason(_, let reason, let offered):
      "reason must be one of the offered reasons "
        + "(\(offered.map { "\"\($0)\"" }.joined(separator: ", "))), not \"\(reason)\""
    }
  }
}
