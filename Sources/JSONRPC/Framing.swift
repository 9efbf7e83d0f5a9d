/// How messages are delimited on one connection.
public enum Framing: Sendable, Equatable {
  /// One JSON value per line, `\n` terminated (`\r\n` accepted on input).
  case ndjson
  /// LSP base protocol: `Content-Length: N\r\n\r\n` followed by N bytes.
  case contentLength

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
    }
  }
}

/// What a framer found in the bytes it was fed.
public enum FramerEvent {
  /// One complete message body. The pointer is valid only during the callback.
  case message(UnsafeRawBufferPointer)
  /// A message over the size limit was skipped; the stream continues with the next message.
  case oversized(size: Int?)
  /// The stream cannot be resynchronised (broken header); answer and close the connection.
  case fatal(String)
}
