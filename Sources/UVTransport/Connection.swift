import CLibUV
import Glibc

/// Receives what happens on a ``Connection``. Called on the loop thread.
public protocol ConnectionDelegate: AnyObject {
  /// Bytes arrived. The buffer is valid only during the call. Writes made during the call are
  /// coalesced: call ``Connection/write(_:)`` once with everything the read produced.
  func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer)
  /// The peer finished sending (EOF). The connection stays open for writing.
  func connectionDidReachEOF(_ connection: Connection)
  /// The unsent bytes dropped below the low-water mark after reading had been paused. Input
  /// set aside meanwhile should be handled now; reading resumes after this returns unless the
  /// writes it makes push the connection over the high-water mark again.
  func connectionDidDrain(_ connection: Connection)
  /// The connection is closed and its handles freed; called exactly once.
  func connectionDidClose(_ connection: Connection)
}

/// One bidirectional byte stream: a TCP client, or the process's own stdin/stdout.
///
/// Writes first try `uv_try_write` straight from the caller's bytes; whatever the kernel does
/// not take is copied once and queued with `uv_write`. Flow control: when the unsent bytes
/// pass ``TransportLimits/writeHighWater`` the connection stops reading, and reads again below
/// ``TransportLimits/writeLowWater``; past ``TransportLimits/maxQueuedBytes`` it is closed.
///
/// The connection is a thin shell: the write accounting, flow control and closing lifecycle
/// live in a ``ConnectionState`` value stored inline. Every entry point (a public method or a
/// libuv callback) feeds one event to it and performs the ``ConnectionAction`` it answers.
/// The state is never being mutated while the delegate runs, so the delegate may call back
/// into the connection.
///
/// Loop-thread only. The object keeps itself alive until its handles are closed.
public final class Connection {
  public enum Kind: Sendable, Equatable {
    case tcp(peer: String)
    /// Accepted on the Unix domain socket at `path`.
    case unix(path: String)
    case stdio
  }

  public let id: UInt64
  public let kind: Kind
  public weak var delegate: ConnectionDelegate?
  let eventLoop: EventLoop

  private let input: InputSide
  private let output: OutputSide
  private(set) var state: ConnectionState
  private var retained: Unmanaged<Connection>?
  private var lingerTimer: LoopTimer?

  enum InputSide {
    case stream(UnsafeMutablePointer<uv_stream_t>)
    case file(FileReader)
  }

  enum OutputSide {
    case stream(UnsafeMutablePointer<uv_stream_t>)
    /// Regular files and character devices: written synchronously (they never block long).
    case file(Int32)
  }

  init(eventLoop: EventLoop, kind: Kind, input: InputSide, output: OutputSide) {
    self.eventLoop = eventLoop
    self.id = eventLoop.makeConnectionID()
    self.kind = kind
    self.input = input
    self.output = output
    var handles = 0
    if case .stream = input { handles += 1 }
    if case .stream = output, !Self.sameStream(input, output) { handles += 1 }
    var lingers = false
    if kind != .stdio, case .stream = output { lingers = true }
    state = ConnectionState(
      limits: eventLoop.limits, openHandles: handles, lingersOnClose: lingers)
    retained = Unmanaged.passRetained(self)
    let me = Unmanaged.passUnretained(self).toOpaque()
    if case .stream(let s) = input { s.pointee.data = me }
    if case .stream(let s) = output { s.pointee.data = me }
    if case .file(let reader) = input { reader.owner = self }
  }

  private static func sameStream(_ input: InputSide, _ output: OutputSide) -> Bool {
    if case .stream(let a) = input, case .stream(let b) = output { return a == b }
    return false
  }

  private var sameStream: Bool { Self.sameStream(input, output) }

  /// Unsent bytes (held by libuv for this connection).
  public var queuedBytes: Int { state.queuedBytes }

  /// True while reading is paused because the peer is not reading its replies.
  public var isPausedForBackpressure: Bool { state.isPausedForBackpressure }

  /// True once the connection is closing (``close()``, an error, or the end of
  /// ``closeAfterFlush()``): writes are ignored from then on.
  public var isClosing: Bool { state.isClosing }

  /// Longest wait for a peer to close after our FIN (see ``closeAfterFlush()``).
  public var lingerMilliseconds: UInt64 = 2000

  // MARK: Reading

  /// Starts delivering reads to the delegate.
  public func startReading() {
    perform(state.readingRequested())
  }

  /// Stops reading for good (shutdown): pending writes still complete.
  public func stopReading() {
    perform(state.readingStopRequested())
  }

  func didReadBytes(_ bytes: UnsafeRawBufferPointer) {
    guard state.deliversInput else { return }
    delegate?.connection(self, didRead: bytes)
  }

  func didReachEndOfInput() {
    perform(state.endOfInputReached())
  }

  func didFailReading(_ status: Int32) {
    perform(state.readFailed())
  }

  /// Bytes the kernel holds for this connection that it has not read (`FIONREAD`); -1 when
  /// unknown (stdin from a file, or a handle already closing).
  var unreadInputBytes: Int32 {
    guard case .stream(let s) = input else { return -1 }
    return Self.unreadBytes(s)
  }

  /// The descriptor written to, when it is a stream that is not closing (tests set socket
  /// options on it).
  var outputDescriptor: Int32? {
    guard case .stream(let s) = output else { return nil }
    return Self.descriptor(s)
  }

  // MARK: Writing

  /// Writes `bytes` (one coalesced write for everything a read produced). The array is not
  /// retained: what the kernel does not take at once is copied, so the caller may reuse it.
  public func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0) }
  }

  /// Writes `bytes` (copied if the kernel does not take them all at once).
  public func write(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty, state.acceptsWrites else { return }
    switch output {
    case .file(let fd):
      writeAllBlocking(fd, bytes)
    case .stream(let s):
      var offset = 0
      if state.writesDirectly {
        // Nothing queued: let the kernel take what it can without copying.
        var buf = uv_buf_init(
          UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: CChar.self)),
          UInt32(bytes.count))
        let written = uv_try_write(s, &buf, 1)
        if written >= 0 {
          offset = Int(written)
        } else if written != Int32(UV_EAGAIN.rawValue) {
          perform(state.writeFailed())
          return
        }
      }
      guard offset < bytes.count else { return }
      let remaining = bytes.count - offset
      let request = WriteRequest(byteCount: remaining)
      request.storage.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
      request.req.pointee.data = Unmanaged.passUnretained(self).toOpaque()
      var buf = uv_buf_init(
        request.storage.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(remaining))
      let status = uv_write(request.req, s, &buf, 1, Connection.writeCallback)
      if status < 0 {
        request.free()
        perform(state.writeFailed())
        return
      }
      perform(state.writeQueued(byteCount: remaining))
    }
  }

  private func writeAllBlocking(_ fd: Int32, _ raw: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < raw.count {
      let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN {
          var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          _ = poll(&p, 1, -1)
          continue
        }
        perform(state.writeFailed())
        return
      }
      offset += n
    }
  }

  fileprivate func writeCompleted(_ request: WriteRequest, status: Int32) {
    let byteCount = request.byteCount
    request.free()
    perform(state.writeCompleted(byteCount: byteCount, succeeded: status >= 0))
    perform(state.finishWritingIfFlushed())
  }

  // MARK: Closing

  /// Closes once every queued write has completed, without losing them.
  ///
  /// For TCP, closing a socket whose peer sent data we did not read makes the kernel send a
  /// reset that can destroy replies still in flight. So after the last write the write side is
  /// shut down (FIN), input is read and discarded until the peer closes, and only then is the
  /// socket closed; ``lingerMilliseconds`` bounds the wait. With nothing unread the socket is
  /// closed right after the FIN. A peer that already sent EOF, and stdio, are closed at once.
  public func closeAfterFlush() {
    stopReading()
    perform(state.closeAfterFlushRequested())
  }

  /// Closes now; queued writes are cancelled.
  public func close() {
    perform(state.closeRequested())
  }

  // MARK: Performing actions

  /// Does what the state asked for. Never called while the state is being mutated.
  private func perform(_ action: ConnectionAction) {
    switch action {
    case .none:
      return
    case .startReading:
      if !startInput() { perform(state.readStartFailed()) }
    case .stopReading:
      stopInput()
    case .notifyDrain:
      delegate?.connectionDidDrain(self)
      perform(state.drainNotified())
    case .notifyEndOfInput(let stopReading):
      if stopReading { stopInput() }
      delegate?.connectionDidReachEOF(self)
    case .shutDownWriteSide:
      shutDownWriteSide()
    case .startLingering:
      startLingering()
    case .close(let stopReading, let closeHandles):
      closeNow(stopReading: stopReading, closeHandles: closeHandles)
    }
  }

  /// Starts the input reading; false when libuv refused.
  private func startInput() -> Bool {
    switch input {
    case .stream(let s):
      return uv_read_start(s, Connection.allocCallback, Connection.readCallback) >= 0
    case .file(let reader):
      reader.resume()
      return true
    }
  }

  private func stopInput() {
    switch input {
    case .stream(let s): uv_read_stop(s)
    case .file(let reader): reader.pause()
    }
  }

  private func shutDownWriteSide() {
    guard case .stream(let s) = output else {
      assertionFailure("only a stream output lingers on close")
      return
    }
    let req = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
    req.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    let status = uv_shutdown(req, s) { req, _ in
      let connection = Connection.owner(req!.pointee.data)
      req!.deallocate()
      connection.writeSideDidShutDown()
    }
    if status < 0 {
      req.deallocate()
      perform(state.writeFailed())
    }
  }

  private func writeSideDidShutDown() {
    perform(state.writeSideShutDown(unreadBytes: unreadInputBytes))
  }

  private func startLingering() {
    if !startInput() {
      perform(state.readStartFailed())
      return
    }
    let timer = LoopTimer(eventLoop: eventLoop)
    timer.start(after: lingerMilliseconds) { [unowned self] in close() }
    lingerTimer = timer
  }

  private func closeNow(stopReading: Bool, closeHandles: Bool) {
    lingerTimer?.close()
    lingerTimer = nil
    if kind == .stdio { Stdio.restoreDescriptorFlags() }
    if stopReading { stopInput() }
    if case .file(let reader) = input { reader.cancel() }
    guard closeHandles else {
      finishClose()
      return
    }
    if case .stream(let s) = input {
      Connection.closeStream(s)
    }
    if case .stream(let s) = output, !sameStream {
      Connection.closeStream(s)
    }
    if kind == .stdio { Stdio.releaseStdin() }
  }

  private static func closeStream(_ s: UnsafeMutablePointer<uv_stream_t>) {
    s.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { h in
      if uv_is_closing(h) == 0 { uv_close(h, Connection.closeCallback) }
    }
  }

  fileprivate func handleClosed(_ handle: UnsafeMutablePointer<uv_handle_t>) {
    UVHandle.free(handle)
    if state.handleClosed() { finishClose() }
  }

  private func finishClose() {
    delegate?.connectionDidClose(self)
    delegate = nil
    let r = retained
    retained = nil
    r?.release()
  }

  /// Bytes the kernel holds for us that we have not read (`FIONREAD`); -1 when unknown.
  private static func unreadBytes(_ s: UnsafeMutablePointer<uv_stream_t>) -> Int32 {
    guard let fd = descriptor(s) else { return -1 }
    var count: Int32 = 0
    return ioctl(fd, UInt(FIONREAD), &count) == 0 ? count : -1
  }

  /// The stream's descriptor; nil once it is closing.
  private static func descriptor(_ s: UnsafeMutablePointer<uv_stream_t>) -> Int32? {
    var fd: uv_os_fd_t = -1
    let status = s.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_fileno($0, &fd) }
    return status == 0 ? fd : nil
  }

  // MARK: C callbacks

  static func owner(_ data: UnsafeMutableRawPointer?) -> Connection {
    Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue()
  }

  private static let allocCallback: uv_alloc_cb = { handle, _, buf in
    let loop = EventLoop.from(handle!.pointee.loop)
    buf!.pointee = uv_buf_init(
      loop.readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self),
      UInt32(loop.readBuffer.count))
  }

  private static let readCallback: uv_read_cb = { stream, nread, buf in
    let connection = owner(stream!.pointee.data)
    if nread > 0 {
      connection.didReadBytes(UnsafeRawBufferPointer(start: buf!.pointee.base, count: nread))
    } else if nread == Int(UVError.eof) {
      connection.didReachEndOfInput()
    } else if nread < 0 {
      connection.didFailReading(Int32(nread))
    }
  }

  private static let writeCallback: uv_write_cb = { req, status in
    let connection = owner(req!.pointee.data)
    connection.writeCompleted(WriteRequest.from(req!), status: status)
  }

  private static let closeCallback: uv_close_cb = { handle in
    owner(handle!.pointee.data).handleClosed(handle!)
  }
}
