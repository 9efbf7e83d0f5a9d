import LoopTestSupport
import Testing

@testable import UVTransport

/// Timers order by due time, so a timer due later serves as the proof that an earlier one did
/// (or did not) fire: nothing is measured.
@Suite struct LoopTimerTests {
  @Test func aOneShotTimerFiresOnce() throws {
    let loop = try EventLoop()
    var fired = 0
    let timer = LoopTimer(eventLoop: loop)
    timer.start(after: 0) { fired += 1 }
    #expect(loop.run(until: { fired == 1 }))
    let later = Flag()
    let sentinel = LoopTimer(eventLoop: loop)
    sentinel.start(after: 2) { later.isSet = true }
    #expect(loop.run(until: { later.isSet }))
    #expect(fired == 1)
    timer.close()
    sentinel.close()
    #expect(loop.runToCompletion())
  }

  @Test func aRepeatingTimerFiresUntilStopped() throws {
    let loop = try EventLoop()
    var fired = 0
    let timer = LoopTimer(eventLoop: loop)
    timer.start(after: 0, repeat: 1) {
      fired += 1
      if fired == 3 { timer.stop() }
    }
    #expect(loop.run(until: { fired == 3 }))
    let later = Flag()
    let sentinel = LoopTimer(eventLoop: loop)
    sentinel.start(after: 5) { later.isSet = true }
    #expect(loop.run(until: { later.isSet }))
    #expect(fired == 3)
    timer.close()
    sentinel.close()
    #expect(loop.runToCompletion())
  }

  @Test func aStoppedOrClosedTimerDoesNotFire() throws {
    let loop = try EventLoop()
    var fired = 0
    let stopped = LoopTimer(eventLoop: loop)
    stopped.start(after: 1) { fired += 1 }
    stopped.stop()
    let closed = LoopTimer(eventLoop: loop)
    closed.start(after: 1) { fired += 1 }
    closed.close()
    // Starting a closed timer is ignored.
    closed.start(after: 0) { fired += 1 }
    let later = Flag()
    let sentinel = LoopTimer(eventLoop: loop)
    sentinel.start(after: 3) { later.isSet = true }
    #expect(loop.run(until: { later.isSet }))
    #expect(fired == 0)
    stopped.close()
    sentinel.close()
    #expect(loop.runToCompletion())
  }

  @Test func anUnreferencedTimerDoesNotKeepTheLoopRunning() throws {
    let loop = try EventLoop()
    var fired = false
    let watchdog = LoopTimer(eventLoop: loop, keepsLoopAlive: false)
    watchdog.start(after: 3_600_000) { fired = true }
    #expect(loop.runToCompletion())
    #expect(!fired)
    watchdog.close()
    #expect(loop.runToCompletion())
  }
}
