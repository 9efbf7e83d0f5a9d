import JSONRPC
import Testing

@Suite struct NDJSONFramerTests {
  private let stream = Array(
    "{\"a\":1}\n[1,2]\r\n\n   \n\r\n{\"s\":\"é€😀 with \\n escape\"}\n\t{\"b\":2}  \n".utf8)
  private let expected: [Frame] = [
    .message(#"{"a":1}"#),
    .message("[1,2]"),
    .message(#"{"s":"é€😀 with \n escape"}"#),
    .message("\t{\"b\":2}  "),
  ]

  @Test func splitsLinesAndSkipsBlankOnes() {
    #expect(frames(ndjson: [stream]) == expected)
  }

  @Test func givesTheSameMessagesFedOneByteAtATime() {
    #expect(frames(ndjson: stream.map { [$0] }) == expected)
  }

  @Test func givesTheSameMessagesWhateverTheChunking() {
    for chunks in chunkings(of: stream, randomCount: 50) {
      #expect(frames(ndjson: chunks) == expected, "chunks: \(chunks.map(\.count))")
    }
  }

  @Test func aSinkThatStopsGetsTheRestWhenTheUnconsumedBytesAreFedAgain() {
    for chunks in chunkings(of: stream, randomCount: 10) {
      let out = framesStoppingAfterEachEvent(NDJSONFramer(maxMessageBytes: 1 << 20), chunks)
      #expect(out == expected, "chunks: \(chunks.map(\.count))")
    }
  }

  @Test func aSinkThatStopsLeavesTheFollowingLinesUnconsumed() {
    var framer = NDJSONFramer(maxMessageBytes: 100)
    var out: [Frame] = []
    let consumed = framer.feed(Array("{}\n[1]\n[2]\n".utf8), into: &out, stopAfter: 1)
    #expect(consumed == 3)
    #expect(out == [.message("{}")])
    #expect(framer.bufferedBytes == 0)
  }

  @Test func stripsOneTrailingCarriageReturn() {
    #expect(frames(ndjson: [Array("{}\r\n[]\n".utf8)]) == [.message("{}"), .message("[]")])
  }

  @Test func waitsForTheNewlineBeforeEmitting() {
    var framer = NDJSONFramer(maxMessageBytes: 100)
    var out: [Frame] = []
    framer.feed(Array(#"{"a":"#.utf8), into: &out)
    #expect(out.isEmpty)
    #expect(framer.bufferedBytes == 5)
    framer.feed(Array("1}\n{".utf8), into: &out)
    #expect(out == [.message(#"{"a":1}"#)])
    #expect(framer.bufferedBytes == 1)
  }

  @Test func anEmptyChunkChangesNothing() {
    var framer = NDJSONFramer(maxMessageBytes: 100)
    var out: [Frame] = []
    framer.feed([UInt8](), into: &out)
    #expect(out.isEmpty)
    #expect(framer.bufferedBytes == 0)
  }

  @Test func blankAndWhitespaceOnlyLinesProduceNothing() {
    #expect(frames(ndjson: [Array("\n\r\n \t \n\r\r\n".utf8)]).isEmpty)
  }

  // MARK: Size limit

  @Test func aLineOfExactlyTheLimitIsAccepted() {
    let line = "[" + String(repeating: "1,", count: 8) + "11]"
    #expect(line.utf8.count == 20)
    for chunks in chunkings(of: Array((line + "\n").utf8)) {
      #expect(frames(ndjson: chunks, max: 20) == [.message(line)])
    }
  }

  @Test func anOversizedLineIsReportedOnceAndTheNextLineIsFine() {
    let big = "[" + String(repeating: "1,", count: 50) + "1]"  // 103 bytes
    let stream = Array((big + "\n{\"ok\":true}\n" + big + "\n[]\n").utf8)
    let expected: [Frame] = [
      .oversized(103), .message(#"{"ok":true}"#), .oversized(103), .message("[]"),
    ]
    for chunks in chunkings(of: stream) {
      #expect(frames(ndjson: chunks, max: 20) == expected, "chunks: \(chunks.map(\.count))")
    }
  }

  @Test func anOversizedLineIsNotBufferedWhileItIsDiscarded() {
    var framer = NDJSONFramer(maxMessageBytes: 10)
    var out: [Frame] = []
    for _ in 0..<1000 {
      framer.feed(Array("xxxxxxxx".utf8), into: &out)
      #expect(framer.bufferedBytes <= 10)
    }
    #expect(out.isEmpty)
    framer.feed(Array("\n{}\n".utf8), into: &out)
    #expect(out == [.oversized(8000), .message("{}")])
    #expect(framer.bufferedBytes == 0)
  }

  @Test
  func aLineOfExactlyTheLimitEndingInCRLFIsAcceptedWhateverTheChunking() {
    let line = "[" + String(repeating: "1,", count: 8) + "11]"
    #expect(line.utf8.count == 20)
    for chunks in chunkings(of: Array((line + "\r\n[]\r\n").utf8)) {
      #expect(
        frames(ndjson: chunks, max: 20) == [.message(line), .message("[]")],
        "chunks: \(chunks.map(\.count))")
    }
  }
}
