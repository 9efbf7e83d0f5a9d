import JSONRPC

/// What a framer produced, copied out of its callback.
enum Frame: Equatable, CustomStringConvertible {
  case message([UInt8])
  case oversized(Int?)
  case fatal(String)
  /// A WebSocket control frame or violation, as ``WebSocketControl/description`` tells it.
  case control(String)

  init(_ event: FramerEvent) {
    switch event {
    case .message(let bytes): self = .message(Array(bytes))
    case .oversized(let size): self = .oversized(size)
    case .fatal(let reason): self = .fatal(reason)
    case .webSocket(let control): self = .control(control.description)
    }
  }

  var description: String {
    switch self {
    case .message(let bytes): "message(\(bytes.debugText))"
    case .oversized(let size): "oversized(\(size.map(String.init) ?? "nil"))"
    case .fatal(let reason): "fatal(\(reason.debugDescription))"
    case .control(let text): "control(\(text))"
    }
  }
}

/// The three framers, driven the same way.
protocol FuzzedFramer {
  mutating func feed(_ chunk: UnsafeRawBufferPointer, _ sink: (FramerEvent) -> Bool) -> Int
  var bufferedBytes: Int { get }
}

extension NDJSONFramer: FuzzedFramer {}
extension ContentLengthFramer: FuzzedFramer {}
extension MessageFramer: FuzzedFramer {}

/// Drives one framer over one input in several ways and checks that they agree.
struct FramerHarness<F: FuzzedFramer> {
  /// A fresh framer in its initial state.
  let make: () -> F
  /// The most bytes the framer may hold between feeds.
  let maxBuffered: Int

  /// Feeds `chunks` in order and returns the events; after each feed checks that the framer
  /// consumed everything (the sink never stops it) and holds at most ``maxBuffered`` bytes.
  func frames(_ bytes: [UInt8], chunkSizes: [Int]) -> [Frame] {
    var framer = make()
    var out: [Frame] = []
    var offset = 0
    bytes.withUnsafeBytes { raw in
      for size in chunkSizes {
        let chunk = UnsafeRawBufferPointer(rebasing: raw[offset..<offset + size])
        let consumed = framer.feed(chunk) { event in
          out.append(Frame(event))
          return true
        }
        fuzzCheck(
          consumed == size, "consumed \(consumed) of a \(size)-byte chunk without being stopped")
        fuzzCheck(
          framer.bufferedBytes <= maxBuffered,
          "holds \(framer.bufferedBytes) bytes, more than \(maxBuffered)")
        offset += size
      }
    }
    return out
  }

  /// Feeds `bytes` as a session under flow control does: the sink stops the framer after every
  /// event, and the rest of the chunk is fed again.
  func framesStoppingAfterEachEvent(_ bytes: [UInt8], chunkSizes: [Int]) -> [Frame] {
    var framer = make()
    var out: [Frame] = []
    var offset = 0
    bytes.withUnsafeBytes { raw in
      for size in chunkSizes {
        var rest = UnsafeRawBufferPointer(rebasing: raw[offset..<offset + size])
        offset += size
        while !rest.isEmpty {
          let before = out.count
          let consumed = framer.feed(rest) { event in
            out.append(Frame(event))
            return false
          }
          fuzzCheck(consumed <= rest.count, "consumed \(consumed) of \(rest.count) bytes")
          fuzzCheck(out.count <= before + 1, "the framer went on after its sink said stop")
          if consumed < rest.count {
            fuzzCheck(out.count == before + 1, "the framer stopped early without an event")
          }
          fuzzCheck(consumed > 0 || out.count > before, "the framer made no progress")
          rest = UnsafeRawBufferPointer(rebasing: rest[consumed...])
        }
      }
    }
    return out
  }

  /// Checks that whole, byte by byte, in random pieces, and stopped after each event, the
  /// framer produces the same events; returns them.
  func checkSplitInvariance(_ bytes: [UInt8], salt: UInt64) -> [Frame] {
    let whole = frames(bytes, chunkSizes: [bytes.count])
    let byByte = frames(bytes, chunkSizes: Array(repeating: 1, count: bytes.count))
    fuzzCheck(byByte == whole, "byte by byte \(byByte) differs from whole \(whole)")
    var generator = bytes.withUnsafeBytes { InputSeededGenerator(hashing: $0, salt: salt) }
    for _ in 0..<3 {
      let sizes = randomChunkSizes(count: bytes.count, using: &generator)
      let split = frames(bytes, chunkSizes: sizes)
      fuzzCheck(split == whole, "in chunks \(sizes): \(split) differs from whole \(whole)")
    }
    let stopping = framesStoppingAfterEachEvent(bytes, chunkSizes: [bytes.count])
    fuzzCheck(stopping == whole, "stopped after each event: \(stopping) differs from \(whole)")
    let sizes = randomChunkSizes(count: bytes.count, using: &generator)
    let stoppingSplit = framesStoppingAfterEachEvent(bytes, chunkSizes: sizes)
    fuzzCheck(
      stoppingSplit == whole,
      "stopped after each event in chunks \(sizes): \(stoppingSplit) differs from \(whole)")
    return whole
  }
}
