import NativeAds
import UVTransport

/// Runs the domain's mediation timers (per-source timeouts, load deadlines) on the libuv loop.
/// Loop-thread only.
final class LoopScheduler: MediationScheduler {
  private let eventLoop: EventLoop

  init(eventLoop: EventLoop) {
    self.eventLoop = eventLoop
  }

  func schedule(after milliseconds: UInt64, _ body: @escaping () -> Void) -> any ScheduledWork {
    // Unreferenced: a pending timeout never keeps a shutting-down server alive.
    let work = Work(LoopTimer(eventLoop: eventLoop, keepsLoopAlive: false))
    work.timer?.start(after: milliseconds) { [weak work] in
      work?.finish()
      body()
    }
    return work
  }

  /// One timer; closed when it fires or is cancelled, so nothing outlives its use.
  final class Work: ScheduledWork {
    fileprivate var timer: LoopTimer?

    init(_ timer: LoopTimer) { self.timer = timer }

    fileprivate func finish() {
      timer?.close()
      timer = nil
    }

    func cancel() { finish() }
  }
}
