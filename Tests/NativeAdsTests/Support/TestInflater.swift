/// A minimal zlib/deflate decoder for tests: stored and fixed-Huffman blocks only (all that
/// `PNGEncoder` writes), independent of the encoder's code.
enum TestInflater {
  enum Failure: Error, Equatable {
    case truncated
    case badZlibHeader
    case unsupportedBlockType(Int)
    case badStoredLength
    case badSymbol(Int)
    case badDistance(Int)
    case adlerMismatch
  }

  private static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  private static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]

  /// Decompresses a zlib stream, checking its header and Adler-32 trailer.
  static func zlibDecompress(_ stream: [UInt8]) throws(Failure) -> [UInt8] {
    guard stream.count >= 6 else { throw .truncated }
    let cmf = Int(stream[0])
    let flg = Int(stream[1])
    guard cmf & 0x0F == 8, (cmf << 8 | flg) % 31 == 0, flg & 0x20 == 0 else {
      throw .badZlibHeader
    }
    let output = try inflate(Array(stream[2..<(stream.count - 4)]))
    let trailer = stream.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    guard trailer == adler32(output) else { throw .adlerMismatch }
    return output
  }

  /// Decompresses a raw deflate stream.
  static func inflate(_ input: [UInt8]) throws(Failure) -> [UInt8] {
    var reader = BitReader(bytes: input)
    var output: [UInt8] = []
    var isFinal = false
    while !isFinal {
      isFinal = try reader.bits(1) == 1
      let type = try reader.bits(2)
      switch type {
      case 0:
        reader.alignToByte()
        let length = try reader.bits(16)
        let complement = try reader.bits(16)
        guard length ^ complement == 0xFFFF else { throw .badStoredLength }
        for _ in 0..<length { output.append(UInt8(try reader.bits(8))) }
      case 1:
        while true {
          let symbol = try fixedLiteral(&reader)
          if symbol < 256 {
            output.append(UInt8(symbol))
          } else if symbol == 256 {
            break
          } else {
            let index = symbol - 257
            guard index < lengthBase.count else { throw .badSymbol(symbol) }
            let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
            var distanceCode = 0
            for _ in 0..<5 { distanceCode = distanceCode << 1 | (try reader.bits(1)) }
            guard distanceCode < distanceBase.count else { throw .badDistance(distanceCode) }
            let distance =
              distanceBase[distanceCode] + (try reader.bits(distanceExtra[distanceCode]))
            guard distance <= output.count else { throw .badDistance(distance) }
            let start = output.count - distance
            for offset in 0..<length { output.append(output[start + offset]) }
          }
        }
      default:
        throw .unsupportedBlockType(type)
      }
    }
    return output
  }

  /// Reads one literal/length symbol coded with the fixed Huffman code (RFC 1951 3.2.6).
  private static func fixedLiteral(_ reader: inout BitReader) throws(Failure) -> Int {
    var code = 0
    for length in 1...9 {
      code = code << 1 | (try reader.bits(1))
      switch length {
      case 7 where code <= 0b001_0111: return 256 + code
      case 8 where (0x30...0xBF).contains(code): return code - 0x30
      case 8 where (0xC0...0xC7).contains(code): return 280 + code - 0xC0
      case 9 where (0x190...0x1FF).contains(code): return 144 + code - 0x190
      default: continue
      }
    }
    throw .badSymbol(code)
  }

  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return b << 16 | a
  }

  struct BitReader {
    let bytes: [UInt8]
    var bitPosition = 0

    mutating func bits(_ count: Int) throws(Failure) -> Int {
      var value = 0
      for index in 0..<count {
        let byteIndex = bitPosition >> 3
        guard byteIndex < bytes.count else { throw .truncated }
        let bit = Int(bytes[byteIndex] >> UInt8(bitPosition & 7)) & 1
        value |= bit << index
        bitPosition += 1
      }
      return value
    }

    mutating func alignToByte() {
      bitPosition = (bitPosition + 7) & ~7
    }
  }
}
