/// Standard base64 (RFC 4648, with padding), written straight into a JSON buffer.
enum Base64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Appends the encoding of `input` to `out`.
  static func encode(_ input: [UInt8], into out: inout [UInt8]) {
    out.reserveCapacity(out.count + (input.count + 2) / 3 * 4)
    alphabet.withUnsafeBufferPointer { a in
      input.withUnsafeBufferPointer { p in
        var i = 0
        let n = p.count
        while i + 3 <= n {
          let v = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])
          out.append(a[Int(v >> 18 & 63)])
          out.append(a[Int(v >> 12 & 63)])
          out.append(a[Int(v >> 6 & 63)])
          out.append(a[Int(v & 63)])
          i += 3
        }
        let rest = n - i
        if rest == 1 {
          let v = UInt32(p[i]) << 16
          out.append(a[Int(v >> 18 & 63)])
          out.append(a[Int(v >> 12 & 63)])
          out.append(UInt8(ascii: "="))
          out.append(UInt8(ascii: "="))
        } else if rest == 2 {
          let v = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8
          out.append(a[Int(v >> 18 & 63)])
          out.append(a[Int(v >> 12 & 63)])
          out.append(a[Int(v >> 6 & 63)])
          out.append(UInt8(ascii: "="))
        }
      }
    }
  }
}
