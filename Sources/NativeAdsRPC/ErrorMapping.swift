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
  /// 2001 adNotFound, 2002 assetNotFound, 2003 wrongAdKind; `data` names the ad (and key).
  var rpcError: RPCError {
    var data: [(String, JSONValue)] = [("name", .string(name)), ("adId", .string(adId))]
    let code: Int
    switch self {
    case .adNotFound: code = 2001
    case .assetNotFound(_, let key):
      code = 2002
      data.append(("key", .string(key)))
    case .wrongAdKind: code = 2003
    }
    return RPCError(code: code, message: message, data: .object(data))
  }
}
