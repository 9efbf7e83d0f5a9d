@_spi(Testing) import UVTransport

// Waiting on a real loop in tests, shared by the transport's tests and the Redis client's.

/// A box for a flag set from a loop callback.
public final class Flag {
  public var isSet = false
  public init() {}
}

extension EventLoop {
  /// Runs the loop until `condition` holds; false when `timeoutMilliseconds` of loop time
  /// pass first. A 1 ms repeating timer keeps waking the loop, so that conditions that change
  /// without a loop event (bytes arriving on a socket nobody reads) are seen too. Never sleeps
  /// and measures nothing: the timeout only bounds a wait that should end by itself.
  public func run(until condition: () -> Bool, timeoutMilliseconds: UInt64 = 30_000) -> Bool {
    if condition() { return true }
    let timedOut = Flag()
    let deadline = nowMilliseconds + timeoutMilliseconds
    let tick = LoopTimer(eventLoop: self)
    tick.start(after: 1, repeat: 1) { [unowned self] in
      if nowMilliseconds >= deadline { timedOut.isSet = true }
    }
    defer { tick.close() }
    while !condition() {
      if timedOut.isSet { return false }
      runOnce()
    }
    return true
  }

  /// Runs until no referenced handle is left, as the server's `main` does; false when that
  /// takes longer than `timeoutMilliseconds` (the loop is then stopped).
  public func runToCompletion(timeoutMilliseconds: UInt64 = 30_000) -> Bool {
    let timedOut = Flag()
    let deadline = LoopTimer(eventLoop: self, keepsLoopAlive: false)
    deadline.start(after: timeoutMilliseconds) { [unowned self] in
      timedOut.isSet = true
      stop()
    }
    run()
    deadline.close()
    return !timedOut.isSet
  }
}
