import ByteKeys

/// A borrowed view of one value in a parsed document.
///
/// Refs point into the message bytes and the parser's tape: they are valid only inside the
/// closure given to ``JSONParser/parse(_:_:)`` and must not be stored. Reading a ref decodes
/// just the value asked for; object lookups compare raw key bytes without building strings.
///
/// Three words, two of them non-null pointers: a ref and an optional ref travel in registers.
public struct JSONRef {
  /// The first byte of the message (the tape's offsets count from it).
  @usableFromInline let base: UnsafePointer<UInt8>
  @usableFromInline let tape: UnsafePointer<JSONNode>
  @usableFromInline let index: Int

  @inlinable
  init(base: UnsafePointer<UInt8>, tape: UnsafePointer<JSONNode>, index: Int) {
    self.base = base
    self.tape = tape
    self.index = index
  }

  /// The message bytes from `start` to `end` (offsets of the tape).
  @inlinable @inline(__always)
  func bytes(_ start: UInt32, _ end: UInt32) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + Int(start), count: Int(end &- start))
  }

  /// Another value of the same document.
  @inlinable @inline(__always)
  func ref(_ index: Int) -> JSONRef { JSONRef(base: base, tape: tape, index: index) }

  @usableFromInline var node: JSONNode { tape[index] }

  /// The JSON type of the value.
  public enum Kind: Sendable { case null, bool, number, string, array, object }

  public var kind: Kind {
    switch node.kind {
    case .null: .null
    case .bool: .bool
    case .number: .number
    case .string: .string
    case .array: .array
    case .object: .object
    }
  }

  public var isNull: Bool { node.kind == .null }

  /// The exact bytes of the value as they appeared in the message (strings include quotes).
  public var rawBytes: UnsafeBufferPointer<UInt8> {
    let n = node
    switch n.kind {
    case .string:
      return bytes(n.start &- 1, n.end &+ 1)
    default:
      return bytes(n.start, n.end)
    }
  }

  // MARK: Scalars

  public var boolValue: Bool? { node.kind == .bool ? node.flag : nil }

  /// The string, decoding escapes; `nil` when the value is not a string.
  public var stringValue: String? {
    let n = node
    guard n.kind == .string else { return nil }
    let slice = bytes(n.start, n.end)
    if !n.flag { return String(decoding: slice, as: UTF8.self) }
    return JSONRef.unescape(slice)
  }

  /// The bytes between the quotes of a string without escapes; `nil` for other values and
  /// for strings with escapes (read those with ``stringValue``).
  @inlinable
  public var unescapedStringBytes: UnsafeBufferPointer<UInt8>? {
    let n = node
    guard n.kind == .string, !n.flag else { return nil }
    return bytes(n.start, n.end)
  }

  /// True when this is a string equal to `literal`: the same Unicode scalars, compared as
  /// UTF-8 bytes (not as Swift `String`s, which compare by canonical equivalence: `"\u212A"`,
  /// KELVIN SIGN, is not `"K"`). No allocation unless the string has escapes.
  public func stringEquals(_ literal: StaticString) -> Bool {
    let n = node
    guard n.kind == .string, !n.flag else {
      return n.kind == .string && JSONRef.utf8Equal(stringValue ?? "", literal)
    }
    return Int(n.end - n.start) == literal.utf8CodeUnitCount
      && ByteKeys.equal(
        base + Int(n.start), literal.utf8Start, count: literal.utf8CodeUnitCount)
  }

  /// The number as an `Int` when it is integral and fits; `nil` otherwise.
  public var intValue: Int? {
    let n = node
    guard n.kind == .number else { return nil }
    if n.flag {
      var i = Int(n.start)
      let end = Int(n.end)
      let negative = base[i] == UInt8(ascii: "-")
      if negative { i += 1 }
      var v = 0
      while i < end {
        let (m, o1) = v.multipliedReportingOverflow(by: 10)
        let d = Int(base[i] &- 0x30)
        let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
        if o1 || o2 { return nil }
        v = s
        i += 1
      }
      return v
    }
    guard let d = doubleValue, d.rounded() == d, abs(d) < 9.0e15 else { return nil }
    return Int(d)
  }

  /// The number as a `Double`; `nil` when the value is not a number.
  public var doubleValue: Double? {
    let n = node
    guard n.kind == .number else { return nil }
    let text = String(decoding: bytes(n.start, n.end), as: UTF8.self)
    return Double(text)
  }

  /// The number's token exactly as written (e.g. `18446744073709551617`, `1.50`).
  public var numberText: String? {
    let n = node
    guard n.kind == .number else { return nil }
    return String(decoding: rawBytes, as: UTF8.self)
  }

  // MARK: Containers

  /// Number of elements (array) or members (object); 0 for scalars.
  public var count: Int { Int(node.count) }

  /// The member named `key`, or `nil` when absent or when this is not an object.
  /// When a key repeats, the last occurrence wins (as in most JSON implementations).
  @inlinable
  public subscript(key: StaticString) -> JSONRef? {
    let n = node
    guard n.kind == .object else { return nil }
    let length = key.utf8CodeUnitCount
    var found = -1
    var k = index &+ 1
    var left = Int(n.count)
    while left > 0 {
      let keyNode = tape[k]
      if keyNode.flag {
        let decoded = JSONRef.unescape(bytes(keyNode.start, keyNode.end))
        if JSONRef.utf8Equal(decoded, key) { found = k &+ 1 }
      } else if Int(keyNode.end &- keyNode.start) == length,
        ByteKeys.equal(base + Int(keyNode.start), key.utf8Start, count: length)
      {
        found = k &+ 1
      }
      k = Int(tape[k &+ 1].next)
      left &-= 1
    }
    return found < 0 ? nil : ref(found)
  }

  /// The members named `a` and `b`, found in one pass (for decoders of two-member params);
  /// each as ``subscript(key:)`` finds it.
  @inlinable
  public func members(_ a: StaticString, _ b: StaticString) -> (JSONRef?, JSONRef?) {
    let n = node
    guard n.kind == .object else { return (nil, nil) }
    var foundA = -1
    var foundB = -1
    var k = index &+ 1
    for _ in 0..<Int(n.count) {
      let keyNode = tape[k]
      if keyNode.flag {
        let decoded = JSONRef.unescape(bytes(keyNode.start, keyNode.end))
        if JSONRef.utf8Equal(decoded, a) { foundA = k &+ 1 }
        if JSONRef.utf8Equal(decoded, b) { foundB = k &+ 1 }
      } else {
        let key = base + Int(keyNode.start)
        let length = Int(keyNode.end &- keyNode.start)
        if length == a.utf8CodeUnitCount, ByteKeys.equal(key, a.utf8Start, count: length) {
          foundA = k &+ 1
        } else if length == b.utf8CodeUnitCount, ByteKeys.equal(key, b.utf8Start, count: length) {
          foundB = k &+ 1
        }
      }
      k = Int(tape[k &+ 1].next)
    }
    return (
      foundA < 0 ? nil : ref(foundA),
      foundB < 0 ? nil : ref(foundB)
    )
  }

  /// Calls `body` with each member's key bytes (escapes decoded) and value, in document order,
  /// without building strings. Used by the dispatcher to read the envelope in one pass.
  @inlinable
  public func forEachMember(_ body: (UnsafeBufferPointer<UInt8>, JSONRef) -> Void) {
    let n = node
    guard n.kind == .object else { return }
    var k = index + 1
    for _ in 0..<Int(n.count) {
      let keyNode = tape[k]
      let value = ref(k + 1)
      if keyNode.flag {
        var decoded = JSONRef.unescape(bytes(keyNode.start, keyNode.end))
        decoded.withUTF8 { body($0, value) }
      } else {
        body(bytes(keyNode.start, keyNode.end), value)
      }
      k = Int(tape[k + 1].next)
    }
  }

  /// The member named by a runtime string (the last one whose key has exactly its scalars).
  public func member(_ key: String) -> JSONRef? {
    members.last { $0.key.utf8.elementsEqual(key.utf8) }?.value
  }

  /// Members of an object in document order; empty for non-objects.
  public var members: [(key: String, value: JSONRef)] {
    let n = node
    guard n.kind == .object else { return [] }
    var out: [(key: String, value: JSONRef)] = []
    out.reserveCapacity(Int(n.count))
    var k = index + 1
    for _ in 0..<Int(n.count) {
      let key = ref(k).stringValue ?? ""
      let value = ref(k + 1)
      out.append((key, value))
      k = Int(tape[k + 1].next)
    }
    return out
  }

  /// Elements of an array in order; empty for non-arrays.
  public var elements: [JSONRef] {
    let n = node
    guard n.kind == .array else { return [] }
    var out: [JSONRef] = []
    out.reserveCapacity(Int(n.count))
    var k = index + 1
    for _ in 0..<Int(n.count) {
      out.append(ref(k))
      k = Int(tape[k].next)
    }
    return out
  }

  /// Copies the value out of the message into an owned ``JSONValue``.
  public func materialize() -> JSONValue {
    switch node.kind {
    case .null: return .null
    case .bool: return .bool(node.flag)
    case .number: return .number(numberText ?? "0")
    case .string: return .string(stringValue ?? "")
    case .array: return .array(elements.map { $0.materialize() })
    case .object: return .object(members.map { ($0.key, $0.value.materialize()) })
    }
  }

  // MARK: Helpers

  /// Whether `string` is `literal` byte for byte in UTF-8.
  @usableFromInline
  static func utf8Equal(_ string: String, _ literal: StaticString) -> Bool {
    literal.withUTF8Buffer { string.utf8.elementsEqual($0) }
  }

  /// Decodes the escapes of an already validated string body.
  @usableFromInline
  static func unescape(_ s: UnsafeBufferPointer<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(s.count)
    var i = 0
    func hex(_ at: Int) -> UInt32 {
      var v: UInt32 = 0
      for k in 0..<4 {
        let c = s[at + k]
        let d: UInt32 =
          c <= 0x39 ? UInt32(c - 0x30) : (c <= 0x46 ? UInt32(c - 0x41 + 10) : UInt32(c - 0x61 + 10))
        v = v << 4 | d
      }
      return v
    }
    while i < s.count {
      let c = s[i]
      if c != 0x5C {
        out.append(c)
        i += 1
        continue
      }
      let e = s[i + 1]
      i += 2
      switch e {
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = hex(i)
        i += 4
        if scalar >= 0xD800 && scalar <= 0xDBFF {
          let low = hex(i + 2)
          i += 6
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
        out.append(contentsOf: UTF8.encode(u)!)
      default: out.append(e)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
