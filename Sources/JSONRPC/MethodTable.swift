import Glibc

/// Method names to handlers, looked up by the raw bytes of the `method` string so that the
/// hot path builds no `String`: one hash of the name, one probe (rarely two) in a table at
/// most a quarter full, one comparison.
struct MethodTable {
  private struct Entry {
    var name: [UInt8]
    var hash: UInt64
    var handler: MethodHandler
  }
  private var entries: [Entry] = []
  /// Open addressing: index into `entries` plus one, 0 for an empty slot.
  private var slots: [Int32] = Array(repeating: 0, count: 16)
  private(set) var names: [String] = []

  mutating func register(_ name: String, _ handler: @escaping MethodHandler) {
    let bytes = Array(name.utf8)
    let hash = bytes.withUnsafeBufferPointer(Self.hash)
    if let i = index(of: bytes.withUnsafeBufferPointer { $0 }, hash: hash) {
      entries[i].handler = handler
      return
    }
    entries.append(Entry(name: bytes, hash: hash, handler: handler))
    names.append(name)
    if entries.count * 4 > slots.count {
      slots = Array(repeating: 0, count: slots.count * 2)
      for i in entries.indices { place(i) }
    } else {
      place(entries.count - 1)
    }
  }

  func lookup(_ name: UnsafeBufferPointer<UInt8>) -> MethodHandler? {
    guard let i = index(of: name, hash: Self.hash(name)) else { return nil }
    return entries[i].handler
  }

  private mutating func place(_ entry: Int) {
    let mask = slots.count - 1
    var s = Int(truncatingIfNeeded: entries[entry].hash) & mask
    while slots[s] != 0 { s = (s + 1) & mask }
    slots[s] = Int32(entry + 1)
  }

  private func index(of name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
    let mask = slots.count - 1
    var s = Int(truncatingIfNeeded: hash) & mask
    while slots[s] != 0 {
      let i = Int(slots[s]) - 1
      if entries[i].hash == hash, Self.equal(entries[i].name, name) { return i }
      s = (s + 1) & mask
    }
    return nil
  }

  @inline(__always)
  private static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.count == b.count
      && a.withUnsafeBufferPointer { a in
        b.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, b.count) == 0
      }
  }

  /// FNV-1a over the name's bytes (method names are short; only registered names are
  /// inserted, so a client's lookups cannot crowd the table).
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
    return h
  }
}
