import JSONRPC
import Testing

@Suite struct MessageFramerTests {
  @Test func detectsNDJSONFromABraceOrABracket() {
    for (first, expectedOffset) in [("{}", 0), ("[1]", 0), (" \r\n\t{}", 4), ("\n\n[]", 2)] {
      let detected = Array(first.utf8).withUnsafeBytes { MessageFramer.detect($0) }
      #expect(detected?.0 == .ndjson)
      #expect(detected?.1 == expectedOffset)
    }
  }

  @Test func detectsContentLengthFromAnythingElse() {
    for first in ["Content-Length: 2", "content-length", "  X", "1", "\"s\""] {
      let detected = Array(first.utf8).withUnsafeBytes { MessageFramer.detect($0) }
      #expect(detected?.0 == .contentLength)
    }
  }

  @Test func detectsNothingInWhitespace() {
    #expect(Array(" \r\n\t".utf8).withUnsafeBytes { MessageFramer.detect($0) } == nil)
    #expect([UInt8]().withUnsafeBytes { MessageFramer.detect($0) } == nil)
  }

  @Test func framesNDJSONWhateverTheChunkingEvenAfterLeadingWhitespace() {
    let stream = Array("\r\n  \n{\"a\":1}\n\n[2]\r\n".utf8)
    for chunks in chunkings(of: stream) {
      let (out, framing) = frames(detecting: chunks)
      #expect(framing == .ndjson)
      #expect(out == [.message(#"{"a":1}"#), .message("[2]")], "chunks: \(chunks.map(\.count))")
    }
  }

  @Test func framesContentLengthWhateverTheChunkingEvenAfterLeadingWhitespace() {
    let stream = Array(("\r\n " + lspMessage(#"{"é":"€"}"#) + lspMessage("[]")).utf8)
    for chunks in chunkings(of: stream) {
      let (out, framing) = frames(detecting: chunks)
      #expect(framing == .contentLength)
      #expect(out == [.message(#"{"é":"€"}"#), .message("[]")], "chunks: \(chunks.map(\.count))")
    }
  }

  @Test func stoppingAfterEachEventGivesTheSameMessagesInBothFramings() {
    let ndjson = Array("\n {\"a\":1}\n[2]\r\n".utf8)
    let lsp = Array((" " + lspMessage("{}") + lspMessage("[3]")).utf8)
    for chunks in chunkings(of: ndjson, randomCount: 10) {
      let out = framesStoppingAfterEachEvent(MessageFramer(maxMessageBytes: 100), chunks)
      #expect(out == [.message(#"{"a":1}"#), .message("[2]")])
    }
    for chunks in chunkings(of: lsp, randomCount: 10) {
      let out = framesStoppingAfterEachEvent(MessageFramer(maxMessageBytes: 100), chunks)
      #expect(out == [.message("{}"), .message("[3]")])
    }
  }

  @Test func leadingWhitespaceCountsAsConsumed() {
    var framer = MessageFramer(maxMessageBytes: 100)
    var out: [Frame] = []
    #expect(framer.feed(Array("  \r\n".utf8), into: &out) == 4)
    #expect(framer.feed(Array("  {}\n[]\n".utf8), into: &out, stopAfter: 1) == 5)
    #expect(out == [.message("{}")])
  }

  @Test func theFramingIsUnknownUntilTheFirstNonWhitespaceByte() {
    var framer = MessageFramer(maxMessageBytes: 100)
    var ignored: [Frame] = []
    framer.feed(Array("  \n".utf8), into: &ignored)
    #expect(framer.framing == nil)
    #expect(framer.bufferedBytes == 0)
    framer.feed(Array("[".utf8), into: &ignored)
    #expect(framer.framing == .ndjson)
    #expect(framer.bufferedBytes == 1)
  }

  @Test func theDetectedFramingNeverChanges() {
    let (out, framing) = frames(
      detecting: [Array("{}\n".utf8), Array(lspMessage("[]").utf8), Array("\n".utf8)])
    #expect(framing == .ndjson)
    #expect(out == [.message("{}"), .message("Content-Length: 2"), .message("[]")])
  }

  @Test func passesTheSizeLimitToTheChosenFramer() {
    let (ndjson, _) = frames(detecting: [Array("[1,2,3,4,5]\n[]\n".utf8)], max: 5)
    #expect(ndjson == [.oversized(11), .message("[]")])
    let (lsp, _) = frames(
      detecting: [Array((lspMessage("[1,2,3,4,5]") + lspMessage("[]")).utf8)], max: 5)
    #expect(lsp == [.oversized(11), .message("[]")])
  }
}
