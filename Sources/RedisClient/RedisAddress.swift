/// Where a Redis server is and how to log in to it, parsed from the `--redis` URL:
/// `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` (IPv6 hosts in brackets; port 6379 by default)
/// or `unix:PATH` (`unix:PATH?db=N` picks a database; `?password=...` logs in).
public struct RedisAddress: Sendable, Equatable, CustomStringConvertible {
  /// How to reach the server.
  public enum Endpoint: Sendable, Equatable {
    case tcp(host: String, port: Int)
    case unix(path: String)
  }

  public var endpoint: Endpoint
  /// The logical database (`SELECT`), 0 by default.
  public var database: Int
  /// The ACL user for `AUTH`, when one is given with a password.
  public var username: String?
  /// The password for `AUTH`; nil sends no `AUTH`.
  public var password: String?

  public init(
    endpoint: Endpoint, database: Int = 0, username: String? = nil, password: String? = nil
  ) {
    self.endpoint = endpoint
    self.database = database
    self.username = username
    self.password = password
  }

  /// Parses a `--redis` URL; the error says what is wrong with it.
  public init(parsing text: String) throws(RedisAddressError) {
    func fail(_ why: String) -> RedisAddressError { RedisAddressError(url: text, problem: why) }
    if text.hasPrefix("unix:") {
      var rest = Substring(text.dropFirst("unix:".count))
      if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
      var database = 0
      var password: String?
      if let query = rest.firstIndex(of: "?") {
        for pair in rest[rest.index(after: query)...].split(separator: "&") {
          let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
          guard parts.count == 2 else { throw fail("query item \"\(pair)\" is not NAME=VALUE") }
          switch parts[0] {
          case "db":
            guard let value = Int(parts[1]), value >= 0 else {
              throw fail("db must be a number of 0 or more")
            }
            database = value
          case "password": password = String(parts[1])
          default: throw fail("unknown query item \"\(parts[0])\" (db, password)")
          }
        }
        rest = rest[..<query]
      }
      guard !rest.isEmpty else { throw fail("no socket path after unix:") }
      self.init(endpoint: .unix(path: String(rest)), database: database, password: password)
      return
    }
    guard text.hasPrefix("redis://") else {
      throw fail("expected redis://HOST:PORT[/DB] or unix:PATH")
    }
    var rest = Substring(text.dropFirst("redis://".count))
    var username: String?
    var password: String?
    if let at = rest.lastIndex(of: "@") {
      let credentials = rest[..<at]
      rest = rest[rest.index(after: at)...]
      if let colon = credentials.firstIndex(of: ":") {
        let user = credentials[..<colon]
        username = user.isEmpty ? nil : String(user)
        password = String(credentials[credentials.index(after: colon)...])
      } else {
        password = String(credentials)
      }
    }
    var database = 0
    if let slash = rest.firstIndex(of: "/") {
      let path = rest[rest.index(after: slash)...]
      if !path.isEmpty {
        guard let value = Int(path), value >= 0 else {
          throw fail("the database after / must be a number of 0 or more")
        }
        database = value
      }
      rest = rest[..<slash]
    }
    let host: Substring
    var portText: Substring?
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { throw fail("unclosed [ in the host") }
      host = rest[rest.index(after: rest.startIndex)..<close]
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw fail("expected :PORT after ]") }
        portText = after.dropFirst()
      }
    } else if let colon = rest.lastIndex(of: ":") {
      host = rest[..<colon]
      portText = rest[rest.index(after: colon)...]
    } else {
      host = rest
    }
    guard !host.isEmpty else { throw fail("no host") }
    var port = 6379
    if let portText {
      guard let value = Int(portText), (1...65535).contains(value) else {
        throw fail("the port must be a number from 1 to 65535")
      }
      port = value
    }
    self.init(
      endpoint: .tcp(host: String(host), port: port), database: database, username: username,
      password: password)
  }

  /// The address without its password (for logs).
  public var description: String {
    let login = password == nil ? "" : (username.map { "\($0):***@" } ?? ":***@")
    switch endpoint {
    case .tcp(let host, let port):
      let shown = host.contains(":") ? "[\(host)]" : host
      return "redis://\(login)\(shown):\(port)" + (database == 0 ? "" : "/\(database)")
    case .unix(let path):
      return "unix:\(path)" + (database == 0 ? "" : "?db=\(database)")
    }
  }
}

/// A `--redis` URL that does not parse.
public struct RedisAddressError: Error, Sendable, Equatable, CustomStringConvertible {
  public var url: String
  public var problem: String
  public var description: String { "invalid Redis URL \"\(url)\": \(problem)" }
}
