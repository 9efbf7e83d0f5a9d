/// What the OpenRPC document says of one method: declared next to the method's `decode` and
/// `handle` (its params are the ``Field``s `decode` reads), assembled by ``OpenRPCDocument``
/// from ``allMethods``.
struct MethodSignature: Sendable {
  var summary: String
  var params: [WireMember]
  /// The result; nil for a notification (OpenRPC 1.3: a method without a result is only used
  /// as a notification).
  var result: WireType?
  var errors: [DocumentedError] = [.invalidParams]
}

/// The errors the OpenRPC document names (`components.errors`), each with its code and message.
enum DocumentedError: String, CaseIterable, Sendable {
  case invalidParams = "InvalidParams"
  case invalidRequest = "InvalidRequest"
  case noFill = "NoFill"
  case networkError = "NetworkError"
  case timeout = "Timeout"
  case mediationAdapterError = "MediationAdapterError"
  case receivedInvalidResponse = "ReceivedInvalidResponse"
  case adNotFound = "AdNotFound"
  case assetNotFound = "AssetNotFound"
  case wrongAdKind = "WrongAdKind"
  case muteNotOffered = "MuteNotOffered"

  /// The errors of a method naming an ad.
  static let adErrors: [DocumentedError] = [.invalidParams, .adNotFound]

  var code: Int {
    switch self {
    case .invalidParams: -32602
    case .invalidRequest: 1000
    case .noFill: 1001
    case .networkError: 1002
    case .timeout: 1005
    case .mediationAdapterError: 1008
    case .receivedInvalidResponse: 1013
    case .adNotFound: 2001
    case .assetNotFound: 2002
    case .wrongAdKind: 2003
    case .muteNotOffered: 2004
    }
  }

  var message: String {
    switch self {
    case .invalidParams: "Invalid params"
    default: rawValue.prefix(1).lowercased() + rawValue.dropFirst()
    }
  }
}
