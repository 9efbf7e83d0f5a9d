/// How messages are delimited on one connection.
public enum Framing: Sendable, Equatable {
  /// One JSON value per line, `\n` terminated (`\r\n` accepted on input).
  case ndjson
  /// LSP base protocol: `Content-Length: N\r\n\r\n` followed by N bytes.
  case contentLength
  /// WebSocket (RFC 6455) after an HTTP upgrade: one message per text frame
  /// (``WebSocketFramer``). Never detected: the HTTP transport chooses it.
  case webSocket

  /// Appends `body` framed for this framing to `out`.
  @inlinable
  public func frame(_ body: ByteBuffer, into out: inout ByteBuffer) {
    body.withUnsafeBytes { frame($0, into: &out) }
  }

  /// Appends `body` to `out` with this framing.
  public func frame(_ body: UnsafeRawBufferPointer, into out: inout ByteBuffer) {
    switch self {
    case .ndjson:
      out.append(contentsOf: body)
      out.append(0x0A)
    case .contentLength:
      out.append("Content-Length: ")
      out.appendDecimal(body.count)
      out.append("\r\n\r\n")
      out.append(contentsOf: body)
    case .webSocket:
      Self.webSocketHeader(body.count, into: &out)
      out.append(contentsOf: body)
    }
  }

  /// Bytes a reply written in place reserves for its header (filled by ``fillRoom(at:of:)``).
  @inline(__always)
  static func headerRoom(_ framing: Framing) -> Int {
    switch framing {
    case .ndjson: 0
    case .contentLength: contentLengthRoom
    case .webSocket: webSocketRoom
    }
  }

  /// Frames the body written after the room reserved at `mark` (the rest of `buffer`).
  @inline(__always)
  func fillRoom(at mark: Int, of buffer: inout ByteBuffer) {
    switch self {
    case .ndjson: buffer.append(0x0A)
    case .contentLength: Self.fillContentLengthRoom(at: mark, of: &buffer)
    case .webSocket: Self.fillWebSocketRoom(at: mark, of: &buffer)
    }
  }
}

extension Framing {
  private static let contentLengthPrefix: StaticString = "Content-Length: "

  /// Room for the longest `Content-Length` header: the prefix, 20 digits, `\r\n\r\n`.
  static let contentLengthRoom = 16 + 20 + 4

  /// Writes the header of the body that follows the room reserved at `mark` (the rest of
  /// `buffer`) into that room, and closes what the header did not use.
  static func fillContentLengthRoom(at mark: Int, of buffer: inout ByteBuffer) {
    let room = contentLengthRoom
    let bodyCount = buffer.count - mark - room
    var digits = 1
    var rest = bodyCount / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    let header = 16 + digits + 4
    _ = buffer.reserveFree(0)  // the storage is unique: written in place
    let p = buffer.written.base + mark
    p.update(from: contentLengthPrefix.utf8Start, count: 16)
    var v = bodyCount
    for i in stride(from: 16 + digits - 1, through: 16, by: -1) {
      p[i] = UInt8(truncatingIfNeeded: 0x30 &+ v % 10)
      v /= 10
    }
    (p + 16 + digits).update(from: ("\r\n\r\n" as StaticString).utf8Start, count: 4)
    // The regions overlap when the body is longer than the unused room: a memmove.
    UnsafeMutableRawPointer(p + header).copyMemory(from: p + room, byteCount: bodyCount)
    buffer.written.count -= room - header
  }
}

/// What a framer found in the bytes it was fed.
public enum FramerEvent {
  /// A WebSocket client's control frame, or its breaking the protocol (``WebSocketFramer``).
  case webSocket(WebSocketControl)
  /// One complete message body. The pointer is valid only during the callback.
  case message(UnsafeRawBufferPointer)
  /// A message over the size limit was skipped; the stream continues with the next message.
  case oversized(size: Int?)
  /// The stream cannot be resynchronised (broken header); answer and close the connection.
  case fatal(String)
}
