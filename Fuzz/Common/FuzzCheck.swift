#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// Stops the run when an invariant does not hold: the message goes to stderr and the process
/// aborts, which libFuzzer records as a crash (and saves the input that caused it).
///
/// Fuzz targets call it instead of `precondition` so that the message says which invariant
/// broke, in every build configuration.
func fuzzCheck(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  guard !condition() else { return }
  let text = "fuzz invariant failed (\(file):\(line)): \(message())\n"
  var bytes = Array(text.utf8)
  _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
  abort()
}

/// A small deterministic generator (splitmix64), seeded from the input, so that a target does
/// the same thing every time it is given the same bytes.
struct InputSeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// Seeded with the FNV-1a hash of `bytes` and `salt`.
  init(hashing bytes: UnsafeRawBufferPointer, salt: UInt64) {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ salt
    for b in bytes {
      h ^= UInt64(b)
      h = h &* 0x0000_0100_0000_01B3
    }
    state = h
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Cut points for feeding `count` bytes in pieces: the chunk sizes, summing to `count`, with
/// an empty chunk now and then (a read of 0 bytes must change nothing).
func randomChunkSizes(count: Int, using generator: inout InputSeededGenerator) -> [Int] {
  var sizes: [Int] = []
  var left = count
  while left > 0 {
    let size = Int.random(in: 0...max(1, min(left, count / 3 + 1)), using: &generator)
    sizes.append(min(size, left))
    left -= min(size, left)
  }
  return sizes
}

extension Array where Element == UInt8 {
  /// The bytes as text for a failure message: printable ASCII as is, the rest escaped.
  var debugText: String {
    var out = "\""
    for b in prefix(400) {
      switch b {
      case 0x5C: out += "\\\\"
      case 0x22: out += "\\\""
      case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(b))
      default: out += "\\x" + (b < 16 ? "0" : "") + String(b, radix: 16)
      }
    }
    return out + (count > 400 ? "\"…(\(count) bytes)" : "\"")
  }
}
