/// The SplitMix64 pseudo-random generator: tiny, fast and deterministic from its seed.
///
/// ``AdManager`` draws response identifiers and its ad ID prefix from one, so a fixed seed gives
/// reproducible runs.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The generator state.
  public private(set) var state: UInt64

  /// Creates a generator from `seed`.
  public init(seed: UInt64) {
    self.state = seed
  }

  /// The next 64 pseudo-random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
