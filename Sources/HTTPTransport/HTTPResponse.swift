/// An HTTP/1.1 response, written whole (`Content-Length`, never chunked: every body this
/// server sends is known when it is sent).
public struct HTTPResponse: Sendable {
  public var status: Int
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]

  public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A plain-text response (an error's reason, with a newline).
  public static func text(
    _ status: Int, _ text: String, headers: [(name: String, value: String)] = []
  )
    -> HTTPResponse
  {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
      body: Array((text + "\n").utf8))
  }

  /// The bytes on the wire. `close` adds `Connection: close`; a HEAD request gets the headers
  /// only. Statuses without a body (1xx, 204, 304) carry no `Content-Length`.
  public func serialized(close: Bool, headOnly: Bool = false) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers {
      head += "\(Self.fieldText(name)): \(Self.fieldText(value))\r\n"
    }
    let bodiless = status < 200 || status == 204 || status == 304
    if !bodiless { head += "Content-Length: \(body.count)\r\n" }
    if close { head += "Connection: close\r\n" }
    head += "\r\n"
    var bytes = Array(head.utf8)
    if !bodiless && !headOnly { bytes += body }
    return bytes
  }

  /// `text` as a header's name or value may carry it: a control character (CR, LF and NUL
  /// among them, which would end the header or split the response) becomes a space. Callers
  /// encode what they put in headers; this keeps one that forgot from letting a client's
  /// bytes write headers of their own.
  static func fieldText(_ text: String) -> String {
    guard text.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
      return text
    }
    return String(
      decoding: text.utf8.map { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F ? 0x20 : $0 },
      as: UTF8.self)
  }

  /// The reason phrase of the statuses this server sends.
  public static func reason(_ status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 101: "Switching Protocols"
    case 200: "OK"
    case 204: "No Content"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 426: "Upgrade Required"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Status \(status)"
    }
  }
}
