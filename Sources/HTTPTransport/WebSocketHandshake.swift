import CCrypto

/// The server's side of the WebSocket opening handshake (RFC 6455, 4.2).
public enum WebSocketHandshake {
  /// The GUID every `Sec-WebSocket-Accept` is computed with (RFC 6455, 1.3).
  static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

  /// `Sec-WebSocket-Accept` for the client's `Sec-WebSocket-Key`: base64 of the SHA-1 of the
  /// key and the GUID, from OpenSSL's libcrypto.
  public static func accept(key: String) -> String {
    let input = Array((key + guid).utf8)
    var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
    _ = input.withUnsafeBufferPointer { SHA1($0.baseAddress, $0.count, &digest) }
    var encoded = [UInt8](repeating: 0, count: 32)  // 4 * ceil(20 / 3) + NUL
    let n = EVP_EncodeBlock(&encoded, digest, Int32(digest.count))
    return String(decoding: encoded[0..<Int(n)], as: UTF8.self)
  }

  /// The `101 Switching Protocols` response to a valid upgrade request, or the error response
  /// for an invalid one (`400`, or `426` with the version this server speaks).
  public static func response(to request: HTTPRequest) -> HTTPResponse {
    guard request.method == "GET", request.versionMajor == 1, request.versionMinor >= 1 else {
      return .text(400, "a WebSocket upgrade is a GET of HTTP/1.1")
    }
    guard request.header("upgrade", contains: "websocket"),
      request.header("connection", contains: "upgrade")
    else {
      return .text(
        426, "GET /rpc opens a WebSocket: send Upgrade: websocket and Connection: Upgrade",
        headers: [("Upgrade", "websocket")])
    }
    guard request.header("sec-websocket-version") == "13" else {
      return .text(
        426, "WebSocket version 13 is the one spoken here",
        headers: [("Sec-WebSocket-Version", "13")])
    }
    guard request.count(of: "sec-websocket-key") == 1,
      let key = request.header("sec-websocket-key"),
      Self.decodedLength(key) == 16
    else {
      return .text(400, "Sec-WebSocket-Key must be 16 bytes in base64")
    }
    return HTTPResponse(
      status: 101,
      headers: [
        ("Upgrade", "websocket"), ("Connection", "Upgrade"),
        ("Sec-WebSocket-Accept", accept(key: key)),
      ])
  }

  /// How many bytes the base64 text `text` decodes to, or nil when it is not base64.
  static func decodedLength(_ text: String) -> Int? {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, bytes.count % 4 == 0 else { return nil }
    var out = [UInt8](repeating: 0, count: bytes.count / 4 * 3 + 1)
    let n = EVP_DecodeBlock(&out, bytes, Int32(bytes.count))
    guard n >= 0 else { return nil }
    let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
    return Int(n) - padding
  }
}
