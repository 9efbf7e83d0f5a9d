/// The bytes of a store document as the loader walks it: a window over a ``StoreByteSource``,
/// refilled chunk by chunk, that holds at least the value being read whole.
///
/// It finds where a value ends without validating it (brackets and strings only): the
/// ``JSONParser`` then validates exactly those bytes, and reports what the document is wrong
/// about, as it would for the whole document. A value longer than ``maximumValueBytes`` is an
/// error: that is the most memory a load holds for one item. Loop-thread only.
final class StoreInput {
  /// The largest value (a section item, or another member's value) the window holds.
  let maximumValueBytes: Int
  /// How much one read asks of the source.
  let readBytes: Int
  private var source: any StoreByteSource
  private var buffer: UnsafeMutableRawBufferPointer
  /// The next byte to consume, and the end of the bytes read, in `buffer`. `buffer[0]` is
  /// never part of the window: a batch borrows it (``withBatch(_:_:)``).
  private var start = 1
  private var end = 1
  /// The document offset of `buffer[0]`.
  private var base = -1
  private var atEnd = false

  /// Why ``scanValue()`` found no value.
  enum Failure: Error {
    /// The value is longer than ``maximumValueBytes``.
    case tooLarge
    /// The source could not be read.
    case unreadable(StoreLoadError)
  }

  init(source: any StoreByteSource, readBytes: Int, maximumValueBytes: Int) {
    self.source = source
    self.readBytes = max(1, readBytes)
    self.maximumValueBytes = max(1, maximumValueBytes)
    buffer = .allocate(byteCount: max(2 * self.readBytes, 64) + 1, alignment: 16)
  }

  deinit { buffer.deallocate() }

  /// The document offset of the next byte.
  var offset: Int { base + start }

  /// How far the document has been read (the offset of the end of the window).
  var bytesRead: Int { base + end }

  /// How many bytes were read from the source in all (every pass).
  private(set) var totalRead = 0

  /// The document's size, when the source knows it.
  var size: Int? { source.size }

  /// Moves to `offset` of the document (another pass), emptying the window.
  func seek(to offset: Int) throws(StoreLoadError) {
    try source.seek(to: offset)
    base = offset - 1
    start = 1
    end = 1
    atEnd = false
  }

  /// Reads more; false at the end of the document. Keeps `[start, end)`.
  private func fill() throws(StoreLoadError) -> Bool {
    if atEnd { return false }
    if buffer.count - end < readBytes {
      if start > 1 {
        // Move what is left to the front.
        let kept = end - start
        if kept > 0 {
          (buffer.baseAddress! + 1).copyMemory(from: buffer.baseAddress! + start, byteCount: kept)
        }
        base += start - 1
        start = 1
        end = kept + 1
      }
      if buffer.count - end < readBytes {
        let bigger = UnsafeMutableRawBufferPointer.allocate(
          byteCount: max(buffer.count * 2, end + readBytes + 1), alignment: 16)
        bigger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
        buffer.deallocate()
        buffer = bigger
      }
    }
    let room = UnsafeMutableRawBufferPointer(
      rebasing: buffer[end..<min(buffer.count, end + readBytes)])
    let count = try source.read(into: room)
    if count == 0 {
      atEnd = true
      return false
    }
    end += count
    totalRead += count
    return true
  }

  /// Skips whitespace; the next byte (not consumed), or nil at the end of the document.
  func peek() throws(StoreLoadError) -> UInt8? {
    while true {
      while start < end {
        switch buffer[start] {
        case 0x20, 0x0A, 0x0D, 0x09: start += 1
        default: return buffer[start]
        }
      }
      guard try fill() else { return nil }
    }
  }

  /// How many bytes the window holds past the next one to consume.
  var available: Int { end - start }

  /// Reads until the window holds at least `count` bytes or the document ends.
  func fill(atLeast count: Int) throws(StoreLoadError) {
    while end - start < count, try fill() {}
  }

  /// The length, from the next byte, of the longest run of items the window holds within
  /// `limit` bytes as far as a guess can tell: up to a `}` that whitespace, a comma,
  /// whitespace and a `{` follow (the end of an object in an array of objects, unless it is in
  /// a string or nested: parsing the run tells). Nil when there is none.
  func itemRunCandidate(limit: Int) -> Int? {
    let p = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var i = min(end, start + limit) - 1
    func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }
    while i > start {
      // Find a `{`, then look back over whitespace, a comma and whitespace for a `}`.
      guard p[i] == UInt8(ascii: "{") else {
        i -= 1
        continue
      }
      var j = i - 1
      while j > start, isSpace(p[j]) { j -= 1 }
      if j > start, p[j] == UInt8(ascii: ",") {
        j -= 1
        while j > start, isSpace(p[j]) { j -= 1 }
        if p[j] == UInt8(ascii: "}") { return j + 1 - start }
      }
      i -= 1
    }
    return nil
  }

  /// The next `count` bytes as the elements of an array: `[`, the bytes, `]`, with the bytes
  /// just before and after lent for the brackets during `body` (valid during it). The byte
  /// after must be in the window.
  func withBatch<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let before = buffer[start - 1]
    let after = buffer[start + count]
    buffer[start - 1] = UInt8(ascii: "[")
    buffer[start + count] = UInt8(ascii: "]")
    defer {
      buffer[start - 1] = before
      buffer[start + count] = after
    }
    return try body(UnsafeRawBufferPointer(rebasing: buffer[start - 1..<start + count + 1]))
  }

  /// Consumes `count` bytes (at most what the window holds).
  func advance(_ count: Int) {
    start += count
  }

  /// The next `count` bytes (a value ``scanValue()`` found), valid during `body`.
  func withBytes<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(rebasing: buffer[start..<start + count]))
  }

  /// The length of the value at the next byte (which ``peek()`` returned), reading until the
  /// window holds all of it: an object or an array to its matching bracket, a string to its
  /// closing quote, anything else to the next byte that cannot continue a number or a literal
  /// (at least one byte). At the end of the document, what is left.
  ///
  /// - Throws: ``Failure``.
  func scanValue() throws(Failure) -> Int {
    var i = start
    let first = buffer[i]
    var depth = 0
    var inString = false
    switch first {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      depth = 1
      i += 1
    case UInt8(ascii: "\""):
      inString = true
      i += 1
    default:
      // A number, a literal, or a byte no value starts with.
      while true {
        while i < end {
          switch buffer[i] {
          case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"),
            UInt8(ascii: ":"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["):
            return try checked(max(1, i - start))
          default: i += 1
          }
        }
        let scanned = i - start
        if scanned > maximumValueBytes { throw .tooLarge }
        guard try more() else { return try checked(max(1, end - start)) }
        i = start + scanned
      }
    }
    while true {
      let scanned = scan(from: i, depth: &depth, inString: &inString)
      if scanned.done { return try checked(scanned.at - start) }
      let count = scanned.at - start
      if count > maximumValueBytes { throw .tooLarge }
      guard try more() else { return try checked(end - start) }
      i = start + count
    }
  }

  private func checked(_ count: Int) throws(Failure) -> Int {
    if count > maximumValueBytes { throw .tooLarge }
    return count
  }

  /// ``fill()`` for ``scanValue()``.
  private func more() throws(Failure) -> Bool {
    do {
      return try fill()
    } catch {
      throw .unreadable(error)
    }
  }

  /// Scans `buffer[i..<end]` for the end of a container or string; returns where it stopped
  /// and whether the value ended there (just past its last byte).
  @inline(__always)
  private func scan(from index: Int, depth: inout Int, inString: inout Bool) -> (
    at: Int, done: Bool
  ) {
    let p = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var i = index
    let n = end
    while i < n {
      if inString {
        // Eight bytes at a time to the next quote or backslash.
        while i + 8 <= n {
          let w = UnsafeRawPointer(p).loadUnaligned(fromByteOffset: i, as: UInt64.self)
          let m =
            Self.zeroBytes(w ^ 0x2222_2222_2222_2222) | Self.zeroBytes(w ^ 0x5C5C_5C5C_5C5C_5C5C)
          if m != 0 {
            i += m.trailingZeroBitCount >> 3
            break
          }
          i += 8
        }
        while i < n {
          let c = p[i]
          if c == 0x22 || c == 0x5C { break }
          i += 1
        }
        guard i < n else { return (i, false) }
        if p[i] == 0x5C {
          // An escape: skip the escaped byte too (it may be a quote).
          guard i + 1 < n else { return (i, false) }
          i += 2
          continue
        }
        i += 1
        inString = false
        if depth == 0 { return (i, true) }
        continue
      }
      switch p[i] {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth == 0 { return (i + 1, true) }
      default: break
      }
      i += 1
    }
    return (i, false)
  }

  /// The high bit of each zero byte of `w` is set, and no bit below the lowest one (bits above
  /// it may be set too: only the lowest is exact).
  @inline(__always)
  private static func zeroBytes(_ w: UInt64) -> UInt64 {
    (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080
  }
}
