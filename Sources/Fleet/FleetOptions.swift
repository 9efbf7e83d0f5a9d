/// The fleet's limits and settings, each a server flag (`docs/fleet.md`).
public struct FleetOptions: Sendable, Equatable {
  /// Events the fleet's log keeps (the stream is trimmed to about this many; `--max-events`).
  public var maxEvents = 100_000
  /// How long an ad stays in Redis after it expires, in seconds: an expired ad still answers
  /// reads and says `expired` (as in one process) until then, and is gone after
  /// (`--fleet-expired-ad-ttl-s`).
  public var expiredAdTTLSeconds: Double = 3600
  /// Ads of other processes kept in this one's memory between calls (their facts never
  /// change; their state is checked on every call); more are dropped.
  public var maxForeignAds = 10_000
  /// How many times a change is tried again when another process changed the ad first.
  public var maxChangeAttempts = 64
  /// How long an inbox read waits on the server before it is sent again, in milliseconds.
  public var inboxBlockMs: UInt64 = 2_000

  public init() {}
}
