import JSONRPC
import Testing

/// A client frame (masked with a fixed key unless `masked` is false).
private func frame(
  _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0
) -> [UInt8] {
  var out: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
  let m: UInt8 = masked ? 0x80 : 0
  if payload.count < 126 {
    out.append(m | UInt8(payload.count))
  } else if payload.count <= 0xFFFF {
    out += [m | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
  } else {
    out.append(m | 127)
    for shift in stride(from: 56, through: 0, by: -8) {
      out.append(UInt8(truncatingIfNeeded: payload.count >> shift))
    }
  }
  guard masked else { return out + payload }
  let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
  return out + key + payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
}

private func text(_ s: String, fin: Bool = true) -> [UInt8] { frame(0x1, Array(s.utf8), fin: fin) }
private func more(_ s: String, fin: Bool = true) -> [UInt8] { frame(0x0, Array(s.utf8), fin: fin) }

/// What the framer makes of `bytes` under every chunking, stopping after each event or not;
/// all must agree.
private func frames(_ bytes: [UInt8], limit: Int = 1 << 20) -> [Frame] {
  var first: [Frame]?
  for chunks in chunkings(of: bytes) {
    var framer = WebSocketFramer(maxMessageBytes: limit)
    var out: [Frame] = []
    for chunk in chunks { framer.feed(chunk, into: &out) }
    let stopping = framesStoppingAfterEachEvent(WebSocketFramer(maxMessageBytes: limit), chunks)
    #expect(stopping == out, "stopping after each event changes nothing")
    if let first { #expect(out == first, "chunking \(chunks.map(\.count)) changes nothing") }
    first = first ?? out
  }
  return first ?? []
}

@Suite struct WebSocketFramerTests {
  @Test func messagesOfEverySizeComeOutWholeAndUnmasked() {
    let long = String(repeating: "x", count: 300)
    let huge = String(repeating: "y", count: 70_000)
    #expect(
      frames(text("{}") + text(long) + text(huge))
        == [.message("{}"), .message(long), .message(huge)])
  }

  @Test func aFragmentedMessageWithControlFramesBetweenItsFragmentsIsOneMessage() {
    let bytes =
      text("[1,", fin: false) + frame(0x9, Array("hi".utf8)) + more("2,", fin: false)
      + frame(0xA, []) + more("3]")
    #expect(frames(bytes) == [.control("ping(2 bytes)"), .message("[1,2,3]")])
  }

  @Test func aCloseEndsTheInputWithItsCode() {
    #expect(frames(frame(0x8, [0x03, 0xE8]) + text("ignored")) == [.control("close(1000)")])
    #expect(frames(frame(0x8, [])) == [.control("close(no code)")])
  }

  @Test(arguments: [
    (frame(0x1, Array("{}".utf8), masked: false), 1002),
    (frame(0x2, [1, 2]), 1003),
    (frame(0x1, [0x22, 0xFF, 0x22]), 1007),
    (more("x"), 1002),
    (frame(0x9, Array(repeating: 0, count: 126)), 1002),
    (frame(0x9, [], fin: false), 1002),
    (frame(0x1, Array("{}".utf8), rsv: 1), 1002),
    (frame(0xB, []), 1002),
    (text("[", fin: false) + text("]"), 1002),
    (frame(0x8, [0x03]), 1002),
  ])
  func whatBreaksTheProtocolEndsItWithItsCode(bytes: [UInt8], code: Int) {
    let out = frames(bytes + text("never read"))
    #expect(out.count == 1)
    guard case .control(let description)? = out.first else {
      Issue.record("expected a violation, got \(out)")
      return
    }
    #expect(description.hasPrefix("violation(\(code),"), "\(description)")
  }

  @Test func aMessageOverTheLimitIsSkippedWholeAndReportedOnceThenTheNextOneIsRead() {
    let bytes =
      text(String(repeating: "a", count: 60), fin: false) + frame(0x9, [])
      + more(String(repeating: "b", count: 60)) + text("{}")
    #expect(
      frames(bytes, limit: 100) == [.control("ping(0 bytes)"), .oversized(120), .message("{}")])
    // One frame over the limit on its own, announced by its length: never buffered.
    var framer = WebSocketFramer(maxMessageBytes: 100)
    var out: [Frame] = []
    let big = frame(0x1, Array(repeating: 0x61, count: 1 << 20))
    framer.feed(Array(big.prefix(1 << 19)), into: &out)
    #expect(framer.bufferedBytes == 0)
    framer.feed(Array(big.dropFirst(1 << 19)) + text("{}"), into: &out)
    #expect(out == [.oversized(1 << 20), .message("{}")])
  }
}
