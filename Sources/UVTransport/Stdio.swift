import CLibUV
import Glibc

/// The process's own stdin and stdout as one ``Connection``.
///
/// stdin may be a pipe, a TTY, a socket, a regular file or `/dev/null`: streams are read with
/// libuv, files and devices with `uv_fs_read`. The real stdout is duplicated to a private
/// descriptor used only for protocol bytes, and descriptor 1 is pointed at stderr so that a
/// stray `print` can never corrupt the protocol stream. The descriptor flags that libuv
/// changes (O_NONBLOCK) are restored by ``restoreDescriptorFlags()``.
public enum Stdio {
  private struct SavedFlags {
    var stdin: Int32
    var stdout: Int32
  }

  /// Opens stdin/stdout as a connection. Call at most once.
  public static func open(eventLoop: EventLoop) throws(UVError) -> Connection {
    savedStdinFlags = fcntl(0, F_GETFL)
    savedStdoutFlags = fcntl(1, F_GETFL)
    let protocolFD = dup(1)
    guard protocolFD >= 0 else { throw UVError(-errno, "dup(stdout)") }
    protocolDescriptor = protocolFD
    _ = dup2(2, 1)
    let input = try inputSide(eventLoop)
    let output = try outputSide(eventLoop, fd: protocolFD, input: input)
    return Connection(eventLoop: eventLoop, kind: .stdio, input: input, output: output)
  }

  /// Moves stray writes to fd 1 (e.g. `print`) to stderr without opening stdio for protocol.
  public static func protectStdout() {
    _ = dup2(2, 1)
  }

  /// Puts back the descriptor flags found at start-up (libuv sets O_NONBLOCK on pipes that
  /// other processes may share). Called by the stdio connection just before libuv closes the
  /// descriptors (holding duplicates open instead would hide EOF from the peer).
  static func restoreDescriptorFlags() {
    if savedStdinFlags >= 0 { _ = fcntl(0, F_SETFL, savedStdinFlags) }
    if savedStdoutFlags >= 0, protocolDescriptor >= 0 {
      _ = fcntl(protocolDescriptor, F_SETFL, savedStdoutFlags)
    }
    savedStdinFlags = -1
    savedStdoutFlags = -1
  }

  /// Lets go of the process's stdin once the stdio connection has closed its handles: libuv
  /// never closes descriptors 0 to 2, so without this a client writing to the server's stdin
  /// after the server stopped reading it (a broken header, stdout gone) would neither be read
  /// nor refused, and would block once the pipe is full. Descriptor 0 then reads `/dev/null`
  /// (it stays taken, so that no socket the server opens later becomes "stdin").
  static func releaseStdin() {
    let null = Glibc.open("/dev/null", O_RDONLY)
    guard null >= 0 else { return }
    _ = dup2(null, 0)
    _ = Glibc.close(null)
  }

  // Written at start-up and read when the stdio connection closes, both on the loop thread.
  nonisolated(unsafe) private static var savedStdinFlags: Int32 = -1
  nonisolated(unsafe) private static var savedStdoutFlags: Int32 = -1
  nonisolated(unsafe) private static var protocolDescriptor: Int32 = -1

  private static func inputSide(_ eventLoop: EventLoop) throws(UVError) -> Connection.InputSide {
    switch uv_guess_handle(0) {
    case UV_TTY:
      let tty = UVHandle.allocate(UV_TTY, as: uv_tty_t.self)
      try check(uv_tty_init(eventLoop.loop, tty, 0, 1), "open stdin (tty)", tty)
      return .stream(UVHandle.asStream(tty))
    case UV_NAMED_PIPE:
      let pipe = UVHandle.allocate(UV_NAMED_PIPE, as: uv_pipe_t.self)
      uv_pipe_init(eventLoop.loop, pipe, 0)
      try check(uv_pipe_open(pipe, 0), "open stdin (pipe)", pipe, initialised: true)
      return .stream(UVHandle.asStream(pipe))
    case UV_TCP:
      let tcp = UVHandle.allocate(UV_TCP, as: uv_tcp_t.self)
      uv_tcp_init(eventLoop.loop, tcp)
      try check(uv_tcp_open(tcp, 0), "open stdin (socket)", tcp, initialised: true)
      return .stream(UVHandle.asStream(tcp))
    default:
      // Regular files, /dev/null and anything libuv cannot poll.
      return .file(FileReader(eventLoop: eventLoop, fd: 0))
    }
  }

  private static func outputSide(_ eventLoop: EventLoop, fd: Int32, input: Connection.InputSide)
    throws(UVError) -> Connection.OutputSide
  {
    switch uv_guess_handle(fd) {
    case UV_TTY:
      let tty = UVHandle.allocate(UV_TTY, as: uv_tty_t.self)
      try check(uv_tty_init(eventLoop.loop, tty, fd, 0), "open stdout (tty)", tty)
      return .stream(UVHandle.asStream(tty))
    case UV_NAMED_PIPE:
      let pipe = UVHandle.allocate(UV_NAMED_PIPE, as: uv_pipe_t.self)
      uv_pipe_init(eventLoop.loop, pipe, 0)
      try check(uv_pipe_open(pipe, fd), "open stdout (pipe)", pipe, initialised: true)
      return .stream(UVHandle.asStream(pipe))
    case UV_TCP:
      let tcp = UVHandle.allocate(UV_TCP, as: uv_tcp_t.self)
      uv_tcp_init(eventLoop.loop, tcp)
      try check(uv_tcp_open(tcp, fd), "open stdout (socket)", tcp, initialised: true)
      return .stream(UVHandle.asStream(tcp))
    default:
      return .file(fd)
    }
  }

  private static func check<T>(
    _ status: Int32, _ what: String, _ handle: UnsafeMutablePointer<T>, initialised: Bool = false
  ) throws(UVError) {
    guard status < 0 else { return }
    if initialised {
      uv_close(UVHandle.asHandle(handle)) { UVHandle.free($0!) }
    } else {
      free(handle)
    }
    throw UVError(status, what)
  }
}
