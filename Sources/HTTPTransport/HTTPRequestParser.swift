import CHTTPParser

/// One HTTP/1.1 request, as the client sent it: header names lowercased, the body whole
/// (chunked bodies put together by the parser).
public struct HTTPRequest: Sendable {
  public var method: String
  /// The request target as sent (`/rpc`, `/?x=1`).
  public var target: String
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]
  public var versionMajor: Int
  public var versionMinor: Int
  /// Whether the connection may carry another request after this one's response.
  public var keepAlive: Bool
  /// Whether the client asked to switch protocols (`Connection: upgrade`).
  public var isUpgrade: Bool

  /// The path of the target, without its query.
  public var path: Substring { target.prefix { $0 != "?" } }

  /// The value of header `name` (lowercase); several headers of that name are joined with
  /// `, ` as RFC 9110 allows.
  public func header(_ name: String) -> String? {
    let values = headers.filter { $0.name == name }.map(\.value)
    return values.isEmpty ? nil : values.joined(separator: ", ")
  }

  /// How many headers named `name` (lowercase) there are.
  public func count(of name: String) -> Int { headers.lazy.filter { $0.name == name }.count }

  /// Whether a comma-separated header holds `token` (case-insensitive).
  public func header(_ name: String, contains token: String) -> Bool {
    guard let value = header(name) else { return false }
    return value.split(separator: ",").contains {
      $0.trimmingSpaces.lowercased() == token.lowercased()
    }
  }
}

extension Substring {
  var trimmingSpaces: Substring {
    var s = self
    while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" { s.removeLast() }
    return s
  }
}

/// The limits of one HTTP request (`--max-message-bytes` bounds its body).
public struct HTTPLimits: Sendable, Equatable {
  /// The request line and headers together (default 16 KiB; the library's own cap is 80 KiB).
  public var maxHeaderBytes = 16 * 1024
  /// Most headers in one request (default 100).
  public var maxHeaders = 100
  /// The body, once chunks are put together.
  public var maxBodyBytes = 16 * 1024 * 1024

  public init() {}
}

/// Why a request could not be read: the status to answer (the connection closes after it).
public struct HTTPParseError: Error, Sendable, Equatable {
  public var status: Int
  public var reason: String
}

/// Reads HTTP/1.1 requests from a connection's bytes with Node's former parser
/// (`http_parser`, Debian libhttp-parser-dev). One request at a time: the parser pauses after
/// each, so that pipelined requests are answered in order and a slow one (a deferred reply)
/// holds the ones behind it. No I/O.
public final class HTTPRequestParser {
  public let limits: HTTPLimits
  private let parser: UnsafeMutablePointer<http_parser>
  private var settings = http_parser_settings()

  // The request being read.
  private var method = ""
  private var url: [UInt8] = []
  private var headers: [(name: String, value: String)] = []
  private var field: [UInt8] = []
  private var value: [UInt8] = []
  private var inValue = false
  private var headerBytes = 0
  private var body: [UInt8] = []
  private var limitError: HTTPParseError?
  private var complete: HTTPRequest?

  public init(limits: HTTPLimits) {
    self.limits = limits
    parser = .allocate(capacity: 1)
    http_parser_init(parser, HTTP_REQUEST)
    http_parser_settings_init(&settings)
    settings.on_message_begin = { p in HTTPRequestParser.of(p).begin() }
    settings.on_url = { p, at, n in HTTPRequestParser.of(p).url(at, n) }
    settings.on_header_field = { p, at, n in HTTPRequestParser.of(p).field(at, n) }
    settings.on_header_value = { p, at, n in HTTPRequestParser.of(p).value(at, n) }
    settings.on_headers_complete = { p in HTTPRequestParser.of(p).headersComplete() }
    settings.on_body = { p, at, n in HTTPRequestParser.of(p).body(at, n) }
    settings.on_message_complete = { p in HTTPRequestParser.of(p).messageComplete() }
  }

  deinit { parser.deallocate() }

  private static func of(_ p: UnsafeMutablePointer<http_parser>?) -> HTTPRequestParser {
    Unmanaged<HTTPRequestParser>.fromOpaque(p!.pointee.data).takeUnretainedValue()
  }

  /// What ``parse(_:)`` found at the start of the bytes.
  public enum Outcome {
    /// A whole request, and the bytes it used.
    case request(HTTPRequest, consumed: Int)
    /// Not a whole request yet: every byte was taken in (keep feeding).
    case needMore
    /// The request cannot be read: answer `status`, then close.
    case failure(HTTPParseError)
  }

  /// Reads at most one request from `bytes`. After an upgrade request (`isUpgrade`) the bytes
  /// that follow it belong to the new protocol when the caller accepts the upgrade; when it
  /// refuses it, the parser reads on as for any request.
  public func parse(_ bytes: UnsafeRawBufferPointer) -> Outcome {
    parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    defer { parser.pointee.data = nil }
    let n = bytes.withMemoryRebound(to: CChar.self) { chars in
      http_parser_execute(parser, &settings, chars.baseAddress, chars.count)
    }
    let errno = native_ads_http_errno(parser)
    if let request = complete {
      complete = nil
      if errno == HPE_PAUSED { http_parser_pause(parser, 0) }
      // Paused inside on_message_complete, its last byte counted; an upgrade is not paused
      // (the library stops there by itself, at the end of the headers).
      return .request(request, consumed: n)
    }
    if let limitError { return .failure(limitError) }
    guard errno == HPE_OK else {
      let name = String(cString: http_errno_name(errno))
      let description = String(cString: http_errno_description(errno))
      if errno == HPE_HEADER_OVERFLOW {
        return .failure(HTTPParseError(status: 431, reason: description))
      }
      return .failure(HTTPParseError(status: 400, reason: "\(name): \(description)"))
    }
    return .needMore
  }

  // MARK: Callbacks (0 to go on, -1 to stop with an error: on_headers_complete gives 1 and 2
  // other meanings, skipping the body)

  private func begin() -> Int32 {
    headersDone = false
    continueRequested = false
    method = ""
    url.removeAll()
    headers.removeAll()
    field.removeAll()
    value.removeAll()
    inValue = false
    headerBytes = 0
    body.removeAll()
    return 0
  }

  private func countHeader(_ n: Int) -> Int32 {
    headerBytes += n
    guard headerBytes <= limits.maxHeaderBytes else {
      limitError = HTTPParseError(
        status: 431, reason: "the request's headers are over \(limits.maxHeaderBytes) bytes")
      return -1
    }
    return 0
  }

  private func url(_ at: UnsafePointer<CChar>?, _ n: Int) -> Int32 {
    if let at { url.append(contentsOf: UnsafeRawBufferPointer(start: at, count: n)) }
    return countHeader(n)
  }

  private func endHeader() -> Int32 {
    guard !field.isEmpty else { return 0 }
    guard headers.count < limits.maxHeaders else {
      limitError = HTTPParseError(
        status: 431, reason: "more than \(limits.maxHeaders) headers in one request")
      return -1
    }
    headers.append(
      (
        String(decoding: field, as: UTF8.self).lowercased(),
        String(String(decoding: value, as: UTF8.self)[...].trimmingSpaces)
      ))
    field.removeAll()
    value.removeAll()
    return 0
  }

  /// Set once the headers are complete: a chunked body's trailers are not headers of the
  /// request (they could otherwise say another Host or Origin).
  private var headersDone = false

  private func field(_ at: UnsafePointer<CChar>?, _ n: Int) -> Int32 {
    if headersDone { return countHeader(n) }
    if inValue {
      inValue = false
      if endHeader() != 0 { return -1 }
    }
    if let at { field.append(contentsOf: UnsafeRawBufferPointer(start: at, count: n)) }
    return countHeader(n)
  }

  private func value(_ at: UnsafePointer<CChar>?, _ n: Int) -> Int32 {
    if headersDone { return countHeader(n) }
    inValue = true
    if let at { value.append(contentsOf: UnsafeRawBufferPointer(start: at, count: n)) }
    return countHeader(n)
  }

  private func headersComplete() -> Int32 {
    if inValue {
      inValue = false
      if endHeader() != 0 { return -1 }
    }
    headersDone = true
    method = String(cString: http_method_str(native_ads_http_method(parser)))
    let hasBody =
      parser.pointee.content_length != 0 && parser.pointee.content_length != UInt64.max
      || headers.contains { $0.name == "transfer-encoding" }
    // HTTP/1.0 has no 100 Continue.
    if hasBody, parser.pointee.http_major == 1, parser.pointee.http_minor >= 1,
      headers.contains(where: { $0.name == "expect" && $0.value.lowercased() == "100-continue" })
    {
      continueRequested = true
    }
    if parser.pointee.content_length != UInt64.max,
      parser.pointee.content_length > UInt64(limits.maxBodyBytes)
    {
      limitError = HTTPParseError(
        status: 413,
        reason:
          "a body of \(parser.pointee.content_length) bytes is over the \(limits.maxBodyBytes)-byte limit"
      )
      return -1
    }
    return 0
  }

  private func body(_ at: UnsafePointer<CChar>?, _ n: Int) -> Int32 {
    guard body.count + n <= limits.maxBodyBytes else {
      limitError = HTTPParseError(
        status: 413, reason: "the body is over the \(limits.maxBodyBytes)-byte limit")
      return -1
    }
    if let at { body.append(contentsOf: UnsafeRawBufferPointer(start: at, count: n)) }
    return 0
  }

  private func messageComplete() -> Int32 {
    complete = HTTPRequest(
      method: method, target: String(decoding: url, as: UTF8.self), headers: headers,
      body: body, versionMajor: Int(parser.pointee.http_major),
      versionMinor: Int(parser.pointee.http_minor),
      keepAlive: http_should_keep_alive(parser) != 0,
      isUpgrade: native_ads_http_upgrade(parser) != 0)
    body = []
    if native_ads_http_upgrade(parser) == 0 { http_parser_pause(parser, 1) }
    return 0
  }

  /// True once after the headers of a request that asked for `Expect: 100-continue` and has a
  /// body to send: the caller answers `100 Continue` so that the client sends it.
  public func takeContinueRequest() -> Bool {
    defer { continueRequested = false }
    return continueRequested
  }
  private var continueRequested = false
}
