import JSONRPC

/// libFuzzer target: `ContentLengthFramer`.
///
/// For every input, with small limits (a 24-byte body, a 64-byte header block) and with the
/// defaults:
/// - whole, byte by byte, in random pieces and stopped after every event, the framer yields
///   the same events and holds at most the larger of its two limits (plus the byte that
///   passes the header limit);
/// - every message is no longer than the limit; nothing follows a fatal event; an oversized
///   event names a size above the limit;
/// - the messages, framed again with `Framing.contentLength`, come back out of a fresh framer
///   unchanged (and nothing else does);
/// - the events are exactly what the documented rule gives (``contentLengthModel``), read
///   byte by byte from the input by separate, plain code.
@_cdecl("LLVMFuzzerTestOneInput")
public func contentLengthFramerFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  for (limit, headerLimit) in [(24, 64), (16 << 20, 8192)] {
    let harness = FramerHarness(
      make: { ContentLengthFramer(maxMessageBytes: limit, maxHeaderBytes: headerLimit) },
      maxBuffered: max(limit, headerLimit + 1))
    let events = harness.checkSplitInvariance(bytes, salt: UInt64(limit))
    checkContentLengthEvents(events, limit: limit, headerLimit: headerLimit)
    let expected = contentLengthModel(bytes, limit: limit, headerLimit: headerLimit)
    fuzzCheck(
      events.map(\.withoutReason) == expected,
      "limits \(limit)/\(headerLimit): \(events), the rule gives \(expected)")
  }
  return 0
}

func checkContentLengthEvents(_ events: [Frame], limit: Int, headerLimit: Int) {
  var messages: [[UInt8]] = []
  for (n, event) in events.enumerated() {
    switch event {
    case .message(let body):
      fuzzCheck(body.count <= limit, "a \(body.count)-byte message over the \(limit)-byte limit")
      messages.append(body)
    case .oversized(let size):
      fuzzCheck(
        (size ?? 0) > limit, "oversized(\(String(describing: size))) within the limit \(limit)")
    case .fatal:
      fuzzCheck(n == events.count - 1, "events after a fatal one: \(events)")
    case .control(let text):
      fuzzCheck(false, "a WebSocket event from a Content-Length framer: \(text)")
    }
  }
  var reframedBuffer = ByteBuffer()
  for body in messages {
    body.withUnsafeBytes { Framing.contentLength.frame($0, into: &reframedBuffer) }
  }
  let reframed = reframedBuffer.array
  let harness = FramerHarness(
    make: { ContentLengthFramer(maxMessageBytes: limit, maxHeaderBytes: headerLimit) },
    maxBuffered: max(limit, headerLimit + 1))
  let again = harness.frames(reframed, chunkSizes: [reframed.count])
  fuzzCheck(
    again == messages.map(Frame.message),
    "its messages framed again came back as \(again), expected \(messages.map(Frame.message))")
}

extension Frame {
  /// The same event with a fatal reason's wording dropped.
  var withoutReason: Frame {
    if case .fatal = self { return .fatal("") }
    return self
  }
}

/// The documented Content-Length rule (wire-format.md), on bytes: a header block runs up to and
/// including the first CRLFCRLF; one longer than `headerLimit` (or still unterminated past it)
/// is fatal. Its lines (split at CRLF, empty ones skipped) must each hold a colon; the name
/// before the first colon, less spaces and tabs around it, is compared with `Content-Length`
/// ignoring ASCII case; the value after it, less spaces and tabs, must be decimal digits that
/// fit an `Int`; the last such line counts; none is fatal. A body over `limit` is oversized
/// (and skipped), otherwise it is a message once all its bytes are there.
func contentLengthModel(_ bytes: [UInt8], limit: Int, headerLimit: Int) -> [Frame] {
  var out: [Frame] = []
  var pos = 0
  let crlfcrlf: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
  while pos < bytes.count {
    var end: Int?
    var k = pos + 4
    while k <= bytes.count {
      if Array(bytes[k - 4..<k]) == crlfcrlf {
        end = k
        break
      }
      k += 1
    }
    guard let end, end - pos <= headerLimit else {
      if bytes.count - pos > headerLimit { out.append(.fatal("")) }
      return out
    }
    guard let length = modelLength(Array(bytes[pos..<end])) else {
      out.append(.fatal(""))
      return out
    }
    pos = end
    if length > limit {
      out.append(.oversized(length))
      pos += length
    } else if bytes.count - pos >= length {
      out.append(.message(Array(bytes[pos..<pos + length])))
      pos += length
    } else {
      return out
    }
  }
  return out
}

private func modelLength(_ block: [UInt8]) -> Int? {
  var lines: [[UInt8]] = []
  var line: [UInt8] = []
  var i = 0
  while i < block.count {
    if i + 1 < block.count, block[i] == 0x0D, block[i + 1] == 0x0A {
      if !line.isEmpty { lines.append(line) }
      line = []
      i += 2
    } else {
      line.append(block[i])
      i += 1
    }
  }
  if !line.isEmpty { lines.append(line) }
  func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var s = s
    while let f = s.first, f == 0x20 || f == 0x09 { s.removeFirst() }
    while let l = s.last, l == 0x20 || l == 0x09 { s.removeLast() }
    return s
  }
  var length: Int?
  for line in lines {
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    let name = trimmed(line[..<colon]).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    guard name == Array("content-length".utf8) else { continue }
    let value = trimmed(line[(colon + 1)...])
    guard !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let n = Int(String(decoding: value, as: UTF8.self))
    else { return nil }
    length = n
  }
  return length
}
