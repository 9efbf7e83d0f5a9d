/// A JSON-RPC error object: an open set of codes, as in sourcekit-lsp's `ErrorCode`.
///
/// The reserved codes carry the specification's exact messages; any detail goes into
/// `data.detail` so that clients matching on `message` keep working. Domain modules throw their
/// own typed errors, which the RPC layer maps to these in one place.
public struct RPCError: Error, Sendable, Equatable {
  public var code: Int
  public var message: String
  public var data: JSONValue?

  public init(code: Int, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  private static func detail(_ text: String?) -> JSONValue? {
    text.map { .object([("detail", .string($0))]) }
  }

  /// -32700: the message is not valid JSON (or not valid UTF-8, or nested too deeply).
  public static func parseError(_ detail: String? = nil) -> RPCError {
    RPCError(code: -32700, message: "Parse error", data: Self.detail(detail))
  }

  /// -32600: valid JSON that is not a valid request.
  public static func invalidRequest(_ detail: String? = nil) -> RPCError {
    RPCError(code: -32600, message: "Invalid Request", data: Self.detail(detail))
  }

  /// -32601.
  public static func methodNotFound(_ method: String) -> RPCError {
    RPCError(
      code: -32601, message: "Method not found",
      data: .object([("method", .string(method))]))
  }

  /// -32602 naming the offending field: `Invalid params: options.numberOfAds must be an integer`.
  public static func invalidParams(field: String, _ problem: String) -> RPCError {
    RPCError(
      code: -32602, message: "Invalid params: \(field) \(problem)",
      data: .object([("field", .string(field))]))
  }

  /// -32602 about the params container itself.
  public static func invalidParams(_ detail: String) -> RPCError {
    RPCError(code: -32602, message: "Invalid params: \(detail)")
  }

  /// -32603.
  public static func internalError(_ detail: String? = nil) -> RPCError {
    RPCError(code: -32603, message: "Internal error", data: Self.detail(detail))
  }

  /// -32001: a message larger than the configured limit.
  public static func messageTooLarge(size: Int?, limit: Int) -> RPCError {
    let what = size.map { "a message of \($0) bytes" } ?? "a message"
    return RPCError(
      code: -32001, message: "Message too large",
      data: .object([
        ("detail", .string("\(what) exceeds the limit of \(limit) bytes (--max-message-bytes)")),
        ("limit", .int(limit)),
      ]))
  }

  /// -32002: the server is at its connection limit.
  public static func tooManyConnections(limit: Int) -> RPCError {
    RPCError(
      code: -32002, message: "Too many connections",
      data: .object([
        ("detail", .string("the server accepts at most \(limit) connections (--max-connections)")),
        ("limit", .int(limit)),
      ]))
  }

  /// Writes the error object (`{"code":...,"message":...,"data":...}`).
  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("code")
    w.int(code)
    w.key("message")
    w.string(message)
    if let data {
      w.key("data")
      w.value(data)
    }
    w.endObject()
  }
}
