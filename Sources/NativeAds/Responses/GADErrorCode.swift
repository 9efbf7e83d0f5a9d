/// The SDK's load error codes (iOS `GADErrorCode` numbering; Android numbers differ).
///
/// On the wire a load failure's JSON-RPC code is `1000 + rawValue`.
public enum GADErrorCode: Int, Sendable, CaseIterable {
  /// The request was invalid (unknown ad unit, bad options, ...).
  case invalidRequest = 0
  /// The request was fine but nothing was available to serve.
  case noFill = 1
  /// A network error.
  case networkError = 2
  /// The server answered with an error.
  case serverError = 3
  /// The OS version is too low.
  case osVersionTooLow = 4
  /// The load ran past its deadline.
  case timeout = 5
  /// Mediation configuration data was invalid.
  case mediationDataError = 7
  /// A mediation adapter failed (e.g. the adapter class named by the waterfall is missing).
  case mediationAdapterError = 8
  /// Mediation found no fill (deprecated by the SDK).
  case mediationNoFill = 9
  /// Mediation: invalid ad size.
  case mediationInvalidAdSize = 10
  /// An internal error.
  case internalError = 11
  /// An invalid argument.
  case invalidArgument = 12
  /// The server's response was invalid.
  case receivedInvalidResponse = 13
  /// The ad was already used.
  case adAlreadyUsed = 19
  /// The application identifier is missing.
  case applicationIdentifierMissing = 20

  /// The camelCase name used on the wire, e.g. `noFill`.
  public var name: String {
    switch self {
    case .invalidRequest: "invalidRequest"
    case .noFill: "noFill"
    case .networkError: "networkError"
    case .serverError: "serverError"
    case .osVersionTooLow: "osVersionTooLow"
    case .timeout: "timeout"
    case .mediationDataError: "mediationDataError"
    case .mediationAdapterError: "mediationAdapterError"
    case .mediationNoFill: "mediationNoFill"
    case .mediationInvalidAdSize: "mediationInvalidAdSize"
    case .internalError: "internalError"
    case .invalidArgument: "invalidArgument"
    case .receivedInvalidResponse: "receivedInvalidResponse"
    case .adAlreadyUsed: "adAlreadyUsed"
    case .applicationIdentifierMissing: "applicationIdentifierMissing"
    }
  }
}
