/// The completion handler of one adapter load (`GADMediationNativeLoadCompletionHandler`).
///
/// Only the first call counts: later calls return nil and change nothing. After the source
/// timed out, the load's deadline passed or the load was cancelled, calls change nothing
/// either. Once finished it lets go of everything it answered to, so an adapter that keeps it
/// keeps no waterfall alive.
public final class MediationNativeLoadCompletion {
  /// What an answer is handed to while the completion is open.
  public typealias Handler = (Result<MediatedNativeAd, AdNetworkError>) -> (
    any MediationNativeAdEventDelegate
  )?

  private var handler: Handler?

  /// Whether the completion no longer accepts an answer: it was called, or the service
  /// stopped waiting for it.
  public var isFinished: Bool { handler == nil }

  /// Creates a completion that hands the first answer to `handler`. The service makes its
  /// own; this is for driving an adapter directly (tests, tools).
  public init(_ handler: @escaping Handler) {
    self.handler = handler
  }

  /// The adapter loaded `ad`. Returns the delegate through which the adapter reports the ad's
  /// events, or nil when the answer does not count (not the first, too late, or the service
  /// refused the mapped ad: that fails the source).
  @discardableResult
  public func succeed(with ad: MediatedNativeAd) -> (any MediationNativeAdEventDelegate)? {
    guard let handler else { return nil }
    self.handler = nil
    return handler(.success(ad))
  }

  /// The adapter failed with `error` (its code, domain and message go into the source's
  /// response info entry; ``AdNetworkError/isNetworkError`` marks a network error).
  public func fail(with error: AdNetworkError) {
    guard let handler else { return }
    self.handler = nil
    _ = handler(.failure(error))
  }

  /// Stops accepting answers without calling the handler (timeout, deadline, cancellation).
  func invalidate() {
    handler = nil
  }
}
