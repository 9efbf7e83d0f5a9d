import JSONRPC
import NativeAds

/// The service's error codes (contract section 3), beside JSON-RPC's own.
extension ErrorCode {
  /// `1000 + GADErrorCode`: an ad that failed to load.
  static func adLoad(_ code: GADErrorCode) -> ErrorCode {
    ErrorCode(rawValue: 1000 + code.rawValue)
  }
  /// 2001: the `adId` is unknown, or was released.
  static let adNotFound: ErrorCode = 2001
  /// 2002: a click names a key the ad does not have.
  static let assetNotFound: ErrorCode = 2002
  /// 2003: the method applies only to the other ad kind.
  static let wrongAdKind: ErrorCode = 2003
  /// 2004: Mute This Ad on an ad that offers no reasons.
  static let muteNotOffered: ErrorCode = 2004
  /// -32003 `Store unavailable`: a fleet's Redis could not be reached in time (contract
  /// section 11).
  static let storeUnavailable: ErrorCode = -32003
}

extension StoreUnavailable {
  /// `-32003` `Store unavailable`, with `data: {"reason"}` (and the ad, when there is one).
  func rpcError(adId: String? = nil) -> RPCError {
    var data: [(String, JSONValue)] = [("reason", .string(reason))]
    if let adId { data.append(("adId", .string(adId))) }
    return RPCError(code: .storeUnavailable, message: "Store unavailable", data: .object(data))
  }
}

/// The one place where domain errors become wire errors (contract section 3).
extension AdLoadError {
  /// `1000 + GADErrorCode`, with `data: {"gadErrorCode", "name", "responseInfo"}`.
  var rpcError: RPCError {
    if let unavailableStore { return unavailableStore.rpcError() }
    var data: [(String, JSONValue)] = [
      ("gadErrorCode", .int(code.rawValue)), ("name", .string(code.name)),
    ]
    if let field { data.append(("field", .string(field))) }
    data.append(("responseInfo", .raw(AdJSON.encode(responseInfo).array)))
    return RPCError(code: .adLoad(code), message: message, data: .object(data))
  }
}

extension AdObjectError {
  /// The camelCase name in `data.name`.
  var name: String {
    switch self {
    case .adNotFound: "adNotFound"
    case .assetNotFound: "assetNotFound"
    case .wrongAdKind: "wrongAdKind"
    case .invalidAssetKey: "invalidAssetKey"
    case .mediaViewNotClickable: "mediaViewNotClickable"
    case .muteNotOffered: "muteNotOffered"
    case .invalidMuteReason: "invalidMuteReason"
    case .storeUnavailable: "storeUnavailable"
    }
  }

  /// The error as method `method` answers it: 2001 adNotFound, 2002 assetNotFound, 2003
  /// wrongAdKind, 2004 muteNotOffered, with `data` naming the ad (and key); errors about a
  /// param's value are `-32602` naming the param.
  func rpcError(method: String) -> RPCError {
    let code: ErrorCode
    let message: String
    var data: [(String, JSONValue)] = [("name", .string(name)), ("adId", .string(adId))]
    switch self {
    case .adNotFound(let adId):
      code = .adNotFound
      message = "No ad with ID \"\(adId)\": it is unknown or was released"
    case .assetNotFound(let adId, let key):
      code = .assetNotFound
      message = "Ad \"\(adId)\" has no asset \"\(key)\""
      data.append(("key", .string(key)))
    case .wrongAdKind(_, let applies):
      code = .wrongAdKind
      message =
        "\(method) applies only to "
        + (applies == .native ? "system-defined native ads" : "custom native ads")
    case .muteNotOffered(let adId):
      code = .muteNotOffered
      message = "Ad \"\(adId)\" does not offer Mute This Ad"
    case .invalidAssetKey(_, let clickable, let index, let key):
      return .invalidParams(
        field: Self.adViewField(clickable: clickable, index: index),
        "\"\(key)\" is not an asset name or identifier (headline, callToAction, icon, body, advertiser, store, price, image, starRating, mediaView, 3001-3010)"
      )
    case .mediaViewNotClickable(_, let index):
      return .invalidParams(
        field: Self.adViewField(clickable: true, index: index), "mediaView may not be clickable")
    case .invalidMuteReason(_, _, let offered):
      let list = offered.map { "\"\($0)\"" }.joined(separator: ", ")
      return .invalidParams(field: "reason", "must be one of the reasons the ad offers: \(list)")
    case .storeUnavailable(let adId, let unavailable):
      return unavailable.rpcError(adId: adId)
    }
    return RPCError(code: code, message: message, data: .object(data))
  }

  /// `registerAdView`'s param at fault: `clickableAssets[1]`, `nonclickableAssets[0]`.
  private static func adViewField(clickable: Bool, index: Int) -> String {
    (clickable ? "clickableAssets" : "nonclickableAssets") + "[\(index)]"
  }
}
