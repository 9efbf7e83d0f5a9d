/// The protocol-level limits of a server. Every one is explicit and configurable
/// (`--max-message-bytes`, `--max-depth`, `--max-batch`).
public struct RPCLimits: Sendable, Equatable {
  /// Largest message body accepted, in bytes (default 16 MiB).
  public var maxMessageBytes: Int = 16 * 1024 * 1024
  /// Deepest JSON nesting accepted (default 128).
  public var maxDepth: Int = 128
  /// Most requests accepted in one batch (default 1000).
  public var maxBatch: Int = 1000

  public init() {}

  public init(maxMessageBytes: Int, maxDepth: Int, maxBatch: Int) {
    self.maxMessageBytes = maxMessageBytes
    self.maxDepth = maxDepth
    self.maxBatch = maxBatch
  }
}
