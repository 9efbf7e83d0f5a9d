#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// Splits a byte stream into newline-delimited JSON messages. No I/O.
///
/// Complete lines inside a fed chunk are handed out without copying; only a trailing partial
/// line is buffered. A line longer than `maxMessageBytes` is discarded up to its newline and
/// reported once as ``FramerEvent/oversized(size:)``; the next line is read normally. Lines
/// holding only whitespace are ignored. A trailing `\r` is stripped.
public struct NDJSONFramer {
  public let maxMessageBytes: Int
  private var pending: [UInt8] = []
  private var discarding = false
  private var discardedBytes = 0

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
        } else if pending.count + segment.count > maxMessageBytes + 1 {
          discarding = true
          discardedBytes = pending.count + segment.count
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
        proceed = sink(.oversized(size: discardedBytes + segment.count))
        discardedBytes = 0
      } else if pending.isEmpty {
        proceed = emit(segment, sink)
      } else {
        if pending.count + segment.count > maxMessageBytes + 1 {
          proceed = sink(.oversized(size: pending.count + segment.count))
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
    var start = 0
    while start < end, line[start] == 0x20 || line[start] == 0x09 || line[start] == 0x0D {
      start += 1
    }
    if start == end { return true }
    if end > maxMessageBytes { return sink(.oversized(size: end)) }
    return sink(.message(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: line[0..<end]))))
  }
}
