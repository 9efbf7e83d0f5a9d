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
/// Loop-thread only. The object keeps itself alive until its handles are closed.
public final class Connection {
  public enum Kind: Sendable, Equatable {
    case tcp(peer: String)
    case stdio
  }

  public let id: UInt64
  public let kind: Kind
  public weak var delegate: ConnectionDelegate?
  let eventLoop: EventLoop

  private let input: InputSide
  private let output: OutputSide
  private var openHandles = 0
  private var retained: Unmanaged<Connection>?
  private var reading = false
  private var pausedForBackpressure = false
  private var readingWanted = false
  private var pendingWrites = 0
  private var queued = 0
  private var closeWhenFlushed = false
  public private(set) var isClosing = false

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
    retained = Unmanaged.passRetained(self)
    let me = Unmanaged.passUnretained(self).toOpaque()
    if case .stream(let s) = input {
      s.pointee.data = me
      openHandles += 1
    }
    if case .stream(let s) = output, !sameStream {
      s.pointee.data = me
      openHandles += 1
    }
    if case .file(let reader) = input { reader.owner = self }
  }

  private var sameStream: Bool {
    if case .stream(let a) = input, case .stream(let b) = output { return a == b }
    return false
  }

  /// Unsent bytes (held by libuv for this connection).
  public var queuedBytes: Int { queued }

  /// True while reading is paused because the peer is not reading its replies.
  public var isPausedForBackpressure: Bool { pausedForBackpressure }

  // MARK: Reading

  /// Starts delivering reads to the delegate.
  public func startReading() {
    readingWanted = true
    resumeReading()
  }

  /// Stops reading for good (shutdown): pending writes still complete.
  public func stopReading() {
    readingWanted = false
    pauseReading()
  }

  private func resumeReading() {
    guard readingWanted, !reading, !pausedForBackpressure, !isClosing else { return }
    reading = true
    switch input {
    case .stream(let s):
      let status = uv_read_start(s, Connection.allocCallback, Connection.readCallback)
      if status < 0 {
        reading = false
        close()
      }
    case .file(let reader):
      reader.resume()
    }
  }

  private func pauseReading() {
    guard reading else { return }
    reading = false
    switch input {
    case .stream(let s): uv_read_stop(s)
    case .file(let reader): reader.pause()
    }
  }

  func didReadBytes(_ bytes: UnsafeRawBufferPointer) {
    if discardingInput { return }
    delegate?.connection(self, didRead: bytes)
  }

  func didReachEndOfInput() {
    sawEOF = true
    if discardingInput {
      close()
      return
    }
    pauseReading()
    readingWanted = false
    delegate?.connectionDidReachEOF(self)
  }

  func didFailReading(_ status: Int32) {
    close()
  }

  // MARK: Writing

  /// Writes `bytes` (one coalesced write for everything a read produced). The array is not
  /// retained: what the kernel does not take at once is copied, so the caller may reuse it.
  public func write(_ bytes: [UInt8]) {
    guard !bytes.isEmpty, !isClosing else { return }
    switch output {
    case .file(let fd):
      bytes.withUnsafeBytes { writeAllBlocking(fd, $0) }
    case .stream(let s):
      var offset = 0
      if pendingWrites == 0 {
        // Nothing queued: let the kernel take what it can without copying.
        let written = bytes.withUnsafeBytes { raw -> Int32 in
          var buf = uv_buf_init(
            UnsafeMutablePointer(mutating: raw.baseAddress!.assumingMemoryBound(to: CChar.self)),
            UInt32(raw.count))
          return uv_try_write(s, &buf, 1)
        }
        if written >= 0 {
          offset = Int(written)
        } else if written != Int32(UV_EAGAIN.rawValue) {
          close()
          return
        }
      }
      guard offset < bytes.count else { return }
      let remaining = bytes.count - offset
      let request = WriteRequest(byteCount: remaining)
      bytes.withUnsafeBytes { raw in
        request.storage.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[offset...]))
      }
      request.req.pointee.data = Unmanaged.passUnretained(self).toOpaque()
      var buf = uv_buf_init(
        request.storage.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(remaining))
      let status = uv_write(request.req, s, &buf, 1, Connection.writeCallback)
      if status < 0 {
        request.free()
        close()
        return
      }
      pendingWrites += 1
      queued += remaining
      if queued > eventLoop.limits.maxQueuedBytes {
        close()
      } else if queued > eventLoop.limits.writeHighWater {
        pausedForBackpressure = true
        pauseReading()
      }
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
        close()
        return
      }
      offset += n
    }
  }

  fileprivate func writeCompleted(_ request: WriteRequest, status: Int32) {
    pendingWrites -= 1
    queued -= request.byteCount
    request.free()
    if status < 0 {
      close()
      return
    }
    if pausedForBackpressure && queued < eventLoop.limits.writeLowWater {
      pausedForBackpressure = false
      delegate?.connectionDidDrain(self)
      resumeReading()
    }
    if closeWhenFlushed && pendingWrites == 0 { finishWriting() }
  }

  // MARK: Closing

  /// Closes once every queued write has completed, without losing them.
  ///
  /// For TCP, closing a socket whose peer sent data we did not read makes the kernel send a
  /// reset that can destroy replies still in flight. So after the last write the write side is
  /// shut down (FIN), input is read and discarded until the peer closes, and only then is the
  /// socket closed; ``lingerMilliseconds`` bounds the wait.
  public func closeAfterFlush() {
    stopReading()
    closeWhenFlushed = true
    if pendingWrites == 0 { finishWriting() }
  }

  /// Longest wait for a peer to close after our FIN (see ``closeAfterFlush()``).
  public var lingerMilliseconds: UInt64 = 2000

  private var sawEOF = false
  private var discardingInput = false
  private var lingerTimer: LoopTimer?

  private func finishWriting() {
    guard !isClosing, !discardingInput else { return }
    guard case .tcp = kind, case .stream(let s) = output, !sawEOF else {
      close()
      return
    }
    let req = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
    req.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    let status = uv_shutdown(req, s) { req, _ in
      let connection = Connection.owner(req!.pointee.data)
      req!.deallocate()
      connection.drainUntilPeerCloses()
    }
    if status < 0 {
      req.deallocate()
      close()
      return
    }
    discardingInput = true
  }

  private func drainUntilPeerCloses() {
    guard !isClosing, case .stream(let s) = input else { return }
    // Nothing unread: closing now sends a plain FIN, so there is nothing to wait for (an idle
    // client must not delay a shutdown by the linger time).
    if Self.unreadBytes(s) == 0 {
      close()
      return
    }
    if uv_read_start(s, Connection.allocCallback, Connection.readCallback) < 0 {
      close()
      return
    }
    reading = true
    let timer = LoopTimer(eventLoop: eventLoop)
    timer.start(after: lingerMilliseconds) { [unowned self] in close() }
    lingerTimer = timer
  }

  /// Closes now; queued writes are cancelled.
  public func close() {
    guard !isClosing else { return }
    isClosing = true
    lingerTimer?.close()
    lingerTimer = nil
    if kind == .stdio { Stdio.restoreDescriptorFlags() }
    pauseReading()
    readingWanted = false
    if case .file(let reader) = input { reader.cancel() }
    if openHandles == 0 {
      finishClose()
      return
    }
    if case .stream(let s) = input {
      Connection.closeStream(s)
    }
    if case .stream(let s) = output, !sameStream {
      Connection.closeStream(s)
    }
  }

  private static func closeStream(_ s: UnsafeMutablePointer<uv_stream_t>) {
    s.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { h in
      if uv_is_closing(h) == 0 { uv_close(h, Connection.closeCallback) }
    }
  }

  fileprivate func handleClosed(_ handle: UnsafeMutablePointer<uv_handle_t>) {
    UVHandle.free(handle)
    openHandles -= 1
    if openHandles == 0 { finishClose() }
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
    var fd: uv_os_fd_t = -1
    let status = s.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_fileno($0, &fd) }
    guard status == 0 else { return -1 }
    var count: Int32 = 0
    return ioctl(fd, UInt(FIONREAD), &count) == 0 ? count : -1
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
