/// A load that produced no ad, thrown by ``AdManager/load(_:owner:)``.
///
/// The RPC layer maps it to the JSON-RPC error `1000 + code.rawValue` with `code.name` and the
/// response info in its data.
///
/// Its fields are kept behind one immutable reference (setting one makes a new one): a load's
/// result, `Result<LoadedAds, AdLoadError>`, is made and destroyed on every load, and with the
/// error's strings and optionals inline that enum was copied and destroyed through value
/// witnesses even when it held ads.
public struct AdLoadError: Error, Sendable {
  private final class Fields: Sendable {
    let code: GADErrorCode
    let message: String
    let responseInfo: ResponseInfo
    let unavailableStore: StoreUnavailable?
    let field: String?

    init(
      _ code: GADErrorCode, _ message: String, _ responseInfo: ResponseInfo,
      _ unavailableStore: StoreUnavailable?, _ field: String?
    ) {
      self.code = code
      self.message = message
      self.responseInfo = responseInfo
      self.unavailableStore = unavailableStore
      self.field = field
    }
  }

  private var fields: Fields

  /// Why the load failed.
  public var code: GADErrorCode {
    get { fields.code }
    set { fields = Fields(newValue, message, responseInfo, unavailableStore, field) }
  }
  /// A sentence saying exactly what went wrong, e.g.
  /// `Invalid request: unknown ad unit ID "x"`.
  public var message: String {
    get { fields.message }
    set { fields = Fields(code, newValue, responseInfo, unavailableStore, field) }
  }
  /// What the load did; failures carry response info too.
  public var responseInfo: ResponseInfo {
    get { fields.responseInfo }
    set { fields = Fields(code, message, newValue, unavailableStore, field) }
  }
  /// Set when the load filled but its ads could not be kept: the shared store (a fleet's
  /// Redis) was out of reach. The RPC layer answers `-32003` then, not a load error.
  public var unavailableStore: StoreUnavailable? {
    get { fields.unavailableStore }
    set { fields = Fields(code, message, responseInfo, newValue, field) }
  }
  /// The place in what was answered that made it unusable (``GADErrorCode/receivedInvalidResponse``),
  /// as the decoder of the answer names it, when one is named.
  public var field: String? {
    get { fields.field }
    set { fields = Fields(code, message, responseInfo, unavailableStore, newValue) }
  }

  /// Creates a load error.
  public init(
    code: GADErrorCode, message: String, responseInfo: ResponseInfo,
    unavailableStore: StoreUnavailable? = nil, field: String? = nil
  ) {
    fields = Fields(code, message, responseInfo, unavailableStore, field)
  }
}
