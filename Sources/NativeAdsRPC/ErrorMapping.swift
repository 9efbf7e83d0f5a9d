import JSONRPC
import NativeAds

/// The one place where domain errors become wire errors (contract section 3).
extension AdLoadError {
  /// `1000 + GADErrorCode`, with `data: {"gadErrorCode", "name", "responseInfo"}`.
  var rpcError: RPCError {
    RPCError(
      code: 1000 + code.rawValue, message: message,
      data: .object([
        ("gadErrorCode", .int(code.rawValue)),
        ("name", .string(code.name)),
        ("responseInfo", .raw(AdJSON.encode(responseInfo))),
      ]))
  }
}

extension AdObjectError {
  /// 2001 adNotFound, 2002 assetNotFound, 2003 wrongAdKind, 2004 muteNotOffered; `data` names
  /// the ad (and key). Errors about a param's value are `-32602` naming the field.
  var rpcError: RPCError {
    var data: [(String, JSONValue)] = [("name", .string(name)), ("adId", .string(adId))]
    let code: Int
    switch self {
    case .adNotFound: code = 2001
    case .assetNotFound(_, let key):
      code = 2002
      data.append(("key", .string(key)))
    case .wrongAdKind: code = 2003
    case .muteNotOffered: code = 2004
    case .invalidAssetKey(_, let field, let key):
      return .invalidParams(
        field: field,
        "\"\(key)\" is not an asset name or identifier (headline, callToAction, icon, body, advertiser, store, price, image, starRating, mediaView, 3001-3010)"
      )
    case .mediaViewNotClickable(_, let field):
      return .invalidParams(field: field, "mediaView may not be clickable")
    case .invalidMuteReason(_, _, let offered):
      let list = offered.map { "\"\($0)\"" }.joined(separator: ", ")
      return .invalidParams(field: "reason", "must be one of the reasons the ad offers: \(list)")
    }
    return RPCError(code: code, message: message, data: .object(data))
  }
}
