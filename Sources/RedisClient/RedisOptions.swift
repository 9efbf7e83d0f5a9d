/// The limits of a ``RedisConnection``, each set by a server flag (`--redis-timeout-ms`...).
public struct RedisOptions: Sendable, Equatable {
  /// How long a command may wait for its reply, in milliseconds. A reply that takes longer
  /// means the server or the network is stuck: the connection is dropped (every command in
  /// flight fails with ``RedisError/timedOut(milliseconds:)``) and made again.
  public var commandTimeoutMs: UInt64 = 2_000
  /// How long connecting (TCP, then `AUTH` and `SELECT`) may take, in milliseconds.
  public var connectTimeoutMs: UInt64 = 2_000
  /// The first wait before connecting again after a failure, in milliseconds; it doubles
  /// with each failure in a row, up to ``reconnectMaxDelayMs``, and each wait is drawn at
  /// random from its upper half (so a fleet does not reconnect in step).
  public var reconnectInitialDelayMs: UInt64 = 50
  public var reconnectMaxDelayMs: UInt64 = 2_000
  /// At most this many commands wait for their replies at once; more fail at once with
  /// ``RedisError/overloaded(limit:)``.
  public var maxInFlight: Int = 65_536

  public init() {}
}

/// Why a command got no reply. Every case means the same to a caller (the data is out of
/// reach for now); the case says why, for the error message and the logs.
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No connection now; the last failure says why (a connection is being made again).
  case notConnected(lastFailure: String)
  /// The connection broke before the reply came.
  case connectionLost(String)
  /// The reply took longer than the command timeout.
  case timedOut(milliseconds: UInt64)
  /// Too many commands in flight.
  case overloaded(limit: Int)
  /// The connection was closed by its owner.
  case closed

  public var description: String {
    switch self {
    case .notConnected(let why): return "not connected to Redis (\(why))"
    case .connectionLost(let why): return "the connection to Redis was lost (\(why))"
    case .timedOut(let ms): return "Redis did not answer within \(ms) ms"
    case .overloaded(let limit): return "more than \(limit) Redis commands in flight"
    case .closed: return "the connection to Redis is closed"
    }
  }
}
