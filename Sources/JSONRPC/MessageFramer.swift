/// Detects a connection's framing from its first non-whitespace byte, then delegates to
/// ``NDJSONFramer`` (`{` or `[`) or ``ContentLengthFramer`` (anything else). No I/O.
public struct MessageFramer {
  public let maxMessageBytes: Int
  private enum Inner {
    case undetected
    case ndjson(NDJSONFramer)
    case contentLength(ContentLengthFramer)
  }
  private var inner: Inner = .undetected

  public init(maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// The detected framing, or `nil` before the first non-whitespace byte.
  public private(set) var framing: Framing?

  /// Bytes held while waiting for the rest of a message.
  public var bufferedBytes: Int {
    switch inner {
    case .undetected: 0
    case .ndjson(let f): f.bufferedBytes
    case .contentLength(let f): f.bufferedBytes
    }
  }

  public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ sink: (FramerEvent) -> Void) {
    var chunk = chunk
    if case .undetected = inner {
      var i = 0
      while i < chunk.count, [0x20, 0x09, 0x0A, 0x0D].contains(chunk[i]) { i += 1 }
      guard i < chunk.count else { return }
      let first = chunk[i]
      if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
        inner = .ndjson(NDJSONFramer(maxMessageBytes: maxMessageBytes))
        framing = .ndjson
      } else {
        inner = .contentLength(ContentLengthFramer(maxMessageBytes: maxMessageBytes))
        framing = .contentLength
      }
      chunk = UnsafeRawBufferPointer(rebasing: chunk[i...])
    }
    switch inner {
    case .undetected:
      break
    case .ndjson(var f):
      inner = .undetected  // keep the framer uniquely referenced while it mutates
      f.feed(chunk, sink)
      inner = .ndjson(f)
    case .contentLength(var f):
      inner = .undetected
      f.feed(chunk, sink)
      inner = .contentLength(f)
    }
  }
}
