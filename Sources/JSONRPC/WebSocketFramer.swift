/// Splits the frames a WebSocket client sends (RFC 6455, section 5) into messages. No I/O: the
/// HTTP upgrade happens before (`GET /rpc`), and the session writes the replies.
///
/// - Text messages are handed out whole: a message in fragments (a text frame without FIN,
///   then continuation frames) is put together first, as is a frame that came in several
///   reads. A control frame may come between fragments.
/// - A message over `maxMessageBytes` is skipped to its last fragment and reported once as
///   ``FramerEvent/oversized(size:)`` (its size so far), like a long line in NDJSON: the
///   connection goes on.
/// - Control frames are reported as ``FramerEvent/webSocket(_:)``: a ping (to be answered with
///   a pong carrying its payload), a close (to be answered with a close, then the connection
///   closes). Pongs are dropped.
/// - What breaks the protocol ends the connection with a close frame of the code RFC 6455
///   gives: an unmasked client frame, reserved bits or opcodes, a fragmented or long control
///   frame, a continuation without a message or a new message inside one (1002); a binary
///   message (1003); text that is not UTF-8 (1007).
public struct WebSocketFramer {
  public let maxMessageBytes: Int

  /// The longest control frame payload (RFC 6455, 5.5).
  static let maxControlPayload = 125

  /// The start of a frame not complete yet (a header, or a payload within the limit).
  private var buffer: [UInt8] = []
  /// The message being put together from fragments.
  private var message: [UInt8] = []
  private var inMessage = false
  /// The size so far of an oversized message whose fragments are being skipped.
  private var skipping: Int?
  /// Payload bytes of the current frame still to skip, and whether that frame ends the message.
  private var skip: (remaining: Int, fin: Bool)?
  private var failed = false

  public init(maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// Bytes held while waiting for the rest of a frame or a message.
  public var bufferedBytes: Int { buffer.count + message.count }

  private struct Header {
    var fin: Bool
    var opcode: UInt8
    var mask: (UInt8, UInt8, UInt8, UInt8)
    var payloadLength: Int
    /// Header bytes, mask included.
    var size: Int
  }

  private enum Parsed {
    case needMore
    case header(Header)
    case violation(code: UInt16, reason: String)
  }

  /// Reads a frame header at the start of `p`.
  private func header(_ p: UnsafeRawBufferPointer) -> Parsed {
    guard p.count >= 2 else { return .needMore }
    let b0 = p[0]
    let b1 = p[1]
    if b0 & 0x70 != 0 { return .violation(code: 1002, reason: "reserved bits set") }
    guard b1 & 0x80 != 0 else {
      return .violation(code: 1002, reason: "a client frame must be masked")
    }
    var size = 2
    var length = Int(b1 & 0x7F)
    if length == 126 {
      guard p.count >= 4 else { return .needMore }
      length = Int(p[2]) << 8 | Int(p[3])
      size = 4
    } else if length == 127 {
      guard p.count >= 10 else { return .needMore }
      var value: UInt64 = 0
      for i in 2..<10 { value = value << 8 | UInt64(p[i]) }
      guard value >> 63 == 0 else {
        return .violation(code: 1002, reason: "a frame length's top bit is set")
      }
      // A length no process could hold is over any limit: counted as the largest one.
      length = Int(min(value, UInt64(Int.max / 4)))
      size = 10
    }
    guard p.count >= size + 4 else { return .needMore }
    let mask = (p[size], p[size + 1], p[size + 2], p[size + 3])
    return .header(
      Header(
        fin: b0 & 0x80 != 0, opcode: b0 & 0x0F, mask: mask, payloadLength: length,
        size: size + 4))
  }

  /// Feeds `chunk`; `sink` returns `false` to stop after the event it was given. Returns how
  /// many bytes of `chunk` were consumed (all of them unless `sink` stopped early).
  @discardableResult
  public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ sink: (FramerEvent) -> Bool) -> Int {
    guard !failed else { return chunk.count }
    var stopped = false
    if buffer.isEmpty {
      let used = process(chunk, sink, &stopped)
      if !stopped, !failed {
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[used...]))
      }
      return stopped ? used : chunk.count
    }
    let held = buffer.count
    buffer.append(contentsOf: chunk)
    var bytes: [UInt8] = []
    swap(&bytes, &buffer)
    let used = bytes.withUnsafeBytes { process($0, sink, &stopped) }
    if stopped || failed {
      // What was not used of the chunk is given back by the caller, and fed again.
      return failed ? chunk.count : max(0, used - held)
    }
    bytes.removeFirst(used)
    buffer = bytes
    return chunk.count
  }

  /// Handles the whole frames at the start of `p` (and skips what an oversized message has
  /// there); returns the bytes used. An incomplete frame is left for the next chunk.
  private mutating func process(
    _ p: UnsafeRawBufferPointer, _ sink: (FramerEvent) -> Bool, _ stopped: inout Bool
  ) -> Int {
    var i = 0
    while true {
      if let (remaining, fin) = skip {
        let n = min(remaining, p.count - i)
        i += n
        if n < remaining {
          skip = (remaining - n, fin)
          return i
        }
        skip = nil
        if fin, let size = skipping {
          skipping = nil
          inMessage = false
          if !sink(.oversized(size: size)) {
            stopped = true
            return i
          }
        }
        continue
      }
      let frame = header(UnsafeRawBufferPointer(rebasing: p[i...]))
      guard case .header(let h) = frame else {
        if case .violation(let code, let reason) = frame { _ = fail(code, reason, sink) }
        stopped = failed
        return failed ? p.count : i
      }
      if h.opcode >= 0x8, !h.fin || h.payloadLength > Self.maxControlPayload {
        // Judged by its header: a control frame's payload is never buffered past 125 bytes.
        _ = fail(1002, "a control frame must be whole and at most 125 bytes", sink)
        stopped = true
        return p.count
      }
      if h.opcode < 0x8 {
        if let violation = sequenceViolation(h) {
          _ = fail(violation.code, violation.reason, sink)
          stopped = true
          return p.count
        }
        if skipping != nil || message.count + h.payloadLength > maxMessageBytes {
          // Over the limit: its bytes are counted, never kept.
          skipping = (skipping ?? message.count) + h.payloadLength
          message.removeAll(keepingCapacity: false)
          inMessage = true
          skip = (h.payloadLength, h.fin)
          i += h.size
          continue
        }
      }
      guard p.count - i >= h.size + h.payloadLength else { return i }
      let payload = UnsafeRawBufferPointer(
        rebasing: p[(i + h.size)..<(i + h.size + h.payloadLength)])
      i += h.size + h.payloadLength
      let proceed = handle(h, payload, sink)
      if failed || !proceed {
        stopped = true
        return failed ? p.count : i
      }
    }
  }

  /// The close codes a peer may send (RFC 6455, 7.4): the defined ones that are not reserved
  /// for local use (1005, 1006, 1015 never go on the wire), and 3000-4999.
  static func isValidCloseCode(_ code: UInt16) -> Bool {
    switch code {
    case 1000...1003, 1007...1014, 3000...4999: true
    default: false
    }
  }

  /// Why data frame `h` cannot come now, if it cannot.
  private func sequenceViolation(_ h: Header) -> (code: UInt16, reason: String)? {
    switch h.opcode {
    case 0x0:
      return inMessage ? nil : (1002, "a continuation frame without a message")
    case 0x1:
      return inMessage ? (1002, "a new message inside a fragmented one") : nil
    case 0x2:
      return inMessage
        ? (1002, "a new message inside a fragmented one")
        : (1003, "binary messages are not accepted")
    default:
      return (1002, "reserved opcode \(h.opcode)")
    }
  }

  /// Handles one whole frame. Returns what `sink` returned (true when nothing was emitted).
  private mutating func handle(
    _ h: Header, _ masked: UnsafeRawBufferPointer, _ sink: (FramerEvent) -> Bool
  ) -> Bool {
    switch h.opcode {
    case 0x8, 0x9, 0xA:
      // Whole and at most 125 bytes: `process` judged that by the header.
      let payload = unmask(masked, h.mask)
      switch h.opcode {
      case 0x9:
        return payload.withUnsafeBytes { sink(.webSocket(.ping($0))) }
      case 0x8:
        failed = true  // nothing is read after a close
        if payload.count == 1 { return fail(1002, "a close frame's code is two bytes", sink) }
        let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
        if let code, !Self.isValidCloseCode(code) {
          return fail(1002, "close code \(code) is not one a peer may send", sink)
        }
        guard
          payload.dropFirst(2).withContiguousStorageIfAvailable({
            String(validating: $0, as: UTF8.self) != nil
          }) ?? true
        else { return fail(1007, "a close reason that is not UTF-8", sink) }
        _ = sink(.webSocket(.close(code: code)))
        return false
      default:
        return true  // a pong: nothing to do
      }
    case 0x1:
      inMessage = true
      return appendFragment(h, masked, sink)
    case 0x0:
      return appendFragment(h, masked, sink)
    default:
      return fail(1002, "reserved opcode \(h.opcode)", sink)
    }
  }

  private mutating func appendFragment(
    _ h: Header, _ masked: UnsafeRawBufferPointer, _ sink: (FramerEvent) -> Bool
  ) -> Bool {
    let start = message.count
    message.append(contentsOf: masked)
    unmaskInPlace(&message, from: start, h.mask)
    guard h.fin else { return true }
    inMessage = false
    defer { message.removeAll(keepingCapacity: message.capacity <= 65536) }
    guard message.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) != nil }) else {
      return fail(1007, "a text message that is not UTF-8", sink)
    }
    return message.withUnsafeBytes { sink(.message($0)) }
  }

  private mutating func fail(_ code: UInt16, _ reason: String, _ sink: (FramerEvent) -> Bool)
    -> Bool
  {
    failed = true
    _ = sink(.webSocket(.violation(code: code, reason: reason)))
    return false
  }

  private func unmask(_ masked: UnsafeRawBufferPointer, _ mask: (UInt8, UInt8, UInt8, UInt8))
    -> [UInt8]
  {
    var out = Array(masked)
    unmaskInPlace(&out, from: 0, mask)
    return out
  }

  private func unmaskInPlace(
    _ bytes: inout [UInt8], from start: Int, _ mask: (UInt8, UInt8, UInt8, UInt8)
  ) {
    let key = [mask.0, mask.1, mask.2, mask.3]
    bytes.withUnsafeMutableBufferPointer { p in
      var i = start
      while i < p.count {
        p[i] ^= key[(i - start) & 3]
        i += 1
      }
    }
  }
}

/// What a WebSocket client asked of the connection, besides its messages.
public enum WebSocketControl: CustomStringConvertible {
  /// A ping: answer a pong with this payload (valid only during the callback).
  case ping(UnsafeRawBufferPointer)
  /// The client closed (with its status code, if it gave one): answer a close, then close.
  case close(code: UInt16?)
  /// The client broke the protocol: close with `code` (RFC 6455, 7.4.1).
  case violation(code: UInt16, reason: String)

  public var description: String {
    switch self {
    case .ping(let payload): "ping(\(payload.count) bytes)"
    case .close(let code): "close(\(code.map(String.init) ?? "no code"))"
    case .violation(let code, let reason): "violation(\(code), \(reason.debugDescription))"
    }
  }
}

extension Framing {
  /// The header of a server's unmasked text frame of `count` bytes (FIN set).
  static func webSocketHeader(_ count: Int, opcode: UInt8 = 0x1, into out: inout ByteBuffer) {
    out.append(0x80 | opcode)
    if count < 126 {
      out.append(UInt8(count))
    } else if count <= 0xFFFF {
      out.append(126)
      out.append(UInt8(count >> 8))
      out.append(UInt8(count & 0xFF))
    } else {
      out.append(127)
      for shift in stride(from: 56, through: 0, by: -8) {
        out.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift)))
      }
    }
  }

  /// Room for the longest frame header a server writes (10 bytes).
  static let webSocketRoom = 10

  /// Writes the header of the body that follows the room reserved at `mark` into the room's
  /// end, and closes the part of the room it did not use.
  static func fillWebSocketRoom(at mark: Int, of buffer: inout ByteBuffer) {
    let bodyCount = buffer.count - mark - webSocketRoom
    var header = ByteBuffer(capacity: webSocketRoom)
    webSocketHeader(bodyCount, into: &header)
    let unused = webSocketRoom - header.count
    _ = buffer.reserveFree(0)  // the storage is unique: written in place
    let p = buffer.written.base + mark
    header.withUnsafeBytes {
      (p + unused).update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: $0.count)
    }
    if unused > 0 {
      UnsafeMutableRawPointer(p).copyMemory(from: p + unused, byteCount: header.count + bodyCount)
      buffer.written.count -= unused
    }
  }

  /// A close frame with `code` (and `reason`, cut to what a control frame holds).
  static func webSocketClose(code: UInt16, reason: String = "", into out: inout ByteBuffer) {
    let text = Array(reason.utf8.prefix(WebSocketFramer.maxControlPayload - 2))
    webSocketHeader(2 + text.count, opcode: 0x8, into: &out)
    out.append(UInt8(code >> 8))
    out.append(UInt8(code & 0xFF))
    text.withUnsafeBytes { out.append(contentsOf: $0) }
  }
}
