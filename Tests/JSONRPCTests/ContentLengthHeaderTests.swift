import Testing

@testable import JSONRPC

/// The byte-level reading of a header block gives what the general, text-level one gives, on
/// blocks built from every kind of piece a client (or a hostile peer) might send.
@Suite struct ContentLengthHeaderTests {
  private static let pieces: [String] = [
    "Content-Length: 12", "content-length:12", "CONTENT-LENGTH:\t 7 \t", "Content-Length:",
    "Content-Length: 0", "Content-Length: 00042", "Content-Length: 99999999999999999999",
    "Content-Length: -1", "Content-Length: +5", "Content-Length: 1 2", "Content-Length: ١٢",
    "Content-Type: application/vscode-jsonrpc; charset=utf-8", "X-Other: a:b", "no colon",
    " Content-Length : 3", "Content\rLength: 3", "Content-Lengthx: 3", "Content_Length: 3",
    "Content-Length: 3\r", "Contént-Length: 3", "Content-Length: 3\u{301}", ":", "",
    "Content-Length:\u{0}9", "\u{FEFF}Content-Length: 4", "Content-Length: 123456789012345678",
    "Content-Length: 1234567890123456789", "Content-Length:  5", "Content-Length: 5 ",
  ]

  @Test func theByteReadingAgreesWithTheTextReading() {
    var random = SeededGenerator(seed: 7)
    for _ in 0..<5000 {
      let lines = (0..<(1 + random.next() % 4)).map { _ in
        Self.pieces[Int(random.next() % UInt64(Self.pieces.count))]
      }
      let block = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
      let fast = block.withUnsafeBufferPointer { ContentLengthFramer.contentLength(in: $0) }
      let general = ContentLengthFramer.contentLength(in: block)
      #expect(Self.describe(fast) == Self.describe(general), "\(lines)")
    }
  }

  private static func describe(_ r: Result<Int, ContentLengthFramer.HeaderError>) -> String {
    switch r {
    case .success(let n): "length \(n)"
    case .failure(let e): "error \(e.reason)"
    }
  }
}
