import JSONRPC
import Testing

@Suite struct JSONParserTests {
  // MARK: Valid documents

  @Test(arguments: [
    ("null", JSONValue.null),
    ("true", .bool(true)),
    ("false", .bool(false)),
    ("0", .number("0")),
    ("-12.5e+3", .number("-12.5e+3")),
    (#""""#, .string("")),
    (#""abc""#, .string("abc")),
    ("[]", .array([])),
    ("{}", .object([])),
    (" \t\r\n 42 \n\t", .number("42")),
  ])
  func parsesEveryKindOfTopLevelValue(text: String, expected: JSONValue) throws {
    #expect(try parse(text) == expected)
  }

  @Test func parsesNestedContainersInDocumentOrder() throws {
    let text = #"{"s":"x","n":-1.5,"t":true,"f":false,"z":null,"a":[1,[],{}],"o":{"k":"v"}}"#
    let expected = JSONValue.object([
      ("s", .string("x")),
      ("n", .number("-1.5")),
      ("t", .bool(true)),
      ("f", .bool(false)),
      ("z", .null),
      ("a", .array([.number("1"), .array([]), .object([])])),
      ("o", .object([("k", .string("v"))])),
    ])
    #expect(try parse(text) == expected)
  }

  @Test func acceptsWhitespaceEverywhereTheGrammarAllows() throws {
    let text = " { \"a\" : [ 1 , 2 ] , \"b\" :\n{ }\t} "
    let expected = JSONValue.object([
      ("a", .array([.number("1"), .number("2")])), ("b", .object([])),
    ])
    #expect(try parse(text) == expected)
  }

  @Test(arguments: [
    "18446744073709551617", "-18446744073709551617", "1.50", "-0", "1E+2", "1e-7", "0.0",
    "123456789012345678901234567890.123456789e-300", "1e400",
  ])
  func keepsNumbersExactlyAsWritten(text: String) throws {
    #expect(try parse(text) == .number(text))
    #expect(try parse("[\(text)]") == .array([.number(text)]))
  }

  @Test func acceptsEveryValidUTF8SequenceLength() throws {
    let samples: [[UInt8]] = [
      [0x7F],  // DEL needs no escape
      [0xC2, 0x80],  // U+0080
      [0xC3, 0xA9],  // é
      [0xDF, 0xBF],  // U+07FF
      [0xE0, 0xA0, 0x80],  // U+0800
      [0xE2, 0x82, 0xAC],  // €
      [0xED, 0x9F, 0xBF],  // U+D7FF, just below the surrogates
      [0xEE, 0x80, 0x80],  // U+E000, just above them
      [0xEF, 0xBF, 0xBF],  // U+FFFF
      [0xF0, 0x90, 0x80, 0x80],  // U+10000
      [0xF0, 0x9F, 0x98, 0x80],  // 😀
      [0xF4, 0x8F, 0xBF, 0xBF],  // U+10FFFF
    ]
    for sample in samples {
      let value = try parse([0x22] + sample + [0x22])
      #expect(value == .string(String(decoding: sample, as: UTF8.self)))
    }
  }

  @Test func oneParserCanBeReusedAfterAnError() throws {
    let parser = JSONParser()
    let bad = Array("[1,".utf8)
    let good = Array(#"{"a":[1,2]}"#.utf8)
    #expect(throws: JSONParseError.self) { try bad.withUnsafeBytes { try parser.parseValue($0) } }
    let value = try good.withUnsafeBytes { try parser.parseValue($0) }
    #expect(value == .object([("a", .array([.number("1"), .number("2")]))]))
    #expect(try parser.parseValue("true") == .bool(true))
  }

  // MARK: Grammar errors

  @Test(arguments: [
    "", "   ", "[1,]", #"{"a":1,}"#, "[,1]", "{,}", "[1 2]", #"{"a" 1}"#, #"{"a":}"#, "{1:2}",
    "{'a':1}", "'a'", "[1", "{", #"{"a""#, #"{"a":"#, "]", "}", "[}", "{]",
    "tru", "nul", "fals", "True", "NULL", "nullx", "truefalse",
    "1 2", "{} {}", "[]]", "[] x", "\"a\" \"b\"",
    "// comment\n1", "/* c */ 1", "NaN", "Infinity", "-Infinity",
  ])
  func rejectsMalformedGrammar(text: String) {
    #expect(parseError(text) != nil)
  }

  @Test(arguments: [
    "01", "-01", "00", "0123", "1.", ".5", "-", "-.5", "+1", "1e", "1e+", "1E-", "1.e5", "0x10",
    "1_000", "--1",
  ])
  func rejectsMalformedNumbers(text: String) {
    #expect(parseError(text) != nil)
    #expect(parseError("[\(text)]") != nil)
  }

  @Test func rejectsLeadingZerosWithAClearReason() {
    #expect(parseError("[01]") == JSONParseError("invalid number: leading zero", at: 1))
  }

  @Test func rejectsTrailingCommasAtTheOffendingByte() {
    #expect(parseError("[1,]") == JSONParseError("unexpected character ']'", at: 3))
    #expect(parseError(#"{"a":1,}"#) == JSONParseError("expected a string key in object", at: 7))
  }

  @Test func rejectsTrailingDataAfterTheValue() {
    #expect(parseError("1 2") == JSONParseError("unexpected data after the JSON value", at: 2))
    #expect(parseError("{}x") == JSONParseError("unexpected data after the JSON value", at: 2))
  }

  // MARK: String errors

  @Test(arguments: [
    #""\x""#, #""\a""#, #""\'""#, #""\0""#, #""\U0041""#, #""\u12G4""#, #""\u123""#, #""\u""#,
    #""\"#, #""abc"#, #""\u00"#,
  ])
  func rejectsBadEscapesAndUnterminatedStrings(text: String) {
    #expect(parseError(text) != nil)
  }

  @Test func rejectsEveryUnescapedControlCharacterInStrings() {
    for c in UInt8(0)..<0x20 {
      #expect(parseError([0x22, 0x61, c, 0x62, 0x22]) != nil, "byte \(c)")
    }
    #expect(
      parseError("\"a\tb\"")
        == JSONParseError("control character in string must be escaped", at: 2))
  }

  @Test(arguments: [
    #""\ud800""#, #""\uDBFF""#, #""\udc00""#, #""\uDFFF""#, #""\ud800x""#, #""\ud800\u0041""#,
    #""\ud800\ud800""#, #""\ud800\n""#, #""\udc00\ud800""#, #""a\ud83d""#,
  ])
  func rejectsLoneSurrogateEscapes(text: String) {
    let error = parseError(text)
    #expect(error != nil)
    #expect(error?.reason.hasPrefix("lone surrogate") == true)
  }

  @Test(arguments: [
    Bytes("overlong 2-byte NUL", [0xC0, 0x80]),
    Bytes("overlong 2-byte C1", [0xC1, 0xBF]),
    Bytes("overlong 3-byte slash", [0xE0, 0x80, 0xAF]),
    Bytes("overlong 3-byte U+07FF", [0xE0, 0x9F, 0xBF]),
    Bytes("overlong 4-byte slash", [0xF0, 0x80, 0x80, 0xAF]),
    Bytes("overlong 4-byte U+FFFF", [0xF0, 0x8F, 0xBF, 0xBF]),
    Bytes("encoded surrogate D800", [0xED, 0xA0, 0x80]),
    Bytes("encoded surrogate DFFF", [0xED, 0xBF, 0xBF]),
    Bytes("encoded surrogate pair", [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]),
    Bytes("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
    Bytes("F5 lead byte", [0xF5, 0x80, 0x80, 0x80]),
    Bytes("F8 lead byte", [0xF8, 0x88, 0x80, 0x80, 0x80]),
    Bytes("FE", [0xFE]),
    Bytes("FF", [0xFF]),
    Bytes("lone continuation byte", [0x80]),
    Bytes("continuation bytes only", [0xBF, 0xBF]),
    Bytes("truncated 2-byte", [0xC3]),
    Bytes("truncated 3-byte", [0xE2, 0x82]),
    Bytes("truncated 4-byte", [0xF0, 0x9F, 0x98]),
    Bytes("bad second byte", [0xC3, 0x28]),
    Bytes("bad third byte", [0xE2, 0x82, 0x28]),
    Bytes("bad fourth byte", [0xF0, 0x9F, 0x98, 0x28]),
  ])
  func rejectsInvalidUTF8InStrings(sample: Bytes) {
    #expect(parseError([0x22] + sample.bytes + [0x22]) != nil)
    #expect(parseError(Array(#"{"k":"a"#.utf8) + sample.bytes + Array(#"b"}"#.utf8)) != nil)
  }

  @Test func rejectsInputTruncatedInsideAMultiByteSequence() {
    #expect(parseError([0x22, 0xE2, 0x82]) != nil)
    #expect(parseError([0x22, 0xF0, 0x9F]) != nil)
    #expect(parseError([0x22, 0xC3]) != nil)
  }

  @Test func rejectsNonASCIIBytesOutsideStrings() {
    #expect(parseError([0xC3, 0xA9]) != nil)
    #expect(parseError([0x5B, 0xFF, 0x5D]) != nil)
    #expect(parseError([0xEF, 0xBB, 0xBF, 0x31]) != nil)  // a byte order mark is not JSON
  }

  // MARK: Depth

  @Test func acceptsNestingUpToMaxDepthAndRejectsOneLevelMore() {
    #expect(parseError(nestedArrays(4), maxDepth: 4) == nil)
    #expect(
      parseError(nestedArrays(5), maxDepth: 4)
        == JSONParseError("nesting deeper than 4 levels", at: 4))
    #expect(parseError(#"{"a":{"a":{"a":{"a":1}}}}"#, maxDepth: 4) == nil)
    #expect(parseError(#"{"a":{"a":{"a":{"a":{}}}}}"#, maxDepth: 4) != nil)
    #expect(parseError(#"[{"a":[{"a":1}]}]"#, maxDepth: 4) == nil)
    #expect(parseError(#"[{"a":[{"a":[]}]}]"#, maxDepth: 4) != nil)
  }

  @Test func theDefaultMaximumDepthIs128() {
    #expect(JSONParser().maxDepth == 128)
    #expect(parseError(nestedArrays(128)) == nil)
    #expect(parseError(nestedArrays(129))?.reason == "nesting deeper than 128 levels")
  }

  @Test func scalarsDoNotCountAsNesting() {
    #expect(parseError("1", maxDepth: 0) == nil)
    #expect(parseError("[]", maxDepth: 0) != nil)
  }

  @Test func hundredThousandLevelsOfNestingParseWithoutCrashingWhenAllowed() throws {
    let depth = 100_000
    let bytes = Array(nestedArrays(depth).utf8)
    let parser = JSONParser(maxDepth: depth)
    let reached = try bytes.withUnsafeBytes { raw in
      try parser.parse(raw) { root -> Int in
        var ref = root
        var levels = 0
        while ref.kind == .array, let first = ref.elements.first {
          levels += 1
          ref = first
        }
        #expect(ref.intValue == 7)
        return levels
      }
    }
    #expect(reached == depth)
  }

  @Test func hundredThousandLevelsOfNestingAreRejectedCleanlyByDefault() {
    let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(parseError(text)?.reason == "nesting deeper than 128 levels")
    let objects = String(repeating: #"{"a":"#, count: 100_000)
    #expect(parseError(objects)?.reason == "nesting deeper than 128 levels")
  }

  // MARK: Errors

  @Test func parseErrorsDescribeThemselvesWithTheirOffset() {
    let error = JSONParseError("unexpected end of input", at: 3)
    #expect(error.description == "unexpected end of input at byte 3")
    #expect(parseError("[1,") == error)
  }
}

/// `depth` nested arrays around the number 7.
private func nestedArrays(_ depth: Int) -> String {
  String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth)
}
