/// A validating JSON parser that builds a flat tape of ``JSONNode``s over the caller's bytes.
///
/// Why not Foundation: `JSONSerialization` turns numbers into floating point (ids such as
/// `2^64+1` must round-trip byte for byte) and `JSONDecoder` costs several microseconds per
/// small request. This parser validates everything RFC 8259 requires (grammar, UTF-8, escapes,
/// surrogate pairs) in one pass, without recursion (nesting is limited only by
/// ``maxDepth``), and decodes nothing: strings and numbers are read on demand through
/// ``JSONRef``.
///
/// One parser is reused for many messages; it is not thread-safe and belongs to the loop
/// thread that owns the connection.
public final class JSONParser {
  /// Deepest nesting of arrays and objects accepted; deeper input is a parse error.
  public var maxDepth: Int

  @usableFromInline var nodes = NodeTape(capacity: 64)

  deinit { nodes.deallocate() }

  public init(maxDepth: Int = 128) {
    self.maxDepth = maxDepth
  }

  /// Parses `bytes` and calls `body` with the root value.
  ///
  /// The ``JSONRef`` handed to `body` (and every ref derived from it) is valid only during the
  /// call: it points into `bytes` and into this parser's tape.
  public func parse<R>(
    _ bytes: UnsafeRawBufferPointer,
    _ body: (JSONRef) throws -> R
  ) throws -> R {
    try parse(bytes, depthOutside: 0, body)
  }

  /// Parses `bytes`, a value nested `depthOutside` containers deep in a larger document whose
  /// other parts the caller has read (the dispatcher's ``CanonicalEnvelope``): the depth limit
  /// counts those containers. The refs' offsets are relative to `bytes`.
  func parse<R>(
    _ bytes: UnsafeRawBufferPointer, depthOutside: Int, _ body: (JSONRef) throws -> R
  ) throws -> R {
    try build(bytes, depthOutside: depthOutside)
    return try body(
      JSONRef(
        base: bytes.bindMemory(to: UInt8.self).baseAddress!, tape: UnsafePointer(nodes.base),
        index: 0))
  }

  /// Parses and materialises the whole document as a ``JSONValue`` (tests, configuration).
  public func parseValue(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
    try parse(bytes) { $0.materialize() }
  }

  /// Convenience for tests and tooling: parses `text`.
  public func parseValue(_ text: String) throws -> JSONValue {
    var text = text
    return try text.withUTF8 { try parseValue(UnsafeRawBufferPointer($0)) }
  }

  // MARK: - Tape construction

  private func build(_ raw: UnsafeRawBufferPointer, depthOutside: Int) throws(JSONParseError) {
    guard raw.count < Int(UInt32.max) else {
      throw JSONParseError("message larger than 4 GiB", at: 0)
    }
    nodes.count = 0
    guard let p = raw.bindMemory(to: UInt8.self).baseAddress, raw.count > 0 else {
      throw JSONParseError("unexpected end of input", at: 0)
    }
    let maxDepth = self.maxDepth - depthOutside
    // A request's params are most often a flat object of plain strings.
    if depthOutside > 0, maxDepth > 0, TapeBuilder.flatObject(p, raw.count, into: &nodes) {
      return
    }
    var failure = JSONParseFailure(.endOfInput, at: 0)
    guard TapeBuilder.build(p, raw.count, maxDepth: maxDepth, into: &nodes, failure: &failure)
    else { throw failure.error(maxDepth: self.maxDepth) }
  }
}

extension TapeBuilder {
  /// Builds the tape of `p[0..<n]` when it is an object whose members are all plain strings
  /// (printable ASCII but `"` and `\`), keys and values, with no whitespace anywhere:
  /// `{"adId":"…","key":"…"}`, the params of most requests. The nodes are the ones
  /// ``fastRun(_:_:_:_:)`` writes for the same bytes. Returns false for anything else, leaving
  /// the tape to ``build(_:_:maxDepth:into:failure:)`` (which starts over): it proves the bytes
  /// are JSON only when it returns true.
  static func flatObject(_ p: UnsafePointer<UInt8>, _ n: Int, into tape: inout NodeTape) -> Bool {
    guard n >= 2, p[0] == 0x7B else { return false }  // {
    // A member takes 6 bytes at least (`"":"",`) and 2 nodes: room for every one there can be.
    while tape.capacity < n / 3 &+ 4 { tape.grow() }
    let base = tape.base
    var count = 1
    var members = 0
    var i = 1
    if p[1] != 0x7D {  // }
      while true {
        guard i < n, p[i] == 0x22 else { return false }  // "
        let keyEnd = JSONBytes.plainStringEnd(p, n, i)
        guard keyEnd >= 0, keyEnd &+ 2 < n, p[keyEnd &+ 1] == 0x3A, p[keyEnd &+ 2] == 0x22 else {
          return false
        }
        (base + count).initialize(
          to: JSONNode(kind: .string, flag: false, start: i &+ 1, end: keyEnd, next: count &+ 1))
        i = keyEnd &+ 2
        let valueEnd = JSONBytes.plainStringEnd(p, n, i)
        guard valueEnd >= 0 else { return false }
        (base + (count &+ 1)).initialize(
          to: JSONNode(
            kind: .string, flag: false, start: i &+ 1, end: valueEnd, next: count &+ 2))
        count &+= 2
        members &+= 1
        i = valueEnd &+ 1
        guard i < n else { return false }
        if p[i] == 0x2C {  // ,
          i &+= 1
          continue
        }
        guard p[i] == 0x7D else { return false }
        break
      }
    }
    // The closing brace must end the bytes.
    guard i &+ 1 == n else { return false }
    base.initialize(
      to: JSONNode(kind: .object, flag: false, start: 0, end: n, count: members, next: count))
    tape.count = count
    return true
  }
}

/// The parsing state machine: one pass over the bytes, no recursion, no allocation (but for
/// the tape's growth).
///
/// Two layers. ``fastRun(_:_:_:_:)`` reads the common tokens (keys and strings of printable
/// ASCII, numbers, literals, brackets, whitespace) with its whole state in local variables,
/// so that it stays in registers, and calls nothing: what it does not handle (a string with
/// an escape, a multi-byte UTF-8 sequence or a control character; a full tape) makes it
/// return, with the state saved in a ``State``, to ``build(_:_:maxDepth:into:failure:)``,
/// which handles that with the general code and runs it again from where it stopped.
///
/// The open containers need no stack of their own: while a container is open, its node's
/// `next` holds its parent's index + 1 (0 for none) and its `count` the members (or elements)
/// completed so far; closing it writes `end` and the final `next`.
///
/// The bytes are read through an `UnsafePointer`, without bounds checks: every read of `p[i]`
/// follows a test of `i < n` on the same path (of `n - i >= 4` for a 4-byte word; see
/// ``JSONBytes`` for its 16-byte blocks). Indices are below `n` < 2^32 (``JSONParser`` refuses
/// larger messages), so the index arithmetic cannot overflow and uses the wrapping operators
/// (`&+`), which skip the overflow checks.
private enum TapeBuilder {
  /// What the next token is expected to be.
  enum Mode {
    /// An object's key (after whitespace).
    case key
    /// The `:` after a key (after whitespace).
    case colon
    /// A value (after whitespace).
    case value
    /// A value is complete: `,`, a closing bracket, or (at the top level) the end.
    case afterValue
  }

  /// Why ``fastRun(_:_:_:_:)`` returned.
  enum Exit {
    case done
    case failed
    /// The tape has no room for the two nodes a pass may append.
    case needsRoom
    /// The string whose opening quote is at `State.i` is not plain printable ASCII (or is
    /// unterminated): ``generalString(_:_:_:_:_:)`` reads it.
    case generalString
  }

  /// The parse's state between two runs of ``fastRun(_:_:_:_:)``.
  struct State {
    var i = 0
    var mode = Mode.value
    /// The tape index of the innermost open container; -1: none.
    var open = -1
    /// The closing bracket of the innermost open container, `}` or `]` (when one is open).
    var closer: UInt8 = 0
    /// Containers that may still be opened inside it.
    var depthLeft: Int
    var failure = JSONParseFailure(.endOfInput, at: 0)
  }

  /// Parses `p[0..<n]` (n >= 1) into `tape`; returns whether it is JSON, and when not, why
  /// in `failure`.
  static func build(
    _ p: UnsafePointer<UInt8>, _ n: Int, maxDepth: Int, into tape: inout NodeTape,
    failure: inout JSONParseFailure
  ) -> Bool {
    var state = State(depthLeft: maxDepth)
    tape.count = 0
    while true {
      switch fastRun(p, n, &state, &tape) {
      case .done:
        return true
      case .failed:
        failure = state.failure
        return false
      case .needsRoom:
        tape.grow()
      case .generalString:
        let end = generalString(p, n, state.i, &tape, &failure)
        guard end >= 0 else { return false }
        state.i = end
        state.mode = state.mode == .key ? .colon : .afterValue
      }
    }
  }

  /// Parses from `state` until the end, a failure, or a token it leaves to
  /// ``build(_:_:maxDepth:into:failure:)``.
  @inline(never)
  static func fastRun(
    _ p: UnsafePointer<UInt8>, _ n: Int, _ state: inout State, _ tape: inout NodeTape
  ) -> Exit {
    let base = tape.base
    let capacity = tape.capacity
    var count = tape.count
    var i = state.i
    var mode = state.mode
    var open = state.open
    var closer = state.closer
    var depthLeft = state.depthLeft

    /// Saves the state for the next run.
    @inline(__always)
    func suspend(_ exit: Exit) -> Exit {
      tape.count = count
      state.i = i
      state.mode = mode
      state.open = open
      state.closer = closer
      state.depthLeft = depthLeft
      return exit
    }

    /// Appends a node (the room was checked at the top of the pass).
    @inline(__always)
    func append(_ kind: JSONNode.Kind, _ flag: Bool, _ start: Int, _ end: Int, next: Int) {
      (base + count).initialize(
        to: JSONNode(kind: kind, flag: flag, start: start, end: end, next: next))
      count &+= 1
    }

    /// Ends the parse with a failure.
    @inline(__always)
    func fail(_ problem: JSONParseFailure.Problem, at offset: Int, detail: UInt32 = 0) -> Exit {
      state.failure = JSONParseFailure(problem, at: offset, detail: detail)
      return .failed
    }

    run: while true {
      // A pass reads a key and its value, or a value, and appends at most two nodes.
      guard capacity &- count >= 2 else { return suspend(.needsRoom) }

      // Whitespace is tested for after the common case fails (a token right there), and
      // skipped where it is met.
      if mode == .key {
        if _slowPath(i >= n || p[i] != 0x22) {
          i = JSONBytes.skipWhitespace(p, n, i)
          guard i < n else { return fail(.endOfInput, at: i) }
          guard p[i] == 0x22 else { return fail(.expectedKey, at: i) }
        }
        let end = JSONBytes.plainStringEnd(p, n, i)
        guard end >= 0 else { return suspend(.generalString) }
        append(.string, false, i &+ 1, end, next: count &+ 1)
        i = end &+ 1
        mode = .colon
      }

      if mode == .colon {
        if _slowPath(i >= n || p[i] != 0x3A) {  // :
          i = JSONBytes.skipWhitespace(p, n, i)
          guard i < n, p[i] == 0x3A else { return fail(.expectedColon, at: i) }
        }
        i &+= 1
        mode = .value
      }

      if mode == .value {
        guard i < n else { return fail(.endOfInput, at: i) }
        var c = p[i]
        dispatch: while true {
          switch c {
          case 0x22:  // "
            let end = JSONBytes.plainStringEnd(p, n, i)
            guard end >= 0 else { return suspend(.generalString) }
            append(.string, false, i &+ 1, end, next: count &+ 1)
            i = end &+ 1
          case 0x7B, 0x5B:  // { [
            guard depthLeft > 0 else { return fail(.tooDeep, at: i) }
            depthLeft &-= 1
            closer = c &+ 2  // { } and [ ] are two apart
            append(c == 0x7B ? .object : .array, false, i, i, next: open &+ 1)
            open = count &- 1
            i = JSONBytes.skipWhitespace(p, n, i &+ 1)
            guard i < n, p[i] == closer else {
              mode = closer == 0x7D ? .key : .value
              continue run
            }
            i &+= 1
            close(base, count, &open, &closer, &depthLeft, end: i, counting: 0)
          case 0x74:  // t
            guard n &- i >= 4, word32(p, i) == 0x6575_7274 else {  // "true"
              return fail(.invalidLiteral, at: i)
            }
            append(.bool, true, i, i &+ 4, next: count &+ 1)
            i &+= 4
          case 0x66:  // f
            guard n &- i >= 5, word32(p, i) == 0x736C_6166, p[i &+ 4] == 0x65 else {  // "fals" "e"
              return fail(.invalidLiteral, at: i)
            }
            append(.bool, false, i, i &+ 5, next: count &+ 1)
            i &+= 5
          case 0x6E:  // n
            guard n &- i >= 4, word32(p, i) == 0x6C6C_756E else {  // "null"
              return fail(.invalidLiteral, at: i)
            }
            append(.null, false, i, i &+ 4, next: count &+ 1)
            i &+= 4
          case 0x2D, 0x30...0x39:  // - 0-9
            let (end, integer) = number(p, n, i, &state.failure)
            guard end >= 0 else { return .failed }
            append(.number, integer, i, end, next: count &+ 1)
            i = end
          case 0x20, 0x0A, 0x0D, 0x09:
            i = JSONBytes.skipWhitespace(p, n, i &+ 1)
            guard i < n else { return fail(.endOfInput, at: i) }
            c = p[i]
            continue dispatch
          default:
            return fail(.unexpectedByte, at: i, detail: UInt32(c))
          }
          break
        }
        mode = .afterValue
      }

      // A value is complete: continue in the enclosing container, or finish.
      while true {
        guard open >= 0 else {
          i = JSONBytes.skipWhitespace(p, n, i)
          guard i == n else { return fail(.trailingData, at: i) }
          tape.count = count
          return .done
        }
        guard i < n else { return fail(.endOfInput, at: i) }
        let c = p[i]
        if c == 0x2C {  // ,
          base[open].count &+= 1
          i &+= 1
          mode = closer == 0x7D ? .key : .value
          continue run
        }
        if c == closer {  // } ]
          i &+= 1
          close(base, count, &open, &closer, &depthLeft, end: i, counting: 1)
          continue
        }
        guard JSONBytes.isWhitespace(c) else {
          return fail(
            closer == 0x7D ? .expectedObjectSeparator : .expectedArraySeparator, at: i)
        }
        i = JSONBytes.skipWhitespace(p, n, i &+ 1)
      }
    }
  }

  /// Closes the innermost open container, whose closing bracket ends just before `end`,
  /// counting `last` more member (1 after a value, 0 when it is empty); `count` nodes are on
  /// the tape.
  @inline(__always)
  static func close(
    _ base: UnsafeMutablePointer<JSONNode>, _ count: Int, _ open: inout Int,
    _ closer: inout UInt8, _ depthLeft: inout Int, end: Int, counting last: UInt32
  ) {
    let node = base + open
    let parent = Int(node.pointee.next) &- 1
    node.pointee.end = UInt32(truncatingIfNeeded: end)
    node.pointee.count &+= last
    node.pointee.next = UInt32(truncatingIfNeeded: count)
    open = parent
    depthLeft &+= 1
    if parent >= 0 { closer = base[parent].kind == .object ? 0x7D : 0x5D }
  }

  /// Reads a string token that is not plain printable ASCII: validates its UTF-8, escapes
  /// and surrogate pairs, and appends its node. Returns the index after the closing quote,
  /// or -1 with `failure` set.
  @inline(never)
  static func generalString(
    _ p: UnsafePointer<UInt8>, _ n: Int, _ quote: Int, _ tape: inout NodeTape,
    _ failure: inout JSONParseFailure
  ) -> Int {
    var i = quote &+ 1
    var escaped = false
    scan: while true {
      i = JSONBytes.plainRunEnd(p, n, i)
      // The bytes that end plain runs, one after the other, up to the next plain byte.
      while true {
        guard i < n else {
          failure = JSONParseFailure(.unterminatedString, at: quote)
          return -1
        }
        let c = p[i]
        if c >= 0x80 {
          let end = utf8SequenceEnd(p, n, i)
          guard end >= 0 else {
            failure = JSONParseFailure(.invalidUTF8, at: i)
            return -1
          }
          i = end
        } else if c == 0x22 {  // "
          break scan
        } else if c == 0x5C {  // \
          escaped = true
          i = escapeEnd(p, n, quote, i, &failure)
          guard i >= 0 else { return -1 }
        } else if c < 0x20 {
          failure = JSONParseFailure(.controlCharacter, at: i)
          return -1
        } else {
          continue scan
        }
      }
    }
    tape.append(
      JSONNode(kind: .string, flag: escaped, start: quote &+ 1, end: i, next: tape.count &+ 1))
    return i &+ 1
  }

  /// Validates the escape at `at` (a backslash) in the string opened at `quote`; returns the
  /// index after it (after both halves of a surrogate pair), or -1 with `failure` set.
  @inline(__always)
  static func escapeEnd(
    _ p: UnsafePointer<UInt8>, _ n: Int, _ quote: Int, _ at: Int,
    _ failure: inout JSONParseFailure
  ) -> Int {
    func fail(_ problem: JSONParseFailure.Problem, _ offset: Int, detail: UInt32 = 0) -> Int {
      failure = JSONParseFailure(problem, at: offset, detail: detail)
      return -1
    }
    guard at &+ 1 < n else { return fail(.unterminatedString, quote) }
    switch p[at &+ 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return at &+ 2
    case UInt8(ascii: "u"):
      let unit = hex4(p, n, at &+ 2)
      guard unit >= 0 else { return fail(.invalidUnicodeEscape, at &+ 2) }
      let i = at &+ 6
      if unit >= 0xD800 && unit <= 0xDBFF {
        guard i &+ 1 < n, p[i] == 0x5C, p[i &+ 1] == UInt8(ascii: "u") else {
          return fail(.loneSurrogate, at, detail: UInt32(unit))
        }
        let low = hex4(p, n, i &+ 2)
        guard low >= 0 else { return fail(.invalidUnicodeEscape, i &+ 2) }
        guard low >= 0xDC00 && low <= 0xDFFF else {
          return fail(.loneSurrogate, at, detail: UInt32(unit))
        }
        return i &+ 6
      }
      if unit >= 0xDC00 && unit <= 0xDFFF { return fail(.loneSurrogate, at, detail: UInt32(unit)) }
      return i
    default:
      return fail(.invalidEscape, at)
    }
  }

  /// The four bytes at `p[i..<i+4]` (the caller proves them in bounds) as a little-endian word.
  @inline(__always)
  static func word32(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt32 {
    UInt32(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt32.self))
  }

  @inline(__always)
  static func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }

  /// Validates a number token starting at `at` (`-` or a digit); returns the index after it
  /// and whether it has integer syntax, or -1 with `failure` set.
  @inline(__always)
  static func number(
    _ p: UnsafePointer<UInt8>, _ n: Int, _ at: Int, _ failure: inout JSONParseFailure
  ) -> (end: Int, integer: Bool) {
    var i = at
    if p[i] == 0x2D { i &+= 1 }
    guard i < n, isDigit(p[i]) else {
      failure = JSONParseFailure(.invalidNumber, at: at)
      return (-1, false)
    }
    if p[i] == 0x30 {
      i &+= 1
      if i < n, isDigit(p[i]) {
        failure = JSONParseFailure(.leadingZero, at: at)
        return (-1, false)
      }
    } else {
      i &+= 1
      while i < n, isDigit(p[i]) { i &+= 1 }
    }
    var integer = true
    if i < n, p[i] == 0x2E {  // .
      integer = false
      i &+= 1
      guard i < n, isDigit(p[i]) else {
        failure = JSONParseFailure(.digitAfterPoint, at: i)
        return (-1, false)
      }
      i &+= 1
      while i < n, isDigit(p[i]) { i &+= 1 }
    }
    if i < n, p[i] | 0x20 == 0x65 {  // e E
      integer = false
      i &+= 1
      if i < n, p[i] == 0x2B || p[i] == 0x2D { i &+= 1 }
      guard i < n, isDigit(p[i]) else {
        failure = JSONParseFailure(.digitInExponent, at: i)
        return (-1, false)
      }
      i &+= 1
      while i < n, isDigit(p[i]) { i &+= 1 }
    }
    return (i, integer)
  }

  /// The value of the four hex digits at `p[at..<at+4]`, or -1 when they are not four hex
  /// digits (or the input ends first).
  @inline(__always)
  static func hex4(_ p: UnsafePointer<UInt8>, _ n: Int, _ at: Int) -> Int {
    guard n - at >= 4 else { return -1 }
    var v = 0
    for k in 0..<4 {
      let c = p[at + k]
      let digit = c &- 0x30
      let letter = (c | 0x20) &- 0x61  // 'A'...'F' and 'a'...'f' to 0...5
      if digit < 10 {
        v = v << 4 | Int(digit)
      } else if letter < 6 {
        v = v << 4 | Int(letter + 10)
      } else {
        return -1
      }
    }
    return v
  }

  /// Validates the multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates, at most
  /// U+10FFFF) whose lead byte is at `at`; returns the index after it, or -1.
  @inline(__always)
  static func utf8SequenceEnd(_ p: UnsafePointer<UInt8>, _ n: Int, _ at: Int) -> Int {
    let lead = p[at]
    if lead &- 0xC2 < 0x1E {  // C2...DF: two bytes, the commonest in Latin scripts
      guard n &- at >= 2, p[at &+ 1] & 0xC0 == 0x80 else { return -1 }
      return at &+ 2
    }
    let length: Int
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch lead {
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
    default: return -1
    }
    guard n &- at >= length else { return -1 }
    let second = p[at &+ 1]
    guard second >= lower && second <= upper else { return -1 }
    if p[at &+ 2] & 0xC0 != 0x80 { return -1 }
    if length == 4 && p[at &+ 3] & 0xC0 != 0x80 { return -1 }
    return at &+ length
  }
}
