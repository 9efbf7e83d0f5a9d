import CLibUV
import Glibc

/// A `uv_write_t` and the bytes it writes, in one allocation that lives until the write
/// callback (libuv requires the buffer to stay valid until then).
struct WriteRequest {
  private static let header = (MemoryLayout<uv_write_t>.stride + 15) & ~15
  let raw: UnsafeMutableRawPointer

  init(byteCount: Int) {
    raw = malloc(WriteRequest.header + 16 + byteCount)!
    raw.advanced(by: WriteRequest.header).storeBytes(of: byteCount, as: Int.self)
  }

  private init(raw: UnsafeMutableRawPointer) { self.raw = raw }

  static func from(_ req: UnsafeMutablePointer<uv_write_t>) -> WriteRequest {
    WriteRequest(raw: UnsafeMutableRawPointer(req))
  }

  var req: UnsafeMutablePointer<uv_write_t> { raw.assumingMemoryBound(to: uv_write_t.self) }
  var byteCount: Int { raw.advanced(by: WriteRequest.header).load(as: Int.self) }
  var storage: UnsafeMutableRawBufferPointer {
    UnsafeMutableRawBufferPointer(
      start: raw.advanced(by: WriteRequest.header + 16), count: byteCount)
  }

  func free() { Glibc.free(raw) }
}
