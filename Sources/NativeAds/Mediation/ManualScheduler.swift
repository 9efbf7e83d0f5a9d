/// A ``MediationScheduler`` whose time only moves when told to, for tests.
///
/// Work runs inside ``advance(by:)``, in order of due time (ties in scheduling order),
/// including work scheduled by work that runs, when due within the advance. Given a
/// ``ManualClock``, it moves the clock along with its own time (to each due time as the work
/// runs), so latencies measured by an ``AdManager`` on that clock match.
public final class ManualScheduler: MediationScheduler {
  private struct Entry {
    var id: UInt64
    var due: UInt64
    var body: () -> Void
  }

  /// One piece of scheduled work.
  private final class Work: ScheduledWork {
    weak var scheduler: ManualScheduler?
    let id: UInt64

    init(scheduler: ManualScheduler, id: UInt64) {
      self.scheduler = scheduler
      self.id = id
    }

    func cancel() {
      scheduler?.cancel(id)
    }
  }

  /// The clock moved along with the scheduler, if any.
  public let clock: ManualClock?
  /// Milliseconds advanced since creation.
  public private(set) var elapsedMs: UInt64 = 0
  private var entries: [Entry] = []
  private var nextID: UInt64 = 0

  /// Creates a scheduler at time 0, moving `clock` along when given.
  public init(clock: ManualClock? = nil) {
    self.clock = clock
  }

  /// How many pieces of work wait to run (cancelled ones are gone).
  public var pendingCount: Int { entries.count }

  /// When the next piece of work is due, in milliseconds from now; nil when none waits.
  public var nextDueInMs: UInt64? {
    entries.map(\.due).min().map { $0 - elapsedMs }
  }

  /// Schedules `body` to run when time has advanced by `milliseconds`.
  public func schedule(after milliseconds: UInt64, _ body: @escaping () -> Void)
    -> any ScheduledWork
  {
    nextID += 1
    entries.append(Entry(id: nextID, due: elapsedMs + milliseconds, body: body))
    return Work(scheduler: self, id: nextID)
  }

  /// Moves time forward by `milliseconds`, running the work that falls due.
  public func advance(by milliseconds: UInt64) {
    let target = elapsedMs + milliseconds
    while let index = nextDueIndex(notAfter: target) {
      let entry = entries.remove(at: index)
      move(to: entry.due)
      entry.body()
    }
    move(to: target)
  }

  private func nextDueIndex(notAfter target: UInt64) -> Int? {
    var best: Int?
    for (index, entry) in entries.enumerated() where entry.due <= target {
      if let current = best {
        let other = entries[current]
        if (entry.due, entry.id) < (other.due, other.id) { best = index }
      } else {
        best = index
      }
    }
    return best
  }

  private func move(to time: UInt64) {
    guard time > elapsedMs else { return }
    clock?.advance(by: Double(time - elapsedMs) / 1000)
    elapsedMs = time
  }

  private func cancel(_ id: UInt64) {
    entries.removeAll { $0.id == id }
  }
}
