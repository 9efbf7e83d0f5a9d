import ByteKeys
import Testing

/// `ByteKeys.Key`: a string key hashed once, the same lookups as `String` keys.
@Suite struct ByteKeysKeyTests {
  @Test func aTableOfKeysFindsWhatAStringTableFinds() {
    // IDs alike but for a byte anywhere, of lengths around the hash's word boundaries.
    var ids: [String] = []
    for length in 1...40 {
      let base = String(repeating: "u", count: length)
      for position in 0..<length {
        var bytes = Array(base.utf8)
        bytes[position] = UInt8(ascii: "v")
        ids.append(String(decoding: bytes, as: UTF8.self))
      }
      ids.append(base)
    }
    ids += ["", "é", "/21775744923/example/native", "/21775744923/example/native-video"]
    var keyed: [ByteKeys.Key: Int] = [:]
    var plain: [String: Int] = [:]
    for (index, id) in ids.enumerated() {
      keyed[ByteKeys.Key(id)] = index
      plain[id] = index
    }
    #expect(keyed.count == plain.count)
    for id in ids + ["absent", "uu\u{0}", "/21775744923/example/nativ"] {
      #expect(keyed[ByteKeys.Key(id)] == plain[id], "\(id)")
    }
    #expect(ByteKeys.Key("a") == ByteKeys.Key(String("ab".prefix(1))))
    #expect(ByteKeys.Key("a") != ByteKeys.Key("b"))
  }
}
