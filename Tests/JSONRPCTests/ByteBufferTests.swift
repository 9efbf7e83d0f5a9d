import JSONRPC
import Testing

/// The reply buffer: appends of every kind give the bytes an array would hold, copies are
/// independent (copy on write), and the removals keep the rest.
@Suite struct ByteBufferTests {
  @Test func appendsGiveTheSameBytesAsAnArray() {
    var buffer = ByteBuffer()
    var model: [UInt8] = []
    #expect(buffer.isEmpty && buffer.capacity == 0)
    var random = SystemRandomNumberGenerator()
    for step in 0..<2000 {
      let chunk = (0..<Int.random(in: 0...70, using: &random)).map { _ in UInt8.random(in: 0...255)
      }
      switch step % 5 {
      case 0: buffer.append(contentsOf: chunk)
      case 1: chunk.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
      case 2: chunk.withUnsafeBytes { buffer.append(contentsOf: $0) }
      case 3: for b in chunk { buffer.append(b) }
      default: buffer.append(contentsOf: chunk.lazy.map { $0 })
      }
      model += chunk
    }
    #expect(Array(buffer) == model)
    #expect(buffer.array == model)
    #expect(buffer.count == model.count)
    buffer.withUnsafeBytes { #expect(Array($0) == model) }
  }

  @Test func aCopyIsIndependentOfTheOriginal() {
    var a = ByteBuffer([1, 2, 3])
    var b = a
    b.append(4)
    a.append(9)
    #expect(a.array == [1, 2, 3, 9])
    #expect(b.array == [1, 2, 3, 4])
    var c = a
    c.truncate(to: 1)
    #expect(a.array == [1, 2, 3, 9])
    #expect(c.array == [1])
    var d = a
    d.removeFirst(2)
    #expect(d.array == [3, 9])
    #expect(a.array == [1, 2, 3, 9])
    let e = a
    a.removeAll(keepingCapacity: true)
    #expect(a.isEmpty)
    #expect(e.array == [1, 2, 3, 9])
  }

  /// Appending a buffer: another's bytes, a copy sharing this one's storage (which this one
  /// then copies before it grows), an empty one, and one that makes this one grow.
  @Test func appendingABufferCopiesItsBytes() {
    var a = ByteBuffer([1, 2, 3])
    let b = ByteBuffer([4, 5])
    a.append(contentsOf: b)
    #expect(a.array == [1, 2, 3, 4, 5])
    #expect(b.array == [4, 5])
    let shared = a
    a.append(contentsOf: shared)
    #expect(a.array == [1, 2, 3, 4, 5, 1, 2, 3, 4, 5])
    #expect(shared.array == [1, 2, 3, 4, 5])
    a.append(contentsOf: ByteBuffer())
    #expect(a.count == 10)
    var empty = ByteBuffer()
    empty.append(contentsOf: shared)
    #expect(empty.array == shared.array)
    let big = ByteBuffer(Array(repeating: 7, count: 5000))
    var small = ByteBuffer([1])
    small.append(contentsOf: big)
    #expect(small.count == 5001 && small.array.dropFirst().allSatisfy { $0 == 7 })
  }

  @Test func removalsAndInsertionsKeepTheRest() {
    var buffer = ByteBuffer(Array(0..<100))
    buffer.removeSubrange(90...)
    #expect(buffer.array == Array(0..<90))
    buffer.removeFirst(10)
    #expect(buffer.array == Array(10..<90))
    buffer.insert(contentsOf: [200, 201], at: 5)
    #expect(buffer.array == Array(10..<15) + [200, 201] + Array(15..<90))
    buffer.insert(contentsOf: [7], at: buffer.count)
    #expect(buffer.last == 7)
    buffer.removeAll()
    #expect(buffer.isEmpty && buffer.capacity == 0)
    buffer.append("ok")
    #expect(buffer.array == Array("ok".utf8))
  }

  @Test(arguments: [0, 1, 9, 10, 99, 12_345, -1, -10, Int.max, Int.min])
  func decimalsAreWrittenAsSwiftPrintsThem(value: Int) {
    var buffer = ByteBuffer()
    buffer.append("x")
    buffer.appendDecimal(value)
    #expect(String(decoding: buffer, as: UTF8.self) == "x\(value)")
  }

  @Test func inPlaceWritesKeepWhatTheyWrote() {
    var buffer = ByteBuffer([1])
    buffer.appendUninitialized(count: 10) { room in
      room[0] = 2
      room[1] = 3
      return 2
    }
    #expect(buffer.array == [1, 2, 3])
    #expect(ByteBuffer([1, 2, 3]) == buffer)
    #expect(ByteBuffer([1, 2]) != buffer)
  }
}
