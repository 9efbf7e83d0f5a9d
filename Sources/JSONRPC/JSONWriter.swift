/// Appends compact JSON to a byte buffer.
///
/// Commas are placed automatically: call ``key(_:)`` before each member value and
/// ``element()`` before each array element. Strings are escaped so that the output is always
/// valid UTF-8 JSON. Used on the hot path to write replies straight into a connection's
/// output buffer.
public struct JSONWriter {
  public var bytes: ByteBuffer
  /// Whether the next key or element needs a leading comma. Set it to write a fragment of
  /// members that will be spliced after other members.
  public var needsComma = false

  public init(capacity: Int = 256) {
    bytes = ByteBuffer(capacity: capacity)
  }

  public init(into bytes: ByteBuffer) {
    self.bytes = bytes
  }

  // MARK: Structure

  @inlinable @inline(__always) public mutating func beginObject() {
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
  }

  @inlinable @inline(__always) public mutating func endObject() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  @inlinable @inline(__always) public mutating func beginArray() {
    bytes.append(UInt8(ascii: "["))
    needsComma = false
  }

  @inlinable @inline(__always) public mutating func endArray() {
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes `"name":` (with a leading comma when needed). `name` must need no escaping.
  @inlinable @inline(__always) public mutating func key(_ name: StaticString) {
    // One capacity check for the whole `,"name":`.
    let n = name.utf8CodeUnitCount
    let comma = needsComma ? 1 : 0
    let to = bytes.reserveFree(n + 3 + comma)
    to.pointee = UInt8(ascii: ",")
    (to + comma).pointee = UInt8(ascii: "\"")
    (to + comma + 1).update(from: name.utf8Start, count: n)
    (to + comma + 1 + n).pointee = UInt8(ascii: "\"")
    (to + comma + 2 + n).pointee = UInt8(ascii: ":")
    bytes.written.count += n + 3 + comma
    needsComma = false
  }

  /// Writes a member name known only at run time (escaped). (Named apart from
  /// ``key(_:)-(StaticString)`` so that literals never take the slower, escaping path.)
  public mutating func key(escaping name: String) {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    appendEscaped(name)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// Writes `text` as it is: a run of structure and keys that the caller knows is right where
  /// it goes (`{"ads":[{"adId":`, `},"responseInfo":`), in one capacity check where
  /// ``beginObject()``, ``key(_:)`` and the others would take one each. What follows needs a
  /// comma unless `text` ends with `{`, `[`, `:` or `,`.
  @inlinable @inline(__always) public mutating func verbatim(_ text: StaticString) {
    let n = text.utf8CodeUnitCount
    bytes.append(UnsafeRawPointer(text.utf8Start), count: n)
    let last = text.utf8Start[n - 1]
    needsComma =
      !(last == UInt8(ascii: "{") || last == UInt8(ascii: "[") || last == UInt8(ascii: ":")
      || last == UInt8(ascii: ","))
  }

  /// Marks the start of an array element (writes a comma when needed).
  @inlinable @inline(__always) public mutating func element() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    needsComma = false
  }

  /// A value a reply holds more than once (a load's response info, in each ad and beside
  /// them): written in full the first time, its bytes copied from there after.
  public struct WrittenOnce {
    /// Where the first writing is in the writer's bytes.
    @usableFromInline var range: Range<Int>?

    public init() {}

    /// Whether it has been written.
    public var isWritten: Bool { range != nil }

    /// Writes the value with `body` the first time, a copy of those bytes after. (Only
    /// within the writer that wrote it first, with nothing dropped since.)
    @inlinable
    public mutating func write(into w: inout JSONWriter, _ body: (inout JSONWriter) -> Void) {
      if let range {
        w.bytes.appendCopy(of: range)
        w.needsComma = true
        return
      }
      let start = w.bytes.count
      body(&w)
      range = start..<w.bytes.count
    }
  }

  // MARK: Values

  @inlinable public mutating func null() {
    bytes.append("null")
    needsComma = true
  }

  /// `{"name":true}` or `{"name":false}` in one reservation: a result that is one flag
  /// (`{"released":true}`), written as `beginObject`, `key`, `bool` and `endObject` would.
  public mutating func flagObject(_ name: StaticString, _ value: Bool) {
    let n = name.utf8CodeUnitCount
    let total = n + (value ? 9 : 10)
    let to = bytes.reserveFree(total)
    to.pointee = UInt8(ascii: "{")
    (to + 1).pointee = UInt8(ascii: "\"")
    (to + 2).update(from: name.utf8Start, count: n)
    (to + 2 + n).pointee = UInt8(ascii: "\"")
    (to + 3 + n).pointee = UInt8(ascii: ":")
    let word: StaticString = value ? "true}" : "false}"
    (to + 4 + n).update(from: word.utf8Start, count: word.utf8CodeUnitCount)
    bytes.written.count += total
    needsComma = true
  }

  /// (Not `@inlinable`: inlined into other modules, Swift 6.3.1 -O inverted runtime values
  /// here; a release-build end-to-end run in `make test` guards it.)
  public mutating func bool(_ v: Bool) {
    if v {
      bytes.append("true")
    } else {
      bytes.append("false")
    }
    needsComma = true
  }

  public mutating func int(_ v: Int) {
    bytes.appendDecimal(v)
    needsComma = true
  }

  public mutating func double(_ v: Double) {
    if v.isFinite { bytes.append(contentsOf: JSONWriter.format(v).utf8) } else { null() }
    needsComma = true
  }

  /// A duration or another measure in `v` units to the microunit (`0.000063`, `0.2`, `5`):
  /// rounded to six fraction digits, trailing zeros dropped. Written as digits directly, where
  /// ``double(_:)`` builds the shortest round-tripping text (a `String`) first. Values it
  /// cannot write so (negative, not finite, 1e12 or more) are written by ``double(_:)``.
  public mutating func microunits(_ v: Double) {
    guard v >= 0, v < 1e12 else {
      double(v)
      return
    }
    let micros = UInt64((v * 1_000_000).rounded())
    let wholePart = micros / 1_000_000
    var fraction = micros % 1_000_000
    // At most 12 digits (below 1e12), a point and 6 fraction digits: one reservation.
    let to = bytes.reserveFree(19)
    var n = 1
    var rest = wholePart / 10
    while rest > 0 {
      n += 1
      rest /= 10
    }
    var whole = wholePart
    var i = n
    repeat {
      i -= 1
      to[i] = UInt8(truncatingIfNeeded: 0x30 &+ whole % 10)
      whole /= 10
    } while i > 0
    if fraction != 0 {
      var digits = 6
      while fraction % 10 == 0 {
        fraction /= 10
        digits -= 1
      }
      to[n] = UInt8(ascii: ".")
      var j = n + digits
      while j > n {
        to[j] = UInt8(truncatingIfNeeded: 0x30 &+ fraction % 10)
        fraction /= 10
        j -= 1
      }
      n += digits + 1
    }
    bytes.written.count += n
    needsComma = true
  }

  public mutating func string(_ s: String) {
    appendEscaped(s)
    needsComma = true
  }

  /// A string whose UTF-8 bytes are `text`, which the caller knows needs no escape (no
  /// control character, quote or backslash): copied between quotes as it is.
  public mutating func string(needingNoEscape text: UnsafeRawBufferPointer) {
    assert(!text.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }, "a byte needs an escape")
    let n = text.count
    let to = bytes.reserveFree(n + 2)
    to.pointee = UInt8(ascii: "\"")
    if let base = text.baseAddress {
      (to + 1).update(from: base.assumingMemoryBound(to: UInt8.self), count: n)
    }
    (to + 1 + n).pointee = UInt8(ascii: "\"")
    bytes.written.count += n + 2
    needsComma = true
  }

  public mutating func string(_ s: String?) {
    if let s { string(s) } else { null() }
  }

  /// Splices bytes that are already exactly one valid JSON value.
  @inlinable
  public mutating func raw(_ json: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: json)
    needsComma = true
  }

  /// Splices bytes that are already exactly one valid JSON value.
  public mutating func raw(_ json: [UInt8]) {
    json.withUnsafeBufferPointer { raw($0) }
  }

  /// Splices bytes that are already exactly one valid JSON value.
  public mutating func raw(_ json: ByteBuffer) {
    bytes.append(contentsOf: json)
    needsComma = true
  }

  /// Splices bytes that are already exactly one valid JSON value.
  public mutating func raw(_ json: some Sequence<UInt8>) {
    bytes.append(contentsOf: json)
    needsComma = true
  }

  public mutating func value(_ v: JSONValue) {
    switch v {
    case .null: null()
    case .bool(let b): bool(b)
    case .number(let text):
      bytes.append(contentsOf: text.utf8)
      needsComma = true
    case .string(let s): string(s)
    case .array(let items):
      beginArray()
      for item in items {
        element()
        value(item)
      }
      endArray()
    case .object(let members):
      beginObject()
      for (k, item) in members {
        key(escaping: k)
        value(item)
      }
      endObject()
    case .raw(let bytes): raw(bytes)
    }
  }

  // MARK: Helpers

  /// Shortest round-tripping text for a finite double (`4.5`, `30`, `1.9138755980861244`).
  public static func format(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return v.description
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Whether a byte of `w` may need an escape: certainly when one is a control character,
  /// '"' or '\\'; possibly (a false alarm) when a byte at or above 0x80 has one of those in
  /// its low seven bits. Never no when one does.
  @inline(__always)
  static func mayNeedEscape(_ w: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let low7 = w & ~high
    // (b + 0x60) has its high bit set iff b >= 0x20, for b below 0x80.
    let control = ~((low7 &+ ones &* 0x60) | w) & high
    let quote = low7 ^ (ones &* 0x22)
    let backslash = low7 ^ (ones &* 0x5C)
    let quoteZero = ~((quote &+ ones &* 0x7F) | quote) & high
    let backslashZero = ~((backslash &+ ones &* 0x7F) | backslash) & high
    return control | quoteZero | backslashZero != 0
  }

  @usableFromInline mutating func appendEscaped(_ s: String) {
    var s = s
    s.withUTF8 { u in
      // The common string needs no escape: copy it as it is scanned, quotes around it, in one
      // reservation.
      let n = u.count
      // (Eight bytes more than the string and its quotes: room for a short string's word.)
      let to = bytes.reserveFree(n + 10)
      to.pointee = UInt8(ascii: "\"")
      var i = 0
      if let base = u.baseAddress {
        // Eight bytes at a time while none of them needs an escape (`mayNeedEscape` can say
        // yes wrongly for a byte at or above 0x80; the byte loop then decides).
        let from = UnsafeRawPointer(base)
        let into = UnsafeMutableRawPointer(to + 1)
        if n >= 8 {
          while i + 8 <= n {
            let w = from.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if Self.mayNeedEscape(w) { break }
            into.storeBytes(of: w, toByteOffset: i, as: UInt64.self)
            i += 8
          }
          // The last few bytes: the string's last eight, which overlap bytes already copied.
          if i < n, i + 8 > n {
            let w = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            if !Self.mayNeedEscape(w) {
              into.storeBytes(of: w, toByteOffset: n - 8, as: UInt64.self)
              i = n
            }
          }
        } else if n > 0 {
          // A short string: its bytes in one word, the rest spaces (which need no escape),
          // written whole (the closing quote then overwrites the first space).
          var w: UInt64 = 0x2020_2020_2020_2020
          withUnsafeMutableBytes(of: &w) {
            $0.baseAddress!.copyMemory(from: from, byteCount: n)
          }
          if !Self.mayNeedEscape(w) {
            into.storeBytes(of: w, as: UInt64.self)
            i = n
          }
        }
      }
      while i < n {
        let c = u[i]
        if c < 0x20 || c == 0x22 || c == 0x5C { break }
        (to + 1 + i).pointee = c
        i += 1
      }
      if i == n {
        (to + 1 + n).pointee = UInt8(ascii: "\"")
        bytes.written.count += n + 2
        return
      }
      // Keep the quote and the clean prefix; escape from the first special byte on.
      bytes.written.count += 1 + i
      var runStart = i
      while i < u.count {
        let c = u[i]
        if c >= 0x20 && c != 0x22 && c != 0x5C {
          i += 1
          continue
        }
        if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart..<i])) }
        bytes.append(UInt8(ascii: "\\"))
        switch c {
        case 0x22: bytes.append(0x22)
        case 0x5C: bytes.append(0x5C)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
          bytes.append("u00")
          bytes.append(JSONWriter.hexDigits[Int(c >> 4)])
          bytes.append(JSONWriter.hexDigits[Int(c & 0xF)])
        }
        i += 1
        runStart = i
      }
      if runStart < u.count {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart..<u.count]))
      }
      bytes.append(UInt8(ascii: "\""))
    }
  }
}
