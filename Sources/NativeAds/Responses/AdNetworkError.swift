/// The error an ad network (source) reported for a load, as shown in response info.
///
/// Also what a mediation adapter reports through ``MediationNativeLoadCompletion/fail(with:)``.
public struct AdNetworkError: Error, Sendable, Equatable {
  /// The network's error code.
  public var code: Int
  /// The error domain, e.g. `com.google.admob`.
  public var domain: String
  /// A human-readable message.
  public var message: String
  /// Whether the source failed because of a network error. Not shown in response info: when
  /// nothing fills a waterfall, any such source makes the load fail with
  /// ``GADErrorCode/networkError`` (see ``AdManager/load(_:owner:completion:)``).
  public var isNetworkError: Bool

  /// Creates a network error.
  public init(code: Int, domain: String, message: String, isNetworkError: Bool = false) {
    self.code = code
    self.domain = domain
    self.message = message
    self.isNetworkError = isNetworkError
  }

  /// The error the Google network reports when it has nothing to serve.
  public static let noFill = AdNetworkError(
    code: GADErrorCode.noFill.rawValue, domain: "com.google.admob",
    message: "Request Error: No ad to show.")
}
