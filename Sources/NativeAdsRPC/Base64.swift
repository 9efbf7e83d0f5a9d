import JSONRPC

/// Standard base64 (RFC 4648, with padding), written straight into a JSON buffer.
public enum Base64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Appends the encoding of `input` to `out`.
  /// `input` as base64 text.
  public static func encode(_ input: [UInt8]) -> String {
    var out = ByteBuffer()
    encode(input, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  static func encode(_ input: [UInt8], into out: inout ByteBuffer) {
    let length = (input.count + 2) / 3 * 4
    out.appendUninitialized(count: length) { o in
      alphabet.withUnsafeBufferPointer { a in
        input.withUnsafeBufferPointer { p in
          var i = 0
          var j = 0
          let n = p.count
          while i + 3 <= n {
            let v = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])
            o[j] = a[Int(v >> 18 & 63)]
            o[j + 1] = a[Int(v >> 12 & 63)]
            o[j + 2] = a[Int(v >> 6 & 63)]
            o[j + 3] = a[Int(v & 63)]
            i += 3
            j += 4
          }
          let rest = n - i
          if rest == 1 {
            let v = UInt32(p[i]) << 16
            o[j] = a[Int(v >> 18 & 63)]
            o[j + 1] = a[Int(v >> 12 & 63)]
            o[j + 2] = UInt8(ascii: "=")
            o[j + 3] = UInt8(ascii: "=")
          } else if rest == 2 {
            let v = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8
            o[j] = a[Int(v >> 18 & 63)]
            o[j + 1] = a[Int(v >> 12 & 63)]
            o[j + 2] = a[Int(v >> 6 & 63)]
            o[j + 3] = UInt8(ascii: "=")
          }
        }
      }
      return length
    }
  }

  /// Decodes standard base64 (padding optional, no whitespace); `nil` when malformed.
  public static func decode(_ text: String) -> [UInt8]? {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count / 4 * 3)
    var accumulator: UInt32 = 0
    var bits = 0
    var padding = 0
    for c in text.utf8 {
      let v: UInt32
      switch c {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a") + 26)
      case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0") + 52)
      case UInt8(ascii: "+"): v = 62
      case UInt8(ascii: "/"): v = 63
      case UInt8(ascii: "="):
        padding += 1
        continue
      default: return nil
      }
      if padding > 0 { return nil }
      accumulator = accumulator << 6 | v
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    guard padding <= 2, bits < 6 else { return nil }
    return out
  }
}
