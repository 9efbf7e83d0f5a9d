import JSONRPC

/// Decodes standard base64 (with padding); nil on any invalid character or length.
func decodeBase64(_ text: String) -> [UInt8]? {
  var values: [UInt8] = []
  var padding = 0
  for c in text.utf8 {
    switch c {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(c - UInt8(ascii: "A"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(c - UInt8(ascii: "a") + 26)
    case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(c - UInt8(ascii: "0") + 52)
    case UInt8(ascii: "+"): values.append(62)
    case UInt8(ascii: "/"): values.append(63)
    case UInt8(ascii: "="):
      padding += 1
      values.append(0)
    default: return nil
    }
    if padding > 0 && c != UInt8(ascii: "=") { return nil }
  }
  guard values.count % 4 == 0, padding <= 2 else { return nil }
  var out: [UInt8] = []
  for i in stride(from: 0, to: values.count, by: 4) {
    let v =
      UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | UInt32(values[i + 2]) << 6
      | UInt32(values[i + 3])
    out.append(UInt8(v >> 16 & 0xFF))
    out.append(UInt8(v >> 8 & 0xFF))
    out.append(UInt8(v & 0xFF))
  }
  out.removeLast(padding)
  return out
}

/// The PNG file signature.
let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// The width and height in the IHDR chunk of `png`, which must follow the signature.
func pngSize(_ png: [UInt8]) -> (width: Int, height: Int)? {
  guard png.count >= 24, Array(png[0..<8]) == pngSignature,
    Array(png[12..<16]) == Array("IHDR".utf8)
  else { return nil }
  func be32(_ at: Int) -> Int {
    png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
  }
  return (be32(16), be32(20))
}
