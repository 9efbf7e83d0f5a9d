import CLibUV
import Glibc

/// A listening TCP socket (IPv4 or IPv6). Each accepted client becomes a ``Connection``
/// handed to `onAccept`, which must set its delegate and start reading.
///
/// Loop-thread only; keeps itself alive until ``close()`` completes.
public final class TCPListener {
  private let eventLoop: EventLoop
  private let handle: UnsafeMutablePointer<uv_tcp_t>
  private var retained: Unmanaged<TCPListener>?
  private let onAccept: (Connection) -> Void
  public private(set) var isClosed = false
  /// The bound address as `HOST:PORT` (IPv6 as `[HOST]:PORT`), with the real port when 0 was
  /// asked for.
  public private(set) var boundAddress = ""

  /// Binds and listens on `host:port`. Throws a ``UVError`` naming the address on failure
  /// (e.g. `EADDRINUSE`).
  public init(
    eventLoop: EventLoop, host: String, port: Int, backlog: Int32 = 511,
    onAccept: @escaping (Connection) -> Void
  ) throws(UVError) {
    self.eventLoop = eventLoop
    self.onAccept = onAccept
    handle = UVHandle.allocate(UV_TCP, as: uv_tcp_t.self)
    let what = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    var storage = sockaddr_storage()
    var status: Int32 = withUnsafeMutablePointer(to: &storage) { p in
      p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { uv_ip4_addr(host, Int32(port), $0) }
    }
    if status < 0 {
      status = withUnsafeMutablePointer(to: &storage) { p in
        p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          uv_ip6_addr(host, Int32(port), $0)
        }
      }
    }
    if status < 0 {
      free(handle)
      throw UVError(status, "invalid listen address \(what)")
    }
    uv_tcp_init(eventLoop.loop, handle)
    retained = Unmanaged.passRetained(self)
    handle.pointee.data = retained!.toOpaque()
    do throws(UVError) {
      _ = try withUnsafePointer(to: &storage) { p throws(UVError) in
        try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa throws(UVError) in
          try UVError.check(uv_tcp_bind(handle, sa, 0), "bind \(what)")
        }
      }
      try UVError.check(
        uv_listen(UVHandle.asStream(handle), backlog, TCPListener.connectionCallback),
        "listen on \(what)")
    } catch {
      close()
      throw error
    }
    boundAddress = Self.localAddress(handle) ?? what
  }

  /// Stops accepting; existing connections are unaffected.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    uv_close(UVHandle.asHandle(handle)) { h in
      let me = Unmanaged<TCPListener>.fromOpaque(h!.pointee.data!)
      UVHandle.free(h!)
      me.release()
    }
  }

  private func accept() {
    let client = UVHandle.allocate(UV_TCP, as: uv_tcp_t.self)
    uv_tcp_init(eventLoop.loop, client)
    let stream = UVHandle.asStream(client)
    if uv_accept(UVHandle.asStream(handle), stream) < 0 {
      uv_close(UVHandle.asHandle(client)) { UVHandle.free($0!) }
      return
    }
    uv_tcp_nodelay(client, 1)
    let peer = Self.peerAddress(client) ?? "unknown"
    let connection = Connection(
      eventLoop: eventLoop, kind: .tcp(peer: peer), input: .stream(stream), output: .stream(stream))
    onAccept(connection)
  }

  private static let connectionCallback: uv_connection_cb = { server, status in
    let me = Unmanaged<TCPListener>.fromOpaque(server!.pointee.data!).takeUnretainedValue()
    guard status >= 0, !me.isClosed else { return }
    me.accept()
  }

  private static func localAddress(_ h: UnsafeMutablePointer<uv_tcp_t>) -> String? {
    address { sa, len in uv_tcp_getsockname(h, sa, len) }
  }

  private static func peerAddress(_ h: UnsafeMutablePointer<uv_tcp_t>) -> String? {
    address { sa, len in uv_tcp_getpeername(h, sa, len) }
  }

  /// A NUL-terminated C string held in an array.
  private static func text(_ characters: [CChar]) -> String {
    String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func address(
    _ get: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<Int32>) -> Int32
  ) -> String? {
    var storage = sockaddr_storage()
    var len = Int32(MemoryLayout<sockaddr_storage>.size)
    return withUnsafeMutablePointer(to: &storage) { p -> String? in
      p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa -> String? in
        guard get(sa, &len) == 0 else { return nil }
        var name = [CChar](repeating: 0, count: 64)
        if sa.pointee.sa_family == sa_family_t(AF_INET6) {
          return sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { s6 in
            uv_ip6_name(s6, &name, name.count)
            return "[\(Self.text(name))]:\(UInt16(bigEndian: s6.pointee.sin6_port))"
          }
        }
        return sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { s4 in
          uv_ip4_name(s4, &name, name.count)
          return "\(Self.text(name)):\(UInt16(bigEndian: s4.pointee.sin_port))"
        }
      }
    }
  }
}
