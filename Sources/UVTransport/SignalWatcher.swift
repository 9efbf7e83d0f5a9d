import CLibUV

/// Runs a handler on the loop thread when a signal arrives (`uv_signal_t`). Unreferenced: it
/// never keeps the loop alive by itself.
public final class SignalWatcher {
  private let handle: UnsafeMutablePointer<uv_signal_t>
  private let handler: (Int32) -> Void
  private var closed = false

  public init(eventLoop: EventLoop, signal signum: Int32, _ handler: @escaping (Int32) -> Void)
    throws(UVError)
  {
    self.handler = handler
    handle = UVHandle.allocate(UV_SIGNAL, as: uv_signal_t.self)
    uv_signal_init(eventLoop.loop, handle)
    handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    let status = uv_signal_start(
      handle,
      { h, signum in
        Unmanaged<SignalWatcher>.fromOpaque(h!.pointee.data!).takeUnretainedValue().handler(signum)
      }, signum)
    uv_unref(UVHandle.asHandle(handle))
    if status < 0 {
      close()
      throw UVError(status, "watch signal \(signum)")
    }
  }

  public func close() {
    guard !closed else { return }
    closed = true
    uv_close(UVHandle.asHandle(handle)) { h in
      let me = Unmanaged<SignalWatcher>.fromOpaque(h!.pointee.data!)
      UVHandle.free(h!)
      me.release()
    }
  }
}
