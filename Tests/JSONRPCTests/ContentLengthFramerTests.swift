import JSONRPC
import Testing

@Suite struct ContentLengthFramerTests {
  private let bodies = [
    #"{"jsonrpc":"2.0","id":1,"method":"a"}"#,
    #"{"text":"é€😀"}"#,
    "[]",
    #"{"multi":"line\r\n\r\nbody"}"#,
  ]

  private var stream: [UInt8] {
    Array(
      (lspMessage(bodies[0])
        + "content-type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: "
        + "\(bodies[1].utf8.count)\r\n\r\n\(bodies[1])"
        + "CONTENT-LENGTH:\(bodies[2].utf8.count)\r\nX-Extra: 1\r\n\r\n\(bodies[2])"
        + "content-length: \t\(bodies[3].utf8.count) \r\n\r\n\(bodies[3])").utf8)
  }

  @Test func splitsMessagesWithCaseInsensitiveHeadersAndExtraHeaders() {
    #expect(frames(contentLength: [stream]) == bodies.map { .message($0) })
  }

  @Test func givesTheSameMessagesFedOneByteAtATime() {
    #expect(frames(contentLength: stream.map { [$0] }) == bodies.map { .message($0) })
  }

  @Test func givesTheSameMessagesWhateverTheChunking() {
    for chunks in chunkings(of: stream, randomCount: 50) {
      #expect(
        frames(contentLength: chunks) == bodies.map { .message($0) },
        "chunks: \(chunks.map(\.count))")
    }
  }

  @Test func aSinkThatStopsGetsTheRestWhenTheUnconsumedBytesAreFedAgain() {
    for chunks in chunkings(of: stream, randomCount: 10) {
      let out = framesStoppingAfterEachEvent(ContentLengthFramer(maxMessageBytes: 1 << 20), chunks)
      #expect(out == bodies.map { .message($0) }, "chunks: \(chunks.map(\.count))")
    }
  }

  @Test func aSinkThatStopsLeavesTheFollowingMessagesUnconsumed() {
    var framer = ContentLengthFramer(maxMessageBytes: 100)
    var out: [Frame] = []
    let first = lspMessage("{}")
    let consumed = framer.feed(
      Array((first + lspMessage("[1]")).utf8), into: &out, stopAfter: 1)
    #expect(consumed == first.utf8.count)
    #expect(out == [.message("{}")])
  }

  @Test func contentLengthCountsBytesOfMultiByteBodies() {
    let body = #"{"t":"ééé€€😀"}"#
    #expect(body.count == 14)
    #expect(body.utf8.count == 24)
    let stream = Array(("Content-Length: 24\r\n\r\n" + body + lspMessage("[1]")).utf8)
    for chunks in chunkings(of: stream) {
      #expect(frames(contentLength: chunks) == [.message(body), .message("[1]")])
    }
  }

  @Test func oneBlankLineBetweenMessagesIsTolerated() {
    let stream = Array((lspMessage("{}") + "\r\n" + lspMessage("[]")).utf8)
    for chunks in chunkings(of: stream) {
      #expect(frames(contentLength: chunks) == [.message("{}"), .message("[]")])
    }
  }

  @Test func aZeroLengthBodyIsAnEmptyMessage() {
    let stream = Array(("Content-Length: 0\r\n\r\n" + lspMessage("{}")).utf8)
    for chunks in chunkings(of: stream) {
      #expect(frames(contentLength: chunks) == [.message(""), .message("{}")])
    }
  }

  @Test func waitsForTheWholeBody() {
    var framer = ContentLengthFramer(maxMessageBytes: 100)
    var out: [Frame] = []
    framer.feed(Array("Content-Length: 7\r\n\r\n{\"a\"".utf8), into: &out)
    #expect(out.isEmpty)
    #expect(framer.bufferedBytes == 4)
    framer.feed(Array(":1}Content".utf8), into: &out)
    #expect(out == [.message(#"{"a":1}"#)])
  }

  // MARK: Size limit

  @Test func aBodyOfExactlyTheLimitIsAccepted() {
    let body = String(repeating: "1", count: 16)
    for chunks in chunkings(of: Array(lspMessage(body).utf8)) {
      #expect(frames(contentLength: chunks, max: 16) == [.message(body)])
    }
  }

  @Test func anOversizedBodyIsSkippedAndTheNextMessageIsFine() {
    let big = "[" + String(repeating: "1,", count: 50) + "1]"  // 103 bytes
    let stream = Array(
      (lspMessage(big) + lspMessage("{}") + lspMessage(big) + lspMessage("[]")).utf8)
    let expected: [Frame] = [.oversized(103), .message("{}"), .oversized(103), .message("[]")]
    for chunks in chunkings(of: stream) {
      #expect(frames(contentLength: chunks, max: 20) == expected, "chunks: \(chunks.map(\.count))")
    }
  }

  @Test func anOversizedBodyIsSkippedWithoutBufferingIt() {
    var framer = ContentLengthFramer(maxMessageBytes: 10)
    var out: [Frame] = []
    framer.feed(Array("Content-Length: 5000\r\n\r\n".utf8), into: &out)
    #expect(out == [.oversized(5000)])
    for _ in 0..<5000 {
      framer.feed([UInt8(ascii: "x")], into: &out)
      #expect(framer.bufferedBytes == 0)
    }
    framer.feed(Array(lspMessage("{}").utf8), into: &out)
    #expect(out == [.oversized(5000), .message("{}")])
  }

  @Test func aHugeDeclaredLengthIsSkippedNotAllocated() {
    let stream = Array("Content-Length: 1000000000000\r\n\r\n{}".utf8)
    var framer = ContentLengthFramer(maxMessageBytes: 1 << 20)
    var out: [Frame] = []
    framer.feed(stream, into: &out)
    #expect(out == [.oversized(1_000_000_000_000)])
    #expect(framer.bufferedBytes == 0)
  }

  // MARK: Broken headers

  @Test(arguments: [
    "Content-Length: abc\r\n\r\n{}",
    "Content-Length: \r\n\r\n{}",
    "Content-Length: -2\r\n\r\n{}",
    "Content-Length: +2\r\n\r\n{}",
    "Content-Length: 0x2\r\n\r\n{}",
    "Content-Length: 2.0\r\n\r\n{}",
    "Content-Length: 99999999999999999999999\r\n\r\n{}",
    "Content-Type: application/json\r\n\r\n{}",
    "Content-Length 2\r\n\r\n{}",
    "garbage\r\n\r\n{}",
    "{}\r\n\r\n",
  ])
  func aBrokenHeaderIsFatal(text: String) {
    for chunks in chunkings(of: Array((text + lspMessage("[]")).utf8), randomCount: 5) {
      let out = frames(contentLength: chunks)
      #expect(out.count == 1)
      #expect(out.first?.shape == .fatal(""), "\(out)")
    }
  }

  @Test func fatalErrorsExplainWhatIsWrong() {
    #expect(
      frames(contentLength: [Array("Content-Length: abc\r\n\r\n".utf8)])
        == [.fatal(#"Content-Length "abc" is not a byte count"#)])
    #expect(
      frames(contentLength: [Array("X-A: b\r\n\r\n".utf8)])
        == [.fatal("missing Content-Length header")])
    #expect(
      frames(contentLength: [Array("nonsense\r\n\r\n".utf8)])
        == [.fatal(#"malformed header line "nonsense""#)])
  }

  @Test func theHeaderLimitCountsTheWholeBlockWithItsFinalCRLFCRLF() {
    // "Content-Length: 2" + padding + CRLFCRLF, exactly `size` bytes in all.
    func block(_ size: Int) -> String {
      let fixed = "Content-Length: 2\r\nX-P: \r\n\r\n"
      return "Content-Length: 2\r\nX-P: " + String(repeating: "p", count: size - fixed.utf8.count)
        + "\r\n\r\n"
    }
    #expect(block(64).utf8.count == 64)
    for chunks in chunkings(of: Array((block(64) + "{}").utf8), randomCount: 5) {
      #expect(frames(contentLength: chunks, maxHeader: 64) == [.message("{}")])
    }
    for chunks in chunkings(of: Array((block(65) + "{}").utf8), randomCount: 5) {
      #expect(
        frames(contentLength: chunks, maxHeader: 64) == [
          .fatal("header block longer than 64 bytes")
        ])
    }
  }

  @Test func anOverlongHeaderBlockIsFatalWithoutWaitingForItsEnd() {
    let header = "X-Padding: " + String(repeating: "p", count: 100)
    for chunks in chunkings(of: Array(header.utf8), randomCount: 5) {
      let out = frames(contentLength: chunks, maxHeader: 64)
      #expect(out == [.fatal("header block longer than 64 bytes")])
    }
  }

  @Test func nothingIsProducedAfterAFatalError() {
    var framer = ContentLengthFramer(maxMessageBytes: 100)
    var out: [Frame] = []
    framer.feed(Array(("bad\r\n\r\n" + lspMessage("{}")).utf8), into: &out)
    framer.feed(Array(lspMessage("[]").utf8), into: &out)
    #expect(out.count == 1)
    #expect(out.first?.shape == .fatal(""))
  }
}
