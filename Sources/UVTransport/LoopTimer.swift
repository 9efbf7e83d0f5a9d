import CLibUV

/// A one-shot or repeating timer on the loop (`uv_timer_t`). Never blocks the loop.
public final class LoopTimer {
  private let handle: UnsafeMutablePointer<uv_timer_t>
  private var handler: (() -> Void)?
  private var closed = false

  /// `keepsLoopAlive: false` unreferences the timer (a watchdog that must not delay exit).
  public init(eventLoop: EventLoop, keepsLoopAlive: Bool = true) {
    handle = UVHandle.allocate(UV_TIMER, as: uv_timer_t.self)
    uv_timer_init(eventLoop.loop, handle)
    handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    if !keepsLoopAlive { uv_unref(UVHandle.asHandle(handle)) }
  }

  /// Calls `handler` after `milliseconds`, then every `repeatMilliseconds` if non-zero.
  public func start(
    after milliseconds: UInt64, repeat repeatMilliseconds: UInt64 = 0,
    _ handler: @escaping () -> Void
  ) {
    guard !closed else { return }
    self.handler = handler
    uv_timer_start(
      handle,
      { h in
        Unmanaged<LoopTimer>.fromOpaque(h!.pointee.data!).takeUnretainedValue().handler?()
      }, milliseconds, repeatMilliseconds)
  }

  public func stop() {
    guard !closed else { return }
    uv_timer_stop(handle)
  }

  /// Stops and frees the timer.
  public func close() {
    guard !closed else { return }
    closed = true
    handler = nil
    uv_close(UVHandle.asHandle(handle)) { h in
      let me = Unmanaged<LoopTimer>.fromOpaque(h!.pointee.data!)
      UVHandle.free(h!)
      me.release()
    }
  }
}
