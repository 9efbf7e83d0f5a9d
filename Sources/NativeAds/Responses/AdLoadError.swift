/// A load that produced no ad, thrown by ``AdManager/load(_:owner:)``.
///
/// The RPC layer maps it to the JSON-RPC error `1000 + code.rawValue` with `code.name` and the
/// response info in its data.
public struct AdLoadError: Error, Sendable {
  /// Why the load failed.
  public var code: GADErrorCode
  /// A sentence saying exactly what went wrong, e.g.
  /// `Invalid request: unknown ad unit ID "x"`.
  public var message: String
  /// What the load did; failures carry response info too.
  public var responseInfo: ResponseInfo

  /// Creates a load error.
  public init(code: GADErrorCode, message: String, responseInfo: ResponseInfo) {
    self.code = code
    self.message = message
    self.responseInfo = responseInfo
  }
}
