import ByteKeys

/// The live ads of one process by ID, looked up by the ID's UTF-8 bytes: no `String` is made
/// and no SipHash is run per lookup, which is what most requests (asset getters, clicks,
/// impressions) begin with.
///
/// Open addressing with linear probing and backward-shift deletion over a power-of-two
/// array, at most half full. It shrinks only past ``shrinkFloor`` slots, and only when less
/// than a sixteenth full: the number of live ads swings widely as loads and releases come in
/// bursts (a client with 32 loads in flight swings between 1 and 40 ads every read), and a
/// table that halved when an eighth full rehashed twice a burst. The hash is ``ByteKeys``',
/// not a keyed one: only the service inserts (IDs it made), so a client choosing what to look
/// up cannot crowd a probe sequence. Loop-bound, like the ads.
struct AdIDTable {
  private struct Slot {
    var hash: UInt64
    var ad: NativeAd
  }
  private var slots: [Slot?]
  private(set) var count = 0

  /// The table never shrinks to fewer slots than this (16 KiB of them): below it, how many
  /// ads are live costs no rehashing, however it swings.
  static let shrinkFloor = 1024

  /// The slots (a power of two, at least twice ``count``).
  var capacity: Int { slots.count }

  init() { slots = Array(repeating: nil, count: 16) }

  /// The ad whose ID has exactly these UTF-8 bytes.
  func ad(utf8 id: UnsafeBufferPointer<UInt8>) -> NativeAd? {
    let hash = Self.hash(id)
    let mask = slots.count - 1
    var i = Int(truncatingIfNeeded: hash) & mask
    while let slot = slots[i] {
      if slot.hash == hash, Self.id(of: slot.ad, equals: id) { return slot.ad }
      i = (i + 1) & mask
    }
    return nil
  }

  /// Every ad, in no particular order.
  var ads: [NativeAd] { slots.compactMap { $0?.ad } }

  /// Keeps `ad` under its ID, replacing an ad with the same ID.
  mutating func insert(_ ad: NativeAd) {
    if (count + 1) * 2 > slots.count { grow() }
    let hash =
      ad.id.utf8.withContiguousStorageIfAvailable(Self.hash) ?? Self.hash(Array(ad.id.utf8))
    let mask = slots.count - 1
    var i = Int(truncatingIfNeeded: hash) & mask
    while let slot = slots[i] {
      if slot.hash == hash, slot.ad.id == ad.id {
        slots[i] = Slot(hash: hash, ad: ad)
        return
      }
      i = (i + 1) & mask
    }
    slots[i] = Slot(hash: hash, ad: ad)
    count += 1
  }

  /// Forgets the ad with ID `id`, if kept.
  mutating func remove(_ id: String) {
    var id = id
    let removed = id.withUTF8 { bytes in
      let hash = Self.hash(bytes)
      // In the array's buffer: one uniqueness check for the removal, and the slots moved
      // with no reference counted.
      return slots.withUnsafeMutableBufferPointer { slots in
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while true {
          guard let slotHash = slots[i]?.hash else { return false }
          if slotHash == hash, Self.id(of: slots[i].unsafelyUnwrapped.ad, equals: bytes) { break }
          i = (i + 1) & mask
        }
        // Backward-shift deletion: move later entries of the run into the hole when their
        // home slot is not between the hole and where they sit, so that no probe sequence is
        // broken.
        var hole = i
        slots[hole] = nil
        var j = hole
        while true {
          j = (j + 1) & mask
          guard let slotHash = slots[j]?.hash else { break }
          let home = Int(truncatingIfNeeded: slotHash) & mask
          if (j - home) & mask >= (j - hole) & mask {
            slots.swapAt(hole, j)
            hole = j
          }
        }
        return true
      }
    }
    guard removed else { return }
    count -= 1
    if slots.count > Self.shrinkFloor && count * 16 < slots.count { shrink() }
  }

  private mutating func grow() { rehash(capacity: slots.count * 2) }
  private mutating func shrink() { rehash(capacity: slots.count / 2) }

  private mutating func rehash(capacity: Int) {
    let old = slots
    slots = Array(repeating: nil, count: capacity)
    let mask = capacity - 1
    for case let slot? in old {
      var i = Int(truncatingIfNeeded: slot.hash) & mask
      while slots[i] != nil { i = (i + 1) & mask }
      slots[i] = slot
    }
  }

  @inline(__always)
  private static func id(of ad: NativeAd, equals bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    ad.id.utf8.withContiguousStorageIfAvailable { stored in
      stored.count == bytes.count
        && (bytes.count == 0
          || ByteKeys.equal(stored.baseAddress!, bytes.baseAddress!, count: bytes.count))
    } ?? ad.id.utf8.elementsEqual(bytes)
  }

  /// The table's hash of an ID's bytes (``ByteKeys/hash(_:)``).
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    ByteKeys.hash(UnsafeRawBufferPointer(bytes))
  }

  private static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBufferPointer(hash) }
}
