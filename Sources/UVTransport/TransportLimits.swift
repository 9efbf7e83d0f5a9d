/// Flow-control limits of every connection. All are configurable from the command line, which
/// checks `0 < writeLowWater < writeHighWater < maxQueuedBytes` (``ConnectionState`` asserts
/// it).
public struct TransportLimits: Sendable, Equatable {
  /// Stop reading a connection whose unsent bytes exceed this (`--write-high-water`).
  public var writeHighWater: Int = 1 << 20
  /// Resume reading once its unsent bytes drop below this (`--write-low-water`).
  public var writeLowWater: Int = 256 << 10
  /// Close a connection whose unsent bytes exceed this (`--max-queued-bytes`). Reading stops at
  /// the high-water mark, so only the replies to one read can push a connection past it.
  public var maxQueuedBytes: Int = 64 << 20
  /// Size of the buffer each read fills.
  public var readBufferSize: Int = 64 << 10

  public init() {}
}
