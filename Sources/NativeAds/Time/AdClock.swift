/// The time source of an ``AdManager``: load times, expiry, latencies and event times.
///
/// Production uses ``SystemClock``; tests inject a ``ManualClock``. Used on the event loop only.
public protocol AdClock: AnyObject {
  /// The current time in seconds since the Unix epoch.
  func now() -> Double
}
