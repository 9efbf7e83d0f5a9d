import Testing

@testable import UVTransport

/// Limits small enough to reason about: pause above 100 queued bytes, resume below 40, close
/// above 1000.
private let limits: TransportLimits = {
  var limits = TransportLimits()
  limits.writeHighWater = 100
  limits.writeLowWater = 40
  limits.maxQueuedBytes = 1000
  return limits
}()

private func makeState(lingers: Bool = true, handles: Int = 1) -> ConnectionState {
  ConnectionState(limits: limits, openHandles: handles, lingersOnClose: lingers)
}

/// A state that is reading, as after `startReading()`.
private func readingState(lingers: Bool = true, handles: Int = 1) -> ConnectionState {
  var state = makeState(lingers: lingers, handles: handles)
  #expect(state.readingRequested() == .startReading)
  return state
}

@Suite struct ConnectionStateReadingTests {
  @Test func aNewConnectionIsOpenNotReadingAndHasNothingQueued() {
    let state = makeState()
    #expect(state.lifecycle == .open)
    #expect(!state.isReading && !state.isReadingWanted && !state.isPausedForBackpressure)
    #expect(state.queuedBytes == 0 && state.pendingWrites == 0)
    #expect(state.acceptsWrites && state.writesDirectly && state.deliversInput)
    #expect(!state.isClosing)
    #expect(state.invariantViolation == nil)
  }

  @Test func askingToReadStartsOneReadOnly() {
    var state = makeState()
    #expect(state.readingRequested() == .startReading)
    #expect(state.isReading && state.isReadingWanted)
    #expect(state.readingRequested() == .none)
  }

  @Test func stoppingStopsARunningReadAndIsANoOpOtherwise() {
    var state = makeState()
    #expect(state.readingStopRequested() == .none)
    #expect(state.readingRequested() == .startReading)
    #expect(state.readingStopRequested() == .stopReading)
    #expect(!state.isReading && !state.isReadingWanted)
    #expect(state.readingStopRequested() == .none)
  }

  @Test func aReadThatCannotStartClosesTheConnection() {
    var state = readingState()
    #expect(state.readStartFailed() == .close(stopReading: false, closeHandles: true))
    #expect(state.lifecycle == .closing && !state.isReading && !state.isReadingWanted)
  }

  @Test func aReadErrorClosesOnce() {
    var state = readingState()
    #expect(state.readFailed() == .close(stopReading: true, closeHandles: true))
    #expect(state.readFailed() == .none)
  }

  @Test func endOfInputStopsTheReadAndTellsTheDelegate() {
    var state = readingState()
    #expect(state.endOfInputReached() == .notifyEndOfInput(stopReading: true))
    #expect(!state.isReading && !state.isReadingWanted && state.sawEndOfInput)
    #expect(state.lifecycle == .open && state.acceptsWrites)
  }

  @Test func endOfInputWithoutARunningReadOnlyTellsTheDelegate() {
    // The file reader's last request can complete after reading was paused.
    var state = makeState()
    #expect(state.endOfInputReached() == .notifyEndOfInput(stopReading: false))
  }

  @Test func inputIsDeliveredUntilTheWriteSideShutsDown() {
    var state = makeState()
    #expect(state.deliversInput)
    _ = state.writeQueued(byteCount: 10)
    #expect(state.closeAfterFlushRequested() == .none)
    #expect(state.lifecycle == .flushing && state.deliversInput)
    _ = state.writeCompleted(byteCount: 10, succeeded: true)
    #expect(state.finishWritingIfFlushed() == .shutDownWriteSide)
    #expect(!state.deliversInput)
  }
}

@Suite struct ConnectionStateBackpressureTests {
  @Test func writesGoStraightToTheKernelOnlyWhileNothingIsQueued() {
    var state = makeState()
    #expect(state.writesDirectly)
    #expect(state.writeQueued(byteCount: 5) == .none)
    #expect(!state.writesDirectly)
    #expect(state.writeCompleted(byteCount: 5, succeeded: true) == .none)
    #expect(state.writesDirectly)
  }

  @Test func queuedWritesAreCountedAndUncounted() {
    var state = makeState()
    _ = state.writeQueued(byteCount: 30)
    _ = state.writeQueued(byteCount: 20)
    #expect(state.pendingWrites == 2 && state.queuedBytes == 50)
    _ = state.writeCompleted(byteCount: 30, succeeded: true)
    #expect(state.pendingWrites == 1 && state.queuedBytes == 20)
  }

  @Test func exactlyTheHighWaterMarkDoesNotPause() {
    var state = readingState()
    #expect(state.writeQueued(byteCount: 100) == .none)
    #expect(!state.isPausedForBackpressure && state.isReading)
  }

  @Test func passingTheHighWaterMarkPausesAndStopsTheRead() {
    var state = readingState()
    #expect(state.writeQueued(byteCount: 101) == .stopReading)
    #expect(state.isPausedForBackpressure && !state.isReading && state.isReadingWanted)
    // Still paused: asking to read again does nothing until the queue drains.
    #expect(state.readingRequested() == .none)
    #expect(state.writeQueued(byteCount: 1) == .none)
  }

  @Test func passingTheHighWaterMarkWithoutAReadOnlyPauses() {
    var state = makeState()
    #expect(state.writeQueued(byteCount: 101) == .none)
    #expect(state.isPausedForBackpressure)
  }

  @Test func exactlyTheLowWaterMarkKeepsThePause() {
    var state = readingState()
    _ = state.writeQueued(byteCount: 61)
    #expect(state.writeQueued(byteCount: 40) == .stopReading)
    #expect(state.writeCompleted(byteCount: 61, succeeded: true) == .none)
    #expect(state.queuedBytes == 40 && state.isPausedForBackpressure)
  }

  @Test func droppingBelowTheLowWaterMarkDrainsThenReadingResumes() {
    var state = readingState()
    _ = state.writeQueued(byteCount: 62)
    _ = state.writeQueued(byteCount: 39)
    #expect(state.writeCompleted(byteCount: 62, succeeded: true) == .notifyDrain)
    #expect(state.queuedBytes == 39 && !state.isPausedForBackpressure && !state.isReading)
    #expect(state.drainNotified() == .startReading)
    #expect(state.isReading)
    // One drain per pause.
    #expect(state.writeCompleted(byteCount: 39, succeeded: true) == .none)
  }

  @Test func writesMadeWhileHandlingTheDrainCanKeepReadingPaused() {
    var state = readingState()
    _ = state.writeQueued(byteCount: 101)
    #expect(state.writeCompleted(byteCount: 101, succeeded: true) == .notifyDrain)
    // The delegate writes the replies to input it had set aside: over the mark again.
    #expect(state.writeQueued(byteCount: 150) == .none)
    #expect(state.isPausedForBackpressure)
    #expect(state.drainNotified() == .none)
    #expect(!state.isReading)
    #expect(state.writeCompleted(byteCount: 150, succeeded: true) == .notifyDrain)
    #expect(state.drainNotified() == .startReading)
  }

  @Test func aDrainDoesNotStartAReadNobodyWants() {
    var state = makeState()
    _ = state.writeQueued(byteCount: 101)
    #expect(state.writeCompleted(byteCount: 101, succeeded: true) == .notifyDrain)
    #expect(state.drainNotified() == .none)
  }

  @Test func exactlyMaxQueuedBytesStaysOpen() {
    var state = makeState()
    _ = state.writeQueued(byteCount: 1000)
    #expect(state.lifecycle == .open)
  }

  @Test func passingMaxQueuedBytesCloses() {
    var state = readingState()
    #expect(state.writeQueued(byteCount: 600) == .stopReading)
    #expect(state.writeQueued(byteCount: 401) == .close(stopReading: false, closeHandles: true))
    #expect(state.isClosing && !state.acceptsWrites)
  }

  @Test func passingMaxQueuedBytesInOneWriteStopsTheReadAsItCloses() {
    var state = readingState()
    #expect(state.writeQueued(byteCount: 1001) == .close(stopReading: true, closeHandles: true))
    #expect(!state.isPausedForBackpressure)
  }

  @Test func aFailedWriteClosesOnce() {
    var state = readingState()
    #expect(state.writeFailed() == .close(stopReading: true, closeHandles: true))
    #expect(state.writeFailed() == .none)
  }

  @Test func aWriteCompletingWithAnErrorCloses() {
    var state = makeState()
    _ = state.writeQueued(byteCount: 10)
    _ = state.writeQueued(byteCount: 10)
    #expect(
      state.writeCompleted(byteCount: 10, succeeded: false)
        == .close(stopReading: false, closeHandles: true))
    // The other is cancelled by the close: counted off, nothing else happens.
    #expect(state.writeCompleted(byteCount: 10, succeeded: false) == .none)
    #expect(state.pendingWrites == 0 && state.queuedBytes == 0)
  }

  @Test func writesCancelledByACloseAreCountedOffBeforeTheHandleCloses() {
    var state = readingState()
    _ = state.writeQueued(byteCount: 70)
    _ = state.writeQueued(byteCount: 70)
    #expect(state.closeRequested() == .close(stopReading: false, closeHandles: true))
    #expect(state.writeCompleted(byteCount: 70, succeeded: false) == .none)
    #expect(state.writeCompleted(byteCount: 70, succeeded: false) == .none)
    #expect(state.handleClosed() == true)
    #expect(state.lifecycle == .closed && state.invariantViolation == nil)
  }
}

@Suite struct ConnectionStateClosingTests {
  @Test func closingAfterFlushWithNothingQueuedShutsDownATCPWriteSide() {
    var state = readingState()
    #expect(state.readingStopRequested() == .stopReading)
    #expect(state.closeAfterFlushRequested() == .shutDownWriteSide)
    #expect(state.lifecycle == .shuttingDownWriteSide && !state.isClosing)
  }

  @Test func closingAfterFlushWithoutLingeringClosesAtOnce() {
    var state = makeState(lingers: false, handles: 2)
    #expect(state.closeAfterFlushRequested() == .close(stopReading: false, closeHandles: true))
  }

  @Test func closingAfterFlushWaitsForTheLastQueuedWrite() {
    var state = makeState()
    _ = state.writeQueued(byteCount: 10)
    _ = state.writeQueued(byteCount: 20)
    #expect(state.closeAfterFlushRequested() == .none)
    #expect(state.lifecycle == .flushing && state.acceptsWrites)
    #expect(state.writeCompleted(byteCount: 10, succeeded: true) == .none)
    #expect(state.finishWritingIfFlushed() == .none)
    // Writes made meanwhile are flushed too.
    #expect(state.writeQueued(byteCount: 5) == .none)
    _ = state.writeCompleted(byteCount: 20, succeeded: true)
    #expect(state.finishWritingIfFlushed() == .none)
    _ = state.writeCompleted(byteCount: 5, succeeded: true)
    #expect(state.finishWritingIfFlushed() == .shutDownWriteSide)
  }

  @Test func finishingIsOnlyForAConnectionClosingAfterAFlush() {
    var state = makeState()
    #expect(state.finishWritingIfFlushed() == .none)
    #expect(state.lifecycle == .open)
  }

  @Test func aPeerThatSentEndOfInputIsClosedWithoutLingering() {
    var state = readingState()
    _ = state.endOfInputReached()
    #expect(state.closeAfterFlushRequested() == .close(stopReading: false, closeHandles: true))
  }

  @Test func askingTwiceToCloseAfterFlushShutsDownOnce() {
    var state = makeState()
    #expect(state.closeAfterFlushRequested() == .shutDownWriteSide)
    #expect(state.closeAfterFlushRequested() == .none)
    #expect(state.lifecycle == .shuttingDownWriteSide)
  }

  @Test func afterFINWithNothingUnreadTheConnectionClosesAtOnce() {
    var state = makeState()
    _ = state.closeAfterFlushRequested()
    #expect(
      state.writeSideShutDown(unreadBytes: 0) == .close(stopReading: false, closeHandles: true))
  }

  @Test func afterFINWithInputUnreadTheConnectionLingersDiscardingInput() {
    var state = makeState()
    _ = state.closeAfterFlushRequested()
    #expect(state.writeSideShutDown(unreadBytes: 12) == .startLingering)
    #expect(state.lifecycle == .lingering && state.isReading && !state.isReadingWanted)
    #expect(!state.deliversInput && !state.isClosing)
    #expect(state.invariantViolation == nil)
    // The peer closes: EOF ends the wait.
    #expect(state.endOfInputReached() == .close(stopReading: true, closeHandles: true))
  }

  @Test func unknownUnreadInputLingersToo() {
    var state = makeState()
    _ = state.closeAfterFlushRequested()
    #expect(state.writeSideShutDown(unreadBytes: -1) == .startLingering)
  }

  @Test func theLingerTimerCloses() {
    var state = makeState()
    _ = state.closeAfterFlushRequested()
    _ = state.writeSideShutDown(unreadBytes: 1)
    #expect(state.closeRequested() == .close(stopReading: true, closeHandles: true))
  }

  @Test func aLingeringReadThatCannotStartCloses() {
    var state = makeState()
    _ = state.closeAfterFlushRequested()
    _ = state.writeSideShutDown(unreadBytes: 1)
    #expect(state.readStartFailed() == .close(stopReading: false, closeHandles: true))
  }

  @Test func endOfInputWhileTheWriteSideShutsDownCloses() {
    var state = makeState()
    _ = state.closeAfterFlushRequested()
    #expect(state.endOfInputReached() == .close(stopReading: false, closeHandles: true))
  }

  @Test func aShutdownCallbackAfterTheCloseChangesNothing() {
    var state = makeState()
    _ = state.closeAfterFlushRequested()
    _ = state.closeRequested()
    #expect(state.writeSideShutDown(unreadBytes: 5) == .none)
    #expect(state.lifecycle == .closing)
  }

  @Test func closingAfterFlushOnceClosingDoesNothing() {
    var state = makeState()
    _ = state.closeRequested()
    #expect(state.readingStopRequested() == .none)
    #expect(state.closeAfterFlushRequested() == .none)
    #expect(state.lifecycle == .closing)
  }

  @Test func aClosingConnectionNeitherReadsNorWrites() {
    var state = readingState()
    #expect(state.closeRequested() == .close(stopReading: true, closeHandles: true))
    #expect(!state.acceptsWrites && !state.deliversInput)
    #expect(state.readingRequested() == .none)
    #expect(!state.isReadingWanted)
    #expect(state.endOfInputReached() == .none)
    #expect(state.closeRequested() == .none)
  }

  @Test func theLastOfTwoHandlesClosesTheConnection() {
    var state = makeState(lingers: false, handles: 2)
    _ = state.closeRequested()
    #expect(state.handleClosed() == false)
    #expect(state.lifecycle == .closing)
    #expect(state.handleClosed() == true)
    #expect(state.lifecycle == .closed && state.openHandles == 0)
  }

  @Test func aConnectionWithoutHandlesIsClosedAtOnce() {
    // stdin and stdout both regular files.
    var state = readingState(lingers: false, handles: 0)
    #expect(state.closeRequested() == .close(stopReading: true, closeHandles: false))
    #expect(state.lifecycle == .closed)
  }
}

/// Drives the state the way ``Connection`` does, with a simulated libuv, through seeded
/// random sequences of events, checking the invariants and the accounting after every step.
@Suite struct ConnectionStateWalkTests {
  @Test func everySequenceOfEventsKeepsTheInvariants() {
    var random = SplitMix64(seed: 0x5EED_CAFE)
    var closedWalks = 0
    for _ in 0..<3000 {
      var walk = Walk(
        handles: Int.random(in: 0...2, using: &random), random: random)
      walk.run(steps: 80)
      walk.finish()
      random = walk.random
      if walk.closedWithoutForcing { closedWalks += 1 }
    }
    // The walks reach every ending, not just the forced one.
    #expect(closedWalks > 500)
  }
}

/// A deterministic generator, so that a failing walk is the same walk every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// One connection's life: a simulated libuv side (reads on or off, writes in flight, a
/// shutdown request, closing handles) that performs the actions as the real shell does.
private struct Walk {
  var state: ConnectionState
  var random: SplitMix64
  let writesToFile: Bool
  var reading = false
  var writesInFlight: [Int] = []
  var shutdownInFlight = false
  var handlesClosing = false
  var closeNotifications = 0
  var closedWithoutForcing = false

  init(handles: Int, random: SplitMix64) {
    var random = random
    // A connection without handles writes to a file (synchronously) and never lingers.
    let lingers = handles > 0 && Bool.random(using: &random)
    state = ConnectionState(limits: limits, openHandles: handles, lingersOnClose: lingers)
    writesToFile = handles == 0
    self.random = random
  }

  mutating func run(steps: Int) {
    for _ in 0..<steps where state.lifecycle != .closed {
      step()
      check()
    }
    closedWithoutForcing = state.lifecycle == .closed
  }

  /// Closes whatever is left, as the end of a server's life would, and checks the delegate
  /// heard about it exactly once.
  mutating func finish() {
    perform(state.closeRequested())
    while !writesInFlight.isEmpty { complete(succeeded: false) }
    if shutdownInFlight { shutdownCallback() }
    while state.lifecycle == .closing { closeOneHandle() }
    check()
    #expect(state.lifecycle == .closed)
    #expect(closeNotifications == 1)
  }

  private mutating func step() {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<10:
      // As the server does: reads are asked for while open, never after closing began.
      if state.lifecycle == .open { perform(state.readingRequested()) }
    case 10..<13: perform(state.readingStopRequested())
    case 13..<40: write()
    case 40..<65: if !writesInFlight.isEmpty { complete(succeeded: chance(95)) }
    case 65..<69: if reading || chance(20) { perform(state.endOfInputReached()) }
    case 69..<70: if reading { perform(state.readFailed()) }
    case 70..<80:
      perform(state.readingStopRequested())
      perform(state.closeAfterFlushRequested())
    case 80..<88: if shutdownInFlight { shutdownCallback() }
    case 88..<90: perform(state.closeRequested())
    default: if handlesClosing && writesInFlight.isEmpty && !shutdownInFlight { closeOneHandle() }
    }
  }

  private mutating func write() {
    guard state.acceptsWrites, !writesToFile else { return }
    if state.lifecycle > .flushing {
      // libuv refuses uv_write once the write side is shutting down: what the kernel does
      // not take at once fails the write.
      if chance(50) { perform(state.writeFailed()) }
      return
    }
    if chance(3) {
      perform(state.writeFailed())
      return
    }
    // Either the kernel takes it all (nothing to account), or some is queued.
    if state.writesDirectly && chance(30) { return }
    let size = Int.random(in: 1...120, using: &random)
    writesInFlight.append(size)
    perform(state.writeQueued(byteCount: size))
  }

  private mutating func complete(succeeded: Bool) {
    let size = writesInFlight.removeFirst()
    // Once closing, libuv cancels what was still queued.
    let ok = succeeded && !(state.isClosing && chance(80))
    perform(state.writeCompleted(byteCount: size, succeeded: ok))
    perform(state.finishWritingIfFlushed())
  }

  private mutating func shutdownCallback() {
    shutdownInFlight = false
    let unread: Int32 = [0, 0, 7, -1][Int.random(in: 0..<4, using: &random)]
    perform(state.writeSideShutDown(unreadBytes: unread))
  }

  private mutating func closeOneHandle() {
    if state.handleClosed() {
      handlesClosing = false
      closeNotifications += 1
    }
  }

  private mutating func perform(_ action: ConnectionAction) {
    switch action {
    case .none:
      break
    case .startReading, .startLingering:
      #expect(!reading, "a read was started twice")
      if chance(3) {
        perform(state.readStartFailed())
      } else {
        reading = true
      }
    case .stopReading:
      #expect(reading, "a read was stopped that was not running")
      reading = false
    case .notifyDrain:
      // The delegate handles input it set aside; its replies may pause reading again.
      if state.acceptsWrites && chance(30) {
        let size = Int.random(in: 1...200, using: &random)
        writesInFlight.append(size)
        perform(state.writeQueued(byteCount: size))
      }
      perform(state.drainNotified())
    case .notifyEndOfInput(let stopReading):
      #expect(stopReading == reading)
      reading = false
      // The server's delegate closes after the flush.
      if chance(70) {
        perform(state.readingStopRequested())
        perform(state.closeAfterFlushRequested())
      }
    case .shutDownWriteSide:
      #expect(!shutdownInFlight, "the write side was shut down twice")
      #expect(writesInFlight.isEmpty, "FIN before the last write completed")
      if chance(5) {
        perform(state.writeFailed())
      } else {
        shutdownInFlight = true
      }
    case .close(let stopReading, let closeHandles):
      #expect(stopReading == reading)
      #expect(!handlesClosing && closeNotifications == 0, "closed twice")
      reading = false
      if closeHandles {
        handlesClosing = true
      } else {
        closeNotifications += 1
      }
    }
  }

  private func check() {
    #expect(state.invariantViolation == nil)
    #expect(state.pendingWrites == writesInFlight.count)
    #expect(state.queuedBytes == writesInFlight.reduce(0, +))
    #expect(state.isReading == reading)
    #expect(closeNotifications <= 1)
    if !state.isClosing && state.queuedBytes > limits.writeHighWater {
      #expect(state.isPausedForBackpressure && !state.isReading)
    }
  }

  private mutating func chance(_ percent: Int) -> Bool {
    Int.random(in: 0..<100, using: &random) < percent
  }
}
