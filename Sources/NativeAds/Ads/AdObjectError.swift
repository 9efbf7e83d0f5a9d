/// A call about a loaded ad that cannot be served, thrown by ``AdManager``'s ad methods.
///
/// The RPC layer maps the cases to the JSON-RPC errors 2001 (`adNotFound`), 2002
/// (`assetNotFound`) and 2003 (`wrongAdKind`), with ``message`` as the error message.
public enum AdObjectError: Error, Sendable, Equatable {
  /// The ad ID is unknown, or the ad was released.
  case adNotFound(adId: String)
  /// A click named a key the ad does not have.
  case assetNotFound(adId: String, key: String)
  /// The method applies only to the other ad kind.
  case wrongAdKind(adId: String, message: String)

  /// The ad the error is about.
  public var adId: String {
    switch self {
    case .adNotFound(let adId), .assetNotFound(let adId, _), .wrongAdKind(let adId, _): adId
    }
  }

  /// The camelCase name used on the wire, e.g. `adNotFound`.
  public var name: String {
    switch self {
    case .adNotFound: "adNotFound"
    case .assetNotFound: "assetNotFound"
    case .wrongAdKind: "wrongAdKind"
    }
  }

  /// A sentence saying what is wrong, naming the ad (and key).
  public var message: String {
    switch self {
    case .adNotFound(let adId):
      "No ad with ID \"\(adId)\": it is unknown or was released"
    case .assetNotFound(let adId, let key):
      "Ad \"\(adId)\" has no asset \"\(key)\""
    case .wrongAdKind(_, let message):
      message
    }
  }
}
