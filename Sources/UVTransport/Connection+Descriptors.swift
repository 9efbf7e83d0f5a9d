import CLibUV

extension Connection {
  /// A connection over a descriptor already open and connected: a TCP or Unix-domain socket
  /// (a `socketpair(2)` end), read and written through one handle. The connection owns the
  /// descriptor from now on and closes it with its handle.
  ///
  /// The kind decides the closing: `.tcp` shuts down the write side and lingers (see
  /// ``closeAfterFlush()``), `.stdio` closes after the flush. The tests open their connections
  /// this way. Loop thread only; throws a ``UVError`` when libuv cannot open the descriptor.
  convenience init(eventLoop: EventLoop, kind: Kind, descriptor: Int32) throws(UVError) {
    let stream = try Self.openStream(eventLoop, descriptor)
    self.init(eventLoop: eventLoop, kind: kind, input: .stream(stream), output: .stream(stream))
  }

  /// A connection that reads one descriptor and writes another, both streams (typically the
  /// ends of two pipes, as stdin and stdout are under an editor): two handles. Owns both.
  convenience init(eventLoop: EventLoop, kind: Kind, reading: Int32, writing: Int32)
    throws(UVError)
  {
    let input = try Self.openStream(eventLoop, reading)
    let output: UnsafeMutablePointer<uv_stream_t>
    do {
      output = try Self.openStream(eventLoop, writing)
    } catch {
      uv_close(UVHandle.asHandle(input)) { UVHandle.free($0!) }
      throw error
    }
    self.init(eventLoop: eventLoop, kind: kind, input: .stream(input), output: .stream(output))
  }

  private static func openStream(_ eventLoop: EventLoop, _ fd: Int32) throws(UVError)
    -> UnsafeMutablePointer<uv_stream_t>
  {
    switch uv_guess_handle(fd) {
    case UV_TCP:
      let tcp = UVHandle.allocate(UV_TCP, as: uv_tcp_t.self)
      uv_tcp_init(eventLoop.loop, tcp)
      return try opened(tcp, uv_tcp_open(tcp, fd), "open socket \(fd)")
    case UV_NAMED_PIPE:
      let pipe = UVHandle.allocate(UV_NAMED_PIPE, as: uv_pipe_t.self)
      uv_pipe_init(eventLoop.loop, pipe, 0)
      return try opened(pipe, uv_pipe_open(pipe, fd), "open pipe \(fd)")
    default:
      throw UVError(Int32(UV_EINVAL.rawValue), "open descriptor \(fd): not a socket or a pipe")
    }
  }

  /// The initialised handle as a stream, or closed and freed when `status` is an error.
  private static func opened<T>(_ handle: UnsafeMutablePointer<T>, _ status: Int32, _ what: String)
    throws(UVError) -> UnsafeMutablePointer<uv_stream_t>
  {
    if status < 0 {
      uv_close(UVHandle.asHandle(handle)) { UVHandle.free($0!) }
      throw UVError(status, what)
    }
    return UVHandle.asStream(handle)
  }
}
