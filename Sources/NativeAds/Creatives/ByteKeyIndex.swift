/// A set of byte strings, each named by the index it was added at: the interning index of a
/// ``CreativePacker`` (keys are the UTF-8 of a text, or a value's bytes), without a `String` or
/// an allocation per lookup.
///
/// Open addressing over a power-of-two table at most half full; keys are copied into one
/// arena. Not thread-safe; lives for one store load.
struct ByteKeyIndex {
  /// Per slot: 0 when empty, else the key's index + 1 in the low 32 bits and the high 32 bits
  /// of its hash in the high ones.
  private var slots: [UInt64] = Array(repeating: 0, count: 64)
  private var arena: [UInt8] = []
  /// Per key: its offset in ``arena`` and its length.
  private var spans: [(offset: Int, count: Int)] = []

  /// How many keys there are.
  var count: Int { spans.count }

  /// The index of `key`, adding it (as index ``count``) when it is new; `added` says which.
  mutating func index(of key: UnsafeRawBufferPointer) -> (index: Int, added: Bool) {
    index(of: key, adding: true)!
  }

  /// The index of `key`; when it is new, adds it if `adding`, else nil.
  mutating func index(of key: UnsafeRawBufferPointer, adding: Bool) -> (index: Int, added: Bool)? {
    let hash = Self.hash(key)
    let tag = hash & 0xFFFF_FFFF_0000_0000
    let mask = slots.count - 1
    var s = Int(truncatingIfNeeded: hash) & mask
    while true {
      let slot = slots[s]
      if slot == 0 { break }
      if slot & 0xFFFF_FFFF_0000_0000 == tag {
        let index = Int(slot & 0xFFFF_FFFF) - 1
        let span = spans[index]
        if span.count == key.count,
          arena.withUnsafeBytes({
            key.count == 0
              || memcmpEqual($0.baseAddress! + span.offset, key.baseAddress!, key.count)
          })
        {
          return (index, false)
        }
      }
      s = (s + 1) & mask
    }
    guard adding else { return nil }
    let index = spans.count
    spans.append((arena.count, key.count))
    arena.append(contentsOf: key)
    slots[s] = tag | UInt64(index + 1)
    if spans.count * 2 > slots.count { grow() }
    return (index, true)
  }

  private mutating func grow() {
    var bigger = [UInt64](repeating: 0, count: slots.count * 2)
    let mask = bigger.count - 1
    arena.withUnsafeBytes { a in
      for (index, span) in spans.enumerated() {
        let hash = Self.hash(UnsafeRawBufferPointer(rebasing: a[span.offset..<span.offset + span.count]))
        var s = Int(truncatingIfNeeded: hash) & mask
        while bigger[s] != 0 { s = (s + 1) & mask }
        bigger[s] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(index + 1)
      }
    }
    slots = bigger
  }

  /// A fast 64-bit hash of the bytes (8 at a time, multiply and fold); not for adversaries: a
  /// store file is the operator's own input.
  static func hash(_ key: UnsafeRawBufferPointer) -> UInt64 {
    let k: UInt64 = 0x9E37_79B9_7F4A_7C15
    var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ (UInt64(key.count) &* k)
    var i = 0
    let n = key.count
    while i + 8 <= n {
      let w = key.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      h = (h ^ w) &* k
      h ^= h >> 29
      i += 8
    }
    if i < n {
      var w: UInt64 = 0
      var shift: UInt64 = 0
      while i < n {
        w |= UInt64(key[i]) << shift
        shift += 8
        i += 1
      }
      h = (h ^ w) &* k
      h ^= h >> 29
    }
    h = (h ^ (h >> 32)) &* k
    return h ^ (h >> 31)
  }
}

@inline(__always)
private func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
  var i = 0
  while i + 8 <= n {
    if a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      != b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
    {
      return false
    }
    i += 8
  }
  while i < n {
    if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) {
      return false
    }
    i += 1
  }
  return true
}
