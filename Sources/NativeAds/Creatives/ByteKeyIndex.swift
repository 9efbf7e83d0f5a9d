import ByteKeys

/// A set of byte strings, each named by the index it was added at: the interning index of a
/// ``CreativePacker`` (keys are the UTF-8 of a text, or a value's bytes), without a `String` or
/// an allocation per lookup.
///
/// Open addressing over a power-of-two table at most half full; keys are copied into one
/// arena. Memory is managed by hand (a lookup is on the path of every packed creative: no
/// uniqueness or bounds checks). Not thread-safe; lives for one store load.
final class ByteKeyIndex {
  /// Per slot: 0 when empty, else the key's index + 1 in the low 32 bits and the high 32 bits
  /// of its hash in the high ones.
  private var slots: UnsafeMutablePointer<UInt64>
  private var mask: Int
  private var arena: UnsafeMutableRawPointer
  private var arenaCapacity = 4096
  private var arenaUsed = 0
  /// Per key: its offset in the arena and its length.
  private var offsets: UnsafeMutablePointer<Int>
  private var lengths: UnsafeMutablePointer<Int>
  private var keyCapacity = 32
  /// How many keys there are.
  private(set) var count = 0

  init() {
    mask = 63
    slots = .allocate(capacity: 64)
    slots.initialize(repeating: 0, count: 64)
    arena = .allocate(byteCount: arenaCapacity, alignment: 8)
    offsets = .allocate(capacity: keyCapacity)
    lengths = .allocate(capacity: keyCapacity)
  }

  deinit {
    slots.deallocate()
    arena.deallocate()
    offsets.deallocate()
    lengths.deallocate()
  }

  /// The index of `key`, adding it (as index ``count``) when it is new; `added` says which.
  func index(of key: UnsafeRawBufferPointer) -> (index: Int, added: Bool) {
    index(of: key, adding: true)!
  }

  /// The index of `key`; when it is new, adds it if `adding`, else nil.
  func index(of key: UnsafeRawBufferPointer, adding: Bool) -> (index: Int, added: Bool)? {
    let n = key.count
    let hash = ByteKeys.hash(key)
    let tag = hash & 0xFFFF_FFFF_0000_0000
    let slots = self.slots
    let mask = self.mask
    var s = Int(truncatingIfNeeded: hash) & mask
    while true {
      let slot = slots[s]
      if slot == 0 { break }
      if slot & 0xFFFF_FFFF_0000_0000 == tag {
        let index = Int(slot & 0xFFFF_FFFF) - 1
        if lengths[index] == n,
          n == 0 || ByteKeys.equal(arena + offsets[index], key.baseAddress!, count: n)
        {
          return (index, false)
        }
      }
      s = (s + 1) & mask
    }
    guard adding else { return nil }
    let index = count
    if index == keyCapacity { growKeys() }
    if arenaUsed + n > arenaCapacity { growArena(arenaUsed + n) }
    if n > 0 { (arena + arenaUsed).copyMemory(from: key.baseAddress!, byteCount: n) }
    offsets[index] = arenaUsed
    lengths[index] = n
    arenaUsed += n
    count += 1
    slots[s] = tag | UInt64(index + 1)
    if count * 2 > mask + 1 { growSlots() }
    return (index, true)
  }

  private func growKeys() {
    let capacity = keyCapacity * 2
    let newOffsets = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
    let newLengths = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
    newOffsets.moveInitialize(from: offsets, count: count)
    newLengths.moveInitialize(from: lengths, count: count)
    offsets.deallocate()
    lengths.deallocate()
    offsets = newOffsets
    lengths = newLengths
    keyCapacity = capacity
  }

  private func growArena(_ needed: Int) {
    let capacity = max(needed, arenaCapacity * 2)
    let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    bigger.copyMemory(from: arena, byteCount: arenaUsed)
    arena.deallocate()
    arena = bigger
    arenaCapacity = capacity
  }

  private func growSlots() {
    let size = (mask + 1) * 2
    let bigger = UnsafeMutablePointer<UInt64>.allocate(capacity: size)
    bigger.initialize(repeating: 0, count: size)
    let newMask = size - 1
    for index in 0..<count {
      let hash = ByteKeys.hash(
        UnsafeRawBufferPointer(start: arena + offsets[index], count: lengths[index]))
      var s = Int(truncatingIfNeeded: hash) & newMask
      while bigger[s] != 0 { s = (s + 1) & newMask }
      bigger[s] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(index + 1)
    }
    slots.deallocate()
    slots = bigger
    mask = newMask
  }

}
