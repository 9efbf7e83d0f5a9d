import JSONRPC
import Testing

@Suite struct JSONRefTests {
  // MARK: Kinds and raw bytes

  @Test func reportsTheKindOfEveryValue() throws {
    try withRoot(#"[null,true,1,"s",[],{}]"#) { root in
      #expect(root.kind == .array)
      #expect(root.elements.map(\.kind) == [.null, .bool, .number, .string, .array, .object])
      #expect(root.elements[0].isNull)
      #expect(!root.elements[1].isNull)
    }
  }

  @Test func rawBytesAreTheTokenExactlyAsWrittenWithQuotesForStrings() throws {
    try withRoot(#"{"a":"x\"\u00e9y","b":1.50,"c":-0,"d":[1, 2],"e":null}"#) { root in
      func raw(_ ref: JSONRef?) -> String { String(decoding: ref!.rawBytes, as: UTF8.self) }
      #expect(raw(root["a"]) == #""x\"\u00e9y""#)
      #expect(raw(root["b"]) == "1.50")
      #expect(raw(root["c"]) == "-0")
      #expect(raw(root["d"]) == "[1, 2]")
      #expect(raw(root["e"]) == "null")
    }
  }

  // MARK: Objects

  @Test func subscriptFindsMembersAndIsNilOtherwise() throws {
    try withRoot(#"{"id":7,"method":"m","params":{"x":[1]}}"#) { root in
      #expect(root["id"]?.intValue == 7)
      #expect(root["method"]?.stringValue == "m")
      #expect(root["params"]?["x"]?.count == 1)
      #expect(root["missing"] == nil)
      #expect(root["params"]?["missing"] == nil)
      #expect(root["id"]?["id"] == nil)
    }
    try withRoot("[1]") { root in #expect(root["id"] == nil) }
  }

  @Test func subscriptMatchesKeysWrittenWithEscapes() throws {
    try withRoot(#"{"\u0069d":1,"me\u0074hod":"m","a\"b":2}"#) { root in
      #expect(root["id"]?.intValue == 1)
      #expect(root["method"]?.stringValue == "m")
      #expect(root["a\"b"]?.intValue == 2)
    }
  }

  @Test func theLastOfRepeatedKeysWins() throws {
    try withRoot(#"{"a":1,"b":2,"a":3}"#) { root in
      #expect(root["a"]?.intValue == 3)
      #expect(root.count == 3)
    }
  }

  @Test
  func memberAgreesWithTheSubscriptOnRepeatedKeys() throws {
    try withRoot(#"{"a":1,"b":2,"a":3}"#) { root in
      #expect(root.member("a")?.intValue == root["a"]?.intValue)
    }
  }

  @Test func memberLooksUpRuntimeNames() throws {
    try withRoot(#"{"plain":1,"\u00e9t\u00e9":2}"#) { root in
      let key = "plain"
      #expect(root.member(key)?.intValue == 1)
      #expect(root.member("été")?.intValue == 2)
      #expect(root.member("absent") == nil)
    }
    try withRoot("[]") { root in #expect(root.member("a") == nil) }
  }

  @Test func membersAreInDocumentOrderWithDecodedKeys() throws {
    try withRoot(#"{"z":1,"a\nb":[2,3],"m":{"x":{}}}"#) { root in
      let members = root.members
      #expect(members.map(\.key) == ["z", "a\nb", "m"])
      #expect(members[0].value.intValue == 1)
      #expect(members[1].value.count == 2)
      #expect(members[2].value["x"]?.kind == .object)
      #expect(root.count == 3)
    }
    try withRoot("[1]") { root in #expect(root.members.isEmpty) }
  }

  // MARK: Arrays

  @Test func elementsSkipOverNestedContainers() throws {
    try withRoot(#"[[1,[2]],{"a":[3]},4,"five"]"#) { root in
      let elements = root.elements
      #expect(root.count == 4)
      #expect(elements.count == 4)
      #expect(elements[0].elements[1].elements[0].intValue == 2)
      #expect(elements[1]["a"]?.elements.first?.intValue == 3)
      #expect(elements[2].intValue == 4)
      #expect(elements[3].stringValue == "five")
    }
    try withRoot(#"{"a":1}"#) { root in #expect(root.elements.isEmpty) }
    try withRoot("1") { root in #expect(root.count == 0) }
  }

  // MARK: Strings

  @Test func stringValueDecodesEveryEscape() throws {
    let text = #""q\" b\\ s\/ \b\f\n\r\t u\u0041\u00e9\u20AC \u0000""#
    try withRoot(text) { root in
      #expect(root.stringValue == "q\" b\\ s/ \u{08}\u{0C}\n\r\t uAé€ \u{0}")
    }
  }

  @Test func stringValueDecodesSurrogatePairs() throws {
    try withRoot(#""\ud83d\ude00 \uD834\uDD1E \udbff\udfff""#) { root in
      #expect(root.stringValue == "😀 𝄞 \u{10FFFF}")
    }
  }

  @Test func stringValueKeepsRawUTF8() throws {
    try withRoot(#""héllo € 😀""#) { root in
      #expect(root.stringValue == "héllo € 😀")
    }
  }

  @Test func stringValueIsNilForOtherKinds() throws {
    try withRoot(#"[1,null,true,[],{}]"#) { root in
      #expect(root.elements.allSatisfy { $0.stringValue == nil })
    }
  }

  @Test func stringEqualsComparesDecodedText() throws {
    try withRoot(#"["2.0","2\u002e0","2.00",2.0,null]"#) { root in
      let e = root.elements
      #expect(e[0].stringEquals("2.0"))
      #expect(e[1].stringEquals("2.0"))
      #expect(!e[2].stringEquals("2.0"))
      #expect(!e[3].stringEquals("2.0"))
      #expect(!e[4].stringEquals("2.0"))
    }
  }

  // MARK: Numbers

  @Test(arguments: [
    ("0", 0 as Int?),
    ("-0", 0),
    ("42", 42),
    ("-42", -42),
    ("9223372036854775807", Int.max),
    ("-9223372036854775808", Int.min),
    ("9223372036854775808", nil),
    ("-9223372036854775809", nil),
    ("18446744073709551617", nil),
    ("99999999999999999999999", nil),
    ("1.0", 1),
    ("-3.0", -3),
    ("-0.0", 0),
    ("1e2", 100),
    ("1E2", 100),
    ("1.5e1", 15),
    ("2e-0", 2),
    ("1.5", nil),
    ("1e-2", nil),
    ("1e300", nil),
    ("1e400", nil),
    (#""1""#, nil),
    ("true", nil),
    ("null", nil),
    ("[1]", nil),
  ])
  func intValueAcceptsOnlyIntegralNumbersThatFit(text: String, expected: Int?) throws {
    try withRoot(text) { root in #expect(root.intValue == expected) }
  }

  @Test func doubleValueReadsEveryNumberForm() throws {
    try withRoot("[1.5,-0,1e2,-2.5E-1,7,18446744073709551617]") { root in
      let values = root.elements.map(\.doubleValue)
      #expect(values[0] == 1.5)
      #expect(values[1] == 0 && values[1]?.sign == .minus)
      #expect(values[2] == 100)
      #expect(values[3] == -0.25)
      #expect(values[4] == 7)
      #expect(values[5] == 18_446_744_073_709_551_617.0)
    }
    try withRoot(#""1""#) { root in #expect(root.doubleValue == nil) }
  }

  @Test func numberTextIsTheTokenAsWritten() throws {
    try withRoot("[18446744073709551617,1.50,-0,1E+2]") { root in
      #expect(root.elements.map(\.numberText) == ["18446744073709551617", "1.50", "-0", "1E+2"])
    }
    try withRoot("true") { root in #expect(root.numberText == nil) }
  }

  @Test func boolValueIsOnlyForBooleans() throws {
    try withRoot("[true,false,1,null]") { root in
      #expect(root.elements.map(\.boolValue) == [true, false, nil, nil])
    }
  }

  // MARK: Materialize

  @Test func materializeCopiesTheWholeValue() throws {
    let value = try withRoot(#"{"a":[1,"\u00e9",null],"b":{"c":false}}"#) { $0.materialize() }
    #expect(
      value
        == .object([
          ("a", .array([.number("1"), .string("é"), .null])),
          ("b", .object([("c", .bool(false))])),
        ]))
  }
}
