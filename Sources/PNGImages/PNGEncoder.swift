import CZlib
import Glibc

/// Encodes images of at most four colours as indexed PNGs (signature, IHDR, PLTE, one IDAT,
/// IEND), compressed by zlib. Called by ``PNGPicture/pngData()`` on the caller's thread.
enum PNGEncoder {
  /// The eight bytes every PNG file starts with.
  static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

  /// zlib's run-length strategy: matches one byte back only, no hash chains. zlib's manual
  /// says it is "designed to be almost as fast as Z_HUFFMAN_ONLY, but give better compression
  /// for PNG image data". On these pictures it makes files over a quarter smaller than levels
  /// 1 to 3 of the default strategy, at less cost; levels 4 to 9 save 4% to 35% more for 2.7 to
  /// 3.8 times the work (figures in docs/png-images.md). zlib ignores the level with this
  /// strategy (any level above 0 will do).
  private static let strategy = Z_RLE
  private static let level: Int32 = 1
  /// zlib's memory level 4 instead of the default 8: a 4 KB hash table, which the run-length
  /// strategy never reads but zlib still clears and slides, and blocks of 1,024 symbols (a
  /// 1200x627 picture takes three, 2% more bytes than in one). With the window below, zlib
  /// needs 40 KB instead of 256 KB for a large picture, memory that stays in the service's
  /// heap after the first encode.
  private static let memoryLevel: Int32 = 4
  /// The largest zlib window used, 2^13 bytes: run-length matches reach one byte back only;
  /// larger windows cost memory, smaller ones more frequent slides of zlib's tables.
  private static let maxWindowBits: Int32 = 13
  /// Rows are handed to zlib in batches of about this many bytes: a `deflate` call per row
  /// costs a tenth more instructions, bigger batches save nothing (zlib copies the input into
  /// its window either way).
  private static let batchBytes = 4_096

  /// Encodes a `width` x `height` image of at most four colours as an indexed PNG (bit depth
  /// 2, so four pixels a byte). `row(y, &indices)` writes each pixel's index into `palette`.
  /// `rowKey`, when given, says which rows are equal (equal keys: equal rows), so equal rows
  /// are neither drawn nor compared.
  ///
  /// Rows equal to the one above are filtered Up (all zeros, which deflate turns into a few
  /// matches), others are stored unfiltered. Rows go to zlib a batch at a time, as they are
  /// drawn: the image is never held whole. A 1200x627 picture of a few flat shapes comes to
  /// about 1.2 KB.
  static func encodeIndexed(
    width: Int, height: Int, palette: [RGBColor], rowKey: ((_ y: Int) -> Int)? = nil,
    row: (_ y: Int, _ indices: inout [UInt8]) -> Void
  ) -> [UInt8] {
    precondition(width > 0 && height > 0, "a PNG has at least one pixel")
    precondition((1...4).contains(palette.count), "bit depth 2 holds at most four colours")
    let rowBytes = (width * 2 + 7) / 8
    let stride = rowBytes + 1

    var png = signature
    png.reserveCapacity(1_024)
    var header: [UInt8] = []
    appendBigEndian(&header, UInt32(width))
    appendBigEndian(&header, UInt32(height))
    // Bit depth 2, indexed colour, deflate, adaptive filtering, no interlace.
    header.append(contentsOf: [2, 3, 0, 0, 0])
    appendChunk(&png, "IHDR", header)
    appendChunk(&png, "PLTE", palette.flatMap { [$0.red, $0.green, $0.blue] })

    let idat = png.count
    appendBigEndian(&png, 0)  // the length, known at the end
    png.append(contentsOf: "IDAT".utf8)
    var zlib = ZlibStream(
      level: level, windowBits: windowBits(for: height * stride), memoryLevel: memoryLevel,
      strategy: strategy)
    let rowsPerBatch = max(1, min(height, batchBytes / stride))
    let batch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: rowsPerBatch * stride)
    defer { batch.deallocate() }
    var filled = 0
    var indices = [UInt8](repeating: 0, count: width)
    var packed = [UInt8](repeating: 0, count: rowBytes)
    var previousPacked = [UInt8](repeating: 0, count: rowBytes)
    for y in 0..<height {
      var same = false
      if y > 0, let rowKey, rowKey(y) == rowKey(y - 1) {
        same = true
      } else {
        row(y, &indices)
        precondition(indices.count == width, "a row holds one index per pixel")
        pack(indices, into: &packed)
        same = y > 0 && sameBytes(packed, previousPacked)
      }
      let filtered = batch.baseAddress! + filled
      if same {
        filtered[0] = 2  // Up: equal to the row above, so all zeros
        (filtered + 1).update(repeating: 0, count: rowBytes)
      } else {
        filtered[0] = 0  // None
        packed.withUnsafeBufferPointer {
          (filtered + 1).update(from: $0.baseAddress!, count: rowBytes)
        }
        swap(&packed, &previousPacked)
      }
      filled += stride
      if filled == batch.count || y == height - 1 {
        zlib.compress(UnsafeBufferPointer(rebasing: batch[..<filled]), into: &png)
        filled = 0
      }
    }
    zlib.finish(into: &png)

    let length = UInt32(png.count - idat - 8)
    for index in 0..<4 { png[idat + index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * index)) }
    appendBigEndian(&png, checksum(png[(idat + 4)...]))
    appendChunk(&png, "IEND", [])
    return png
  }

  /// The smallest zlib window (2^9 bytes at least, zlib's minimum, and at most
  /// ``maxWindowBits``) that covers `size` bytes of input: small images need less of zlib's
  /// memory.
  private static func windowBits(for size: Int) -> Int32 {
    var bits: Int32 = 9
    while bits < maxWindowBits, 1 << bits < size { bits += 1 }
    return bits
  }

  /// Packs one index a pixel into four pixels a byte, leftmost in the high bits.
  private static func pack(_ indices: [UInt8], into packed: inout [UInt8]) {
    packed.withUnsafeMutableBufferPointer { packed in
      packed.update(repeating: 0)
      indices.withUnsafeBufferPointer { indices in
        for x in 0..<indices.count {
          packed[x >> 2] |= (indices[x] & 3) << UInt8(6 - 2 * (x & 3))
        }
      }
    }
  }

  /// Whether two equally long byte arrays are equal (`memcmp`, much faster than `==`).
  private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    a.withUnsafeBytes { a in
      b.withUnsafeBytes { b in
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
      }
    }
  }

  /// zlib's CRC-32 of `bytes` (a chunk's type and data, as PNG requires).
  private static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
  }

  private static func appendChunk(_ png: inout [UInt8], _ type: String, _ data: [UInt8]) {
    appendBigEndian(&png, UInt32(data.count))
    let start = png.count
    png.append(contentsOf: type.utf8)
    png.append(contentsOf: data)
    appendBigEndian(&png, checksum(png[start...]))
  }

  private static func appendBigEndian(_ bytes: inout [UInt8], _ value: UInt32) {
    bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    bytes.append(UInt8(truncatingIfNeeded: value))
  }
}
