/// CRC-32 (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320), as used by PNG chunks.
enum CRC32 {
  private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 {
      c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1
    }
    return c
  }

  /// The CRC-32 of `bytes`.
  static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    table.withUnsafeBufferPointer { table in
      for byte in bytes {
        crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
      }
    }
    return crc ^ 0xFFFF_FFFF
  }
}
