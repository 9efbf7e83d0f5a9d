/// Splits a byte stream framed with LSP-style `Content-Length` headers. No I/O.
///
/// Header names are case-insensitive and unknown headers are ignored. A body whose declared
/// length exceeds `maxMessageBytes` is skipped without being buffered and reported as
/// ``FramerEvent/oversized(size:)``. A header block that is malformed (no usable
/// `Content-Length`, or longer than `maxHeaderBytes`) is ``FramerEvent/fatal(_:)``: the stream
/// cannot be resynchronised and the framer stops producing messages.
public struct ContentLengthFramer {
  public let maxMessageBytes: Int
  public let maxHeaderBytes: Int

  private enum State {
    case header
    case body(length: Int)
    case skip(remaining: Int)
    case failed
  }

  private var state: State = .header
  private var buffer: [UInt8] = []

  public init(maxMessageBytes: Int, maxHeaderBytes: Int = 8192) {
    self.maxMessageBytes = maxMessageBytes
    self.maxHeaderBytes = maxHeaderBytes
  }

  public var bufferedBytes: Int { buffer.count }

  /// Feeds `chunk`; `sink` returns `false` to stop after the event it was given. Returns how
  /// many bytes of `chunk` were consumed (all of them unless `sink` stopped early).
  @discardableResult
  public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ sink: (FramerEvent) -> Bool) -> Int {
    let p = chunk.bindMemory(to: UInt8.self)
    var i = 0
    let n = p.count
    while i < n {
      switch state {
      case .failed:
        return n
      case .skip(let remaining):
        let take = min(remaining, n - i)
        i += take
        state = remaining - take == 0 ? .header : .skip(remaining: remaining - take)
      case .body(let length):
        if buffer.isEmpty && n - i >= length {
          let proceed = sink(.message(UnsafeRawBufferPointer(rebasing: chunk[i..<i + length])))
          i += length
          state = .header
          if !proceed { return i }
        } else {
          let take = min(length - buffer.count, n - i)
          buffer.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<i + take]))
          i += take
          if buffer.count == length {
            let proceed = buffer.withUnsafeBytes { sink(.message($0)) }
            buffer.removeAll(keepingCapacity: buffer.capacity <= 65536)
            state = .header
            if !proceed { return i }
          }
        }
      case .header:
        // Accumulate until CRLFCRLF.
        var found = -1
        var j = i
        while j < n {
          buffer.append(p[j])
          j += 1
          let c = buffer.count
          // The limit counts the whole block, its final CRLFCRLF included.
          if c > maxHeaderBytes {
            state = .failed
            buffer = []
            _ = sink(.fatal("header block longer than \(maxHeaderBytes) bytes"))
            return n
          }
          if c >= 4 && buffer[c - 1] == 0x0A && buffer[c - 2] == 0x0D && buffer[c - 3] == 0x0A
            && buffer[c - 4] == 0x0D
          {
            found = j
            break
          }
        }
        if found < 0 { return n }
        i = found
        let header = buffer
        buffer.removeAll(keepingCapacity: true)
        switch Self.contentLength(in: header) {
        case .failure(let error):
          state = .failed
          _ = sink(.fatal(error.reason))
          return n
        case .success(let length):
          if length > maxMessageBytes {
            state = length > 0 ? .skip(remaining: length) : .header
            if !sink(.oversized(size: length)) { return i }
          } else if length == 0 {
            if !sink(.message(UnsafeRawBufferPointer(start: nil, count: 0))) { return i }
          } else {
            state = .body(length: length)
          }
        }
      }
    }
    return n
  }

  struct HeaderError: Error { var reason: String }

  /// Finds `Content-Length` in a header block (which ends with CRLFCRLF).
  static func contentLength(in header: [UInt8]) -> Result<Int, HeaderError> {
    // Leading blank lines between messages are tolerated.
    let text = String(decoding: header, as: UTF8.self)
    var length: Int?
    for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
      guard let colon = line.firstIndex(of: ":") else {
        return .failure(HeaderError(reason: "malformed header line \"\(line.prefix(80))\""))
      }
      let name = line[..<colon].trimmingSpaces().lowercased()
      let value = line[line.index(after: colon)...].trimmingSpaces()
      if name == "content-length" {
        guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(value)
        else {
          return .failure(
            HeaderError(reason: "Content-Length \"\(value.prefix(40))\" is not a byte count"))
        }
        length = n
      }
    }
    guard let length else { return .failure(HeaderError(reason: "missing Content-Length header")) }
    return .success(length)
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> Substring {
    var s = self
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return s
  }
}
