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
  /// Set when the load filled but its ads could not be kept: the shared store (a fleet's
  /// Redis) was out of reach. The RPC layer answers `-32003` then, not a load error.
  public var unavailableStore: StoreUnavailable?
  /// The place in what was answered that made it unusable (``GADErrorCode/receivedInvalidResponse``),
  /// as the decoder of the answer names it, when one is named.
  public var field: String?

  /// Creates a load error.
  public init(
    code: GADErrorCode, message: String, responseInfo: ResponseInfo,
    unavailableStore: StoreUnavailable? = nil, field: String? = nil
  ) {
    self.code = code
    self.message = message
    self.responseInfo = responseInfo
    self.unavailableStore = unavailableStore
    self.field = field
  }
}
