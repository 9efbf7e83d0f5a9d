import JSONRPC

/// One node of ``LegacyJSONParser``'s tape: the fields of the parser's `JSONNode`.
struct LegacyNode: Equatable, CustomStringConvertible {
  enum Kind: UInt8 { case null, bool, number, string, array, object }
  var kind: Kind
  var flag: Bool
  var start: UInt32
  var end: UInt32
  var count: UInt32
  var next: UInt32

  init(kind: Kind, flag: Bool, start: Int, end: Int, count: Int = 0, next: Int) {
    self.kind = kind
    self.flag = flag
    self.start = UInt32(truncatingIfNeeded: start)
    self.end = UInt32(truncatingIfNeeded: end)
    self.count = UInt32(truncatingIfNeeded: count)
    self.next = UInt32(truncatingIfNeeded: next)
  }

  var description: String { "\(kind) \(flag) \(start)..<\(end) count \(count) next \(next)" }
}

/// The parser before it was made fast (commit 458d2d1), kept as the reference the fast one
/// must equal byte for byte: the same accepted inputs, the same tape, the same errors at the
/// same offsets. Only its storage changed (an array of ``LegacyNode``s instead of the
/// manually managed tape).
struct LegacyJSONParser {
  var nodes: [LegacyNode] = []
  var stack: [Int] = []
  let maxDepth: Int

  /// Parses `bytes` as one document: its tape, or the error the parser reported.
  static func parse(_ bytes: [UInt8], maxDepth: Int = 128) -> Result<[LegacyNode], JSONParseError> {
    guard bytes.count < Int(UInt32.max) else {
      return .failure(JSONParseError("message larger than 4 GiB", at: 0))
    }
    var parser = LegacyJSONParser(maxDepth: maxDepth)
    do {
      try bytes.withUnsafeBufferPointer { p throws(JSONParseError) in try parser.build(p) }
      return .success(parser.nodes)
    } catch {
      return .failure(error)
    }
  }

  mutating func build(_ p: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
    let n = p.count
    var i = skipWhitespace(p, 0)

    // Parse one value starting at i; containers push onto the stack.
    valueLoop: while true {
      guard i < n else { throw JSONParseError("unexpected end of input", at: i) }
      let c = p[i]
      switch c {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        if stack.count >= maxDepth {
          throw JSONParseError("nesting deeper than \(maxDepth) levels", at: i)
        }
        let isObject = c == UInt8(ascii: "{")
        stack.append(nodes.count)
        nodes.append(
          LegacyNode(kind: isObject ? .object : .array, flag: false, start: i, end: i, next: 0))
        i = skipWhitespace(p, i + 1)
        if i < n, p[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          i += 1
          closeContainer(end: i)
        } else if isObject {
          i = try parseKey(p, i)
          continue valueLoop
        } else {
          continue valueLoop
        }
      case UInt8(ascii: "\""):
        i = try parseString(p, i)
      case UInt8(ascii: "t"):
        i = try literal(p, i, "true", .bool, true)
      case UInt8(ascii: "f"):
        i = try literal(p, i, "false", .bool, false)
      case UInt8(ascii: "n"):
        i = try literal(p, i, "null", .null, false)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        i = try parseNumber(p, i)
      default:
        throw JSONParseError(unexpected(c), at: i)
      }

      // A value is complete: continue in the enclosing container, or finish.
      while true {
        i = skipWhitespace(p, i)
        guard let top = stack.last else {
          guard i == n else {
            throw JSONParseError("unexpected data after the JSON value", at: i)
          }
          return
        }
        guard i < n else { throw JSONParseError("unexpected end of input", at: i) }
        let isObject = nodes[top].kind == .object
        let c = p[i]
        if c == UInt8(ascii: ",") {
          nodes[top].count += 1
          i = skipWhitespace(p, i + 1)
          if isObject { i = try parseKey(p, i) }
          continue valueLoop
        }
        if c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          nodes[top].count += 1
          i += 1
          closeContainer(end: i)
          continue
        }
        throw JSONParseError(
          isObject ? "expected ',' or '}' in object" : "expected ',' or ']' in array", at: i)
      }
    }
  }

  mutating func closeContainer(end: Int) {
    let top = stack.removeLast()
    nodes[top].end = UInt32(truncatingIfNeeded: end)
    nodes[top].next = UInt32(truncatingIfNeeded: nodes.count)
  }

  /// Parses `"key"` then whitespace, `:` and whitespace; returns the index of the value.
  mutating func parseKey(_ p: UnsafeBufferPointer<UInt8>, _ at: Int) throws(JSONParseError)
    -> Int
  {
    guard at < p.count, p[at] == UInt8(ascii: "\"") else {
      throw JSONParseError(
        at < p.count ? "expected a string key in object" : "unexpected end of input", at: at)
    }
    var i = skipWhitespace(p, try parseString(p, at))
    guard i < p.count, p[i] == UInt8(ascii: ":") else {
      throw JSONParseError("expected ':' after object key", at: i)
    }
    i = skipWhitespace(p, i + 1)
    return i
  }

  @inline(__always)
  func skipWhitespace(_ p: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
    var i = at
    while i < p.count {
      switch p[i] {
      case 0x20, 0x0A, 0x0D, 0x09: i += 1
      default: return i
      }
    }
    return i
  }

  mutating func literal(
    _ p: UnsafeBufferPointer<UInt8>, _ at: Int, _ word: StaticString, _ kind: LegacyNode.Kind,
    _ flag: Bool
  ) throws(JSONParseError) -> Int {
    let len = word.utf8CodeUnitCount
    guard at + len <= p.count else { throw JSONParseError("invalid literal", at: at) }
    let w = word.utf8Start
    for k in 0..<len where p[at + k] != w[k] {
      throw JSONParseError("invalid literal", at: at)
    }
    nodes.append(
      LegacyNode(kind: kind, flag: flag, start: at, end: at + len, next: nodes.count + 1))
    return at + len
  }

  mutating func parseNumber(_ p: UnsafeBufferPointer<UInt8>, _ at: Int)
    throws(JSONParseError)
    -> Int
  {
    var i = at
    let n = p.count
    func isDigit(_ i: Int) -> Bool { i < n && p[i] >= 0x30 && p[i] <= 0x39 }
    if p[i] == UInt8(ascii: "-") { i += 1 }
    guard isDigit(i) else { throw JSONParseError("invalid number", at: at) }
    if p[i] == UInt8(ascii: "0") {
      i += 1
      if isDigit(i) { throw JSONParseError("invalid number: leading zero", at: at) }
    } else {
      while isDigit(i) { i += 1 }
    }
    var integer = true
    if i < n, p[i] == UInt8(ascii: ".") {
      integer = false
      i += 1
      guard isDigit(i) else {
        throw JSONParseError("invalid number: digit expected after '.'", at: i)
      }
      while isDigit(i) { i += 1 }
    }
    if i < n, p[i] | 0x20 == UInt8(ascii: "e") {
      integer = false
      i += 1
      if i < n, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
      guard isDigit(i) else {
        throw JSONParseError("invalid number: digit expected in exponent", at: i)
      }
      while isDigit(i) { i += 1 }
    }
    nodes.append(LegacyNode(kind: .number, flag: integer, start: at, end: i, next: nodes.count + 1))
    return i
  }

  /// Validates a string token (UTF-8, escapes, surrogate pairs) starting at its opening quote.
  mutating func parseString(_ p: UnsafeBufferPointer<UInt8>, _ at: Int)
    throws(JSONParseError)
    -> Int
  {
    let n = p.count
    var i = at + 1
    var escaped = false
    while true {
      // Fast path: plain ASCII, eight bytes at a time. A word is skipped when none of its
      // bytes is a control character, '"', '\\' or non-ASCII.
      let base = UnsafeRawPointer(p.baseAddress!)
      while i + 8 <= n {
        let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        if Self.hasSpecialByte(w) { break }
        i += 8
      }
      while i < n {
        let c = p[i]
        if c < 0x20 || c == 0x22 || c == 0x5C || c >= 0x80 { break }
        i += 1
      }
      guard i < n else { throw JSONParseError("unterminated string", at: at) }
      let c = p[i]
      if c == 0x22 {
        nodes.append(
          LegacyNode(kind: .string, flag: escaped, start: at + 1, end: i, next: nodes.count + 1))
        return i + 1
      }
      if c == 0x5C {
        escaped = true
        guard i + 1 < n else { throw JSONParseError("unterminated string", at: at) }
        switch p[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          i += 2
        case UInt8(ascii: "u"):
          let unit = try hex4(p, i + 2)
          i += 6
          if unit >= 0xD800 && unit <= 0xDBFF {
            guard i + 1 < n, p[i] == 0x5C, p[i + 1] == UInt8(ascii: "u") else {
              throw JSONParseError("lone surrogate \\u\(hexString(unit)) in string", at: i - 6)
            }
            let low = try hex4(p, i + 2)
            guard low >= 0xDC00 && low <= 0xDFFF else {
              throw JSONParseError("lone surrogate \\u\(hexString(unit)) in string", at: i - 6)
            }
            i += 6
          } else if unit >= 0xDC00 && unit <= 0xDFFF {
            throw JSONParseError("lone surrogate \\u\(hexString(unit)) in string", at: i - 6)
          }
        default:
          throw JSONParseError("invalid escape in string", at: i)
        }
        continue
      }
      if c < 0x20 {
        throw JSONParseError("control character in string must be escaped", at: i)
      }
      i = try validateUTF8Sequence(p, i)
    }
  }

  /// Whether any byte of `w` is below 0x20, '"', '\\' or 0x80 and above (exact test).
  @inline(__always)
  static func hasSpecialByte(_ w: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    // For bytes below 0x80, (b + 0x60) sets the high bit iff b >= 0x20; so a control byte is
    // one whose (b + 0x60) lacks the high bit. Bytes at or above 0x80 are caught by `w & high`.
    let low7 = w & ~high
    let notControl = (low7 &+ ones &* 0x60) & high
    let quote = low7 ^ (ones &* 0x22)
    let backslash = low7 ^ (ones &* 0x5C)
    // A zero byte b of x: (x & 0x7F) + 0x7F has no high bit, and x itself has none.
    let quoteZero = ~((quote &+ ones &* 0x7F) | quote) & high
    let backslashZero = ~((backslash &+ ones &* 0x7F) | backslash) & high
    return (w & high) | (~notControl & high) | quoteZero | backslashZero != 0
  }

  @inline(__always)
  func hex4(_ p: UnsafeBufferPointer<UInt8>, _ at: Int) throws(JSONParseError) -> UInt32 {
    guard at + 4 <= p.count else { throw JSONParseError("invalid \\u escape", at: at) }
    var v: UInt32 = 0
    for k in 0..<4 {
      let c = p[at + k]
      let d: UInt8
      switch c {
      case 0x30...0x39: d = c - 0x30
      case 0x41...0x46: d = c - 0x41 + 10
      case 0x61...0x66: d = c - 0x61 + 10
      default: throw JSONParseError("invalid \\u escape", at: at)
      }
      v = v << 4 | UInt32(d)
    }
    return v
  }

  func hexString(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: false)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
  }

  /// Validates one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates, at most
  /// U+10FFFF) starting at `at`; returns the index after it.
  func validateUTF8Sequence(_ p: UnsafeBufferPointer<UInt8>, _ at: Int)
    throws(JSONParseError) -> Int
  {
    let n = p.count
    let b0 = p[at]
    let length: Int
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch b0 {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      upper = 0x9F
    case 0xF0:
      length = 4
      lower = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      upper = 0x8F
    default: throw JSONParseError("invalid UTF-8", at: at)
    }
    guard at + length <= n else { throw JSONParseError("invalid UTF-8", at: at) }
    let b1 = p[at + 1]
    guard b1 >= lower && b1 <= upper else { throw JSONParseError("invalid UTF-8", at: at) }
    for k in 2..<length where p[at + k] & 0xC0 != 0x80 {
      throw JSONParseError("invalid UTF-8", at: at)
    }
    return at + length
  }

  func unexpected(_ c: UInt8) -> String {
    if c >= 0x80 { return "invalid UTF-8 or unexpected byte" }
    if c >= 0x20 && c < 0x7F { return "unexpected character '\(Character(Unicode.Scalar(c)))'" }
    return "unexpected byte 0x\(String(c, radix: 16))"
  }
}
