/// Adler-32 (RFC 1950), the checksum that ends a zlib stream; updated incrementally.
struct Adler32 {
  private static let modulus: UInt32 = 65521
  // The largest n such that 255n(n+1)/2 + (n+1)(modulus-1) fits in 32 bits.
  private static let chunk = 5552
  private var a: UInt32 = 1
  private var b: UInt32 = 0

  /// The checksum of everything added so far.
  var value: UInt32 { (b << 16) | a }

  /// The checksum of `bytes`.
  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var adler = Adler32()
    bytes.withUnsafeBufferPointer { adler.add($0) }
    return adler.value
  }

  /// Adds `bytes`.
  mutating func add(_ buffer: UnsafeBufferPointer<UInt8>) {
    guard let base = buffer.baseAddress else { return }
    let raw = UnsafeRawPointer(base)
    var index = 0
    while index < buffer.count {
      let end = min(buffer.count, index + Self.chunk)
      while index < end {
        // Eight zero bytes leave `a` alone and add 8a to `b` (filtered images are mostly zeros).
        if index + 8 <= end, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) == 0 {
          b &+= 8 &* a
          index += 8
          continue
        }
        a &+= UInt32(base[index])
        b &+= a
        index += 1
      }
      a %= Self.modulus
      b %= Self.modulus
    }
  }

  /// Adds `byte` followed by `zeros` zero bytes, in constant time.
  mutating func add(_ byte: UInt8, thenZeros zeros: Int) {
    a = (a + UInt32(byte)) % Self.modulus
    b = (b + a) % Self.modulus
    b = UInt32((UInt64(b) + UInt64(zeros % Int(Self.modulus)) * UInt64(a)) % UInt64(Self.modulus))
  }
}
