/// Hashing and comparing short byte strings a word at a time, for the code that looks things
/// up by bytes without making a `String`: the store's interning index (`ByteKeyIndex`), the
/// live ads by ID (`AdIDTable`), the store reader's member names, and the JSON-RPC layer's
/// member names, method names and asset keys. A module of its own, below both the domain and
/// the protocol layer, which share no other code.
/// Not keyed: only for tables whose keys an adversary does not choose (the service's own IDs,
/// the operator's store file).
public enum ByteKeys {
  /// A fast 64-bit hash of the bytes (8 at a time, multiply and fold; the last word overlaps
  /// the one before it); not for adversaries: a store file is the operator's own input.
  @inlinable @inline(__always)
  public static func hash(_ key: UnsafeRawBufferPointer) -> UInt64 {
    let k: UInt64 = 0x9E37_79B9_7F4A_7C15
    let n = key.count
    var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ (UInt64(n) &* k)
    guard n > 0 else { return h }
    let p = key.baseAddress!
    if n >= 8 {
      var i = 0
      while i + 8 < n {
        h = (h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k
        h ^= h >> 29
        i += 8
      }
      h = (h ^ p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) &* k
    } else if n >= 4 {
      let w =
        UInt64(p.loadUnaligned(as: UInt32.self))
        | UInt64(p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)) << 32
      h = (h ^ w) &* k
    } else {
      let w =
        UInt64(p.load(as: UInt8.self)) | UInt64(p.load(fromByteOffset: n / 2, as: UInt8.self)) << 8
        | UInt64(p.load(fromByteOffset: n - 1, as: UInt8.self)) << 16
      h = (h ^ w) &* k
    }
    h = (h ^ (h >> 32)) &* k
    return h ^ (h >> 31)
  }

  /// Whether the `n` bytes at `a` and `b` are equal (words at a time, the last overlapping).
  @inlinable @inline(__always)
  public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count n: Int) -> Bool {
    if n >= 8 {
      var i = 0
      while i + 8 < n {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          != b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        {
          return false
        }
        i += 8
      }
      return a.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    }
    if n >= 4 {
      return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
        && a.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
          == b.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
    }
    for i in 0..<n
    where a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) {
      return false
    }
    return true
  }
}

extension ByteKeys {
  /// A `String` as a dictionary key hashed once, by ``hash(_:)`` (a word at a time), instead of
  /// by SipHash on every lookup: for tables whose keys the service or the operator chooses
  /// (ad unit IDs). A request names the key it looks up, but cannot add keys to the table.
  public struct Key: Hashable, Sendable {
    /// The text.
    public let text: String
    @usableFromInline let bits: Int

    public init(_ text: String) {
      var text = text
      bits = text.withUTF8 { Int(truncatingIfNeeded: ByteKeys.hash(UnsafeRawBufferPointer($0))) }
      self.text = text
    }

    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(bits) }

    /// The table's hash: the key's own, mixed with the table's seed; no SipHash round. (The
    /// standard library's customization point for exactly this.)
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
      var h = UInt64(truncatingIfNeeded: bits ^ seed) &* 0x9E37_79B9_7F4A_7C15
      h ^= h >> 32
      return Int(truncatingIfNeeded: h)
    }

    @inlinable
    public static func == (a: Key, b: Key) -> Bool { a.bits == b.bits && a.text == b.text }
  }
}
