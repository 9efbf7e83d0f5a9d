import JSONRPC
import Testing

/// Inputs the JSON parser fuzzer (Fuzz/JSONParser, `make fuzz`) found, kept as tests. Each is
/// also in its corpus (`Fuzz/corpus/json-parser/regression-*`).
@Suite struct JSONRefFuzzRegressionTests {
  /// `Fuzz/corpus/json-parser/regression-kelvin-sign`: `"\u212Aind"` (KELVIN SIGN, then
  /// `ind`) compared equal to `"Kind"`, because an escaped string was compared as a Swift
  /// `String` (canonical equivalence: U+212A decomposes to U+004B), while the same string
  /// written without the escape compared byte for byte and did not. Now both compare scalars.
  @Test func aStringEqualsALiteralOnlyWhenItHasTheSameScalarsEscapedOrNot() throws {
    let parser = JSONParser()
    let cases: [(text: String, equal: Bool)] = [
      (#""\u212Aind""#, false), ("\"\u{212A}ind\"", false), (#""\u004Bind""#, true),
      (#""Kind""#, true), (#""e\u0301""#, false),
    ]
    for (text, equal) in cases {
      var text = text
      let result = try text.withUTF8 { raw in
        try parser.parse(UnsafeRawBufferPointer(raw)) { root in
          (root.stringEquals("Kind"), root.stringEquals("é"))
        }
      }
      #expect(result.0 == equal, "\(text)")
      #expect(result.1 == false, "\(text) is not the precomposed é")
    }
  }

  /// The same rule for object keys: by name (`subscript`) and by runtime string (`member`).
  @Test func aKeyMatchesOnlyWhenItHasTheSameScalarsEscapedOrNot() throws {
    let parser = JSONParser()
    // Each key that a canonical-equivalence comparison would confuse comes after the one
    // asked for, so that "the last occurrence wins" would pick it.
    var text = #"{"Kind":1,"\u212Aind":2,"e\u0301":3,"\u00e9":4}"#
    let found = try text.withUTF8 { raw in
      try parser.parse(UnsafeRawBufferPointer(raw)) { root in
        [root["Kind"], root.member("Kind"), root["é"], root.member("e\u{301}")].map {
          $0?.intValue
        }
      }
    }
    #expect(found == [1, 1, 4, 3])
  }
}
