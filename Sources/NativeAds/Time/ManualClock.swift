/// A clock that only moves when told to, for tests.
public final class ManualClock: AdClock {
  /// The time it reports, in seconds since the Unix epoch.
  public var time: Double

  /// Creates a clock standing at `time` (default 2026-01-01T00:00:00Z).
  public init(time: Double = 1_767_225_600) {
    self.time = time
  }

  /// Returns ``time``.
  public func now() -> Double { time }

  /// Moves the clock forward by `seconds`.
  public func advance(by seconds: Double) {
    time += seconds
  }
}
