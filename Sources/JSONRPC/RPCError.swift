/// A JSON-RPC error object: an open set of codes, as in sourcekit-lsp's `ErrorCode`.
///
/// The reserved codes carry the specification's exact messages; any detail goes into
/// `data.detail` so that clients matching on `message` keep working. Domain modules throw their
/// own typed errors, which the RPC layer maps to these in one place.
public struct RPCError: Error, Sendable, Equatable {
  public var code: ErrorCode
  public var message: String
  public var data: JSONValue?

  public init(code: ErrorCode, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  private static func detail(_ text: String?) -> JSONValue? {
    text.map { .object([("detail", .string($0))]) }
  }

  /// -32700: the message is not valid JSON (or not valid UTF-8, or nested too deeply).
  public static func parseError(_ detail: String? = nil) -> RPCError {
    RPCError(code: .parseError, message: "Parse error", data: Self.detail(detail))
  }

  /// -32600: valid JSON that is not a valid request.
  public static func invalidRequest(_ detail: String? = nil) -> RPCError {
    RPCError(code: .invalidRequest, message: "Invalid Request", data: Self.detail(detail))
  }

  /// -32601.
  public static func methodNotFound(_ method: String) -> RPCError {
    RPCError(
      code: .methodNotFound, message: "Method not found",
      data: .object([("method", .string(method))]))
  }

  /// -32602 naming the offending field: `Invalid params: options.numberOfAds must be an integer`.
  public static func invalidParams(field: String, _ problem: String) -> RPCError {
    RPCError(
      code: .invalidParams, message: "Invalid params: \(field) \(problem)",
      data: .object([("field", .string(field))]))
  }

  /// -32602 about the params container itself.
  public static func invalidParams(_ detail: String) -> RPCError {
    RPCError(code: .invalidParams, message: "Invalid params: \(detail)")
  }

  /// -32603.
  public static func internalError(_ detail: String? = nil) -> RPCError {
    RPCError(code: .internalError, message: "Internal error", data: Self.detail(detail))
  }

  /// -32001: a message larger than the configured limit.
  public static func messageTooLarge(size: Int?, limit: Int) -> RPCError {
    let what = size.map { "a message of \($0) bytes" } ?? "a message"
    return RPCError(
      code: .messageTooLarge, message: "Message too large",
      data: .object([
        ("detail", .string("\(what) exceeds the limit of \(limit) bytes (--max-message-bytes)")),
        ("limit", .int(limit)),
      ]))
  }

  /// -32002: the server is at its connection limit.
  public static func tooManyConnections(limit: Int) -> RPCError {
    RPCError(
      code: .tooManyConnections, message: "Too many connections",
      data: .object([
        ("detail", .string("the server accepts at most \(limit) connections (--max-connections)")),
        ("limit", .int(limit)),
      ]))
  }

  /// -32800: the client cancelled the request (`$/cancelRequest`) before it was answered.
  public static let requestCancelled = RPCError(
    code: .requestCancelled, message: "Request cancelled")

  /// -32600 for a request after `shutdown` (only `exit` is answered then).
  public static let shutDown = RPCError.invalidRequest(
    "the server received shutdown on this connection: only exit is accepted")

  /// -32000: the connection closed before the peer answered a request the server sent it.
  public static let connectionClosed = RPCError(
    code: .connectionClosed, message: "Connection closed")

  /// Writes the error object (`{"code":...,"message":...,"data":...}`).
  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("code")
    w.int(code.rawValue)
    w.key("message")
    w.string(message)
    if let data {
      w.key("data")
      w.value(data)
    }
    w.endObject()
  }
}

/// A JSON-RPC error code: an open set, as sourcekit-lsp's `ErrorCode`. The reserved codes and
/// this library's own are here; a service adds its codes in an extension. Compares with
/// integer literals (`error.code == -32602`).
public struct ErrorCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral {
  public var rawValue: Int

  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  public init(integerLiteral value: Int) {
    self.rawValue = value
  }

  /// -32700 `Parse error`.
  public static let parseError: ErrorCode = -32700
  /// -32600 `Invalid Request`.
  public static let invalidRequest: ErrorCode = -32600
  /// -32601 `Method not found`.
  public static let methodNotFound: ErrorCode = -32601
  /// -32602 `Invalid params`.
  public static let invalidParams: ErrorCode = -32602
  /// -32603 `Internal error`.
  public static let internalError: ErrorCode = -32603
  /// -32000: the connection closed before a request the server sent on it was answered.
  public static let connectionClosed: ErrorCode = -32000
  /// -32001 `Message too large`.
  public static let messageTooLarge: ErrorCode = -32001
  /// -32002 `Too many connections`.
  public static let tooManyConnections: ErrorCode = -32002
  /// -32800 `Request cancelled` (LSP's code): answered to a request cancelled by
  /// `$/cancelRequest`.
  public static let requestCancelled: ErrorCode = -32800
}
