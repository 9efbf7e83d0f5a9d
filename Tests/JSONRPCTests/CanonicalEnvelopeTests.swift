import Testing

@testable import JSONRPC

/// The dispatcher's fast layer (``CanonicalEnvelope``) recognises one spelling of a request and
/// declines every other; whatever it recognises is answered exactly as the general path
/// answers it.
@Suite struct CanonicalEnvelopeTests {
  private static func recognised(_ text: String) -> (id: String, method: String, params: String?)? {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBytes { raw in
      guard let e = CanonicalEnvelope(UnsafeRawBufferPointer(raw)) else { return nil }
      return (
        String(decoding: e.id.raw, as: UTF8.self), String(decoding: e.method, as: UTF8.self),
        e.params.map { String(decoding: $0, as: UTF8.self) }
      )
    }
  }

  @Test func theCommonSpellingIsRecognisedWithItsParts() throws {
    let e = try #require(
      Self.recognised(
        #"{"jsonrpc":"2.0","id":12,"method":"stringForKey","params":{"adId":"a","key":"b"}}"#))
    #expect(e.id == "12")
    #expect(e.method == "stringForKey")
    #expect(e.params == #"{"adId":"a","key":"b"}"#)
  }

  @Test func stringIdsNegativeIdsNoParamsAndTrailingWhitespaceAreRecognised() throws {
    #expect(
      Self.recognised(#"{"jsonrpc":"2.0","id":"req-1","method":"echo","params":{}}"#)?.id
        == #""req-1""#)
    #expect(Self.recognised(#"{"jsonrpc":"2.0","id":-7,"method":"echo","params":{}}"#)?.id == "-7")
    #expect(Self.recognised(#"{"jsonrpc":"2.0","id":0,"method":"echo","params":{}}"#)?.id == "0")
    let bare = try #require(Self.recognised(#"{"jsonrpc":"2.0","id":3,"method":"echo"}"# + "\r\n "))
    #expect(bare.params == nil)
    // Whitespace after the params object stays with them (the parser skips it).
    #expect(
      Self.recognised(#"{"jsonrpc":"2.0","id":3,"method":"m","params":{ } }"#)?.params == "{ } ")
  }

  @Test(arguments: [
    #"{"id":1,"jsonrpc":"2.0","method":"echo","params":{}}"#,  // another order
    #"{ "jsonrpc":"2.0","id":1,"method":"echo","params":{}}"#,  // whitespace in the envelope
    #"{"jsonrpc":"2.0","id":1, "method":"echo","params":{}}"#,
    #"{"jsonrpc":"2.0","id":01,"method":"echo","params":{}}"#,  // not JSON
    #"{"jsonrpc":"2.0","id":1.5,"method":"echo","params":{}}"#,  // a number that is not an integer
    #"{"jsonrpc":"2.0","id":1e3,"method":"echo","params":{}}"#,
    #"{"jsonrpc":"2.0","id":null,"method":"echo","params":{}}"#,
    #"{"jsonrpc":"2.0","id":"a\"b","method":"echo","params":{}}"#,  // escapes
    #"{"jsonrpc":"2.0","id":1,"method":"ec\u0068o","params":{}}"#,
    #"{"jsonrpc":"2.0","id":1,"method":"größe","params":{}}"#,  // not ASCII
    #"{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}"#,  // by position
    #"{"jsonrpc":"2.0","id":1,"method":"echo","params":3}"#,
    #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{}} x"#,  // trailing data
    #"{"jsonrpc":"2.0","id":1,"method":"echo"} }"#,
    #"{"jsonrpc":"2.0","method":"echo","params":{}}"#,  // a notification
    #"{"jsonrpc":"1.0","id":1,"method":"echo","params":{}}"#,
    #"{"jsonrpc":"2.0","id":"#,
  ])
  func everyOtherSpellingIsDeclined(text: String) {
    #expect(Self.recognised(text) == nil)
  }

  /// What follows `"params":` is only known to be an object once the parser has read it: a
  /// member after it, or an object cut short, makes the params parse fail, and the general
  /// path reads the whole message and words the error.
  @Test func paramsThatDoNotParseAloneFallToTheGeneralPath() {
    let server = TestServer()
    let repeated = #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1},"id":2}"#
    #expect(Self.recognised(repeated)?.params == #"{"a":1},"id":2"#)
    #expect(server.reply(repeated) == #"{"jsonrpc":"2.0","id":2,"result":{"a":1}}"#)
    let cut = #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{}"#
    #expect(Self.recognised(cut) != nil)
    #expect(server.reply(cut).contains(#""code":-32700"#))
  }

  // MARK: Same answers

  private static let ids = [
    "1", "0", "-0", "-12", "18446744073709551617", "01", "1.5", "-", "\"x\"", "\"\"",
    #""a\"b""#, "\"é\"", "null", "true", "[1]", "{}",
  ]
  private static let methods = [
    "echo", "count", "greet", "fail", "text", "nope", "", "ec\\u0068o", "Echo", "echo ",
  ]
  private static let params: [String?] = [
    nil, "{}", #"{"a":[1,"x"]}"#, #"{"name":"Ann","options":{"times":2}}"#, #"{"name":3}"#,
    "{ }  ", "[1]", "[]", "3", "null", #"{"a":}"#, #"{"a":1,"a":2}"#, #"{"s":"\u00e9\n"}"#,
    String(repeating: "[", count: 126) + String(repeating: "]", count: 126),
    "{" + String(repeating: #""a":["#, count: 126) + String(repeating: "]", count: 126) + "}",
    "{" + String(repeating: #""a":["#, count: 127) + String(repeating: "]", count: 127) + "}",
    #"{"a":"x"}, "b":2"#, #"{"a":1} "#, #"{"a":"\ud800"}"#,
  ]
  private static let tails = ["}", "} ", "}\r", "},", "}}", " }", ""]

  /// Every message of the corpus: canonical spellings and near misses.
  private static var corpus: [String] {
    var out: [String] = []
    for id in ids {
      for method in methods {
        for p in params {
          for tail in tails where p == nil || tail == "}" || method == "echo" {
            var text = #"{"jsonrpc":"2.0","id":"# + id + #","method":""# + method + "\""
            if let p { text += #","params":"# + p }
            out.append(text + tail)
          }
        }
      }
    }
    return out
  }

  @Test func everyMessageGetsTheSameAnswerWithOrWithoutTheFastLayer() {
    let fast = TestServer()
    let general = TestServer()
    general.dispatcher.readsCanonicalEnvelopes = false
    var recognised = 0
    for text in Self.corpus {
      if Self.recognised(text) != nil { recognised += 1 }
      let a = fast.reply(text)
      let b = general.reply(text)
      #expect(a == b, "\(text)")
    }
    // The corpus exercises the layer, not only the declines.
    #expect(recognised > 100)
    #expect(fast.countCalls == general.countCalls)
  }

  @Test func aHandlerThatDefersAnswersTheSameWay() {
    for fastLayer in [true, false] {
      let server = TestServer()
      server.dispatcher.readsCanonicalEnvelopes = fastLayer
      var later: DeferredReply?
      server.dispatcher.register("later") { call, _ throws(RPCError) in later = call.deferReply() }
      let session = server.session()
      session.feed(#"{"jsonrpc":"2.0","id":"q","method":"later","params":{}}"# + "\n")
      #expect(session.outputText() == "")
      later?.resolve { $0.int(5) }
      #expect(session.outputText() == #"{"jsonrpc":"2.0","id":"q","result":5}"# + "\n")
    }
  }
}
