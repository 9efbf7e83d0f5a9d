import Glibc

/// A growable byte buffer with value semantics, made for writing replies: appending is a
/// capacity check and a `memcpy`, with none of the generic machinery of
/// `Array.append(contentsOf:)` (which cost ~120 instructions per call, a hundred calls per
/// `loadAd` reply).
///
/// Copy-on-write like `Array`: a copy shares the storage until one of them changes. Bytes are
/// read as a `RandomAccessCollection` or, in bulk, through ``withUnsafeBytes(_:)``.
public struct ByteBuffer {
  @usableFromInline
  final class Storage {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    @usableFromInline
    init(capacity: Int) {
      self.capacity = Swift.max(capacity, 16)
      base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @usableFromInline
    func copy(capacity: Int) -> Storage {
      let new = Storage(capacity: Swift.max(capacity, count))
      new.base.update(from: base, count: count)
      new.count = count
      return new
    }
  }

  /// Nil until the first byte is written (an empty buffer allocates nothing: a session swaps
  /// one in and out of its writer for every reply).
  @usableFromInline var storage: Storage?

  /// An empty buffer with room for `capacity` bytes (none allocated for 0).
  public init(capacity: Int = 0) { storage = capacity > 0 ? Storage(capacity: capacity) : nil }

  /// A buffer holding `bytes`.
  public init(_ bytes: [UInt8]) {
    self.init(capacity: bytes.count)
    append(contentsOf: bytes)
  }

  public var count: Int { storage?.count ?? 0 }
  public var isEmpty: Bool { count == 0 }
  public var capacity: Int { storage?.capacity ?? 0 }

  /// The storage, once ``reserveFree(_:)`` made it.
  @inlinable @inline(__always)
  var written: Storage { storage.unsafelyUnwrapped }

  /// Makes the storage unique and able to take `extra` more bytes; returns where they go.
  @inlinable @inline(__always)
  mutating func reserveFree(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
    // Not uniquely referenced covers nil too.
    if _slowPath(
      !isKnownUniquelyReferenced(&storage) || written.count + extra > written.capacity)
    {
      grow(toAtLeast: count + extra)
    }
    return written.base + written.count
  }

  @usableFromInline
  mutating func grow(toAtLeast needed: Int) {
    guard let old = storage else {
      storage = Storage(capacity: needed)
      return
    }
    let capacity = needed > old.capacity ? Swift.max(needed, old.capacity * 2) : old.capacity
    storage = old.copy(capacity: capacity)
  }

  /// Ensures room for `capacity` bytes in all.
  public mutating func reserveCapacity(_ capacity: Int) {
    _ = reserveFree(Swift.max(0, capacity - count))
  }

  @inlinable @inline(__always)
  public mutating func append(_ byte: UInt8) {
    reserveFree(1).pointee = byte
    written.count += 1
  }

  /// Appends `count` bytes from `source`.
  @inlinable @inline(__always)
  public mutating func append(_ source: UnsafeRawPointer, count n: Int) {
    guard n > 0 else { return }
    let to = reserveFree(n)
    memcpy(to, source, n)
    written.count += n
  }

  @inlinable @inline(__always)
  public mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    if let base = bytes.baseAddress { append(UnsafeRawPointer(base), count: bytes.count) }
  }

  @inlinable @inline(__always)
  public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
    if let base = bytes.baseAddress { append(base, count: bytes.count) }
  }

  @inlinable
  public mutating func append(contentsOf bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
  }

  /// Appends `other`'s bytes. (Read in place, after the room is made: `other` is borrowed for
  /// the call, and its storage outlives any growth of this buffer's, so it is not retained
  /// around a closure as `withUnsafeBytes` would; if the two share storage, this one copies
  /// it first and `other` keeps the original.)
  @inlinable
  public mutating func append(contentsOf other: ByteBuffer) {
    let n = other.count
    guard n > 0 else { return }
    let to = reserveFree(n)
    memcpy(to, other.written.base, n)
    written.count += n
  }

  /// Appends a static string's UTF-8 bytes.
  @inlinable @inline(__always)
  public mutating func append(_ text: StaticString) {
    append(UnsafeRawPointer(text.utf8Start), count: text.utf8CodeUnitCount)
  }

  /// Appends any bytes (the slow, general path).
  public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { append(contentsOf: $0) }
    if done == nil { for b in bytes { append(b) } }
  }

  /// Appends the decimal digits of `value`.
  public mutating func appendDecimal(_ value: Int) {
    var v = value.magnitude
    // 20 digits and a sign at most.
    let to = reserveFree(21)
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    let n = withUnsafeMutableBytes(of: &digits) { scratch -> Int in
      var i = 24
      repeat {
        i -= 1
        scratch[i] = UInt8(truncatingIfNeeded: 0x30 &+ v % 10)
        v /= 10
      } while v != 0
      if value < 0 {
        i -= 1
        scratch[i] = UInt8(ascii: "-")
      }
      to.update(from: scratch.baseAddress!.assumingMemoryBound(to: UInt8.self) + i, count: 24 - i)
      return 24 - i
    }
    written.count += n
  }

  /// Writes `count` bytes in place: `body` gets room for them and returns how many it wrote.
  @inlinable
  public mutating func appendUninitialized(
    count n: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int
  ) {
    let to = reserveFree(n)
    let written = body(UnsafeMutableBufferPointer(start: to, count: n))
    precondition(written >= 0 && written <= n)
    self.written.count += written
  }

  /// Appends a copy of the bytes at `range` of this buffer (written earlier).
  public mutating func appendCopy(of range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    let n = range.count
    guard n > 0 else { return }
    // Reserved first: the storage may move, the offsets do not.
    let to = reserveFree(n)
    memcpy(to, written.base + range.lowerBound, n)
    written.count += n
  }

  /// Drops the bytes from `index` on.
  public mutating func truncate(to index: Int) {
    precondition(index >= 0 && index <= count)
    guard index < count else { return }
    _ = reserveFree(0)
    written.count = index
  }

  /// Drops the bytes from `range.lowerBound` on.
  public mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
    truncate(to: range.lowerBound)
  }

  /// Removes every byte, keeping the storage when `keepingCapacity`.
  public mutating func removeAll(keepingCapacity: Bool = false) {
    if keepingCapacity && isKnownUniquelyReferenced(&storage) {
      written.count = 0
    } else {
      storage = keepingCapacity && capacity > 0 ? Storage(capacity: capacity) : nil
    }
  }

  /// Removes the first `n` bytes.
  public mutating func removeFirst(_ n: Int) {
    precondition(n >= 0 && n <= count)
    guard n > 0 else { return }
    _ = reserveFree(0)
    let rest = written.count - n
    if rest > 0 { memmove(written.base, written.base + n, rest) }
    written.count = rest
  }

  /// Inserts `bytes` at `index`: the bytes after it move up, in place.
  public mutating func insert(contentsOf bytes: some Collection<UInt8>, at index: Int) {
    precondition(index >= 0 && index <= count)
    let n = bytes.count
    guard n > 0 else { return }
    _ = reserveFree(n)
    let base = written.base
    memmove(base + index + n, base + index, written.count - index)
    _ = UnsafeMutableBufferPointer(start: base + index, count: n).initialize(from: bytes)
    written.count += n
  }

  /// Calls `body` with the bytes.
  @inlinable
  public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R)
    throws(E) -> R
  {
    guard let storage else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    return try body(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
  }

  /// The bytes, as an array (a copy).
  public var array: [UInt8] {
    withUnsafeBytes { Array($0) }
  }
}

extension ByteBuffer: RandomAccessCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  @inlinable
  public subscript(position: Int) -> UInt8 {
    precondition(position >= 0 && position < count, "index out of range")
    return written.base[position]
  }

  public func withContiguousStorageIfAvailable<R>(
    _ body: (UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R? {
    try body(UnsafeBufferPointer(start: storage?.base, count: count))
  }
}

extension ByteBuffer: Equatable {
  public static func == (a: ByteBuffer, b: ByteBuffer) -> Bool {
    a.count == b.count && (a.count == 0 || memcmp(a.written.base, b.written.base, a.count) == 0)
  }
}

extension ByteBuffer: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: UInt8...) { self.init(elements) }
}
