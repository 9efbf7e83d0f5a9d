import Glibc
import LoopTestSupport
import Testing

@testable import UVTransport

/// Limits small enough that a few writes reach the marks: pause above 64 KiB queued, resume
/// below 16 KiB, close above 1 MiB.
let smallLimits: TransportLimits = {
  var limits = TransportLimits()
  limits.writeHighWater = 64 << 10
  limits.writeLowWater = 16 << 10
  limits.maxQueuedBytes = 1 << 20
  limits.readBufferSize = 16 << 10
  return limits
}()

/// A delegate that records what happens, in order, and runs optional handlers.
final class Recorder: ConnectionDelegate {
  enum Event: Equatable {
    case read(Int)
    case endOfInput
    case drain
    case closed
  }

  private(set) var events: [Event] = []
  private(set) var received: [UInt8] = []
  var onRead: ((Connection) -> Void)?
  var onEndOfInput: ((Connection) -> Void)?
  var onDrain: ((Connection) -> Void)?
  var onClose: ((Connection) -> Void)?

  var sawEndOfInput: Bool { events.contains(.endOfInput) }
  var drains: Int { events.filter { $0 == .drain }.count }
  var closes: Int { events.filter { $0 == .closed }.count }
  /// What happened apart from reads.
  var lifeEvents: [Event] {
    events.filter {
      if case .read = $0 { return false }
      return true
    }
  }

  func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
    events.append(.read(bytes.count))
    received.append(contentsOf: bytes)
    onRead?(connection)
  }

  func connectionDidReachEOF(_ connection: Connection) {
    events.append(.endOfInput)
    onEndOfInput?(connection)
  }

  func connectionDidDrain(_ connection: Connection) {
    events.append(.drain)
    onDrain?(connection)
  }

  func connectionDidClose(_ connection: Connection) {
    events.append(.closed)
    onClose?(connection)
  }
}

/// A connection and what its delegate saw.
struct Endpoint {
  let connection: Connection
  let log: Recorder

  init(_ connection: Connection) {
    self.connection = connection
    log = Recorder()
    connection.delegate = log
  }
}

/// `count` bytes of a sequence that does not repeat every power of two (so a lost, doubled or
/// reordered chunk shows), starting at position `start`.
func pattern(_ count: Int, from start: Int = 0) -> [UInt8] {
  (start..<start + count).map { UInt8(truncatingIfNeeded: $0 % 251) }
}

/// The first index where the two differ, or nil when they are equal (large arrays make poor
/// failure messages).
func firstMismatch(_ a: [UInt8], _ b: [UInt8]) -> Int? {
  if let i = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
    return i
  }
  return a.count == b.count ? nil : min(a.count, b.count)
}

/// Two connected Unix-domain stream sockets as connections on `loop`. A small send buffer
/// makes writes queue in libuv after a few kilobytes.
func socketPair(_ loop: EventLoop, kind: Connection.Kind = .tcp(peer: "socketpair"))
  throws -> (Endpoint, Endpoint)
{
  var fds: [Int32] = [-1, -1]
  try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
  for fd in fds { setBufferSize(fd, SO_SNDBUF, 16 << 10) }
  return (
    Endpoint(try Connection(eventLoop: loop, kind: kind, descriptor: fds[0])),
    Endpoint(try Connection(eventLoop: loop, kind: kind, descriptor: fds[1]))
  )
}

/// Two pipes as two connections, each reading one and writing the other: two handles per
/// connection, as stdin and stdout are under an editor.
func pipePair(_ loop: EventLoop) throws -> (Endpoint, Endpoint) {
  var toServer: [Int32] = [-1, -1]
  var toPeer: [Int32] = [-1, -1]
  try #require(pipe(&toServer) == 0)
  try #require(pipe(&toPeer) == 0)
  return (
    Endpoint(
      try Connection(eventLoop: loop, kind: .stdio, reading: toServer[0], writing: toPeer[1])),
    Endpoint(
      try Connection(eventLoop: loop, kind: .stdio, reading: toPeer[0], writing: toServer[1]))
  )
}

func setBufferSize(_ fd: Int32, _ option: Int32, _ size: Int32) {
  var value = size
  _ = setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size))
}

/// A loopback TCP listener on port 0 that records the connections it accepts (each with a
/// ``Recorder``, not reading until the test says so).
final class LoopbackServer {
  let listener: Listener
  private let box: AcceptBox

  init(_ loop: EventLoop) throws {
    let box = AcceptBox()
    listener = try Listener.tcp(eventLoop: loop, host: "127.0.0.1", port: 0) { connection in
      box.accepted.append(Endpoint(connection))
    }
    self.box = box
  }

  private final class AcceptBox {
    var accepted: [Endpoint] = []
  }

  var connections: [Endpoint] { box.accepted }

  var port: Int {
    Int(listener.boundAddress.split(separator: ":").last!)!
  }

  /// The accepted connection whose peer is the client on local port `clientPort`.
  func endpoint(forClientPort clientPort: Int) -> Endpoint? {
    connections.first { $0.connection.kind == .tcp(peer: "127.0.0.1:\(clientPort)") }
  }
}

/// Fixes the send buffer of a TCP connection's socket at 32 KiB (which turns the kernel's
/// autotuning off), so that writes queue in libuv after a few chunks and a test moves little
/// data.
func limitSendBuffer(_ connection: Connection) {
  if let fd = connection.outputDescriptor { setBufferSize(fd, SO_SNDBUF, 32 << 10) }
}

/// A blocking connect to 127.0.0.1:`port` (the kernel completes it from the listen queue;
/// the loop accepts later). Returns the descriptor, or -errno.
func connectLoopback(port: Int, receiveBuffer: Int32? = nil) -> Int32 {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { return -errno }
  if let receiveBuffer { setBufferSize(fd, SO_RCVBUF, receiveBuffer) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let status = withUnsafePointer(to: &address) { p in
    p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  if status != 0 {
    let error = errno
    Glibc.close(fd)
    return -error
  }
  return fd
}

/// The local port of a connected socket.
func localPort(_ fd: Int32) -> Int {
  var address = sockaddr_in()
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &address) { p in
    p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
  }
  return Int(UInt16(bigEndian: address.sin_port))
}

/// Writes `chunkSize`-byte chunks of ``pattern(_:from:)`` to `connection` until `done` holds
/// (at most `limit` chunks); returns everything written.
func writeChunks(
  to connection: Connection, chunkSize: Int = 8 << 10, limit: Int = 2000,
  until done: () -> Bool
) -> [UInt8] {
  var sent: [UInt8] = []
  while !done() && sent.count < chunkSize * limit {
    let chunk = pattern(chunkSize, from: sent.count)
    connection.write(chunk)
    sent += chunk
  }
  return sent
}
