import JSONRPC

/// libFuzzer target: `NDJSONFramer`.
///
/// For every input, with a small size limit (so that oversized lines are common) and with a
/// large one:
/// - whole, byte by byte, in random pieces and stopped after every event, the framer yields
///   the same events (sizes included) and never holds more than the limit plus one byte;
/// - those events are exactly what the documented rule gives (wire-format.md): each complete
///   line, less its `\n` and one trailing `\r`, is reported as oversized (with that length)
///   when longer than the limit, ignored when it holds only whitespace, and otherwise handed
///   out as one message; a last line without `\n` is held back.
@_cdecl("LLVMFuzzerTestOneInput")
public func ndjsonFramerFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  for limit in [24, 1 << 20] {
    let harness = FramerHarness(
      make: { NDJSONFramer(maxMessageBytes: limit) }, maxBuffered: limit + 1)
    let events = harness.checkSplitInvariance(bytes, salt: UInt64(limit))
    let expected = ndjsonModel(bytes, limit: limit)
    fuzzCheck(events == expected, "limit \(limit): \(events), the rule gives \(expected)")
  }
  return 0
}

/// The documented NDJSON rule, written as plainly as possible.
func ndjsonModel(_ bytes: [UInt8], limit: Int) -> [Frame] {
  var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
  lines.removeLast()  // the bytes after the last newline: not a line yet
  var out: [Frame] = []
  for line in lines {
    var body = Array(line)
    if body.last == 0x0D { body.removeLast() }
    if body.count > limit {
      out.append(.oversized(body.count))
    } else if !body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      out.append(.message(body))
    }
  }
  return out
}
