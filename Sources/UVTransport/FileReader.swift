import CLibUV
import Glibc

/// Reads a regular file or character device (stdin redirected from a file or `/dev/null`)
/// with `uv_fs_read`, one request at a time; libuv cannot poll such descriptors.
final class FileReader {
  let fd: Int32
  unowned(unsafe) var owner: Connection?
  private let buffer: UnsafeMutableRawBufferPointer
  private let req: UnsafeMutablePointer<uv_fs_t>
  private let eventLoop: EventLoop
  private var inFlight = false
  private var wanted = false
  private var finished = false
  /// Keeps the reader alive while a request is in flight (even after the connection closed).
  private var selfRetain: Unmanaged<FileReader>?

  init(eventLoop: EventLoop, fd: Int32) {
    self.eventLoop = eventLoop
    self.fd = fd
    buffer = .allocate(byteCount: eventLoop.limits.readBufferSize, alignment: 16)
    req = .allocate(capacity: 1)
  }

  deinit {
    buffer.deallocate()
    req.deallocate()
  }

  func resume() {
    wanted = true
    submit()
  }

  func pause() { wanted = false }

  func cancel() {
    wanted = false
    finished = true
    owner = nil
  }

  private func submit() {
    guard wanted, !inFlight, !finished else { return }
    inFlight = true
    selfRetain = Unmanaged.passRetained(self)
    req.pointee.data = selfRetain!.toOpaque()
    var buf = uv_buf_init(
      buffer.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(buffer.count))
    let status = uv_fs_read(eventLoop.loop, req, fd, &buf, 1, -1, FileReader.callback)
    if status < 0 {
      inFlight = false
      selfRetain?.release()
      selfRetain = nil
      finished = true
      owner?.didFailReadingFile()
    }
  }

  private func completed(_ result: Int) {
    inFlight = false
    uv_fs_req_cleanup(req)
    let retain = selfRetain
    selfRetain = nil
    defer { retain?.release() }
    guard !finished, let owner else { return }
    if result > 0 {
      owner.didReadFromFile(UnsafeRawBufferPointer(start: buffer.baseAddress, count: result))
      submit()
    } else if result == 0 {
      finished = true
      owner.didReachEOFOfFile()
    } else {
      finished = true
      owner.didFailReadingFile()
    }
  }

  private static let callback: uv_fs_cb = { req in
    let reader = Unmanaged<FileReader>.fromOpaque(req!.pointee.data!).takeUnretainedValue()
    reader.completed(Int(req!.pointee.result))
  }
}

extension Connection {
  func didReadFromFile(_ bytes: UnsafeRawBufferPointer) { didReadBytes(bytes) }
  func didReachEOFOfFile() { didReachEndOfInput() }
  func didFailReadingFile() { close() }
}
