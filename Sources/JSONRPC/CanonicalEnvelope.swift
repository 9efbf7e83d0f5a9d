import ByteKeys

/// A request spelled the way nearly every client spells one:
/// `{"jsonrpc":"2.0","id":<id>,"method":"<name>","params":{...}}` (or without `"params"`),
/// those members in that order, no whitespace between them, the id an integer or a string and
/// the method name plain printable ASCII (no escapes).
///
/// The dispatcher's fast layer. Recognising this spelling proves everything the envelope rules
/// check: `jsonrpc` is `"2.0"`, the id is a number or a string, the method is a string, no
/// member repeats, nothing else is in the object. Only the params still need parsing, and
/// only they are: the parser builds a tape for the params object alone, which is most of what
/// a small request costs. From there the request takes the same path as any other
/// (``Dispatcher``'s `dispatch`), so a method cannot tell how its request was read.
///
/// Anything else, including a canonical prefix whose params do not parse, is not recognised
/// and goes to the general path, which reads the whole message and gives the error its exact
/// offset. Recognition never fails a message; it only declines it.
struct CanonicalEnvelope {
  /// The id's bytes as written (a string's quotes included).
  let id: RequestIDToken
  /// The method name's bytes (between the quotes).
  let method: UnsafeBufferPointer<UInt8>
  /// The bytes of the params value, from its `{` to the envelope's closing `}` (excluded):
  /// the params object and any whitespace after it. `nil`: no params member.
  let params: UnsafeRawBufferPointer?

  private static let head: StaticString = #"{"jsonrpc":"2.0","id":"#
  private static let methodKey: StaticString = #","method":""#
  private static let paramsKey: StaticString = #","params":"#

  /// Recognises `message`, or returns nil.
  @inline(__always)
  init?(_ message: UnsafeRawBufferPointer) {
    let n = message.count
    guard n > Self.head.utf8CodeUnitCount + 16, let base = message.baseAddress else {
      return nil
    }
    let p = base.assumingMemoryBound(to: UInt8.self)
    guard Self.matches(p, n, 0, Self.head) else { return nil }
    var i = Self.head.utf8CodeUnitCount

    // The id: an integer (JSON's grammar: no leading zero) or a plain string.
    let idStart = i
    let idKind: RequestIDToken.Kind
    if p[i] == 0x22 {  // "
      let close = JSONBytes.plainStringEnd(p, n, i)
      guard close > 0 else { return nil }
      i = close &+ 1
      idKind = .string
    } else {
      if p[i] == 0x2D { i &+= 1 }  // -
      guard i < n, Self.isDigit(p[i]) else { return nil }
      if p[i] == 0x30 {
        i &+= 1
      } else {
        repeat { i &+= 1 } while i < n && Self.isDigit(p[i])
      }
      idKind = .number
    }
    let idBytes = UnsafeBufferPointer(start: p + idStart, count: i &- idStart)

    // The method: `,"method":"` then a plain name and its closing quote.
    guard Self.matches(p, n, i, Self.methodKey) else { return nil }
    let quote = i &+ Self.methodKey.utf8CodeUnitCount &- 1
    let close = JSONBytes.plainStringEnd(p, n, quote)
    guard close > 0 else { return nil }
    method = UnsafeBufferPointer(start: p + (quote &+ 1), count: close &- quote &- 1)
    i = close &+ 1

    // The end: `}` and nothing but whitespace after it.
    var last = n &- 1
    while last > i && JSONBytes.isWhitespace(p[last]) { last &-= 1 }
    guard p[last] == 0x7D else { return nil }  // }
    if i == last {
      params = nil
    } else {
      guard Self.matches(p, n, i, Self.paramsKey) else { return nil }
      let start = i &+ Self.paramsKey.utf8CodeUnitCount
      // An object: arrays and scalars are errors the general path words.
      guard start < last, p[start] == 0x7B else { return nil }  // {
      params = UnsafeRawBufferPointer(start: p + start, count: last &- start)
    }
    id = RequestIDToken(raw: idBytes, kind: idKind, hasEscapes: false)
  }

  @inline(__always)
  private static func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }

  /// Whether `literal` is at `p[at...]` (within `n`).
  @inline(__always)
  private static func matches(
    _ p: UnsafePointer<UInt8>, _ n: Int, _ at: Int, _ literal: StaticString
  ) -> Bool {
    let count = literal.utf8CodeUnitCount
    return n &- at >= count && ByteKeys.equal(p + at, literal.utf8Start, count: count)
  }
}

/// A request's id as the dispatcher uses it: the exact bytes to echo in the reply and what
/// kind of JSON value they are. Read from the parser's tape (``init(_:)``) or recognised in the
/// message bytes (``CanonicalEnvelope``). Valid while the message is.
struct RequestIDToken {
  enum Kind { case string, number, null }
  /// The value as written; a string's quotes included.
  let raw: UnsafeBufferPointer<UInt8>
  let kind: Kind
  /// A string with escapes (its text must be decoded).
  let hasEscapes: Bool

  /// The id `ref` (a string, a number or null: the dispatcher has checked).
  init(_ ref: JSONRef) {
    raw = ref.rawBytes
    switch ref.kind {
    case .string: kind = .string
    case .number: kind = .number
    default: kind = .null
    }
    hasEscapes = ref.kind == .string && ref.unescapedStringBytes == nil
  }

  init(raw: UnsafeBufferPointer<UInt8>, kind: Kind, hasEscapes: Bool) {
    self.raw = raw
    self.kind = kind
    self.hasEscapes = hasEscapes
  }

  /// A string id's text (escapes decoded).
  var text: String {
    let inner = UnsafeBufferPointer(rebasing: raw.dropFirst().dropLast())
    return hasEscapes ? JSONRef.unescape(inner) : String(decoding: inner, as: UTF8.self)
  }
}
