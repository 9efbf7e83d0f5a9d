/// Runs work later on the event loop: the per-source timeouts and the load deadlines of
/// mediation waterfalls (see ``AdManager/scheduler``). The RPC layer implements it with libuv
/// timers; tests use ``ManualScheduler``.
public protocol MediationScheduler: AnyObject {
  /// Runs `body` on the event loop once, `milliseconds` from now, unless cancelled first.
  func schedule(after milliseconds: UInt64, _ body: @escaping () -> Void) -> any ScheduledWork
}

/// Work a ``MediationScheduler`` will run.
public protocol ScheduledWork: AnyObject {
  /// Stops the work from running (nothing happens if it ran already) and lets go of it.
  func cancel()
}
