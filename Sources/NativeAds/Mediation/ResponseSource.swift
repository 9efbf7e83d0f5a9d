/// The ads an ad response string carries (`loadWithAdResponseString`): a server handed the
/// response to the app, so nothing is asked of anybody. The string is decoded before the load
/// (by whoever knows its format: the RPC layer's OpenRTB decoder) into an ``AdResponse``,
/// which this source answers at once. Being a source of the waterfall, its load gets response
/// info, numbering and serving like every other. (A class: loads without one pass a nil
/// reference, which costs nothing to copy.)
public final class AdResponse: Sendable {
  /// What the response carries.
  public enum Content: Sendable {
    /// Creatives to serve, best first (at least one).
    case creatives([Creative])
    /// No ad: the load fails with ``GADErrorCode/noFill``; the message says why (a bid
    /// response without bids, its no-bid reason).
    case noBid(String)
    /// Not usable: the load fails with ``GADErrorCode/receivedInvalidResponse`` naming
    /// `field`, the place, and `problem`.
    case invalid(field: String, problem: String)
  }

  /// The response info entry's `adNetworkClassName`.
  public let adNetworkClassName: String
  /// Its `adSourceName`.
  public let adSourceName: String
  public let content: Content

  public init(adNetworkClassName: String, adSourceName: String, content: Content) {
    self.adNetworkClassName = adNetworkClassName
    self.adSourceName = adSourceName
    self.content = content
  }

  /// The error domain of invalid responses, in their response info entry.
  public static let errorDomain = "com.google.admob"
}

/// Answers a load with an ``AdResponse``, at once.
final class ResponseSource: AdSource {
  let response: AdResponse

  init(_ response: AdResponse) {
    self.response = response
  }

  var adNetworkClassName: String { response.adNetworkClassName }
  var adSourceName: String { response.adSourceName }
  var timeoutMs: UInt64? { nil }

  func ask(_ ask: SourceAsk, answer: @escaping (SourceAnswer) -> Void) -> (any PendingAsk)? {
    answer(reply(to: ask))
    return nil
  }

  func answerNow(_ ask: SourceAsk) -> SourceAnswer? { reply(to: ask) }

  /// The answer, always at once.
  private func reply(to ask: SourceAsk) -> SourceAnswer {
    let (className, sourceName) = (adNetworkClassName, adSourceName)
    switch response.content {
    case .creatives(let creatives):
      return .filled(
        creatives.prefix(ask.count).map { SourceFill(creative: $0) }, className: className,
        sourceName: sourceName)
    case .noBid(let why):
      return .failed(
        .failed(
          AdNetworkError(
            code: GADErrorCode.noFill.rawValue, domain: AdResponse.errorDomain,
            message: "Request Error: No ad to show: " + why)), className: className,
        sourceName: sourceName)
    case .invalid(let field, let problem):
      return .failed(
        .invalidResponse(
          AdNetworkError(
            code: GADErrorCode.receivedInvalidResponse.rawValue, domain: AdResponse.errorDomain,
            message: "Invalid ad response: \(field) \(problem)"), field: field),
        className: className, sourceName: sourceName)
    }
  }
}
