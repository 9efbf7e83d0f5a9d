/// The byte-level scans of ``JSONParser``: finding the end of a plain run inside a string
/// (16 bytes at a time with Swift's SIMD types), and skipping whitespace.
///
/// All functions take the message as a base pointer and a count `n` and read only bytes at
/// indices in `0..<n`: each read is preceded by a test that proves it in bounds, named in a
/// comment where it is not on the same line.
@usableFromInline enum JSONBytes {
  /// Whether `c` is one of JSON's four whitespace bytes (space, tab, LF, CR).
  @inline(__always)
  static func isWhitespace(_ c: UInt8) -> Bool { isWhitespaceTable[Int(c)] != 0 }

  /// ``isWhitespace(_:)`` for each byte value. (A table, not comparisons: the compiler makes
  /// those a bit test against a 64-bit constant that it keeps in a register of the parser's
  /// loop. A global array of literals is laid out at compile time, so reading it needs no
  /// initialisation check, and no bounds check either, its index being a byte.)
  static let isWhitespaceTable: [UInt8] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0,  // 0x00
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x10
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x20
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x30
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x40
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x50
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x60
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x70
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x80
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0x90
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xA0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xB0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xC0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xD0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xE0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 0xF0
  ]

  /// Whether a plain run of string content stops at `c`: a control character (which must be
  /// escaped), `"`, `\` or a byte of a multi-byte UTF-8 sequence (which must be validated).
  @inlinable @inline(__always)
  static func endsPlainRun(_ c: UInt8) -> Bool {
    c &- 0x20 >= 0x60 || c == 0x22 || c == 0x5C
  }

  /// The index of the first byte at or after `from` (at most `n`) that
  /// ``endsPlainRun(_:)``, or `n` when there is none.
  @inlinable @inline(__always)
  static func plainRunEnd(_ p: UnsafePointer<UInt8>, _ n: Int, _ from: Int) -> Int {
    var i = from
    if i &+ 16 <= n {
      // The first block decides most strings (keys, ids, short values) on its own.
      if let k = Block(p + i).firstLane { return i &+ k }  // reads p[i..<i+16]
      i &+= 16
      // Then a second block, and for a long string 64 bytes per test, then 16.
      if i &+ 16 <= n {
        if let k = Block(p + i).firstLane { return i &+ k }  // reads p[i..<i+16]
        i &+= 16
        while i &+ 64 <= n, !Block.any64(p + i) { i &+= 64 }  // reads p[i..<i+64]
      }
      while i &+ 16 <= n {  // reads p[i..<i+16]
        if let k = Block(p + i).firstLane { return i &+ k }
        i &+= 16
      }
    }
    // Fewer than 16 bytes remain.
    if i >= n { return n }
    guard n >= 16 else {
      // A message shorter than one block: byte by byte (i < n is tested before each read).
      while i < n, !endsPlainRun(p[i]) { i &+= 1 }
      return i
    }
    // The block that ends at n (it starts at n - 16 >= 0), without its first `skip` lanes:
    // bytes before i, already scanned or not part of the string (its opening quote may be
    // among them).
    let skip = i &- (n &- 16)  // 1...15
    if let k = Block(p + (n &- 16)).dropping(skip).firstLane { return i &+ k }
    return n
  }

  /// The index of the closing quote of the string whose opening quote is at `quote`, when
  /// everything between is plain (printable ASCII but `"` and `\`); -1 otherwise (an escape,
  /// a control character, a multi-byte sequence, or no closing quote).
  @inlinable @inline(__always)
  static func plainStringEnd(_ p: UnsafePointer<UInt8>, _ n: Int, _ quote: Int) -> Int {
    var i = quote &+ 1
    if i &+ 16 <= n {
      // Most strings end in their first block; the byte found there is in the message
      // (before i + 16 <= n), with no more tests.
      if let k = Block(p + i).firstLane {  // reads p[i..<i+16]
        let end = i &+ k
        return p[end] == 0x22 ? end : -1
      }
      i &+= 16
    }
    let end = plainRunEnd(p, n, i)
    return end < n && p[end] == 0x22 ? end : -1
  }

  /// Skips whitespace from `from`; returns the index of the first other byte, or `n`.
  @inline(__always)
  static func skipWhitespace(_ p: UnsafePointer<UInt8>, _ n: Int, _ from: Int) -> Int {
    var i = from
    while i < n {
      let c = p[i]
      guard isWhitespace(c) else { return i }
      i &+= 1
      if c == 0x0A { i = skipSpaces(p, n, i) }  // the indentation of pretty-printed text
    }
    return i
  }

  /// Skips spaces (0x20) from `from`, sixteen at a time.
  @inline(__always)
  static func skipSpaces(_ p: UnsafePointer<UInt8>, _ n: Int, _ from: Int) -> Int {
    var i = from
    while n &- i >= 16 {  // reads p[i..<i+16]
      let bytes = UnsafeRawPointer(p + i).loadUnaligned(as: SIMD16<UInt8>.self)
      let spaces = bytes .== SIMD16<UInt8>(repeating: 0x20)
      let halves = unsafeBitCast(spaces, to: SIMD2<UInt64>.self)
      // The lanes that are not spaces.
      let other = Block(
        low: ~UInt64(littleEndian: halves[0]), high: ~UInt64(littleEndian: halves[1]))
      if let k = other.firstLane { return i &+ k }
      i &+= 16
    }
    while i < n, p[i] == 0x20 { i &+= 1 }
    return i
  }

  /// Sixteen bytes' verdicts: a lane is all ones when its byte ends a plain run.
  @usableFromInline struct Block {
    /// Lanes 0 to 7 (the first eight bytes) in the low to high bytes of `low`, lanes 8 to 15
    /// in `high` (the SIMD vector's two 64-bit halves, little-endian).
    @usableFromInline var low: UInt64
    @usableFromInline var high: UInt64

    /// Classifies `p[0..<16]` (the caller proves the 16 bytes are in the message).
    @inlinable @inline(__always)
    init(_ p: UnsafePointer<UInt8>) {
      let halves = unsafeBitCast(Block.lanes(p), to: SIMD2<UInt64>.self)
      low = UInt64(littleEndian: halves[0])
      high = UInt64(littleEndian: halves[1])
    }

    /// The verdicts on `p[0..<16]` as a vector (the caller proves the 16 bytes are in the
    /// message).
    @inlinable @inline(__always)
    static func lanes(_ p: UnsafePointer<UInt8>) -> SIMD16<Int8> {
      let bytes = UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
      // XOR 0x02 turns '"' (0x22) into 0x20 and keeps the control characters below 0x20 and
      // the bytes at or above 0x80 there; as signed bytes, those are the ones "below 0x21"
      // (which a space, 0x20 turned 0x22, is not). Then '\\' on its own. (The comparisons
      // take vectors of a spelt-out type: with scalars, or with `SIMD16(repeating:)` left to
      // inference, they compile to a loop over the lanes.)
      let flipped = unsafeBitCast(bytes ^ SIMD16<UInt8>(repeating: 0x02), to: SIMD16<Int8>.self)
      let lanes =
        (flipped .< SIMD16<Int8>(repeating: 0x21)) .| (bytes .== SIMD16<UInt8>(repeating: 0x5C))
      return unsafeBitCast(lanes, to: SIMD16<Int8>.self)
    }

    /// Whether any lane of the 64 bytes at `p` is set.
    @inlinable @inline(__always)
    static func any64(_ p: UnsafePointer<UInt8>) -> Bool {
      let lanes = Block.lanes(p) | Block.lanes(p + 16) | Block.lanes(p + 32) | Block.lanes(p + 48)
      let halves = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
      return halves[0] | halves[1] != 0
    }

    @inlinable @inline(__always)
    init(low: UInt64, high: UInt64) {
      self.low = low
      self.high = high
    }

    /// The first lane whose byte ends a plain run, if any.
    @inlinable @inline(__always)
    var firstLane: Int? {
      if low != 0 { return low.trailingZeroBitCount &>> 3 }
      if high != 0 { return 8 + high.trailingZeroBitCount &>> 3 }
      return nil
    }

    /// The block without its first `lanes` lanes (1...15): lane k of the result is lane
    /// k + `lanes` of this one; the lanes shifted in at the end are clear.
    @inlinable @inline(__always)
    func dropping(_ lanes: Int) -> Block {
      let bits = UInt64(truncatingIfNeeded: lanes &* 8)
      if lanes >= 8 { return Block(low: high &>> (bits &- 64), high: 0) }
      return Block(low: (low &>> bits) | (high &<< (64 &- bits)), high: high &>> bits)
    }

    /// Whether any lane of the four blocks is set.
    @inlinable @inline(__always)
    static func any(_ a: Block, _ b: Block, _ c: Block, _ d: Block) -> Bool {
      (a.low | a.high | b.low | b.high | c.low | c.high | d.low | d.high) != 0
    }
  }
}
