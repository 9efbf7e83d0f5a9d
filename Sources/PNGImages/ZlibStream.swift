import CZlib

/// A zlib stream (RFC 1950: deflate with an Adler-32 trailer) compressed by zlib's `deflate`
/// and appended to a byte array as it is produced: the data of a PNG's IDAT chunk.
///
/// zlib's state points back at its `z_stream`, so the stream lives at a fixed address that this
/// value owns; it is released when the value ends. Used by ``PNGEncoder`` on the calling thread
/// only.
struct ZlibStream: ~Copyable {
  private let stream: UnsafeMutablePointer<z_stream>
  private let output: UnsafeMutableBufferPointer<UInt8>

  /// Starts a stream with zlib's `level` (1 fastest ... 9 smallest), a window of
  /// 2^`windowBits` bytes (9...15), `memoryLevel` (1...9: the size of zlib's hash table and
  /// block buffer) and `strategy` (`Z_DEFAULT_STRATEGY`, `Z_RLE`, ...).
  init(level: Int32, windowBits: Int32, memoryLevel: Int32, strategy: Int32) {
    precondition((9...15).contains(windowBits), "zlib windows are 2^9 to 2^15 bytes")
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    output = .allocate(capacity: 4096)
    let status = czlib_deflateInit2(stream, level, windowBits, memoryLevel, strategy)
    // Only a wrong parameter or no memory at all can fail here.
    precondition(status == Z_OK, "deflateInit2 failed (\(status))")
  }

  deinit {
    deflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
    output.deallocate()
  }

  /// Compresses `input`, appending whatever zlib emits to `bytes` (zlib keeps up to its window
  /// of input to match against later, so output lags behind input until ``finish(into:)``).
  mutating func compress(_ input: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) {
    guard let base = input.baseAddress, !input.isEmpty else { return }
    // zlib only reads through `next_in`; the pointer is mutable because `z_const` is not set.
    stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
    stream.pointee.avail_in = UInt32(input.count)
    repeat {
      _ = step(Z_NO_FLUSH, into: &bytes)
    } while stream.pointee.avail_in > 0
    stream.pointee.next_in = nil
  }

  /// Ends the stream: the last deflate block and the Adler-32 trailer.
  consuming func finish(into bytes: inout [UInt8]) {
    while step(Z_FINISH, into: &bytes) != Z_STREAM_END {}
  }

  /// One `deflate` call into the output buffer, whose bytes are then appended to `bytes`.
  private mutating func step(_ flush: Int32, into bytes: inout [UInt8]) -> Int32 {
    stream.pointee.next_out = output.baseAddress
    stream.pointee.avail_out = UInt32(output.count)
    let status = deflate(stream, flush)
    // Z_BUF_ERROR only says that no progress was possible, which the loops above rule out.
    precondition(
      status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR,
      "deflate failed (\(status))")
    let produced = output.count - Int(stream.pointee.avail_out)
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: output[..<produced]))
    return status
  }
}
