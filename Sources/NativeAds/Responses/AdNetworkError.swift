/// The error an ad network (source) reported for a load, as shown in response info.
public struct AdNetworkError: Sendable, Equatable {
  /// The network's error code.
  public var code: Int
  /// The error domain, e.g. `com.google.admob`.
  public var domain: String
  /// A human-readable message.
  public var message: String

  /// Creates a network error.
  public init(code: Int, domain: String, message: String) {
    self.code = code
    self.domain = domain
    self.message = message
  }

  /// The error the Google network reports when it has nothing to serve.
  public static let noFill = AdNetworkError(
    code: GADErrorCode.noFill.rawValue, domain: "com.google.admob",
    message: "Request Error: No ad to show.")
}
