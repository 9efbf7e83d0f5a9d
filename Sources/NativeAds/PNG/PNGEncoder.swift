import Glibc

/// Encodes 8-bit RGB images as PNG (signature, IHDR, one IDAT, IEND), in pure Swift.
///
/// Each row is filtered with Up when it equals the row above (making it all zeros) and with Sub
/// otherwise (making runs of one colour zeros), then the whole is zlib-compressed with
/// ``DeflateEncoder``. A 1200x627 picture of a few flat shapes comes to about 15 KB, close to
/// the floor for fixed Huffman codes (13 bits per 258-byte run, 0.63% of the raw size); it takes
/// about 1 ms in a release build.
public enum PNGEncoder {
  /// The eight bytes every PNG file starts with.
  public static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

  /// Encodes a `width` x `height` RGB image; `row(y, &pixels)` fills row `y` (top first) into a
  /// buffer of `width * 3` bytes.
  public static func encodeRGB(
    width: Int, height: Int, row: (_ y: Int, _ pixels: inout [UInt8]) -> Void
  ) -> [UInt8] {
    precondition(width > 0 && height > 0, "a PNG has at least one pixel")
    let rowBytes = width * 3
    let stride = rowBytes + 1
    var filtered = [UInt8](repeating: 0, count: height * stride)
    var previous = [UInt8](repeating: 0, count: rowBytes)
    var current = [UInt8](repeating: 0, count: rowBytes)
    filtered.withUnsafeMutableBufferPointer { out in
      for y in 0..<height {
        row(y, &current)
        precondition(current.count == rowBytes, "a row must stay width * 3 bytes long")
        let start = y * stride
        if y > 0 && sameBytes(current, previous) {
          out[start] = 2  // Up: every byte equals the one above, so the rest stays zero
        } else {
          out[start] = 1  // Sub: difference from the pixel to the left
          current.withUnsafeBufferPointer { pixels in
            for index in 0..<min(3, rowBytes) { out[start + 1 + index] = pixels[index] }
            for index in 3..<max(3, rowBytes) {
              out[start + 1 + index] = pixels[index] &- pixels[index - 3]
            }
          }
        }
        swap(&previous, &current)
      }
    }

    var zlib: [UInt8] = [0x78, 0x01]  // deflate, 32 KB window, no dictionary, fastest
    zlib.append(contentsOf: DeflateEncoder.compress(filtered, period: rowBytes + 1))
    appendBigEndian(&zlib, Adler32.checksum(filtered))

    var png = signature
    var header: [UInt8] = []
    appendBigEndian(&header, UInt32(width))
    appendBigEndian(&header, UInt32(height))
    // 8-bit, truecolour, deflate, adaptive filtering, no interlace.
    header.append(contentsOf: [8, 2, 0, 0, 0])
    appendChunk(&png, "IHDR", header)
    appendChunk(&png, "IDAT", zlib)
    appendChunk(&png, "IEND", [])
    return png
  }

  /// Whether two equally long byte arrays are equal (`memcmp`, much faster than `==`).
  private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    a.withUnsafeBytes { a in
      b.withUnsafeBytes { b in
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
      }
    }
  }

  private static func appendChunk(_ png: inout [UInt8], _ type: String, _ data: [UInt8]) {
    appendBigEndian(&png, UInt32(data.count))
    let start = png.count
    png.append(contentsOf: type.utf8)
    png.append(contentsOf: data)
    appendBigEndian(&png, CRC32.checksum(png[start...]))
  }

  private static func appendBigEndian(_ bytes: inout [UInt8], _ value: UInt32) {
    bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    bytes.append(UInt8(truncatingIfNeeded: value))
  }
}
