/// Detects a connection's framing from its first non-whitespace byte, then delegates to
/// ``NDJSONFramer`` (`{` or `[`) or ``ContentLengthFramer`` (anything else). No I/O.
public struct MessageFramer {
  public let maxMessageBytes: Int
  private enum Inner {
    case undetected
    case ndjson(NDJSONFramer)
    case contentLength(ContentLengthFramer)
    case webSocket(WebSocketFramer)
  }
  private var inner: Inner = .undetected

  public init(maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// A framer for a WebSocket connection (no detection: the HTTP upgrade chose it).
  public init(webSocketMaxMessageBytes maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
    self.framing = .webSocket
    self.inner = .webSocket(WebSocketFramer(maxMessageBytes: maxMessageBytes))
  }

  /// The detected framing, or `nil` before the first non-whitespace byte.
  public private(set) var framing: Framing?

  /// Bytes held while waiting for the rest of a message.
  public var bufferedBytes: Int {
    switch inner {
    case .undetected: 0
    case .ndjson(let f): f.bufferedBytes
    case .contentLength(let f): f.bufferedBytes
    case .webSocket(let f): f.bufferedBytes
    }
  }

  /// The framing announced by the first non-whitespace byte of `chunk` (`{` or `[`: NDJSON,
  /// anything else: Content-Length) and that byte's offset; `nil` when `chunk` is all
  /// whitespace.
  public static func detect(_ chunk: UnsafeRawBufferPointer) -> (Framing, Int)? {
    var i = 0
    while i < chunk.count, [0x20, 0x09, 0x0A, 0x0D].contains(chunk[i]) { i += 1 }
    guard i < chunk.count else { return nil }
    let first = chunk[i]
    return (first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .ndjson : .contentLength, i)
  }

  /// Feeds `chunk`; `sink` returns `false` to stop after the event it was given. Returns how
  /// many bytes of `chunk` were consumed (all of them unless `sink` stopped early).
  @discardableResult
  public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ sink: (FramerEvent) -> Bool) -> Int {
    var chunk = chunk
    var skipped = 0
    if case .undetected = inner {
      guard let (framing, start) = Self.detect(chunk) else { return chunk.count }
      skipped = start
      self.framing = framing
      switch framing {
      case .ndjson: inner = .ndjson(NDJSONFramer(maxMessageBytes: maxMessageBytes))
      case .contentLength, .webSocket:
        inner = .contentLength(ContentLengthFramer(maxMessageBytes: maxMessageBytes))
      }
      chunk = UnsafeRawBufferPointer(rebasing: chunk[start...])
    }
    switch inner {
    case .undetected:
      return skipped + chunk.count
    case .ndjson(var f):
      inner = .undetected  // keep the framer uniquely referenced while it mutates
      let consumed = f.feed(chunk, sink)
      inner = .ndjson(f)
      return skipped + consumed
    case .contentLength(var f):
      inner = .undetected
      let consumed = f.feed(chunk, sink)
      inner = .contentLength(f)
      return skipped + consumed
    case .webSocket(var f):
      inner = .undetected
      let consumed = f.feed(chunk, sink)
      inner = .webSocket(f)
      return consumed
    }
  }
}
