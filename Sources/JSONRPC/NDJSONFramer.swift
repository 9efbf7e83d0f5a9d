#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// Splits a byte stream into newline-delimited JSON messages. No I/O.
///
/// Complete lines inside a fed chunk are handed out without copying; only a trailing partial
/// line is buffered. A trailing `\r` is stripped. A line longer than `maxMessageBytes` is
/// discarded up to its newline and reported once as ``FramerEvent/oversized(size:)``, its size
/// being its length without the `\n` and that `\r` whatever the chunks it came in; the next
/// line is read normally. Other lines holding only whitespace are ignored.
public struct NDJSONFramer {
  public let maxMessageBytes: Int
  private var pending: [UInt8] = []
  private var discarding = false
  private var discardedBytes = 0
  /// The last byte discarded (a line's trailing `\r` does not count towards its size).
  private var lastDiscardedByte: UInt8 = 0

  public init(maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// Bytes buffered while waiting for the end of a line.
  public var bufferedBytes: Int { pending.count }

  /// Feeds `chunk`; `sink` returns `false` to stop after the event it was given. Returns how
  /// many bytes of `chunk` were consumed (all of them unless `sink` stopped early).
  @discardableResult
  public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ sink: (FramerEvent) -> Bool) -> Int {
    let p = chunk.bindMemory(to: UInt8.self)
    var i = 0
    let n = p.count
    while i < n {
      let j: Int
      if let hit = memchr(p.baseAddress! + i, 0x0A, n - i) {
        j = p.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
      } else {
        j = n
      }
      let segment = UnsafeBufferPointer(rebasing: p[i..<j])
      // Buffering allows one byte over the limit for a trailing '\r', which `emit` strips
      // before its exact check.
      if j == n {
        // Partial line: buffer it (or keep discarding).
        if discarding {
          discardedBytes += segment.count
          if let last = segment.last { lastDiscardedByte = last }
        } else if pending.count + segment.count > maxMessageBytes + 1 {
          discarding = true
          discardedBytes = pending.count + segment.count
          lastDiscardedByte = segment.last ?? pending.last ?? 0
          pending.removeAll(keepingCapacity: false)
        } else {
          pending.append(contentsOf: segment)
        }
        return n
      }
      // A complete line ends at j.
      var proceed = true
      if discarding {
        discarding = false
        let last = segment.last ?? lastDiscardedByte
        proceed = sink(.oversized(size: discardedBytes + segment.count - (last == 0x0D ? 1 : 0)))
        discardedBytes = 0
      } else if pending.isEmpty {
        proceed = emit(segment, sink)
      } else {
        if pending.count + segment.count > maxMessageBytes + 1 {
          let last = segment.last ?? pending.last
          proceed = sink(
            .oversized(size: pending.count + segment.count - (last == 0x0D ? 1 : 0)))
        } else {
          pending.append(contentsOf: segment)
          proceed = pending.withUnsafeBufferPointer { emit($0, sink) }
        }
        pending.removeAll(keepingCapacity: pending.capacity <= 65536)
      }
      i = j + 1
      if !proceed { return i }
    }
    return n
  }

  private func emit(_ line: UnsafeBufferPointer<UInt8>, _ sink: (FramerEvent) -> Bool) -> Bool {
    var end = line.count
    if end > 0 && line[end - 1] == 0x0D { end -= 1 }
    // The size first, as for lines that came in several chunks (judged before they end).
    if end > maxMessageBytes { return sink(.oversized(size: end)) }
    var start = 0
    while start < end, line[start] == 0x20 || line[start] == 0x09 || line[start] == 0x0D {
      start += 1
    }
    if start == end { return true }
    return sink(.message(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: line[0..<end]))))
  }
}
