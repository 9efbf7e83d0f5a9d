import JSONRPC

/// libFuzzer target: `MessageFramer` (framing detection in front of the two framers).
///
/// For every input, with a small limit and the default one:
/// - whole, byte by byte, in random pieces and stopped after every event, it yields the same
///   events, and detects the same framing;
/// - the framing is the one the first non-whitespace byte announces (`{` or `[`: NDJSON,
///   anything else: Content-Length; none before such a byte), as `MessageFramer.detect` says;
/// - its events are those of the announced framer (NDJSON, or Content-Length with its default
///   header limit) fed the input from that byte on.
@_cdecl("LLVMFuzzerTestOneInput")
public func messageFramerFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
  let first = bytes.firstIndex { !whitespace.contains($0) }
  let announced: Framing? = first.map {
    bytes[$0] == UInt8(ascii: "{") || bytes[$0] == UInt8(ascii: "[") ? .ndjson : .contentLength
  }
  let detected = bytes.withUnsafeBytes { MessageFramer.detect($0) }
  fuzzCheck(
    detected?.0 == announced && detected?.1 == first, "detect says \(String(describing: detected))")
  for limit in [24, 16 << 20] {
    let harness = FramerHarness(
      make: { MessageFramer(maxMessageBytes: limit) }, maxBuffered: max(limit + 1, 8193))
    let events = harness.checkSplitInvariance(bytes, salt: UInt64(limit))
    // The framing each way of feeding detected.
    for sizes in [[bytes.count], Array(repeating: 1, count: bytes.count)] {
      var framer = MessageFramer(maxMessageBytes: limit)
      var offset = 0
      bytes.withUnsafeBytes { raw in
        for size in sizes {
          _ = framer.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + size])) { _ in true
          }
          offset += size
        }
      }
      fuzzCheck(
        framer.framing == announced,
        "framing \(String(describing: framer.framing)), announced \(String(describing: announced))")
    }
    guard let first, let announced else {
      fuzzCheck(events.isEmpty, "events before any framing was announced: \(events)")
      continue
    }
    let rest = Array(bytes[first...])
    let inner: [Frame]
    switch announced {
    case .ndjson:
      inner = FramerHarness(make: { NDJSONFramer(maxMessageBytes: limit) }, maxBuffered: limit + 1)
        .frames(rest, chunkSizes: [rest.count])
    case .contentLength:
      inner = FramerHarness(
        make: { ContentLengthFramer(maxMessageBytes: limit) }, maxBuffered: max(limit, 8193)
      )
      .frames(rest, chunkSizes: [rest.count])
    }
    fuzzCheck(events == inner, "\(events) differ from the \(announced) framer's \(inner)")
  }
  return 0
}
