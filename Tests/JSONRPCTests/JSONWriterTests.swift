import Testing

@testable import JSONRPC

@Suite struct JSONWriterTests {
  private func written(_ body: (inout JSONWriter) -> Void) -> String {
    var w = JSONWriter()
    body(&w)
    return String(decoding: w.bytes, as: UTF8.self)
  }

  /// Verbatim runs of structure leave the writer where the same calls one by one would: a
  /// comma needed after a closing bracket or a value, none after an opening one or a colon.
  @Test func verbatimStructureWritesWhatTheCallsWould() {
    let stepByStep = written { w in
      w.beginObject()
      w.key("ads")
      w.beginArray()
      w.element()
      w.beginObject()
      w.key("a")
      w.int(1)
      w.endObject()
      w.endArray()
      w.key("b")
      w.beginArray()
      w.element()
      w.int(2)
      w.endArray()
      w.key("c")
      w.null()
      w.endObject()
    }
    let verbatim = written { w in
      w.verbatim(#"{"ads":["#)
      w.element()
      w.verbatim(#"{"a":"#)
      w.int(1)
      w.verbatim("}")
      w.verbatim(#"],"b":["#)
      w.element()
      w.int(2)
      w.verbatim("]")
      w.key("c")
      w.verbatim("null")
      w.verbatim("}")
    }
    #expect(verbatim == stepByStep)
    #expect(verbatim == #"{"ads":[{"a":1}],"b":[2],"c":null}"#)
  }

  // MARK: Written once

  @Test func aValueWrittenOnceIsCopiedEveryTimeAfterWithItsCommas() {
    var once = JSONWriter.WrittenOnce()
    var calls = 0
    let text = written { w in
      w.beginArray()
      for _ in 0..<3 {
        w.element()
        once.write(into: &w) { w in
          calls += 1
          w.beginObject()
          w.key("a")
          w.string("x\"y")
          w.endObject()
        }
      }
      w.endArray()
    }
    #expect(text == #"[{"a":"x\"y"},{"a":"x\"y"},{"a":"x\"y"}]"#)
    #expect(calls == 1)
    #expect(once.isWritten)
  }

  /// A copy that makes the buffer grow still copies the right bytes (the storage moves).
  @Test func appendCopyReadsTheRangeWhereverTheStorageMoves() {
    var bytes = ByteBuffer(capacity: 16)
    bytes.append("0123456789abcdef")
    for _ in 0..<6 { bytes.appendCopy(of: 0..<bytes.count) }
    #expect(bytes.count == 16 * 64)
    #expect(
      String(decoding: bytes, as: UTF8.self) == String(repeating: "0123456789abcdef", count: 64))
    bytes.appendCopy(of: 3..<3)
    bytes.appendCopy(of: 10..<12)
    #expect(String(decoding: bytes.suffix(2), as: UTF8.self) == "ab")
  }

  // MARK: Strings

  @Test func escapesQuotesBackslashesAndControlCharacters() {
    let text = written { $0.string("a\"b\\c\nd\re\tf\u{08}g\u{0C}h\u{0}i\u{1F}j\u{01}") }
    #expect(text == #""a\"b\\c\nd\re\tf\bg\fh\u0000i\u001fj\u0001""#)
  }

  @Test func leavesSlashDeleteAndUnicodeAsTheyAre() {
    let text = written { $0.string("/ \u{7F} é € 😀 \u{2028} \u{10FFFF}") }
    #expect(text == "\"/ \u{7F} é € 😀 \u{2028} \u{10FFFF}\"")
  }

  /// A special byte at every position of strings of many lengths (the writer copies a clean
  /// prefix before it escapes): written, then parsed, each comes back as it was.
  @Test func aSpecialCharacterAnywhereInAStringIsEscaped() throws {
    let parser = JSONParser()
    for length in 0..<34 {
      for position in 0..<max(length, 1) {
        for special in ["\"", "\\", "\n", "\u{1}", "é", "😀"] {
          var text = String(repeating: "a", count: length)
          if length > 0 {
            let i = text.index(text.startIndex, offsetBy: position)
            text.replaceSubrange(i...i, with: special)
          }
          var w = JSONWriter()
          w.beginArray()
          w.element()
          w.string(text)
          w.element()
          w.string("after")
          w.endArray()
          #expect(
            try parser.parseValue(String(decoding: w.bytes, as: UTF8.self))
              == .array([.string(text), .string("after")]), "\(length) \(position)")
        }
      }
    }
  }

  /// A string that needs no escape is copied as it is, whatever its length (the writer takes
  /// a short string, and a long one's last bytes, as one word): nothing more, nothing less.
  @Test func aCleanStringOfEveryLengthIsCopiedExactly() {
    let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789 -_/:.~")
    for length in 0..<40 {
      for text in [
        String((0..<length).map { letters[$0 % letters.count] }),
        String(repeating: "é", count: length / 2) + (length % 2 == 1 ? "x" : ""),
      ] {
        var w = JSONWriter()
        w.beginArray()
        w.element()
        w.string(text)
        w.element()
        w.string("z")
        w.endArray()
        #expect(String(decoding: w.bytes, as: UTF8.self) == "[\"\(text)\",\"z\"]", "\(length)")
      }
    }
  }

  @Test func aFlagObjectIsWhatItsMembersWrittenOneByOneAre() {
    for value in [true, false] {
      for name: StaticString in ["released", "x", "clickRecorded"] {
        var one = JSONWriter()
        one.beginArray()
        one.element()
        one.flagObject(name, value)
        one.element()
        one.int(1)
        one.endArray()
        var apart = JSONWriter()
        apart.beginArray()
        apart.element()
        apart.beginObject()
        apart.key(name)
        apart.bool(value)
        apart.endObject()
        apart.element()
        apart.int(1)
        apart.endArray()
        #expect(Array(one.bytes) == Array(apart.bytes), "\(name) \(value)")
      }
    }
  }

  @Test func escapedStringsParseBackToTheSameText() throws {
    var all = ""
    for scalar in 0..<0x80 { all.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
    all += "é€😀"
    let text = written { $0.string(all) }
    #expect(try parse(text) == .string(all))
  }

  @Test func anOptionalStringWritesNullWhenAbsent() {
    #expect(written { $0.string(nil as String?) } == "null")
    #expect(written { $0.string("x" as String?) } == #""x""#)
  }

  // MARK: Numbers

  @Test(arguments: [
    (4.5, "4.5"),
    (30.0, "30"),
    (1200.0 / 627.0, "1.9138755980861244"),
    (1280.0 / 720.0, "1.7777777777777777"),
    (0.1, "0.1"),
    (-2.0, "-2"),
    (-0.0, "0"),
    (0.0, "0"),
    (2.5, "2.5"),
  ])
  func formatsDoublesAsTheShortestRoundTrippingText(value: Double, expected: String) {
    #expect(JSONWriter.format(value) == expected)
    #expect(written { $0.double(value) } == expected)
  }

  @Test func largeAndTinyDoublesAreStillValidJSONNumbers() throws {
    for value in [
      1e15, -1e15, 1e300, 1.5e-300, 123_456_789_012_345_678.0, Double.leastNonzeroMagnitude,
    ] {
      let text = written { $0.double(value) }
      let parsed = try parse(text)
      guard case .number(let token) = parsed else {
        Issue.record("\(text) is not a number")
        continue
      }
      #expect(Double(token) == value)
    }
  }

  @Test func nonFiniteDoublesBecomeNull() {
    #expect(written { $0.double(.infinity) } == "null")
    #expect(written { $0.double(-.infinity) } == "null")
    #expect(written { $0.double(.nan) } == "null")
    #expect(JSONValue.double(.nan) == .null)
  }

  @Test(arguments: [
    (0.0, "0"), (5.0, "5"), (0.2, "0.2"), (6.341934204101562e-05, "0.000063"),
    (0.0000004, "0"), (0.0000005, "0.000001"), (1.2345678, "1.234568"), (12.000001, "12.000001"),
    (999_999.9999996, "1000000"), (1e11, "100000000000"),
  ])
  func writesMicrounitsAsDecimalsOfAtMostSixDigits(value: Double, expected: String) {
    #expect(written { $0.microunits(value) } == expected)
  }

  @Test func microunitsOutOfTheirRangeAreWrittenAsDoubles() {
    for value in [-0.5, 1e12, 3e300, Double.infinity, Double.nan] {
      #expect(written { $0.microunits(value) } == written { $0.double(value) })
    }
  }

  @Test(arguments: [0, 7, 9, 10, -1, -10, 1_234_567, Int.max, Int.min])
  func writesIntegersInDecimal(value: Int) {
    #expect(written { $0.int(value) } == String(value))
  }

  // MARK: Structure and commas

  @Test func placesCommasBetweenMembersAndElements() {
    let text = written { w in
      w.beginObject()
      w.key("a")
      w.int(1)
      w.key("b")
      w.beginArray()
      w.element()
      w.bool(true)
      w.element()
      w.null()
      w.element()
      w.beginObject()
      w.endObject()
      w.element()
      w.beginArray()
      w.endArray()
      w.endArray()
      w.key("c")
      w.string("x")
      w.endObject()
    }
    #expect(text == #"{"a":1,"b":[true,null,{},[]],"c":"x"}"#)
  }

  @Test func needsCommaStartsFalseAndFollowsEachValue() {
    var w = JSONWriter()
    #expect(!w.needsComma)
    w.beginObject()
    #expect(!w.needsComma)
    w.key("a")
    #expect(!w.needsComma)
    w.int(1)
    #expect(w.needsComma)
    w.endObject()
    #expect(w.needsComma)
    w.element()
    #expect(!w.needsComma)
  }

  @Test func aFragmentWrittenWithNeedsCommaSplicesAfterOtherMembers() {
    var fragment = JSONWriter()
    fragment.needsComma = true
    fragment.key("b")
    fragment.int(2)
    fragment.key("c")
    fragment.null()
    var w = JSONWriter()
    w.beginObject()
    w.key("a")
    w.int(1)
    w.raw(fragment.bytes)
    w.key("d")
    w.bool(false)
    w.endObject()
    #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"a":1,"b":2,"c":null,"d":false}"#)
  }

  @Test func runtimeKeysAreEscaped() {
    let text = written { w in
      w.beginObject()
      w.key(escaping: "plain" as String)
      w.int(1)
      w.key(escaping: "q\"uo\\te\n" as String)
      w.int(2)
      w.endObject()
    }
    #expect(text == #"{"plain":1,"q\"uo\\te\n":2}"#)
  }

  @Test func initIntoAppendsToExistingBytes() {
    var w = JSONWriter(into: ByteBuffer(Array("prefix:".utf8)))
    w.string("x")
    #expect(String(decoding: w.bytes, as: UTF8.self) == #"prefix:"x""#)
  }

  // MARK: JSONValue

  @Test func writesEveryJSONValueCase() {
    let value = JSONValue.object([
      ("n", .null), ("b", .bool(true)), ("i", .int(-3)), ("d", .double(2.5)),
      ("big", .number("18446744073709551617")), ("s", .string("é\"")),
      ("a", .array([.int(1), .array([]), .object([])])), ("r", .raw(Array(#"{"x":[1]}"#.utf8))),
    ])
    #expect(
      value.jsonText
        == #"{"n":null,"b":true,"i":-3,"d":2.5,"big":18446744073709551617,"s":"é\"","a":[1,[],{}],"r":{"x":[1]}}"#
    )
  }

  @Test func jsonTextParsesBackToAnEqualValue() throws {
    let value = JSONValue.object([
      ("id", .number("-0")), ("list", .array([.string("a\u{1}"), .bool(false), .null])),
      ("nested", .object([("k", .number("1.50"))])),
    ])
    #expect(try parse(value.jsonText) == value)
  }

  @Test func jsonValueSubscriptReturnsTheLastOfRepeatedKeys() {
    let value = JSONValue.object([("a", .int(1)), ("a", .int(2))])
    #expect(value["a"] == .int(2))
    #expect(value["b"] == nil)
    #expect(JSONValue.array([])["a"] == nil)
  }

  @Test func jsonValueEqualityIsStructuralAndOrdered() {
    #expect(JSONValue.number("1") != .number("1.0"))
    #expect(
      JSONValue.object([("a", .null), ("b", .null)]) != .object([("b", .null), ("a", .null)]))
    #expect(JSONValue.array([.null]) != .array([.null, .null]))
    #expect(JSONValue.raw([0x31]) == .raw([0x31]))
    #expect(JSONValue.string("1") != .number("1"))
  }

  // MARK: Framing

  @Test func ndjsonFramingAppendsANewline() {
    var out = ByteBuffer()
    Framing.ndjson.frame(ByteBuffer(Array("{}".utf8)), into: &out)
    Framing.ndjson.frame(ByteBuffer(Array("[]".utf8)), into: &out)
    #expect(String(decoding: out, as: UTF8.self) == "{}\n[]\n")
  }

  @Test func contentLengthFramingCountsBytesNotCharacters() {
    var out = ByteBuffer()
    Framing.contentLength.frame(ByteBuffer(Array(#""é€😀""#.utf8)), into: &out)
    #expect(String(decoding: out, as: UTF8.self) == "Content-Length: 11\r\n\r\n\"é€😀\"")
  }
}

/// The word-at-a-time test of the writer never misses a byte that needs an escape.
@Suite struct EscapeScanTests {
  @Test func everyByteThatNeedsAnEscapeIsSeenAtEveryPosition() {
    let needs: [UInt8] = Array(0..<0x20) + [0x22, 0x5C]
    for position in 0..<8 {
      for filler: UInt8 in [0x61, 0x20, 0x7F, 0xC3, 0xFF] {
        for special in needs {
          var bytes = [UInt8](repeating: filler, count: 8)
          bytes[position] = special
          let w = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
          #expect(JSONWriter.mayNeedEscape(w), "\(special) at \(position) among \(filler)")
        }
      }
    }
    // Printable ASCII other than '"' and '\' passes.
    for b: UInt8 in 0x20...0x7F where b != 0x22 && b != 0x5C {
      let w = [UInt8](repeating: b, count: 8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
      #expect(!JSONWriter.mayNeedEscape(w), "\(b)")
    }
  }
}
