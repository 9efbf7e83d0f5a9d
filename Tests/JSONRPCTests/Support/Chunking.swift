import JSONRPC
import Testing

/// A tiny deterministic generator so that "random" chunkings are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Ways of cutting `bytes` into chunks: whole, one byte at a time, and `randomCount` random
/// cuts (including empty chunks now and then).
func chunkings(of bytes: [UInt8], randomCount: Int = 25, seed: UInt64 = 7) -> [[[UInt8]]] {
  var result: [[[UInt8]]] = [[bytes], bytes.map { [$0] }]
  var random = SeededGenerator(seed: seed)
  for _ in 0..<randomCount {
    var chunks: [[UInt8]] = []
    var i = 0
    while i < bytes.count {
      let size = Int.random(in: 0...max(1, bytes.count / 3), using: &random)
      let end = min(bytes.count, i + size)
      chunks.append(Array(bytes[i..<end]))
      i = end
    }
    result.append(chunks)
  }
  return result
}

/// What a framer produced, copied out of the callback.
enum Frame: Equatable, CustomStringConvertible {
  case message(String)
  case oversized(Int?)
  case fatal(String)
  /// A WebSocket control frame or violation, as ``WebSocketControl/description`` tells it.
  case control(String)

  init(_ event: FramerEvent) {
    switch event {
    case .message(let bytes): self = .message(String(decoding: bytes, as: UTF8.self))
    case .oversized(let size): self = .oversized(size)
    case .fatal(let reason): self = .fatal(reason)
    case .webSocket(let control): self = .control(control.description)
    }
  }

  var description: String {
    switch self {
    case .message(let text): "message(\(text.debugDescription))"
    case .oversized(let size): "oversized(\(size.map(String.init) ?? "nil"))"
    case .fatal(let reason): "fatal(\(reason.debugDescription))"
    case .control(let text): "control(\(text))"
    }
  }

  /// The same frame with details that depend on chunking (sizes, reasons) dropped.
  var shape: Frame {
    switch self {
    case .message: self
    case .oversized: .oversized(nil)
    case .fatal: .fatal("")
    case .control: self
    }
  }
}

/// The three framers, driven the same way by the tests.
protocol TestFramer {
  /// Feeds `bytes`, appending events to `out`; the sink stops once `out` holds `stopAfter`
  /// events. Returns the bytes consumed.
  @discardableResult
  mutating func feed(_ bytes: [UInt8], into out: inout [Frame], stopAfter: Int) -> Int
}

/// The framers' own `feed(_:_:)`, which every one of them has.
protocol EventFramer: TestFramer {
  mutating func feed(_ chunk: UnsafeRawBufferPointer, _ sink: (FramerEvent) -> Bool) -> Int
}

extension EventFramer {
  /// Feeds `bytes`, appending what comes out to `out`; returns the bytes consumed.
  @discardableResult
  mutating func feed(_ bytes: [UInt8], into out: inout [Frame], stopAfter: Int = .max) -> Int {
    bytes.withUnsafeBytes { raw in
      feed(raw) { event in
        out.append(Frame(event))
        return out.count < stopAfter
      }
    }
  }
}

/// Feeds `chunks`, stopping the framer after every single event and feeding it the rest of
/// the chunk again, as a session under flow control does.
func framesStoppingAfterEachEvent<F: TestFramer>(_ framer: F, _ chunks: [[UInt8]]) -> [Frame] {
  var framer = framer
  var out: [Frame] = []
  for chunk in chunks {
    var rest = chunk[...]
    while !rest.isEmpty {
      let before = out.count
      let consumed = framer.feed(Array(rest), into: &out, stopAfter: before + 1)
      #expect(consumed <= rest.count)
      if consumed < rest.count {
        #expect(out.count == before + 1, "a framer may stop early only after an event")
      }
      if consumed == 0 && out.count == before {
        Issue.record("the framer made no progress")
        break
      }
      rest = rest.dropFirst(consumed)
    }
  }
  return out
}

extension NDJSONFramer: EventFramer {}

extension ContentLengthFramer: EventFramer {}

extension MessageFramer: EventFramer {}

/// Feeds `chunks` to an NDJSON framer.
func frames(ndjson chunks: [[UInt8]], max: Int = 1 << 20) -> [Frame] {
  var framer = NDJSONFramer(maxMessageBytes: max)
  var out: [Frame] = []
  for chunk in chunks { framer.feed(chunk, into: &out) }
  return out
}

/// Feeds `chunks` to a Content-Length framer.
func frames(
  contentLength chunks: [[UInt8]], max: Int = 1 << 20, maxHeader: Int = 8192
) -> [Frame] {
  var framer = ContentLengthFramer(maxMessageBytes: max, maxHeaderBytes: maxHeader)
  var out: [Frame] = []
  for chunk in chunks { framer.feed(chunk, into: &out) }
  return out
}

/// Feeds `chunks` to an auto-detecting framer; returns what it produced and the framing.
func frames(detecting chunks: [[UInt8]], max: Int = 1 << 20) -> ([Frame], Framing?) {
  var framer = MessageFramer(maxMessageBytes: max)
  var out: [Frame] = []
  for chunk in chunks { framer.feed(chunk, into: &out) }
  return (out, framer.framing)
}

/// `body` framed as an LSP message (`Content-Length` counts UTF-8 bytes).
func lspMessage(_ body: String) -> String {
  "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
}

extension WebSocketFramer: EventFramer {}
