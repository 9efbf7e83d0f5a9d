/// What a load did (`GADResponseInfo`): carried by every loaded ad and every load failure.
///
/// A value kept in one immutable reference: the load, its reply and every ad it made share it
/// at the cost of one reference count (a copy of the fields would count each string and
/// array). Setting a member makes a new one.
public struct ResponseInfo: Sendable, Equatable {
  private final class Fields: Sendable {
    let responseIdentifier: String
    let loadedAdNetworkResponseInfo: AdNetworkInfo?
    let adNetworkInfoArray: [AdNetworkInfo]
    let isTestRequest: Bool?

    init(
      _ responseIdentifier: String, _ loaded: AdNetworkInfo?, _ tried: [AdNetworkInfo],
      _ isTestRequest: Bool?
    ) {
      self.responseIdentifier = responseIdentifier
      self.loadedAdNetworkResponseInfo = loaded
      self.adNetworkInfoArray = tried
      self.isTestRequest = isTestRequest
    }
  }

  private var fields: Fields

  /// An identifier for this response, fresh for every load.
  public var responseIdentifier: String {
    get { fields.responseIdentifier }
    set {
      fields = Fields(
        newValue, fields.loadedAdNetworkResponseInfo, adNetworkInfoArray, isTestRequest)
    }
  }
  /// The source that filled the request, or nil when none did.
  public var loadedAdNetworkResponseInfo: AdNetworkInfo? {
    get { fields.loadedAdNetworkResponseInfo }
    set { fields = Fields(responseIdentifier, newValue, adNetworkInfoArray, isTestRequest) }
  }
  /// Every source tried, in order.
  public var adNetworkInfoArray: [AdNetworkInfo] {
    get { fields.adNetworkInfoArray }
    set {
      fields = Fields(responseIdentifier, loadedAdNetworkResponseInfo, newValue, isTestRequest)
    }
  }
  /// The request's `isTestRequest`, when it gave one.
  public var isTestRequest: Bool? {
    get { fields.isTestRequest }
    set {
      fields = Fields(responseIdentifier, loadedAdNetworkResponseInfo, adNetworkInfoArray, newValue)
    }
  }

  /// Creates response info.
  public init(
    responseIdentifier: String, loadedAdNetworkResponseInfo: AdNetworkInfo?,
    adNetworkInfoArray: [AdNetworkInfo]
  ) {
    fields = Fields(responseIdentifier, loadedAdNetworkResponseInfo, adNetworkInfoArray, nil)
  }

  /// Whether the source that filled is the last one tried (as it is for every load that
  /// filled), read in place: a writer can copy the entry it wrote instead of writing it again.
  public var loadedIsLastTried: Bool {
    guard let loaded = fields.loadedAdNetworkResponseInfo,
      let last = fields.adNetworkInfoArray.last
    else { return false }
    return loaded == last
  }

  public static func == (a: ResponseInfo, b: ResponseInfo) -> Bool {
    a.fields === b.fields
      || (a.responseIdentifier == b.responseIdentifier
        && a.loadedAdNetworkResponseInfo == b.loadedAdNetworkResponseInfo
        && a.adNetworkInfoArray == b.adNetworkInfoArray && a.isTestRequest == b.isTestRequest)
  }
}

extension ResponseInfo {
  /// Response info for a load whose request said `isTestRequest` (echoed).
  init(
    responseIdentifier: String, isTestRequest: Bool?, loaded: AdNetworkInfo?,
    tried: [AdNetworkInfo]
  ) {
    fields = Fields(responseIdentifier, loaded, tried, isTestRequest)
  }
}
