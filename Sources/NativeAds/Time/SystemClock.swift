import Glibc

/// The real-time clock (`clock_gettime(CLOCK_REALTIME)`).
public final class SystemClock: AdClock {
  /// Creates the clock.
  public init() {}

  /// The current time in seconds since the Unix epoch, with nanosecond resolution.
  public func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
  }
}
