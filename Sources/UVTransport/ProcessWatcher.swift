import CLibUV
import Glibc

/// Calls a handler on the loop thread once process `pid` has ended (`--parent-pid`): through
/// a pidfd (`pidfd_open(2)`, readable when the process ends, watched with `uv_poll_t`), or,
/// where the kernel has none, by checking every ``pollMilliseconds``. A process that is gone
/// already, or a zombie, counts as ended: the handler runs on the next loop turn.
/// Unreferenced: it never keeps the loop alive by itself.
public final class ProcessWatcher {
  /// How often the fallback checks whether the process still runs.
  public static let pollMilliseconds: UInt64 = 200

  public let pid: pid_t
  private var handler: (() -> Void)?
  private var poll: UnsafeMutablePointer<uv_poll_t>?
  private var pidfd: Int32 = -1
  private var timer: LoopTimer?
  private var closed = false

  public init(eventLoop: EventLoop, pid: pid_t, _ handler: @escaping () -> Void) {
    self.pid = pid
    self.handler = handler
    let fd = native_ads_pidfd_open(pid)
    if fd >= 0 {
      pidfd = fd
      let poll = UVHandle.allocate(UV_POLL, as: uv_poll_t.self)
      uv_poll_init(eventLoop.loop, poll, fd)
      poll.pointee.data = Unmanaged.passRetained(self).toOpaque()
      uv_poll_start(poll, Int32(UV_READABLE.rawValue)) { h, _, _ in
        Unmanaged<ProcessWatcher>.fromOpaque(h!.pointee.data!).takeUnretainedValue().ended()
      }
      uv_unref(UVHandle.asHandle(poll))
      self.poll = poll
    } else {
      // ESRCH: no such process (it ended already); ENOSYS and others: poll.
      let timer = LoopTimer(eventLoop: eventLoop, keepsLoopAlive: false)
      let first: UInt64 = errno == ESRCH ? 0 : Self.pollMilliseconds
      timer.start(after: first, repeat: Self.pollMilliseconds) { [unowned self] in
        if !Self.isRunning(pid) { ended() }
      }
      self.timer = timer
    }
  }

  /// Whether `pid` names a live process (not a zombie).
  public static func isRunning(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 || errno == EPERM else { return false }
    // /proc/PID/stat: "PID (name) STATE ..."; the name may hold spaces and parentheses.
    guard let file = fopen("/proc/\(pid)/stat", "r") else { return true }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 512)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return true }
    let line = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let close = line.lastIndex(of: ")") else { return true }
    let state = line[line.index(after: close)...].drop { $0 == " " }.first
    return state != "Z" && state != "X"
  }

  private func ended() {
    let run = handler
    close()
    run?()
  }

  /// Stops watching.
  public func close() {
    guard !closed else { return }
    closed = true
    handler = nil
    timer?.close()
    timer = nil
    if let poll {
      uv_poll_stop(poll)
      uv_close(UVHandle.asHandle(poll)) { h in
        let me = Unmanaged<ProcessWatcher>.fromOpaque(h!.pointee.data!)
        Glibc.close(me.takeUnretainedValue().pidfd)
        UVHandle.free(h!)
        me.release()
      }
      self.poll = nil
    }
  }
}
