/// The errors the service itself puts in a waterfall source's response info entry (the
/// adapters' own errors are whatever they report). All are in the `com.google.admob` domain.
extension AdNetworkError {
  /// The domain of the errors the service reports for a source.
  public static let serviceDomain = "com.google.admob"

  /// A `customEvent` source whose adapter class is not registered: code 8
  /// (``GADErrorCode/mediationAdapterError``), message naming the class.
  public static func missingAdapter(className: String) -> AdNetworkError {
    AdNetworkError(
      code: GADErrorCode.mediationAdapterError.rawValue, domain: serviceDomain,
      message: "No adapter is registered for the adapter class name \"\(className)\".")
  }

  /// A source that did not answer within its own `timeoutMs`: code 5
  /// (``GADErrorCode/timeout``). Not a network error.
  public static func adapterTimeout(milliseconds: UInt64) -> AdNetworkError {
    AdNetworkError(
      code: GADErrorCode.timeout.rawValue, domain: serviceDomain,
      message: "Adapter timed out after \(milliseconds) ms.")
  }

  /// The source being asked when the whole load's deadline passed: code 5
  /// (``GADErrorCode/timeout``).
  public static func deadlinePassed(milliseconds: UInt64) -> AdNetworkError {
    AdNetworkError(
      code: GADErrorCode.timeout.rawValue, domain: serviceDomain,
      message: "The load's deadline of \(milliseconds) ms passed while waiting for the adapter.")
  }

  /// The connection that provides the adapter closed while a load waited on it: code 102.
  public static let adapterConnectionClosed = AdNetworkError(
    code: 102, domain: serviceDomain, message: "adapter connection closed")

  /// An adapter mapped an ad the service cannot serve: code 102, `detail` naming the field
  /// (e.g. the first image has no positive width).
  public static func invalidMappedAd(_ detail: String) -> AdNetworkError {
    AdNetworkError(code: 102, domain: serviceDomain, message: "Invalid mapped ad: " + detail)
  }

  /// A `customEvent` source asked by a request that does not accept system-defined native
  /// ads (custom events only map to them): code 1 (``GADErrorCode/noFill``).
  public static let customEventNeedsNativeAdType = AdNetworkError(
    code: GADErrorCode.noFill.rawValue, domain: serviceDomain,
    message: "Request Error: No ad to show (custom events serve only the native ad type).")
}
