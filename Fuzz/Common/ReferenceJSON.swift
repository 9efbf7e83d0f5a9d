/// An independent, deliberately simple JSON reader: the oracle the parser fuzzer compares
/// `JSONParser` with.
///
/// It follows RFC 8259 and the service's documented choices (wire-format.md): whitespace is
/// space, tab, LF and CR; text must be valid UTF-8 (checked with the standard library's own
/// decoder, not with code shared with the parser); escapes must form Unicode scalars, so a lone
/// surrogate escape is rejected; nesting deeper than `maxDepth` containers is rejected.
/// Recursive descent, written for obviousness rather than speed; recursion is bounded by
/// `maxDepth`.
struct ReferenceJSON {
  /// A parsed value with the byte range of its token in the input.
  indirect enum Value: Equatable {
    case null
    case bool(Bool)
    /// The number's text exactly as written.
    case number([UInt8])
    /// The decoded string as UTF-8 bytes (compared byte for byte, not as Swift `String`s,
    /// which compare by canonical equivalence).
    case string([UInt8])
    case array([Node])
    case object([(key: [UInt8], value: Node)])

    static func == (a: Value, b: Value) -> Bool {
      switch (a, b) {
      case (.null, .null): return true
      case (.bool(let x), .bool(let y)): return x == y
      case (.number(let x), .number(let y)): return x == y
      case (.string(let x), .string(let y)): return x == y
      case (.array(let x), .array(let y)): return x == y
      case (.object(let x), .object(let y)):
        return x.count == y.count
          && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
      default: return false
      }
    }
  }

  /// A value and where it was in the input (strings: including the quotes).
  struct Node: Equatable {
    var value: Value
    var range: Range<Int>

    /// Equal values, wherever they were.
    static func == (a: Node, b: Node) -> Bool { a.value == b.value }
  }

  struct Rejection: Error {}

  let bytes: [UInt8]
  let maxDepth: Int
  private var i = 0

  /// Parses a whole document; `nil` when it is not acceptable.
  static func parse(_ bytes: [UInt8], maxDepth: Int) -> Node? {
    var reader = ReferenceJSON(bytes: bytes, maxDepth: maxDepth)
    do {
      reader.skipWhitespace()
      let node = try reader.value(depth: 0)
      reader.skipWhitespace()
      guard reader.i == bytes.count else { return nil }
      return node
    } catch {
      return nil
    }
  }

  private init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

  private mutating func skipWhitespace() {
    while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1 }
  }

  private mutating func expect(_ c: UInt8) throws(Rejection) {
    guard peek == c else { throw Rejection() }
    i += 1
  }

  private mutating func value(depth: Int) throws(Rejection) -> Node {
    let start = i
    guard let c = peek else { throw Rejection() }
    switch c {
    case UInt8(ascii: "["):
      guard depth < maxDepth else { throw Rejection() }
      i += 1
      var items: [Node] = []
      skipWhitespace()
      if peek == UInt8(ascii: "]") {
        i += 1
      } else {
        while true {
          skipWhitespace()
          items.append(try value(depth: depth + 1))
          skipWhitespace()
          if peek == UInt8(ascii: ",") {
            i += 1
            continue
          }
          try expect(UInt8(ascii: "]"))
          break
        }
      }
      return Node(value: .array(items), range: start..<i)
    case UInt8(ascii: "{"):
      guard depth < maxDepth else { throw Rejection() }
      i += 1
      var members: [(key: [UInt8], value: Node)] = []
      skipWhitespace()
      if peek == UInt8(ascii: "}") {
        i += 1
      } else {
        while true {
          skipWhitespace()
          guard peek == UInt8(ascii: "\"") else { throw Rejection() }
          let key = try string()
          skipWhitespace()
          try expect(UInt8(ascii: ":"))
          skipWhitespace()
          members.append((key, try value(depth: depth + 1)))
          skipWhitespace()
          if peek == UInt8(ascii: ",") {
            i += 1
            continue
          }
          try expect(UInt8(ascii: "}"))
          break
        }
      }
      return Node(value: .object(members), range: start..<i)
    case UInt8(ascii: "\""):
      let s = try string()
      return Node(value: .string(s), range: start..<i)
    case UInt8(ascii: "t"):
      try word("true")
      return Node(value: .bool(true), range: start..<i)
    case UInt8(ascii: "f"):
      try word("false")
      return Node(value: .bool(false), range: start..<i)
    case UInt8(ascii: "n"):
      try word("null")
      return Node(value: .null, range: start..<i)
    default:
      try number()
      return Node(value: .number(Array(bytes[start..<i])), range: start..<i)
    }
  }

  private mutating func word(_ w: String) throws(Rejection) {
    for c in w.utf8 { try expect(c) }
  }

  private func isDigit(_ c: UInt8?) -> Bool { c.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
  private mutating func number() throws(Rejection) {
    if peek == UInt8(ascii: "-") { i += 1 }
    guard isDigit(peek) else { throw Rejection() }
    if peek == UInt8(ascii: "0") {
      i += 1
    } else {
      while isDigit(peek) { i += 1 }
    }
    if peek == UInt8(ascii: ".") {
      i += 1
      guard isDigit(peek) else { throw Rejection() }
      while isDigit(peek) { i += 1 }
    }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      i += 1
      if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
      guard isDigit(peek) else { throw Rejection() }
      while isDigit(peek) { i += 1 }
    }
  }

  /// A string token at `i` (on its opening quote); returns the decoded UTF-8 bytes.
  private mutating func string() throws(Rejection) -> [UInt8] {
    try expect(UInt8(ascii: "\""))
    var scalars = String.UnicodeScalarView()
    var run: [UInt8] = []
    /// Unescaped bytes are collected in runs and decoded by the standard library.
    func flush(_ run: inout [UInt8], into scalars: inout String.UnicodeScalarView) throws(Rejection)
    {
      guard !run.isEmpty else { return }
      guard let text = String(validating: run, as: UTF8.self) else { throw Rejection() }
      scalars.append(contentsOf: text.unicodeScalars)
      run.removeAll()
    }
    while true {
      guard let c = peek else { throw Rejection() }
      i += 1
      switch c {
      case UInt8(ascii: "\""):
        try flush(&run, into: &scalars)
        return Array(String(scalars).utf8)
      case UInt8(ascii: "\\"):
        try flush(&run, into: &scalars)
        guard let e = peek else { throw Rejection() }
        i += 1
        switch e {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var unit = try hex4()
          if (0xD800...0xDBFF).contains(unit) {
            try expect(UInt8(ascii: "\\"))
            try expect(UInt8(ascii: "u"))
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw Rejection() }
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(unit) else { throw Rejection() }  // lone low half
          scalars.append(scalar)
        default:
          throw Rejection()
        }
      case 0..<0x20:
        throw Rejection()
      default:
        run.append(c)
      }
    }
  }

  private mutating func hex4() throws(Rejection) -> UInt32 {
    guard i + 4 <= bytes.count else { throw Rejection() }
    guard let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16),
      bytes[i..<i + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
    else { throw Rejection() }
    i += 4
    return v
  }
}
