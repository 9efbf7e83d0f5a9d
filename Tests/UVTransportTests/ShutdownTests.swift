import Glibc
import LoopTestSupport
import Testing

@testable import UVTransport

/// The path the server takes on SIGINT/SIGTERM, on a real loop: close the listener, close
/// every connection after its flush, let the loop end.
@Suite struct ShutdownTests {
  @Test func shutdownStopsAcceptingClosesIdleConnectionsAtOnceAndFlushesBusyOnes() throws {
    let loop = try EventLoop(limits: smallLimits)
    let server = try LoopbackServer(loop)
    let port = server.port
    let idleFD = connectLoopback(port: port)
    let busyFD = connectLoopback(port: port, receiveBuffer: 32 << 10)
    try #require(idleFD >= 0 && busyFD >= 0)
    let idleClient = Endpoint(
      try Connection(eventLoop: loop, kind: .tcp(peer: "server"), descriptor: idleFD))
    let busyClient = Endpoint(
      try Connection(eventLoop: loop, kind: .tcp(peer: "server"), descriptor: busyFD))
    try #require(loop.run(until: { server.connections.count == 2 }))
    let idle = try #require(server.endpoint(forClientPort: localPort(idleFD)))
    let busy = try #require(server.endpoint(forClientPort: localPort(busyFD)))
    for endpoint in server.connections {
      limitSendBuffer(endpoint.connection)
      endpoint.connection.lingerMilliseconds = 600_000
      endpoint.connection.startReading()
    }
    idleClient.connection.startReading()
    // Replies the busy client has not read yet.
    let sent = writeChunks(to: busy.connection, chunkSize: 64 << 10) {
      busy.connection.queuedBytes > 0
    }
    #expect(busy.connection.queuedBytes > 0)

    // What Server.shutdown() does.
    server.listener.close()
    for endpoint in server.connections { endpoint.connection.closeAfterFlush() }
    #expect(!idle.connection.state.isReading && !busy.connection.state.isReading)
    #expect(connectLoopback(port: port) == -ECONNREFUSED)

    // The idle connection closes without waiting for anyone; the busy one waits for its
    // replies to be read.
    #expect(loop.run(until: { idle.log.closes == 1 && idleClient.log.sawEndOfInput }))
    #expect(busy.log.closes == 0)
    #expect(busy.connection.state.lifecycle == .flushing)

    busyClient.connection.startReading()
    #expect(loop.run(until: { busy.log.closes == 1 && busyClient.log.sawEndOfInput }))
    #expect(firstMismatch(busyClient.log.received, sent) == nil)

    // Once the clients are gone nothing keeps the loop running.
    idleClient.connection.close()
    busyClient.connection.close()
    #expect(loop.runToCompletion())
    #expect(idle.log.lifeEvents == [.closed] && busy.log.lifeEvents == [.closed])
  }

  @Test func aLoopWithOnlyAClosedListenerAndClosedConnectionsEnds() throws {
    let loop = try EventLoop(limits: smallLimits)
    let server = try LoopbackServer(loop)
    let fd = connectLoopback(port: server.port)
    try #require(fd >= 0)
    let client = Endpoint(try Connection(eventLoop: loop, kind: .stdio, descriptor: fd))
    try #require(loop.run(until: { server.connections.count == 1 }))
    server.listener.close()
    server.connections[0].connection.close()
    client.connection.closeAfterFlush()
    #expect(loop.runToCompletion())
    #expect(server.connections[0].log.closes == 1 && client.log.closes == 1)
  }
}
