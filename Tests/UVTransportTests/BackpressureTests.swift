import LoopTestSupport
import Testing

@_spi(Testing) @testable import UVTransport

/// Flow control on real libuv loops over a `socketpair(2)`: the peer does not read, so writes
/// queue in libuv.
@Suite struct BackpressureTests {
  @Test func aPeerThatDoesNotReadPausesReadingAboveTheHighWaterMarkUntilItDrainsBelowTheLow()
    throws
  {
    let loop = try EventLoop(limits: smallLimits)
    let (server, peer) = try socketPair(loop)
    server.connection.startReading()
    #expect(server.connection.state.isReading)

    var largestQueueBeforePause = 0
    let sent = writeChunks(to: server.connection) {
      if !server.connection.isPausedForBackpressure {
        largestQueueBeforePause = server.connection.queuedBytes
      }
      return server.connection.isPausedForBackpressure
    }
    #expect(server.connection.isPausedForBackpressure)
    #expect(!server.connection.state.isReading)
    #expect(largestQueueBeforePause <= smallLimits.writeHighWater)
    #expect(server.connection.queuedBytes > smallLimits.writeHighWater)
    #expect(server.connection.queuedBytes <= smallLimits.writeHighWater + (8 << 10))

    // Input sent meanwhile waits in the kernel: the paused connection does not read it.
    peer.connection.write(Array("hello".utf8))
    #expect(server.connection.unreadInputBytes == 5)
    loop.runOnce(blocking: false)
    loop.runOnce(blocking: false)
    #expect(server.log.received.isEmpty)

    var queuedAtDrain = -1
    var readingAtDrain = true
    server.log.onDrain = { connection in
      queuedAtDrain = connection.queuedBytes
      readingAtDrain = connection.state.isReading
    }
    peer.connection.startReading()
    #expect(
      loop.run(until: {
        peer.log.received.count == sent.count && server.log.received.count == 5
      }))
    #expect(firstMismatch(peer.log.received, sent) == nil)
    #expect(server.log.received == Array("hello".utf8))
    // One drain, below the low-water mark, before reading resumed and found the input.
    #expect(server.log.drains == 1)
    #expect(queuedAtDrain >= 0 && queuedAtDrain < smallLimits.writeLowWater)
    #expect(!readingAtDrain)
    #expect(server.log.events.first == .drain)
    #expect(server.connection.state.isReading && !server.connection.isPausedForBackpressure)
    #expect(loop.run(until: { server.connection.queuedBytes == 0 }))

    server.connection.close()
    peer.connection.close()
    #expect(loop.runToCompletion())
    #expect(server.log.closes == 1 && peer.log.closes == 1)
  }

  @Test func writesMadeWhileHandlingTheDrainCanKeepReadingPaused() throws {
    let loop = try EventLoop(limits: smallLimits)
    let (server, peer) = try socketPair(loop)
    server.connection.startReading()
    var sent = writeChunks(to: server.connection) { server.connection.isPausedForBackpressure }
    peer.connection.write(Array("next".utf8))

    var readingAtDrain: [Bool] = []
    server.log.onDrain = { connection in
      readingAtDrain.append(connection.state.isReading)
      if readingAtDrain.count == 1 {
        // The replies to input set aside during the pause: over the mark again.
        let more = pattern(smallLimits.writeHighWater * 4, from: sent.count)
        connection.write(more)
        sent += more
        #expect(connection.isPausedForBackpressure)
      }
    }
    peer.connection.startReading()
    #expect(
      loop.run(until: { peer.log.received.count == sent.count && !server.log.received.isEmpty }))
    #expect(firstMismatch(peer.log.received, sent) == nil)
    // Reading did not resume between the two drains: the input arrived after the second.
    #expect(readingAtDrain == [false, false])
    #expect(Array(server.log.events.prefix(2)) == [.drain, .drain])
    #expect(server.log.received == Array("next".utf8))

    server.connection.close()
    peer.connection.close()
    #expect(loop.runToCompletion())
  }

  @Test func aConnectionPastMaxQueuedBytesIsClosedAndItsQueuedWritesCancelled() throws {
    let loop = try EventLoop(limits: smallLimits)
    let (server, peer) = try socketPair(loop)
    var queuedBeforeClose = 0
    let sent = writeChunks(to: server.connection, chunkSize: 64 << 10) {
      if !server.connection.isClosing { queuedBeforeClose = server.connection.queuedBytes }
      return server.connection.isClosing
    }
    #expect(server.connection.isClosing)
    #expect(queuedBeforeClose <= smallLimits.maxQueuedBytes)
    // Closing: further writes are ignored.
    server.connection.write(pattern(10))
    #expect(loop.run(until: { server.log.closes == 1 }))
    #expect(server.connection.queuedBytes == 0 && server.connection.state.lifecycle == .closed)

    // The peer gets what the kernel had taken, in order, then EOF.
    peer.connection.startReading()
    #expect(loop.run(until: { peer.log.sawEndOfInput }))
    #expect(peer.log.received.count < sent.count)
    #expect(firstMismatch(peer.log.received, Array(sent.prefix(peer.log.received.count))) == nil)

    peer.connection.close()
    #expect(loop.runToCompletion())
    #expect(server.log.lifeEvents == [.closed])
  }
}
