/// The write accounting, flow control and closing lifecycle of one ``Connection``, as a plain
/// value.
///
/// The connection feeds it what happened (reading was asked for, bytes were queued, a write
/// completed, the peer sent EOF, a close was asked for, a handle closed) and does what each
/// answer, a ``ConnectionAction``, says against libuv. The value performs no I/O and calls no
/// one, so every transition is tested without a loop (`Tests/UVTransportTests`). It is stored
/// inline in the connection: no allocation, and nothing is added to the write path but a few
/// integer updates.
///
/// Lifecycle, only ever forwards (steps may be skipped):
///
/// - `open` -> `flushing` on ``closeAfterFlushRequested()``;
/// - `flushing` -> `shuttingDownWriteSide` when the last write completes on a connection that
///   lingers on close (TCP) and has not seen EOF, else -> `closing`;
/// - `shuttingDownWriteSide` -> `lingering` once FIN is sent with input unread, else ->
///   `closing`;
/// - `lingering` -> `closing` on the peer's EOF or the linger timer;
/// - any of these -> `closing` on ``closeRequested()`` or an error, then `closing` -> `closed`
///   when the last handle's close callback ran (at once when the connection has no handle).
///
/// Invariants, checked after every transition in debug builds (``invariantViolation``):
/// 1. `pendingWrites >= 0`, `queuedBytes >= pendingWrites`, and `queuedBytes == 0` exactly when
///    `pendingWrites == 0` (every queued write holds at least one byte).
/// 2. Reading is on only when it is wanted and not paused for backpressure, or while lingering
///    (that read discards input nobody asked for).
/// 3. While paused for backpressure, and not closing, at least ``writeLowWater`` bytes are
///    queued: the write completion that takes the queue below it ends the pause.
/// 4. A closing or closed connection neither reads nor wants to read.
/// 5. `closing` has handles left to close; `closed` has none, and no write pending (libuv
///    completes cancelled writes before the handle's close callback).
/// 6. `shuttingDownWriteSide` and `lingering` happen only to connections that linger on close,
///    and no write is queued in them: libuv refuses `uv_write` once `uv_shutdown` was asked
///    for (the write fails and the connection closes), so the lingering read never starts
///    paused.
///
/// Loop-thread only, like the connection that owns it.
struct ConnectionState {
  /// Where the connection is in its life.
  enum Lifecycle: Int, Comparable, Sendable {
    /// Reading (when asked to) and writing.
    case open
    /// Closing once every queued write has completed (``closeAfterFlushRequested()``).
    case flushing
    /// The last write completed; the write side is being shut down (FIN). Input is discarded.
    case shuttingDownWriteSide
    /// FIN sent; input is read and discarded until the peer closes or the linger timer fires.
    case lingering
    /// `uv_close` called on the handles; waiting for their close callbacks.
    case closing
    /// Every handle closed: the delegate is told once, and nothing happens any more.
    case closed

    static func < (a: Lifecycle, b: Lifecycle) -> Bool { a.rawValue < b.rawValue }
  }

  /// Reading pauses when more than this many bytes are queued.
  let writeHighWater: Int
  /// Reading resumes when fewer than this many bytes are queued.
  let writeLowWater: Int
  /// The connection closes when more than this many bytes are queued.
  let maxQueuedBytes: Int
  /// TCP: after the last write, shut down the write side and drain input before closing,
  /// so that unread input does not make the kernel reset the connection and lose replies.
  let lingersOnClose: Bool

  private(set) var lifecycle: Lifecycle = .open
  /// libuv handles not yet closed (0, 1 or 2: stdin and stdout may be two).
  private(set) var openHandles: Int
  /// `uv_write` requests in flight.
  private(set) var pendingWrites = 0
  /// Bytes held by those requests (unsent, or sent but not yet confirmed).
  private(set) var queuedBytes = 0
  /// The owner asked for reads (``readingRequested()``) and has not stopped them.
  private(set) var isReadingWanted = false
  /// A read is in progress (`uv_read_start`, or the file reader resumed).
  private(set) var isReading = false
  /// Reading stopped because more than ``writeHighWater`` bytes are queued.
  private(set) var isPausedForBackpressure = false
  /// The peer finished sending.
  private(set) var sawEndOfInput = false

  /// - Parameters:
  ///   - limits: must satisfy `0 < writeLowWater < writeHighWater < maxQueuedBytes` (the
  ///     command line checks it).
  ///   - openHandles: the libuv handles the connection owns.
  ///   - lingersOnClose: see ``lingersOnClose``.
  init(limits: TransportLimits, openHandles: Int, lingersOnClose: Bool) {
    assert(
      0 < limits.writeLowWater && limits.writeLowWater < limits.writeHighWater
        && limits.writeHighWater < limits.maxQueuedBytes,
      "transport limits must satisfy 0 < low-water < high-water < max queued bytes")
    assert((0...2).contains(openHandles), "a connection owns 0, 1 or 2 handles")
    writeHighWater = limits.writeHighWater
    writeLowWater = limits.writeLowWater
    maxQueuedBytes = limits.maxQueuedBytes
    self.lingersOnClose = lingersOnClose
    self.openHandles = openHandles
  }

  /// `close()` was called or the connection is beyond it: writes are ignored.
  var isClosing: Bool { lifecycle >= .closing }

  /// Whether bytes that arrive go to the delegate (not once the write side is shutting down:
  /// the lingering read only drains).
  var deliversInput: Bool { lifecycle <= .flushing }

  /// Whether a write may send anything at all.
  var acceptsWrites: Bool { !isClosing }

  /// Whether a write may go straight to the kernel (`uv_try_write`): only when nothing is
  /// queued, so bytes never overtake earlier ones.
  var writesDirectly: Bool { pendingWrites == 0 }

  // MARK: Reading

  /// The owner wants reads delivered.
  /// - Returns: `.startReading` or `.none`.
  mutating func readingRequested() -> ConnectionAction {
    defer { checkInvariants() }
    guard !isClosing else { return .none }
    isReadingWanted = true
    return resumeReading()
  }

  /// The owner wants no more reads (shutdown, or on the way to closing after a flush).
  /// - Returns: `.stopReading` or `.none`.
  mutating func readingStopRequested() -> ConnectionAction {
    defer { checkInvariants() }
    isReadingWanted = false
    return pauseReading()
  }

  /// Starting the read that ``ConnectionAction/startReading`` or
  /// ``ConnectionAction/startLingering`` asked for failed.
  /// - Returns: `.close`.
  mutating func readStartFailed() -> ConnectionAction {
    defer { checkInvariants() }
    assert(isReading, "no read was being started")
    isReading = false
    return beginClosing()
  }

  /// The delegate handled ``ConnectionAction/notifyDrain``: reading resumes, unless the
  /// writes it made took the queue over the high-water mark again.
  /// - Returns: `.startReading` or `.none`.
  mutating func drainNotified() -> ConnectionAction {
    defer { checkInvariants() }
    return resumeReading()
  }

  /// The peer finished sending (`UV_EOF`, or a file read of 0 bytes).
  /// - Returns: `.notifyEndOfInput` (reading is no longer wanted); `.close` when input was
  ///   being discarded after FIN (the peer closed: nothing left to wait for); `.none` once
  ///   closing.
  mutating func endOfInputReached() -> ConnectionAction {
    defer { checkInvariants() }
    sawEndOfInput = true
    switch lifecycle {
    case .open, .flushing:
      let stop = pauseReading()
      isReadingWanted = false
      return .notifyEndOfInput(stopReading: stop == .stopReading)
    case .shuttingDownWriteSide, .lingering:
      return beginClosing()
    case .closing, .closed:
      return .none
    }
  }

  /// Reading failed (a libuv error other than EOF).
  /// - Returns: `.close`, or `.none` once closing.
  mutating func readFailed() -> ConnectionAction {
    defer { checkInvariants() }
    return beginClosing()
  }

  // MARK: Writing

  /// A write failed before anything was queued (`uv_try_write` or `uv_write` refused it, or a
  /// blocking write to a file failed).
  /// - Returns: `.close`, or `.none` once closing.
  mutating func writeFailed() -> ConnectionAction {
    defer { checkInvariants() }
    return beginClosing()
  }

  /// `byteCount` bytes (at least one) were handed to `uv_write`.
  /// - Returns: `.close` past ``maxQueuedBytes``; past ``writeHighWater`` the connection is
  ///   paused for backpressure and the answer is `.stopReading` if a read was on; else `.none`.
  mutating func writeQueued(byteCount: Int) -> ConnectionAction {
    defer { checkInvariants() }
    assert(byteCount > 0, "an empty write is never queued")
    assert(acceptsWrites, "a closing connection queues no write")
    assert(lifecycle <= .flushing, "libuv queues no write once the write side is shutting down")
    pendingWrites += 1
    queuedBytes += byteCount
    if queuedBytes > maxQueuedBytes { return beginClosing() }
    if queuedBytes > writeHighWater {
      isPausedForBackpressure = true
      return pauseReading()
    }
    return .none
  }

  /// A queued write of `byteCount` bytes completed (its callback ran; `succeeded` is false on
  /// an error, including `UV_ECANCELED` at close).
  ///
  /// The connection then calls ``finishWritingIfFlushed()`` (after handling a drain).
  /// - Returns: `.close` on failure (`.none` once closing); `.notifyDrain` when the queue drops
  ///   below ``writeLowWater`` during a pause, which ends; else `.none`.
  mutating func writeCompleted(byteCount: Int, succeeded: Bool) -> ConnectionAction {
    defer { checkInvariants() }
    assert(pendingWrites > 0, "a write completed that was never queued")
    assert(byteCount > 0 && byteCount <= queuedBytes, "a write completed with bytes never queued")
    pendingWrites -= 1
    queuedBytes -= byteCount
    guard succeeded else { return beginClosing() }
    if isPausedForBackpressure && queuedBytes < writeLowWater {
      isPausedForBackpressure = false
      return .notifyDrain
    }
    return .none
  }

  // MARK: Closing

  /// Close once every queued write has completed, without losing them. The connection stops
  /// reading first (``readingStopRequested()``).
  /// - Returns: what ``finishWritingIfFlushed()`` returns.
  mutating func closeAfterFlushRequested() -> ConnectionAction {
    defer { checkInvariants() }
    if lifecycle == .open { lifecycle = .flushing }
    return finishWritingIfFlushed()
  }

  /// When closing after a flush and no write is pending: a lingering connection that has not
  /// seen EOF shuts down its write side, any other closes.
  /// - Returns: `.shutDownWriteSide` (the lifecycle is then `shuttingDownWriteSide`), `.close`
  ///   or `.none`.
  mutating func finishWritingIfFlushed() -> ConnectionAction {
    defer { checkInvariants() }
    guard lifecycle == .flushing, pendingWrites == 0 else { return .none }
    guard lingersOnClose, !sawEndOfInput else { return beginClosing() }
    lifecycle = .shuttingDownWriteSide
    return .shutDownWriteSide
  }

  /// The `uv_shutdown` callback ran (FIN sent, or the request failed or was cancelled).
  /// `unreadBytes` is what the kernel holds for us unread (`FIONREAD`, -1 when unknown).
  /// - Returns: `.close` when nothing is unread (closing sends a plain FIN: nothing to wait
  ///   for, so an idle client does not delay a shutdown by the linger time); `.startLingering`
  ///   otherwise (reading and discarding until the peer closes); `.none` once closing.
  mutating func writeSideShutDown(unreadBytes: Int32) -> ConnectionAction {
    defer { checkInvariants() }
    guard lifecycle == .shuttingDownWriteSide else { return .none }
    if unreadBytes == 0 { return beginClosing() }
    lifecycle = .lingering
    isReading = true
    return .startLingering
  }

  /// Close now (``Connection/close()``, the linger timer): queued writes are cancelled.
  /// - Returns: `.close`, or `.none` if already closing.
  mutating func closeRequested() -> ConnectionAction {
    defer { checkInvariants() }
    return beginClosing()
  }

  /// One of the handles finished closing.
  /// - Returns: true when it was the last: the connection is closed and the delegate must be
  ///   told.
  mutating func handleClosed() -> Bool {
    defer { checkInvariants() }
    assert(lifecycle == .closing && openHandles > 0, "a handle closed that was not closing")
    openHandles -= 1
    guard openHandles == 0 else { return false }
    lifecycle = .closed
    return true
  }

  // MARK: Transitions shared by the events

  private mutating func resumeReading() -> ConnectionAction {
    guard isReadingWanted, !isReading, !isPausedForBackpressure, !isClosing else { return .none }
    isReading = true
    return .startReading
  }

  private mutating func pauseReading() -> ConnectionAction {
    guard isReading else { return .none }
    isReading = false
    return .stopReading
  }

  private mutating func beginClosing() -> ConnectionAction {
    guard !isClosing else { return .none }
    let wasReading = isReading
    isReading = false
    isReadingWanted = false
    lifecycle = openHandles == 0 ? .closed : .closing
    return .close(stopReading: wasReading, closeHandles: openHandles > 0)
  }

  // MARK: Invariants

  /// The first invariant (see the type's documentation) that does not hold, or nil.
  var invariantViolation: String? {
    if pendingWrites < 0 || queuedBytes < pendingWrites
      || (pendingWrites == 0) != (queuedBytes == 0)
    {
      return "write accounting: \(pendingWrites) writes holding \(queuedBytes) bytes"
    }
    if isReading && !(isReadingWanted && !isPausedForBackpressure) && lifecycle != .lingering {
      return "reading although not wanted or paused for backpressure (\(lifecycle))"
    }
    if isPausedForBackpressure && !isClosing && queuedBytes < writeLowWater {
      return "paused with \(queuedBytes) bytes queued, below the low-water mark \(writeLowWater)"
    }
    if isClosing && (isReading || isReadingWanted) {
      return "reading while \(lifecycle)"
    }
    if lifecycle == .closing && openHandles == 0 {
      return "closing with no handle left to close"
    }
    if lifecycle == .closed && (openHandles != 0 || pendingWrites != 0) {
      return "closed with \(openHandles) handles open and \(pendingWrites) writes pending"
    }
    if (lifecycle == .shuttingDownWriteSide || lifecycle == .lingering)
      && (!lingersOnClose || pendingWrites != 0)
    {
      return "\(lifecycle) with \(pendingWrites) writes pending, lingering \(lingersOnClose)"
    }
    return nil
  }

  /// Free in release builds: `assert` does not evaluate its condition there.
  private func checkInvariants() {
    assert(invariantViolation == nil, invariantViolation ?? "")
  }
}

/// What ``Connection`` must do after feeding an event to its ``ConnectionState``.
enum ConnectionAction: Equatable, Sendable {
  /// Nothing.
  case none
  /// `uv_read_start` (or resume the file reader); on failure feed
  /// ``ConnectionState/readStartFailed()``.
  case startReading
  /// `uv_read_stop` (or pause the file reader).
  case stopReading
  /// Tell the delegate the queue drained (``ConnectionDelegate/connectionDidDrain(_:)``), then
  /// feed ``ConnectionState/drainNotified()``.
  case notifyDrain
  /// Stop reading if asked, then tell the delegate about EOF.
  case notifyEndOfInput(stopReading: Bool)
  /// `uv_shutdown` the write side; its callback feeds
  /// ``ConnectionState/writeSideShutDown(unreadBytes:)``, a failure to submit it
  /// ``ConnectionState/writeFailed()``.
  case shutDownWriteSide
  /// Start reading (input is discarded) and the linger timer, which closes on expiry.
  case startLingering
  /// Stop the linger timer, stop reading if asked, cancel the file reader, then `uv_close`
  /// every handle; when there are none (`closeHandles` false) the connection is closed now
  /// and the delegate is told at once.
  case close(stopReading: Bool, closeHandles: Bool)
}
