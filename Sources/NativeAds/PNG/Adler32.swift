/// Adler-32 (RFC 1950), the checksum that ends a zlib stream.
enum Adler32 {
  /// The Adler-32 of `bytes`.
  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    let modulus: UInt32 = 65521
    // The largest n such that 255n(n+1)/2 + (n+1)(modulus-1) fits in 32 bits.
    let chunk = 5552
    var a: UInt32 = 1
    var b: UInt32 = 0
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let raw = UnsafeRawPointer(base)
      var index = 0
      while index < buffer.count {
        let end = min(buffer.count, index + chunk)
        while index < end {
          // Eight zero bytes leave `a` alone and add 8a to `b` (images are mostly zeros after
          // filtering).
          if index + 8 <= end, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) == 0 {
            b &+= 8 &* a
            index += 8
            continue
          }
          a &+= UInt32(base[index])
          b &+= a
          index += 1
        }
        a %= modulus
        b %= modulus
      }
    }
    return (b << 16) | a
  }
}
