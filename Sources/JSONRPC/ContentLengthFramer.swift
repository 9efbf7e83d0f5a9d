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
        if buffer.isEmpty, let (length, end) = Self.canonicalHeader(p, from: i),
          end - i <= maxHeaderBytes
        {
          // The usual block, whole in this chunk: read in place.
          i = end
          if !startMessage(length: length, sink) { return i }
          continue
        }
        // Look for the CRLFCRLF that ends the block, in what is buffered followed by this
        // chunk, without copying the chunk byte by byte.
        var found = -1
        var j = i
        while j < n {
          // The limit counts the whole block, its final CRLFCRLF included.
          if buffer.count + (j - i) + 1 > maxHeaderBytes {
            state = .failed
            buffer = []
            _ = sink(.fatal("header block longer than \(maxHeaderBytes) bytes"))
            return n
          }
          if p[j] == 0x0A && endsBlock(p, start: i, at: j) {
            found = j + 1
            break
          }
          j += 1
        }
        if found < 0 {
          buffer.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<n]))
          return n
        }
        let parsed: Result<Int, HeaderError>
        if buffer.isEmpty {
          parsed = Self.contentLength(in: UnsafeBufferPointer(rebasing: p[i..<found]))
        } else {
          buffer.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<found]))
          parsed = buffer.withUnsafeBufferPointer { Self.contentLength(in: $0) }
          buffer.removeAll(keepingCapacity: true)
        }
        i = found
        switch parsed {
        case .failure(let error):
          state = .failed
          _ = sink(.fatal(error.reason))
          return n
        case .success(let length):
          if !startMessage(length: length, sink) { return i }
        }
      }
    }
    return n
  }

  /// After a header block announcing `length` bytes: the body is read next (or skipped, when
  /// over the limit; an empty one is delivered at once). Returns what `sink` said.
  private mutating func startMessage(length: Int, _ sink: (FramerEvent) -> Bool) -> Bool {
    if length > maxMessageBytes {
      state = .skip(remaining: length)
      return sink(.oversized(size: length))
    }
    if length == 0 { return sink(.message(UnsafeRawBufferPointer(start: nil, count: 0))) }
    state = .body(length: length)
    return true
  }

  /// The length announced by a canonical block (see ``canonicalContentLength(_:)``) starting
  /// at `from` and ending in the chunk, and the index after it; nil otherwise (the general
  /// search then finds and reads the block).
  private static func canonicalHeader(_ p: UnsafeBufferPointer<UInt8>, from: Int) -> (Int, Int)? {
    let n = p.count
    // The prefix, at least one digit and CRLFCRLF.
    guard n - from >= 21 else { return nil }
    var k = from + 16
    let last = min(n, from + 34)  // 18 digits at most
    while k < last, p[k] &- 0x30 < 10 { k += 1 }
    guard k + 4 <= n else { return nil }
    let block = UnsafeBufferPointer(rebasing: p[from..<k + 4])
    guard let length = canonicalContentLength(block) else { return nil }
    return (length, k + 4)
  }

  /// Whether the byte at `j` of the chunk (a LF) ends CRLFCRLF, counting the buffered bytes
  /// that come before the chunk's `start`.
  private func endsBlock(_ p: UnsafeBufferPointer<UInt8>, start: Int, at j: Int) -> Bool {
    func byte(_ back: Int) -> UInt8? {
      let k = j - back
      if k >= start { return p[k] }
      let b = buffer.count - (start - k)
      return b >= 0 ? buffer[b] : nil
    }
    return byte(1) == 0x0D && byte(2) == 0x0A && byte(3) == 0x0D
  }

  struct HeaderError: Error { var reason: String }

  /// Finds `Content-Length` in a header block (which ends with CRLFCRLF).
  ///
  /// The common block (ASCII, every line `Name: value`) is read on its bytes; anything else
  /// takes the general reading below, which says exactly what is wrong.
  static func contentLength(in header: UnsafeBufferPointer<UInt8>) -> Result<Int, HeaderError> {
    if let length = canonicalContentLength(header) { return .success(length) }
    if let length = plainContentLength(header) { return .success(length) }
    return contentLength(in: Array(header))
  }

  /// The length in the block nearly every client sends, exactly `Content-Length: <digits>`
  /// and CRLFCRLF (at most 18 digits); nil for any other block. Compared as words: this is
  /// the header of every message on an LSP-framed connection. (The same reading as the two
  /// below for this block, which a test holds.)
  private static func canonicalContentLength(_ h: UnsafeBufferPointer<UInt8>) -> Int? {
    let n = h.count
    // "Content-Length: " (16 bytes), a digit, "\r\n\r\n".
    guard n >= 21, n <= 38 else { return nil }
    let p = UnsafeRawPointer(h.baseAddress!)
    guard p.loadUnaligned(as: UInt64.self) == 0x2D74_6E65_746E_6F43,  // "Content-"
      p.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == 0x203A_6874_676E_654C,  // "Length: "
      p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) == 0x0A0D_0A0D  // "\r\n\r\n"
    else { return nil }
    var value = 0
    for k in 16..<(n - 4) {
      let d = h[k] &- 0x30
      guard d < 10 else { return nil }
      value = value &* 10 &+ Int(d)
    }
    return value
  }

  /// The length in an all-ASCII block whose non-empty lines all have a colon and whose
  /// Content-Length values are all digits; nil for any other block. (Within ASCII, characters
  /// are bytes, except CRLF, which the lines are split on: the same reading as the general one.)
  private static func plainContentLength(_ h: UnsafeBufferPointer<UInt8>) -> Int? {
    let name: StaticString = "content-length"
    var length: Int?
    var lineStart = 0
    var k = 0
    let n = h.count
    while k <= n {
      let atBreak = k + 1 < n && h[k] == 0x0D && h[k + 1] == 0x0A
      if k < n && !atBreak {
        if h[k] >= 0x80 { return nil }
        k += 1
        continue
      }
      // A line is h[lineStart..<k].
      if k > lineStart {
        var colon = lineStart
        while colon < k && h[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < k else { return nil }
        var a = lineStart
        var b = colon
        while a < b && (h[a] == 0x20 || h[a] == 0x09) { a += 1 }
        while b > a && (h[b - 1] == 0x20 || h[b - 1] == 0x09) { b -= 1 }
        var isLength = b - a == name.utf8CodeUnitCount
        if isLength {
          for m in 0..<(b - a) where h[a + m] | 0x20 != name.utf8Start[m] | 0x20 {
            // `| 0x20` folds ASCII letters; '-' (0x2D) is itself either way, and no other
            // byte folds onto a letter of the name.
            isLength = false
            break
          }
          if isLength, h[a..<b].contains(where: { !Self.isLetterOrDash($0) }) { isLength = false }
        }
        if isLength {
          var v = colon + 1
          var e = k
          while v < e && (h[v] == 0x20 || h[v] == 0x09) { v += 1 }
          while e > v && (h[e - 1] == 0x20 || h[e - 1] == 0x09) { e -= 1 }
          guard v < e else { return nil }
          var value = 0
          for m in v..<e {
            let d = h[m] &- 0x30
            guard d < 10 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(d))
            guard !o1 && !o2 else { return nil }
            value = sum
          }
          length = value
        }
      }
      if k >= n { break }
      k += 2
      lineStart = k
    }
    return length
  }

  private static func isLetterOrDash(_ b: UInt8) -> Bool {
    (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x2D
  }

  /// The general reading, on the block as text.
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
