/// A call about a loaded ad that cannot be served, in domain terms: which ad, which asset,
/// which rule. The RPC layer turns each case into its code, message and param path.
public enum AdObjectError: Error, Sendable, Equatable {
  /// The ad ID is unknown, or the ad was released.
  case adNotFound(adId: String)
  /// A click named a key the ad does not have.
  case assetNotFound(adId: String, key: String)
  /// The operation applies only to ads of kind `applies`.
  case wrongAdKind(adId: String, applies: AdKind)
  /// An ad view listed `key`, which is neither a native asset name nor an identifier from 3001
  /// to 3010, at position `index` of its clickable or non-clickable assets.
  case invalidAssetKey(adId: String, clickable: Bool, index: Int, key: String)
  /// An ad view listed the media view among its clickable assets, at position `index`.
  case mediaViewNotClickable(adId: String, index: Int)
  /// Mute This Ad on an ad whose creative offers no reasons.
  case muteNotOffered(adId: String)
  /// Mute This Ad with a reason the ad does not offer.
  case invalidMuteReason(adId: String, reason: String, offered: [String])
  /// The shared store the ad lives in (a fleet's Redis) could not be reached in time.
  case storeUnavailable(adId: String, StoreUnavailable)

  /// The ad the error is about.
  public var adId: String {
    switch self {
    case .adNotFound(let adId), .assetNotFound(let adId, _), .wrongAdKind(let adId, _),
      .invalidAssetKey(let adId, _, _, _), .mediaViewNotClickable(let adId, _),
      .muteNotOffered(let adId), .invalidMuteReason(let adId, _, _),
      .storeUnavailable(let adId, _):
      adId
    }
  }
}
