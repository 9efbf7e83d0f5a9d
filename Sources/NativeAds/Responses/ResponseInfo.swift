/// What a load did (`GADResponseInfo`): carried by every loaded ad and every load failure.
public struct ResponseInfo: Sendable, Equatable {
  /// An identifier for this response, fresh for every load.
  public var responseIdentifier: String
  /// The source that filled the request, or nil when none did.
  public var loadedAdNetworkResponseInfo: AdNetworkInfo?
  /// Every source tried, in order.
  public var adNetworkInfoArray: [AdNetworkInfo]
  /// The request's `isTestRequest`, when it gave one.
  public var isTestRequest: Bool? = nil

  /// Creates response info.
  public init(
    responseIdentifier: String, loadedAdNetworkResponseInfo: AdNetworkInfo?,
    adNetworkInfoArray: [AdNetworkInfo]
  ) {
    self.responseIdentifier = responseIdentifier
    self.loadedAdNetworkResponseInfo = loadedAdNetworkResponseInfo
    self.adNetworkInfoArray = adNetworkInfoArray
  }
}

extension ResponseInfo {
  /// Response info for a load whose request said `isTestRequest` (echoed).
  init(
    responseIdentifier: String, isTestRequest: Bool?, loaded: AdNetworkInfo?,
    tried: [AdNetworkInfo]
  ) {
    self.init(
      responseIdentifier: responseIdentifier, loadedAdNetworkResponseInfo: loaded,
      adNetworkInfoArray: tried)
    self.isTestRequest = isTestRequest
  }
}
