/// The round-robin state of tied creatives (same priority, same eCPM) per ad unit.
///
/// Each tie group of a unit, keyed by the unit ID, the priority and the eCPM, has a counter
/// that starts at a value derived from the seed and the key, and advances by one on every load
/// that reaches the group; the group's first member for a load is `counter % members`. Keys do
/// not depend on the unit's listing, so redefining a unit keeps rotating from where it was
/// (members that come or go just change the modulus).
struct CreativeRotation {
  private let seed: UInt64
  private var counters: [Key: UInt64] = [:]

  /// A tie group (no string is built per load: the text form is made only to seed a new
  /// group's counter).
  private struct Key: Hashable {
    var unitID: String
    var priority: Int
    var eCPMBits: UInt64
  }

  /// Creates rotation state for a manager seeded with `seed`.
  init(seed: UInt64) {
    self.seed = seed
  }

  /// The index at which the tie group (`unitID`, `priority`, `eCPM`) of `count` members starts
  /// for this load; advances the group's counter.
  mutating func nextStart(unitID: String, priority: Int, eCPM: Double, count: Int) -> Int {
    guard count > 1 else { return 0 }
    let key = Key(unitID: unitID, priority: priority, eCPMBits: eCPM.bitPattern)
    let counter =
      counters[key] ?? initialCounter(for: "\(unitID)\u{0}\(priority)\u{0}\(eCPM.bitPattern)")
    counters[key] = counter &+ 1
    return Int(counter % UInt64(count))
  }

  /// A deterministic starting counter for `key` (FNV-1a of the key mixed with the seed; the
  /// standard library's `Hasher` is randomly seeded per process, so it cannot be used).
  private func initialCounter(for key: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    var generator = SplitMix64(seed: seed ^ hash)
    return generator.next()
  }
}
