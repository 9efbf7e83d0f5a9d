import CLibUV
import Glibc

/// A listening stream socket: TCP (IPv4 or IPv6) or a Unix domain socket. Each accepted
/// client becomes a ``Connection`` handed to `onAccept`, which must set its delegate and start
/// reading.
///
/// Loop-thread only; keeps itself alive until ``close()`` completes.
public final class Listener {
  private let eventLoop: EventLoop
  private let handle: UnsafeMutablePointer<uv_stream_t>
  private var family: Family
  private var retained: Unmanaged<Listener>?
  private let onAccept: (Connection) -> Void
  public private(set) var isClosed = false
  /// The bound address: `HOST:PORT` (IPv6 as `[HOST]:PORT`, with the real port when 0 was
  /// asked for), or `unix:PATH`.
  public private(set) var boundAddress = ""

  private enum Family {
    case tcp
    /// The socket file, and its inode once bound (removed at close only if still ours).
    case unix(path: String, inode: ino_t)
  }

  private init(
    eventLoop: EventLoop, handle: UnsafeMutablePointer<uv_stream_t>, family: Family,
    onAccept: @escaping (Connection) -> Void
  ) {
    self.eventLoop = eventLoop
    self.handle = handle
    self.family = family
    self.onAccept = onAccept
    retained = Unmanaged.passRetained(self)
    handle.pointee.data = retained!.toOpaque()
  }

  /// Binds and listens on TCP `host:port`. Throws a ``UVError`` naming the address on failure
  /// (e.g. `EADDRINUSE`).
  public static func tcp(
    eventLoop: EventLoop, host: String, port: Int, backlog: Int32 = 511,
    onAccept: @escaping (Connection) -> Void
  ) throws(UVError) -> Listener {
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
    if status < 0 { throw UVError(status, "invalid listen address \(what)") }
    let tcp = UVHandle.allocate(UV_TCP, as: uv_tcp_t.self)
    uv_tcp_init(eventLoop.loop, tcp)
    let listener = Listener(
      eventLoop: eventLoop, handle: UVHandle.asStream(tcp), family: .tcp, onAccept: onAccept)
    do throws(UVError) {
      _ = try withUnsafePointer(to: &storage) { p throws(UVError) in
        try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa throws(UVError) in
          try UVError.check(uv_tcp_bind(tcp, sa, 0), "bind \(what)")
        }
      }
      try listener.listen(backlog, what)
    } catch {
      listener.close()
      throw error
    }
    listener.boundAddress = Self.localAddress(tcp) ?? what
    return listener
  }

  /// Binds and listens on the Unix domain socket `path`: the socket file is created with mode
  /// 0600 (before anyone can connect) and removed at ``close()``. A stale socket file (left by
  /// a process that died: nobody accepts on it) is replaced; a live one, or any other file,
  /// is an error.
  public static func unix(
    eventLoop: EventLoop, path: String, backlog: Int32 = 511,
    onAccept: @escaping (Connection) -> Void
  ) throws(UVError) -> Listener {
    let what = "unix:" + path
    let pipe = UVHandle.allocate(UV_NAMED_PIPE, as: uv_pipe_t.self)
    uv_pipe_init(eventLoop.loop, pipe, 0)
    let listener = Listener(
      eventLoop: eventLoop, handle: UVHandle.asStream(pipe), family: .unix(path: path, inode: 0),
      onAccept: onAccept)
    do throws(UVError) {
      var status = uv_pipe_bind(pipe, path)
      if status == Int32(UV_EADDRINUSE.rawValue), Self.isStaleSocket(path) {
        unlink(path)
        status = uv_pipe_bind(pipe, path)
      }
      try UVError.check(status, "bind \(what)")
      var info = stat()
      guard stat(path, &info) == 0 else { throw UVError(-errno, "stat \(what)") }
      listener.family = .unix(path: path, inode: info.st_ino)
      guard chmod(path, 0o600) == 0 else { throw UVError(-errno, "chmod 0600 \(what)") }
      try listener.listen(backlog, what)
    } catch {
      listener.close()
      throw error
    }
    listener.boundAddress = what
    return listener
  }

  private func listen(_ backlog: Int32, _ what: String) throws(UVError) {
    try UVError.check(uv_listen(handle, backlog, Listener.connectionCallback), "listen on \(what)")
  }

  /// Whether `path` is a socket nobody accepts on (its server died without removing it).
  private static func isStaleSocket(_ path: String) -> Bool {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return false }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { Glibc.close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
    }
    let connected = withUnsafePointer(to: &address) { p in
      p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    return connected != 0 && errno == ECONNREFUSED
  }

  /// Stops accepting; existing connections are unaffected. A Unix socket's file is removed
  /// (unless another file took its place).
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    if case .unix(let path, let inode) = family, inode != 0 {
      var info = stat()
      if stat(path, &info) == 0, info.st_ino == inode { unlink(path) }
    }
    uv_close(UVHandle.asHandle(handle)) { h in
      let me = Unmanaged<Listener>.fromOpaque(h!.pointee.data!)
      UVHandle.free(h!)
      me.release()
    }
  }

  private func accept() {
    let client: UnsafeMutablePointer<uv_stream_t>
    switch family {
    case .tcp:
      let tcp = UVHandle.allocate(UV_TCP, as: uv_tcp_t.self)
      uv_tcp_init(eventLoop.loop, tcp)
      client = UVHandle.asStream(tcp)
    case .unix:
      let pipe = UVHandle.allocate(UV_NAMED_PIPE, as: uv_pipe_t.self)
      uv_pipe_init(eventLoop.loop, pipe, 0)
      client = UVHandle.asStream(pipe)
    }
    if uv_accept(handle, client) < 0 {
      uv_close(UVHandle.asHandle(client)) { UVHandle.free($0!) }
      return
    }
    let kind: Connection.Kind
    switch family {
    case .tcp:
      let tcp = UnsafeMutableRawPointer(client).assumingMemoryBound(to: uv_tcp_t.self)
      uv_tcp_nodelay(tcp, 1)
      kind = .tcp(peer: Self.peerAddress(tcp) ?? "unknown")
    case .unix(let path, _):
      kind = .unix(path: path)
    }
    onAccept(
      Connection(eventLoop: eventLoop, kind: kind, input: .stream(client), output: .stream(client)))
  }

  private static let connectionCallback: uv_connection_cb = { server, status in
    let me = Unmanaged<Listener>.fromOpaque(server!.pointee.data!).takeUnretainedValue()
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
