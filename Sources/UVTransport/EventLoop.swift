import CLibUV
import Glibc

/// The libuv loop that runs the whole service on one thread.
///
/// Threading: every type in this module is confined to the thread that calls ``run()``; none
/// is Sendable. Objects that own libuv handles keep themselves alive (an `Unmanaged` retain
/// stored in `handle->data`) until the handle's close callback, so callbacks never see a freed
/// object. The loop's own `data` points (unretained) at this object, which outlives the run.
public final class EventLoop {
  let loop: UnsafeMutablePointer<uv_loop_t>
  /// One buffer shared by every stream read: reads are handled synchronously in the read
  /// callback, so a single buffer is never used twice at once.
  let readBuffer: UnsafeMutableRawBufferPointer
  public let limits: TransportLimits
  private var nextConnectionID: UInt64 = 0

  public init(limits: TransportLimits = TransportLimits()) throws(UVError) {
    self.limits = limits
    loop = .allocate(capacity: 1)
    readBuffer = .allocate(byteCount: max(4096, limits.readBufferSize), alignment: 16)
    let status = uv_loop_init(loop)
    if status < 0 {
      loop.deallocate()
      readBuffer.deallocate()
      throw UVError(status, "uv_loop_init")
    }
    loop.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    // Writes to a closed peer must fail with EPIPE, not kill the process.
    signal(SIGPIPE, SIG_IGN)
  }

  deinit {
    closeAllHandles()
    uv_loop_close(loop)
    loop.deallocate()
    readBuffer.deallocate()
  }

  /// Runs until no active (referenced) handle remains.
  public func run() {
    uv_run(loop, UV_RUN_DEFAULT)
  }

  /// Runs one iteration of the loop: waits for an event when `blocking` (`UV_RUN_ONCE`), else
  /// handles only what is ready (`UV_RUN_NOWAIT`). Returns false when no referenced handle or
  /// request is left (nothing more can happen). For tests that drive the loop step by step.
  @discardableResult
  @_spi(Testing) public func runOnce(blocking: Bool = true) -> Bool {
    uv_run(loop, blocking ? UV_RUN_ONCE : UV_RUN_NOWAIT) != 0
  }

  /// Makes ``run()`` return at the end of the current iteration (`uv_stop`).
  @_spi(Testing) public func stop() {
    uv_stop(loop)
  }

  /// Closes every handle still open and runs the loop until their close callbacks ran.
  public func closeAllHandles() {
    uv_walk(
      loop,
      { handle, _ in
        guard let handle, uv_is_closing(handle) == 0 else { return }
        // Handles owned by our objects are closed by them; anything left is closed bare.
        uv_close(handle, nil)
      }, nil)
    uv_run(loop, UV_RUN_DEFAULT)
  }

  func makeConnectionID() -> UInt64 {
    nextConnectionID += 1
    return nextConnectionID
  }

  /// The libuv loop itself, for C libraries that attach to it (hiredis's libuv adapter, in
  /// `RedisClient`). Whoever uses it keeps to the loop thread, as everything here does.
  @_spi(LoopAttachment) public var uvLoop: UnsafeMutablePointer<uv_loop_t> { loop }

  /// Current loop time in milliseconds (cached by libuv once per iteration).
  public var nowMilliseconds: UInt64 { uv_now(loop) }

  static func from(_ loop: UnsafeMutablePointer<uv_loop_t>?) -> EventLoop {
    Unmanaged<EventLoop>.fromOpaque(loop!.pointee.data!).takeUnretainedValue()
  }
}
