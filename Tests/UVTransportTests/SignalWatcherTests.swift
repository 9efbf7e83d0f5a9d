import Glibc
import LoopTestSupport
import Testing

@testable import UVTransport

/// SIGUSR2 is used by this test only: signal handlers are process-wide.
@Suite struct SignalWatcherTests {
  @Test func aSignalRunsTheHandlerOnTheLoopAndTheWatcherDoesNotKeepTheLoopRunning() throws {
    let loop = try EventLoop()
    var received: [Int32] = []
    let watcher = try SignalWatcher(eventLoop: loop, signal: SIGUSR2) { received.append($0) }
    // Unreferenced: with nothing else to do the loop ends at once.
    #expect(loop.runToCompletion())
    #expect(received.isEmpty)

    // Test threads (libdispatch workers) block signals: unblock it here while raising it, so
    // that it is delivered to this thread, synchronously.
    var only = sigset_t()
    var previous = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, SIGUSR2)
    pthread_sigmask(SIG_UNBLOCK, &only, &previous)
    #expect(raise(SIGUSR2) == 0)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    #expect(loop.run(until: { !received.isEmpty }))
    #expect(received == [SIGUSR2])
    watcher.close()
    #expect(loop.runToCompletion())
  }
}
