/// The protocol-level limits of a server. Every one is explicit and configurable
/// (`--max-message-bytes`, `--max-depth`, `--max-batch`, `--max-unanswered`).
public struct RPCLimits: Sendable, Equatable {
  /// Largest message body accepted, in bytes (default 16 MiB).
  public var maxMessageBytes: Int = 16 * 1024 * 1024
  /// Deepest JSON nesting accepted (default 128, at most ``maximumDepth``).
  public var maxDepth: Int = 128
  /// Most requests accepted in one batch (default 1000).
  public var maxBatch: Int = 1000
  /// Most requests of one connection whose replies wait at once (for a fleet's Redis, a
  /// waterfall); past it the connection is not read until some are answered (default 128,
  /// `--max-unanswered`). Their replies are written when they come, past the connection's
  /// high-water mark, so this bounds what a client that never reads makes the server hold
  /// there: in a fleet a waiting `loadAd` holds about 14 KB (its ad, its Redis command, then
  /// its reply), 1.8 MB for 128.
  public var maxUnanswered: Int = 128

  /// The largest ``maxDepth`` a server may be given: the parser is iterative, but values that
  /// are kept or re-encoded (an adapter's `error.data`, store documents) are materialized and
  /// written recursively, and 4,096 levels stay well within the 8 MiB main-thread stack even
  /// in a debug build (which overflowed at about 9,000).
  public static let maximumDepth = 4096

  public init() {}

  public init(maxMessageBytes: Int, maxDepth: Int, maxBatch: Int) {
    self.maxMessageBytes = maxMessageBytes
    self.maxDepth = maxDepth
    self.maxBatch = maxBatch
  }
}
