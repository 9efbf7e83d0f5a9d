import UVTransport

/// Redis Cluster or a single server, found out at start: `CLUSTER SLOTS` on the seed node
/// answers the slot map (a cluster) or an error (a single server, to which everything goes).
///
/// In a cluster each command goes to the master holding the hash slot of its key (CRC16 of the
/// key, or of its `{hash tag}`), over a connection per node, made when first needed. A `MOVED`
/// reply (the slot moved) updates the map and sends the command again where it says; an `ASK`
/// reply (the slot is migrating) sends it there once, after `ASKING`. At most five redirects
/// a command. Commands without a key go to the seed.
///
/// Hand-written: Debian's hiredis (0.14) has no cluster support, and hiredis-cluster is not
/// packaged. Loop-thread only.
public final class RedisCluster: RedisCommandSender {
  public let seed: RedisAddress
  public let options: RedisOptions
  private let eventLoop: EventLoop
  private let seedConnection: RedisConnection
  private var nodes: [String: RedisConnection] = [:]
  /// The node of each slot, when known (`host:port`).
  private var slots: [String?] = Array(repeating: nil, count: 16384)
  /// Whether the seed said it is a cluster node (nil until it answered).
  public private(set) var isCluster: Bool?
  private var discovering = false
  private var closed = false
  public var onConnected: (() -> Void)? {
    didSet { for connection in allConnections { connection.onConnected = onConnected } }
  }

  public init(seed: RedisAddress, options: RedisOptions = RedisOptions(), eventLoop: EventLoop) {
    self.seed = seed
    self.options = options
    self.eventLoop = eventLoop
    seedConnection = RedisConnection(address: seed, options: options, eventLoop: eventLoop)
    discover()
  }

  private var allConnections: [RedisConnection] { [seedConnection] + Array(nodes.values) }

  public var isUsable: Bool { seedConnection.isUsable || nodes.values.contains { $0.isUsable } }

  public func close() {
    closed = true
    for connection in allConnections { connection.close() }
    nodes.removeAll()
  }

  /// Asks the seed for the slot map (again, after a `MOVED`).
  private func discover() {
    guard !discovering, !closed else { return }
    discovering = true
    seedConnection.send("CLUSTER", "SLOTS") { [self] result in
      discovering = false
      switch result {
      case .success(.error(let message)):
        // "ERR This instance has cluster support disabled": one server.
        if message.contains("cluster support disabled") { isCluster = false }
      case .success(let reply):
        guard let ranges = reply.elements else { return }
        isCluster = true
        for range in ranges {
          guard let parts = range.elements, parts.count >= 3, let first = parts[0].integer,
            let last = parts[1].integer, let master = parts[2].elements, master.count >= 2,
            let host = master[0].text, let port = master[1].integer,
            (0..<16384).contains(first), (0..<16384).contains(last), first <= last
          else { continue }
          let node = Self.name(host: host.isEmpty ? seedHost : host, port: Int(port))
          for slot in Int(first)...Int(last) { slots[slot] = node }
        }
      case .failure:
        break
      }
    }
  }

  private var seedHost: String {
    if case .tcp(let host, _) = seed.endpoint { return host }
    return "127.0.0.1"
  }

  private static func name(host: String, port: Int) -> String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// The connection to node `name` (`host:port`), made when first needed, with the seed's
  /// login and database.
  private func connection(to name: String) -> RedisConnection {
    if let existing = nodes[name] { return existing }
    var address = seed
    let split = name.lastIndex(of: ":")!
    var host = String(name[..<split])
    if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
    address.endpoint = .tcp(host: host, port: Int(name[name.index(after: split)...]) ?? 6379)
    let made = RedisConnection(address: address, options: options, eventLoop: eventLoop)
    made.onConnected = onConnected
    nodes[name] = made
    return made
  }

  public func send(
    _ arguments: [[UInt8]], timeoutMs: UInt64? = nil,
    completion: @escaping (Result<RedisReply, RedisError>) -> Void
  ) {
    guard isCluster != false else {
      return seedConnection.send(arguments, timeoutMs: timeoutMs, completion: completion)
    }
    // A cluster (or not known yet: a MOVED from the seed says so): the slot's node when known.
    let node = Self.key(of: arguments).flatMap { slots[Self.slot(of: $0)] }
    let target = node.map(connection(to:)) ?? seedConnection
    send(arguments, to: target, asking: false, redirects: 0, timeoutMs: timeoutMs, completion)
  }

  private func send(
    _ arguments: [[UInt8]], to target: RedisConnection, asking: Bool, redirects: Int,
    timeoutMs: UInt64?, _ completion: @escaping (Result<RedisReply, RedisError>) -> Void
  ) {
    if asking { target.send("ASKING") { _ in } }
    target.send(arguments, timeoutMs: timeoutMs) { [self] result in
      guard case .success(.error(let message)) = result, redirects < 5,
        let redirect = Self.redirect(message)
      else { return completion(result) }
      if !redirect.ask {
        slots[redirect.slot] = redirect.node
        discover()
      }
      send(
        arguments, to: connection(to: redirect.node), asking: redirect.ask,
        redirects: redirects + 1, timeoutMs: timeoutMs, completion)
    }
  }

  /// `MOVED 3999 127.0.0.1:6381` or `ASK 3999 127.0.0.1:6381`.
  static func redirect(_ message: String) -> (ask: Bool, slot: Int, node: String)? {
    let parts = message.split(separator: " ")
    guard parts.count == 3, parts[0] == "MOVED" || parts[0] == "ASK", let slot = Int(parts[1]),
      (0..<16384).contains(slot)
    else { return nil }
    return (parts[0] == "ASK", slot, String(parts[2]))
  }

  // MARK: Slots

  /// The key a command is routed by: the first key of `EVAL`/`EVALSHA` (after the key count),
  /// the first stream of `XREAD` (after `STREAMS`), else the first argument; nil for commands
  /// without one (`SCRIPT LOAD`, `PING`).
  static func key(of arguments: [[UInt8]]) -> [UInt8]? {
    guard let name = arguments.first.map({ String(decoding: $0, as: UTF8.self).uppercased() })
    else { return nil }
    switch name {
    case "EVAL", "EVALSHA":
      guard arguments.count > 3, let count = Int(String(decoding: arguments[2], as: UTF8.self)),
        count > 0
      else { return nil }
      return arguments[3]
    case "XREAD", "XREADGROUP":
      guard let streams = arguments.firstIndex(where: { $0 == Array("STREAMS".utf8) }),
        streams + 1 < arguments.count
      else { return nil }
      return arguments[streams + 1]
    case "SCRIPT", "PING", "CLUSTER", "INFO", "AUTH", "SELECT", "ASKING":
      return nil
    default:
      return arguments.count > 1 ? arguments[1] : nil
    }
  }

  /// The hash slot of `key`: CRC16 (XMODEM) of its hash tag (what is between the first `{`
  /// and the next `}`, when not empty), else of the whole key, modulo 16384.
  public static func slot(of key: [UInt8]) -> Int {
    var hashed = key[...]
    if let open = key.firstIndex(of: UInt8(ascii: "{")),
      let close = key[(open + 1)...].firstIndex(of: UInt8(ascii: "}")), close > open + 1
    {
      hashed = key[(open + 1)..<close]
    }
    return Int(crc16(hashed) & 16383)
  }

  /// CRC-16/XMODEM (polynomial 0x1021, initial 0), as Redis Cluster specifies.
  static func crc16(_ bytes: ArraySlice<UInt8>) -> UInt16 {
    var crc: UInt16 = 0
    for byte in bytes {
      crc ^= UInt16(byte) << 8
      for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
    }
    return crc
  }
}
