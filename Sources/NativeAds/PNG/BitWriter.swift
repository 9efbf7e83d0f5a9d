/// Writes a deflate bit stream: values least-significant bit first, Huffman codes most
/// significant bit first (RFC 1951 section 3.1.1).
struct BitWriter {
  /// The bytes written so far (call ``flush()`` to include a final partial byte).
  private(set) var bytes: [UInt8] = []
  private var buffer: UInt64 = 0
  private var count = 0

  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// Appends the low `bits` bits of `value`, least significant first.
  mutating func write(_ value: UInt32, bits: Int) {
    if tracing != nil {
      tracing!.append((value, bits))
      return
    }
    buffer |= UInt64(value & ((1 << UInt32(bits)) &- 1)) << UInt64(count)
    count += bits
    while count >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      count -= 8
    }
  }

  /// Appends a Huffman code of `length` bits, most significant bit first.
  mutating func writeCode(_ code: UInt32, length: Int) {
    var reversed: UInt32 = 0
    var code = code
    for _ in 0..<length {
      reversed = (reversed << 1) | (code & 1)
      code >>= 1
    }
    write(reversed, bits: length)
  }

  /// Pads with zero bits to a byte boundary.
  private var tracing: [(value: UInt32, bits: Int)]?

  /// From now on, records writes (for replay) instead of emitting them.
  mutating func startTracing() {
    tracing = []
  }

  /// The writes recorded since ``trace(_:)``.
  mutating func takeTrace() -> [(value: UInt32, bits: Int)] {
    defer { tracing = nil }
    return tracing ?? []
  }

  mutating func flush() {
    if count > 0 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer = 0
      count = 0
    }
  }
}
