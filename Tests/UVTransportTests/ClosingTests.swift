import Glibc
import LoopTestSupport
import Testing

@testable import UVTransport

/// A TCP connection accepted by a loopback listener, and its client (a connection over the
/// client socket, with a small receive buffer so that the server's writes queue).
private struct TCPPair {
  let server: Endpoint
  let client: Endpoint
  let clientDescriptor: Int32
  let listener: LoopbackServer

  init(_ loop: EventLoop) throws {
    listener = try LoopbackServer(loop)
    clientDescriptor = connectLoopback(port: listener.port, receiveBuffer: 32 << 10)
    try #require(clientDescriptor >= 0)
    client = Endpoint(
      try Connection(eventLoop: loop, kind: .tcp(peer: "server"), descriptor: clientDescriptor))
    let listener = listener
    try #require(loop.run(until: { listener.connections.count == 1 }))
    server = listener.connections[0]
    limitSendBuffer(server.connection)
    // The peer's close or EOF ends a lingering close in these tests, never the timer.
    server.connection.lingerMilliseconds = 600_000
    listener.listener.close()
  }
}

/// Closing on real libuv loops: after a flush (pipes, TCP with lingering), at once, and after
/// the peer's half-close.
@Suite struct ClosingTests {
  @Test func closingAfterFlushOverPipesDeliversEveryQueuedByteThenClosesBothHandles() throws {
    let loop = try EventLoop(limits: smallLimits)
    let (server, peer) = try pipePair(loop)
    #expect(server.connection.state.openHandles == 2)
    server.connection.startReading()
    let sent = writeChunks(to: server.connection) { server.connection.queuedBytes > 0 }
    #expect(server.connection.queuedBytes > 0)
    server.connection.closeAfterFlush()
    #expect(server.connection.state.lifecycle == .flushing && !server.connection.isClosing)
    #expect(!server.connection.state.isReading)

    var queuedAtClose = -1
    server.log.onClose = { connection in queuedAtClose = connection.queuedBytes }
    peer.connection.startReading()
    #expect(loop.run(until: { server.log.closes == 1 && peer.log.sawEndOfInput }))
    #expect(firstMismatch(peer.log.received, sent) == nil)
    // Closed after the last write completed, not by cancelling it.
    #expect(queuedAtClose == 0)
    #expect(server.connection.state.openHandles == 0)

    peer.connection.close()
    #expect(loop.runToCompletion())
    #expect(server.log.lifeEvents == [.closed])
    #expect(peer.log.lifeEvents == [.endOfInput, .closed])
  }

  @Test func closingAfterFlushOverTCPSendsEveryByteThenFINAndWaitsForThePeerToClose() throws {
    let loop = try EventLoop(limits: smallLimits)
    let pair = try TCPPair(loop)
    let (server, client) = (pair.server, pair.client)
    // Input the server never reads: closing with it unread would make the kernel send a
    // reset, which can destroy replies still in flight.
    client.connection.write(pattern(1000))
    #expect(loop.run(until: { server.connection.unreadInputBytes == 1000 }))
    let sent = writeChunks(to: server.connection, chunkSize: 64 << 10) {
      server.connection.queuedBytes > 0
    }
    #expect(server.connection.queuedBytes > 0)
    server.connection.closeAfterFlush()
    #expect(server.connection.state.lifecycle == .flushing)

    var serverAtClientEOF: ConnectionState.Lifecycle?
    client.log.onEndOfInput = { _ in serverAtClientEOF = server.connection.state.lifecycle }
    client.connection.startReading()
    #expect(loop.run(until: { client.log.sawEndOfInput }))
    #expect(firstMismatch(client.log.received, sent) == nil)
    // FIN came after the last byte, and the server is still open, draining its input.
    #expect(serverAtClientEOF == .lingering)
    #expect(server.log.closes == 0)

    client.connection.close()
    #expect(loop.run(until: { server.log.closes == 1 }))
    // What arrived while lingering was discarded, not delivered.
    #expect(server.log.received.isEmpty)
    #expect(loop.runToCompletion())
    #expect(server.log.lifeEvents == [.closed])
    #expect(client.log.lifeEvents == [.endOfInput, .closed])
  }

  @Test func theLingerTimeBoundsTheWaitForAPeerThatNeverCloses() throws {
    let loop = try EventLoop(limits: smallLimits)
    let pair = try TCPPair(loop)
    let (server, client) = (pair.server, pair.client)
    server.connection.lingerMilliseconds = 1
    client.connection.write(pattern(1000))
    #expect(loop.run(until: { server.connection.unreadInputBytes == 1000 }))
    server.connection.write(pattern(100))
    server.connection.closeAfterFlush()

    var clientClosedAtServerClose: Bool?
    server.log.onClose = { _ in clientClosedAtServerClose = client.connection.isClosing }
    client.connection.startReading()
    #expect(loop.run(until: { server.log.closes == 1 }))
    #expect(clientClosedAtServerClose == false)

    client.connection.close()
    #expect(loop.runToCompletion())
    #expect(server.log.closes == 1)
  }

  @Test func anIdleTCPConnectionClosesRightAfterItsFINWithoutWaitingForThePeer() throws {
    let loop = try EventLoop(limits: smallLimits)
    let pair = try TCPPair(loop)
    let (server, client) = (pair.server, pair.client)
    client.connection.startReading()
    server.connection.startReading()
    server.connection.closeAfterFlush()
    #expect(server.connection.state.lifecycle == .shuttingDownWriteSide)

    var clientClosedAtServerClose: Bool?
    server.log.onClose = { _ in clientClosedAtServerClose = client.connection.isClosing }
    #expect(loop.run(until: { server.log.closes == 1 && client.log.sawEndOfInput }))
    #expect(clientClosedAtServerClose == false)

    client.connection.close()
    #expect(loop.runToCompletion())
    #expect(server.log.lifeEvents == [.closed])
  }

  @Test func aPeerThatHalfClosesGetsEveryReplyThenTheConnectionCloses() throws {
    let loop = try EventLoop(limits: smallLimits)
    let pair = try TCPPair(loop)
    let (server, client) = (pair.server, pair.client)
    // What the server does on EOF: answer what was read, then close after the flush.
    var reply: [UInt8] = []
    server.log.onEndOfInput = { connection in
      reply = writeChunks(to: connection, chunkSize: 64 << 10) { connection.queuedBytes > 0 }
      connection.closeAfterFlush()
    }
    server.connection.startReading()
    client.connection.write(Array("request".utf8))
    #expect(shutdown(pair.clientDescriptor, Int32(SHUT_WR)) == 0)
    #expect(loop.run(until: { server.log.sawEndOfInput }))
    #expect(server.log.received == Array("request".utf8))
    #expect(server.connection.queuedBytes > 0)

    var clientClosedAtServerClose: Bool?
    server.log.onClose = { _ in clientClosedAtServerClose = client.connection.isClosing }
    client.connection.startReading()
    #expect(loop.run(until: { server.log.closes == 1 && client.log.sawEndOfInput }))
    #expect(firstMismatch(client.log.received, reply) == nil)
    #expect(clientClosedAtServerClose == false)

    client.connection.close()
    #expect(loop.runToCompletion())
    #expect(server.log.lifeEvents == [.endOfInput, .closed])
  }

  @Test func closingNowCancelsQueuedWritesAndReportsTheCloseOnce() throws {
    let loop = try EventLoop(limits: smallLimits)
    let (server, peer) = try socketPair(loop)
    let sent = writeChunks(to: server.connection) { server.connection.queuedBytes > 0 }
    #expect(server.connection.queuedBytes > 0)
    server.connection.close()
    server.connection.close()
    server.connection.closeAfterFlush()
    #expect(server.connection.isClosing)
    #expect(loop.run(until: { server.log.closes == 1 }))
    #expect(server.connection.queuedBytes == 0)

    peer.connection.startReading()
    #expect(loop.run(until: { peer.log.sawEndOfInput }))
    #expect(peer.log.received.count < sent.count)
    #expect(firstMismatch(peer.log.received, Array(sent.prefix(peer.log.received.count))) == nil)

    peer.connection.close()
    #expect(loop.runToCompletion())
    #expect(server.log.lifeEvents == [.closed])
  }
}
