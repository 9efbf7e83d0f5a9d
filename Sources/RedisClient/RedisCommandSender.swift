/// What sends commands to Redis: one ``RedisConnection``, or a ``RedisCluster`` that routes
/// each command to the node holding its key's slot. Loop-thread only.
public protocol RedisCommandSender: AnyObject {
  var options: RedisOptions { get }
  /// Whether a command sent now can reach a server (connected, or connecting).
  var isUsable: Bool { get }
  /// Runs each time a connection (to any node) is established.
  var onConnected: (() -> Void)? { get set }
  /// Sends one command; see ``RedisConnection/send(_:timeoutMs:completion:)``.
  func send(
    _ arguments: [[UInt8]], timeoutMs: UInt64?,
    completion: @escaping (Result<RedisReply, RedisError>) -> Void)
  func close()
}

extension RedisCommandSender {
  /// The same, with each argument given as text.
  public func send(
    _ arguments: String..., timeoutMs: UInt64? = nil,
    completion: @escaping (Result<RedisReply, RedisError>) -> Void
  ) {
    send(arguments.map { Array($0.utf8) }, timeoutMs: timeoutMs, completion: completion)
  }
}

extension RedisConnection: RedisCommandSender {
  public var isUsable: Bool { state == .connected || state == .connecting }
}
