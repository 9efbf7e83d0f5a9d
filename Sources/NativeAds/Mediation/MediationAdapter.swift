/// A mediation adapter (`GADMediationAdapter`): maps another network's native ads to the
/// native shape for a `customEvent` waterfall source.
///
/// Registered by class name in an ``AdapterRegistry``. Loop-bound: every call is made on the
/// event loop thread, and adapters answer there too.
public protocol MediationAdapter: AnyObject {
  /// The adapter's own version.
  var adapterVersion: AdapterVersion { get }
  /// The version of the network SDK it wraps.
  var adSDKVersion: AdapterVersion { get }

  /// Called once, when the adapter is registered. Default: nothing.
  func setUp()

  /// Loads a native ad and answers through `completion`, exactly once: with
  /// ``MediationNativeLoadCompletion/succeed(with:)`` or
  /// ``MediationNativeLoadCompletion/fail(with:)``, now or later. Only the first answer counts,
  /// and none counts after the source timed out or the load was abandoned.
  func loadNativeAd(
    for configuration: MediationNativeAdConfiguration, completion: MediationNativeLoadCompletion)

  /// The service no longer waits for the load `loadId`, for `reason` (its source timed out,
  /// the load's deadline passed, or the load was cancelled: then stop working on it): drop
  /// anything kept for it. An answer after this is ignored. Default: nothing.
  func loadWasAbandoned(loadId: String, because reason: AbandonReason)
}

extension MediationAdapter {
  /// Does nothing.
  public func setUp() {}

  /// Does nothing.
  public func loadWasAbandoned(loadId: String, because reason: AbandonReason) {}
}
