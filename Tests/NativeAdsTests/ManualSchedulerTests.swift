import NativeAds
import Testing

@Suite struct ManualSchedulerTests {
  @Test func workRunsWhenDueInOrderOfDueTime() {
    let scheduler = ManualScheduler()
    var ran: [String] = []
    _ = scheduler.schedule(after: 30) { ran.append("c") }
    _ = scheduler.schedule(after: 10) { ran.append("a") }
    _ = scheduler.schedule(after: 10) { ran.append("b") }
    #expect(scheduler.pendingCount == 3)
    #expect(scheduler.nextDueInMs == 10)
    scheduler.advance(by: 9)
    #expect(ran.isEmpty)
    scheduler.advance(by: 21)
    #expect(ran == ["a", "b", "c"])
    #expect(scheduler.pendingCount == 0)
    #expect(scheduler.elapsedMs == 30)
  }

  @Test func cancelledWorkNeverRuns() {
    let scheduler = ManualScheduler()
    var ran = false
    let work = scheduler.schedule(after: 5) { ran = true }
    work.cancel()
    work.cancel()
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: 10)
    #expect(!ran)
  }

  @Test func workScheduledByWorkRunsWithinTheSameAdvance() {
    let clock = ManualClock(time: 100)
    let scheduler = ManualScheduler(clock: clock)
    var times: [Double] = []
    _ = scheduler.schedule(after: 10) {
      times.append(clock.now())
      _ = scheduler.schedule(after: 15) { times.append(clock.now()) }
    }
    scheduler.advance(by: 100)
    #expect(times.map { ($0 * 1000).rounded() } == [100_010, 100_025])
    #expect(abs(clock.now() - 100.1) < 1e-9)
  }
}
