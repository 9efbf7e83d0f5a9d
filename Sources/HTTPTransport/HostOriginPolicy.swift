/// Which `Host` and `Origin` headers the HTTP transport accepts (contract section 9): a page on
/// another site must not drive a local server, by a cross-site request or by DNS rebinding
/// (a foreign name that resolves to 127.0.0.1 arrives with that name as its `Host`).
///
/// - `Host` must be the address the server listens on, `HOST:PORT` (and `localhost:PORT` when
///   HOST is a loopback address). On a wildcard address (`0.0.0.0`, `::`), any IP literal with
///   the right port is the server's own: an address, unlike a name, cannot be rebound.
/// - `Origin`, when present, must be `http://` and one of those (on a wildcard address: the
///   request's own `Host`, as a page of the server itself sends; an IP literal in an `Origin`
///   is any site's), or one of `--allow-origin`'s (compared exactly, scheme and port
///   included).
public struct HostOriginPolicy: Sendable {
  public let host: String
  public let port: Int
  public let allowedOrigins: Set<String>

  public init(host: String, port: Int, allowedOrigins: [String] = []) {
    self.host = host
    self.port = port
    self.allowedOrigins = Set(allowedOrigins.map(Self.normalizedOrigin))
  }

  private var isLoopback: Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }

  private var isWildcard: Bool { host == "0.0.0.0" || host == "::" }

  /// `host` as it appears in a `Host` header (IPv6 in brackets).
  private static func bracketed(_ host: String) -> String {
    host.contains(":") ? "[\(host)]" : host
  }

  /// The `HOST:PORT` forms that name this server.
  public var ownAuthorities: [String] {
    var names = ["\(Self.bracketed(host)):\(port)"]
    if isLoopback || isWildcard { names.append("localhost:\(port)") }
    return names
  }

  /// Why a request with these `Host` and `Origin` headers is refused, or nil when it is not.
  public func refusal(host requestHost: String?, origin: String?) -> String? {
    guard let requestHost, isOwn(authority: requestHost.lowercased()) else {
      return "Host \(requestHost.map { "\"\($0)\"" } ?? "(none)") is not this server's own "
        + "(\(ownAuthorities.joined(separator: " or ")))"
    }
    if let origin {
      let normalized = Self.normalizedOrigin(origin)
      var own = false
      if normalized.hasPrefix("http://") {
        let authority = Self.withPort(String(normalized.dropFirst(7)))
        own =
          isWildcard
          ? authority == Self.withPort(requestHost.lowercased())
          : ownAuthorities.contains(authority)
      }
      if !own && !allowedOrigins.contains(normalized) {
        return "Origin \"\(origin)\" is not this server's own and not one --allow-origin gave"
      }
    }
    return nil
  }

  /// `authority` with its port, `:80` when it has none (`[::1]` and `example.test` alike).
  private static func withPort(_ authority: String) -> String {
    let hasPort =
      authority.hasPrefix("[")
      ? authority.contains("]:") : authority.contains(":")
    return hasPort ? authority : authority + ":80"
  }

  private func isOwn(authority: String) -> Bool {
    let full = Self.withPort(authority)
    if ownAuthorities.contains(full) { return true }
    guard isWildcard, full.hasSuffix(":\(port)") else { return false }
    return Self.isIPLiteral(full.dropLast(":\(port)".count))
  }

  private static func isIPLiteral(_ name: Substring) -> Bool {
    if name.hasPrefix("[") && name.hasSuffix("]") { return true }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts.allSatisfy { p in UInt8(p) != nil }
  }

  /// Origins compare lowercased, without a trailing slash.
  static func normalizedOrigin(_ origin: String) -> String {
    var o = origin.lowercased()
    while o.hasSuffix("/") { o.removeLast() }
    return o
  }
}
