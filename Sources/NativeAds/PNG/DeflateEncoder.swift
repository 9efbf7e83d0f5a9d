/// A small deflate (RFC 1951) compressor for generated pictures: one block with the fixed
/// Huffman codes, and LZ77 matches at only two distances: 1 (runs of one byte) and `period`
/// (a repeat of the previous row). That is all simple filtered images need.
enum DeflateEncoder {
  private static let lengthBase: [Int] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  private static let lengthExtra: [Int] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBase: [Int] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtra: [Int] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]
  private static let minMatch = 3
  private static let maxMatch = 258
  private static let maxDistance = 32768

  /// Compresses `input` into a raw deflate stream (no zlib wrapper). `period` is a second match
  /// distance to try, typically the length of a filtered image row; 0 or values above 32768
  /// disable it.
  /// Compresses `input` in one fixed-Huffman block. `period` (a PNG row's length) lets
  /// matches reach one row back as well as one byte back.
  static func compress(_ input: [UInt8], period: Int = 0) -> [UInt8] {
    var stream = Stream(capacity: input.count / 64 + 64)
    input.withUnsafeBufferPointer { data in
      stream.compress(data, from: 0, period: period)
    }
    return stream.finish()
  }

  /// A deflate stream written row by row (PNG rows), so that an image is never held whole:
  /// each row is matched against itself and the row above, and a row equal to the one above
  /// costs a handful of precomputed matches.
  struct Stream {
    private var writer: BitWriter
    /// The bits of a "byte then zeros" row, for the last zero count asked.
    private var repeatCache: (period: Int, codes: [(value: UInt32, bits: Int)])?

    init(capacity: Int) {
      writer = BitWriter(capacity: capacity)
      writer.write(1, bits: 1)  // BFINAL
      writer.write(1, bits: 2)  // BTYPE = 01, fixed Huffman
    }

    /// Compresses `data[from...]`; matches may refer back into `data[..<from]` (up to
    /// `period` bytes back).
    mutating func compress(_ data: UnsafeBufferPointer<UInt8>, from start: Int, period: Int) {
      let count = data.count
      let usePeriod = period > 1 && period <= maxDistance
      var index = start
      while index < count {
        let limit = min(maxMatch, count - index)
        var bestLength = 0
        var bestDistance = 0
        if index >= 1 {
          let length = matchLength(data, index, distance: 1, limit: limit)
          if length >= minMatch { (bestLength, bestDistance) = (length, 1) }
        }
        if usePeriod, index >= period, bestLength < limit {
          let length = matchLength(data, index, distance: period, limit: limit)
          if length >= minMatch, length > bestLength {
            (bestLength, bestDistance) = (length, period)
          }
        }
        if bestLength > 0 {
          writeMatch(&writer, length: bestLength, distance: bestDistance)
          index += bestLength
        } else {
          writeLiteral(&writer, Int(data[index]))
          index += 1
        }
      }
    }

    /// Emits `byte` followed by `zeros` zero bytes (a PNG row filtered "Up" under an identical
    /// row): two literals, then matches one byte back. The bits are computed once per length.
    mutating func literal(_ byte: UInt8, thenZeros zeros: Int) {
      if repeatCache?.period != zeros {
        var probe = BitWriter(capacity: 0)
        probe.startTracing()
        writeLiteral(&probe, Int(byte))
        var remaining = zeros
        if remaining > 0 {
          writeLiteral(&probe, 0)
          remaining -= 1
        }
        while remaining > 0 {
          if remaining < minMatch {
            writeLiteral(&probe, 0)
            remaining -= 1
            continue
          }
          var length = min(maxMatch, remaining)
          if (1..<minMatch).contains(remaining - length) { length = remaining - minMatch }
          writeMatch(&probe, length: length, distance: 1)
          remaining -= length
        }
        repeatCache = (zeros, probe.takeTrace())
      }
      for code in repeatCache!.codes { writer.write(code.value, bits: code.bits) }
    }

    /// Ends the block and returns the compressed bytes.
    mutating func finish() -> [UInt8] {
      writeLiteral(&writer, 256)  // end of block
      writer.flush()
      return writer.bytes
    }
  }

  private static func matchLength(
    _ data: UnsafeBufferPointer<UInt8>, _ index: Int, distance: Int, limit: Int
  ) -> Int {
    guard let base = data.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    var length = 0
    // Eight bytes at a time while they agree, then byte by byte.
    while length + 8 <= limit,
      raw.loadUnaligned(fromByteOffset: index + length, as: UInt64.self)
        == raw.loadUnaligned(fromByteOffset: index + length - distance, as: UInt64.self)
    {
      length += 8
    }
    while length < limit, base[index + length] == base[index + length - distance] {
      length += 1
    }
    return length
  }

  /// Writes a literal/length symbol (0...287) with its fixed Huffman code.
  private static func writeLiteral(_ writer: inout BitWriter, _ symbol: Int) {
    switch symbol {
    case 0...143: writer.writeCode(UInt32(0x30 + symbol), length: 8)
    case 144...255: writer.writeCode(UInt32(0x190 + symbol - 144), length: 9)
    case 256...279: writer.writeCode(UInt32(symbol - 256), length: 7)
    default: writer.writeCode(UInt32(0xC0 + symbol - 280), length: 8)
    }
  }

  private static func writeMatch(_ writer: inout BitWriter, length: Int, distance: Int) {
    var lengthCode = lengthBase.count - 1
    while lengthBase[lengthCode] > length { lengthCode -= 1 }
    writeLiteral(&writer, 257 + lengthCode)
    if lengthExtra[lengthCode] > 0 {
      writer.write(UInt32(length - lengthBase[lengthCode]), bits: lengthExtra[lengthCode])
    }
    var distanceCode = distanceBase.count - 1
    while distanceBase[distanceCode] > distance { distanceCode -= 1 }
    writer.writeCode(UInt32(distanceCode), length: 5)
    if distanceExtra[distanceCode] > 0 {
      writer.write(UInt32(distance - distanceBase[distanceCode]), bits: distanceExtra[distanceCode])
    }
  }
}
