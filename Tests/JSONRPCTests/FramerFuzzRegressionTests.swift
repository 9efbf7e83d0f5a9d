import JSONRPC
import Testing

/// Inputs the framer fuzzers (Fuzz/, `make fuzz`) found, kept as tests. Each input is also in
/// the fuzzer's corpus (`Fuzz/corpus/<target>/regression-*`). The fuzzers use a 24-byte limit.
@Suite struct FramerFuzzRegressionTests {
  /// `Fuzz/corpus/ndjson-framer/regression-oversized-line-ending-in-cr`: an oversized line
  /// ending in `\r\r\n` was reported as 27 bytes when it came in one chunk and as 28 when it
  /// came byte by byte (the discarding path counted the stripped `\r`).
  @Test func anOversizedLineEndingInCRHasOneSizeWhateverTheChunks() {
    let found: [UInt8] = [
      0x0D, 0x0A, 0x5E, 0x00, 0x29, 0x29, 0x29, 0xBA, 0x29, 0x29, 0x29, 0x29, 0x29, 0x29, 0x29,
      0x29, 0x29, 0x29, 0x28, 0x29, 0x29, 0x29, 0x0D, 0x05, 0x39, 0x29, 0x29, 0x5E, 0x0D, 0x0D,
      0x0A, 0x5C, 0x5E, 0x0D, 0x0D, 0x0A, 0x0D, 0x0A,
    ]
    for chunks in chunkings(of: found) {
      #expect(
        frames(ndjson: chunks, max: 24) == [.oversized(27), .message("\\^\r")],
        "chunks: \(chunks.map(\.count))")
    }
    let distilled = Array((String(repeating: "x", count: 30) + "\r\n{}\n").utf8)
    for chunks in chunkings(of: distilled) {
      #expect(frames(ndjson: chunks, max: 24) == [.oversized(30), .message("{}")])
    }
  }

  /// `Fuzz/corpus/ndjson-framer/regression-long-whitespace-line`: a line of 93 spaces was
  /// ignored when it came in one chunk and reported as oversized when it came in pieces (the
  /// size was judged before the line ended). Now the size is judged first, in every path.
  @Test func aWhitespaceLineOverTheLimitIsOversizedWhateverTheChunks() {
    let found = Array(repeating: UInt8(0x20), count: 93) + [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0xC3]
    for chunks in chunkings(of: found) {
      #expect(frames(ndjson: chunks, max: 24) == [.oversized(93)], "chunks: \(chunks.map(\.count))")
    }
    // Within the limit, a whitespace-only line is still nothing.
    let short = Array((String(repeating: " ", count: 24) + "\n\t\r\n{}\n").utf8)
    for chunks in chunkings(of: short) {
      #expect(frames(ndjson: chunks, max: 24) == [.message("{}")])
    }
  }

  /// `Fuzz/corpus/message-framer/regression-long-whitespace-line`: the same through framing
  /// detection (a stream that starts with `[`).
  @Test func aDetectedNDJSONStreamReportsALongWhitespaceLineWhateverTheChunks() {
    let found = bytes(
      hex: "5bdfff5b2d0a0a2020202020202020202020200a0d0af5f506002020202020200d0a0d0a0a0d0a0d0a0a"
        + "0d0a0d0af5f506040d20200a2020202020202020202020202020202020202020202020202020200920"
        + "200a202020")
    let expected: [Frame] = [
      .message("[\u{FFFD}\u{FFFD}[-"), .message("\u{FFFD}\u{FFFD}\u{06}\u{00}      "),
      .message("\u{FFFD}\u{FFFD}\u{06}\u{04}\r  "), .oversized(30),
    ]
    for chunks in chunkings(of: found) {
      let (out, framing) = frames(detecting: chunks, max: 24)
      #expect(framing == .ndjson)
      #expect(out == expected, "chunks: \(chunks.map(\.count))")
    }
  }

  /// `Fuzz/corpus/content-length-framer/regression-header-one-byte-over-the-limit`: a header
  /// block of 65 bytes, its CRLFCRLF included, was accepted by a framer whose limit is 64,
  /// because its last byte ended it before the limit was checked.
  @Test func aHeaderBlockOneByteOverTheLimitIsFatal() {
    let found = bytes(
      hex: "436f6e74656e742d4c656e6774683a202032200d0a582d4f74682a65436f6974656e742d4c656e"
        + "6774683a20436f6e74656e742d4c656e6774683a20310d0a0d0a")
    #expect(found.count == 65)
    for chunks in chunkings(of: found) {
      #expect(
        frames(contentLength: chunks, max: 24, maxHeader: 64)
          == [.fatal("header block longer than 64 bytes")], "chunks: \(chunks.map(\.count))")
    }
    // A block of exactly the limit is read.
    let atTheLimit = Array(
      ("Content-Length: 2\r\nX: " + String(repeating: "p", count: 38)
        + "\r\n\r\n{}").utf8)
    #expect(atTheLimit.count == 66)
    for chunks in chunkings(of: atTheLimit) {
      #expect(frames(contentLength: chunks, max: 24, maxHeader: 64) == [.message("{}")])
    }
  }
}

/// The bytes written as hexadecimal digits (two per byte).
private func bytes(hex: String) -> [UInt8] {
  let digits = Array(hex.utf8)
  return stride(from: 0, to: digits.count, by: 2).map {
    UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
  }
}
