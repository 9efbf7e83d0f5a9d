import JSONRPC
import Testing

@Suite struct DispatcherTests {
  private let server = TestServer()

  // MARK: Results

  @Test func aRequestIsAnsweredWithItsResult() {
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":[1,"x"]}}"#)
        == #"{"jsonrpc":"2.0","id":1,"result":{"a":[1,"x"]}}"#)
  }

  @Test func membersMayComeInAnyOrder() {
    #expect(
      server.reply(#"{"params":{"b":true},"method":"echo","id":"z","jsonrpc":"2.0"}"#)
        == #"{"jsonrpc":"2.0","id":"z","result":{"b":true}}"#)
  }

  @Test func aRequestWithoutParamsIsHandled() {
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":2,"method":"echo"}"#)
        == #"{"jsonrpc":"2.0","id":2,"result":null}"#)
  }

  @Test func aNullIdIsARequestAnsweredWithANullId() {
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":null,"method":"echo","params":{}}"#)
        == #"{"jsonrpc":"2.0","id":null,"result":{}}"#)
  }

  @Test func theJsonrpcMemberMayBeWrittenWithEscapes() {
    #expect(
      server.reply(#"{"jsonrpc":"2\u002e0","id":1,"method":"echo"}"#)
        == #"{"jsonrpc":"2.0","id":1,"result":null}"#)
  }

  @Test func envelopeMemberNamesMayBeWrittenWithEscapes() {
    #expect(
      server.reply(
        #"{"\u006asonrpc":"2.0","\u0069d":1,"m\u0065thod":"echo","p\u0061rams":{"a":1}}"#)
        == #"{"jsonrpc":"2.0","id":1,"result":{"a":1}}"#)
  }

  @Test func aMethodNameWrittenWithEscapesFindsItsHandler() {
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":1,"method":"ec\u0068o"}"#)
        == #"{"jsonrpc":"2.0","id":1,"result":null}"#)
  }

  @Test func nonASCIIMethodNamesWork() {
    server.dispatcher.register("größe€") { _, w throws(RPCError) in w.int(3) }
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":1,"method":"größe€"}"#)
        == #"{"jsonrpc":"2.0","id":1,"result":3}"#)
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":2,"method":"gr\u00f6\u00dfe\u20ac"}"#)
        == #"{"jsonrpc":"2.0","id":2,"result":3}"#)
  }

  @Test func registeringAgainReplacesTheHandlerButKeepsTheName() {
    let dispatcher = Dispatcher()
    dispatcher.register("a") { _, w throws(RPCError) in w.int(1) }
    dispatcher.register("b") { _, w throws(RPCError) in w.int(2) }
    dispatcher.register("a") { _, w throws(RPCError) in w.int(3) }
    #expect(dispatcher.methodNames == ["a", "b"])
    let session = RPCSession(id: 1, dispatcher: dispatcher)
    session.feed(#"{"jsonrpc":"2.0","id":1,"method":"a"}"# + "\n")
    #expect(session.outputLines() == [#"{"jsonrpc":"2.0","id":1,"result":3}"#])
  }

  @Test func theDefaultLimitsAreDocumented() {
    let limits = Dispatcher().limits
    #expect(limits.maxMessageBytes == 16 * 1024 * 1024)
    #expect(limits.maxDepth == 128)
    #expect(limits.maxBatch == 1000)
  }

  // MARK: Parse errors

  @Test(arguments: [
    Bytes("truncated object", Array(#"{"jsonrpc":"2.0","id":1"#.utf8)),
    Bytes("trailing comma", Array(#"{"jsonrpc":"2.0","id":1,"method":"echo",}"#.utf8)),
    Bytes("single quotes", Array("{'jsonrpc':'2.0'}".utf8)),
    Bytes(
      "invalid UTF-8",
      Array(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"s":""#.utf8) + [0xC0, 0xAF]
        + Array(#""}}"#.utf8)),
    Bytes(
      "encoded surrogate",
      Array(#"{"jsonrpc":"2.0","id":1,"method":"e"#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)),
    Bytes(
      "lone surrogate escape",
      Array(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"s":"\udc00"}}"#.utf8)),
    Bytes("trailing data", Array(#"{"jsonrpc":"2.0","id":1,"method":"echo"} {}"#.utf8)),
    Bytes("leading zero id", Array(#"{"jsonrpc":"2.0","id":01,"method":"echo"}"#.utf8)),
  ])
  func invalidJSONGetsAParseErrorWithANullId(sample: Bytes) throws {
    let session = server.session()
    session.feed(bytes: sample.bytes + [0x0A])
    let lines = session.outputLines()
    #expect(lines.count == 1)
    let reply = try parse(lines[0])
    #expect(reply["jsonrpc"] == .string("2.0"))
    #expect(reply["id"] == .null)
    #expect(reply["error"]?["code"] == .number("-32700"))
    #expect(reply["error"]?["message"] == .string("Parse error"))
    #expect(reply["error"]?["data"]?["detail"]?.text != nil)
    #expect(reply["result"] == nil)
  }

  @Test func theParseErrorDetailSaysWhatAndWhere() throws {
    let reply = try server.replyValue("[1,]")
    #expect(
      reply["error"]?["data"]
        == .object([("detail", .string("unexpected character ']' at byte 3"))]))
  }

  @Test func nestingDeeperThanTheLimitIsAParseError() throws {
    let server = TestServer(limits: RPCLimits(maxMessageBytes: 1 << 20, maxDepth: 3, maxBatch: 10))
    #expect(
      try server.replyValue(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":[1]}}"#)[
        "result"] == .object([("a", .array([.number("1")]))]))
    let reply = try server.replyValue(
      #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":[[1]]}}"#)
    #expect(reply["error"]?["code"] == .number("-32700"))
    #expect(
      reply["error"]?["data"]?["detail"]?.text?.hasPrefix("nesting deeper than 3 levels") == true)
  }

  @Test func aParseErrorDoesNotStopTheNextMessage() {
    let session = server.session()
    session.feed("{not json}\n" + #"{"jsonrpc":"2.0","id":9,"method":"echo"}"# + "\n")
    let lines = session.outputLines()
    #expect(lines.count == 2)
    #expect(
      lines[0].hasPrefix(
        #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error""#))
    #expect(lines[1] == #"{"jsonrpc":"2.0","id":9,"result":null}"#)
  }

  // MARK: Invalid requests

  @Test(arguments: [
    "1", #""echo""#, "null", "true", "{}", #"{"jsonrpc":"2.0"}"#, #"{"method":"echo"}"#,
    #"{"jsonrpc":"2.0","method":1}"#, #"{"jsonrpc":"2.0","method":null}"#,
    #"{"jsonrpc":"2.0","method":["echo"]}"#, #"{"jsonrpc":2.0,"method":"echo"}"#,
    #"{"jsonrpc":"1.0","method":"echo"}"#,
  ])
  func aMessageThatIsNotARequestGetsInvalidRequestEvenWithoutAnId(text: String) throws {
    let reply = try server.replyValue(text)
    #expect(reply["id"] == .null)
    #expect(reply["error"]?["code"] == .number("-32600"))
    #expect(reply["error"]?["message"] == .string("Invalid Request"))
  }

  @Test(arguments: [
    (#"{"jsonrpc":"1.0","id":5,"method":"echo"}"#, "5"),
    (#"{"jsonrpc":"2.0 ","id":"x","method":"echo"}"#, #""x""#),
    (#"{"jsonrpc":2.0,"id":18446744073709551617,"method":"echo"}"#, "18446744073709551617"),
    (#"{"id":-0,"method":"echo"}"#, "-0"),
    (#"{"jsonrpc":"2.0","id":7}"#, "7"),
    (#"{"jsonrpc":"2.0","id":"m","method":7}"#, #""m""#),
    (#"{"jsonrpc":"2.0","id":null,"method":false}"#, "null"),
  ])
  func anInvalidRequestEchoesALegalId(text: String, id: String) {
    let reply = server.reply(text)
    #expect(
      reply.hasPrefix(
        #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32600,"message":"Invalid Request""#),
      "\(reply)")
  }

  @Test(arguments: [#"{"a":1}"#, "[1]", "[]", "true", "false"])
  func anIdOfAnIllegalTypeGetsInvalidRequestWithANullId(id: String) {
    for text in [
      #"{"jsonrpc":"2.0","id":\#(id),"method":"echo"}"#,
      #"{"jsonrpc":"1.0","id":\#(id)}"#,
    ] {
      let reply = server.reply(text)
      #expect(
        reply.hasPrefix(
          #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request""#),
        "\(reply)")
    }
  }

  @Test(arguments: ["null", #""abc""#, "0", "1.5", "true", "false"])
  func paramsThatAreNotAnObjectOrArrayGetInvalidRequestEchoingTheId(params: String) {
    let reply = server.reply(#"{"jsonrpc":"2.0","id":4,"method":"echo","params":\#(params)}"#)
    #expect(
      reply.hasPrefix(
        #"{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request""#), "\(reply)")
  }

  @Test(arguments: ["[]", #"["ann"]"#, "[1,2]"])
  func paramsByPositionGetInvalidParams(params: String) throws {
    let reply = try server.replyValue(
      #"{"jsonrpc":"2.0","id":4,"method":"greet","params":\#(params)}"#)
    #expect(reply["id"] == .number("4"))
    #expect(reply["error"]?["code"] == .number("-32602"))
    #expect(reply["error"]?["message"]?.text?.hasPrefix("Invalid params") == true)
  }

  // MARK: Method not found

  @Test func anUnknownMethodGetsMethodNotFoundNamingIt() {
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":1,"method":"nope"}"#)
        == #"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found","data":{"method":"nope"}}}"#
    )
  }

  @Test func methodNamesAreCaseSensitiveAndExact() throws {
    for name in ["Echo", "echo ", "ech", "echoo", ""] {
      let reply = try server.replyValue(#"{"jsonrpc":"2.0","id":1,"method":"\#(name)"}"#)
      #expect(reply["error"]?["code"] == .number("-32601"), "\(name)")
      #expect(reply["error"]?["data"]?["method"] == .string(name))
    }
  }

  @Test func methodNotFoundNamesTheDecodedMethodEvenWithEscapes() throws {
    let reply = try server.replyValue(
      #"{"jsonrpc":"2.0","id":1,"method":"a\"b\u00e9\ud83d\ude00"}"#)
    #expect(reply["error"]?["data"]?["method"] == .string("a\"bé😀"))
  }

  // MARK: Handler errors

  @Test func aHandlerThatThrowsLeavesNoPartialOutput() {
    #expect(
      server.reply(#"{"jsonrpc":"2.0","id":3,"method":"fail"}"#)
        == #"{"jsonrpc":"2.0","id":3,"error":{"code":4242,"message":"boom"}}"#)
  }

  @Test func theSessionWorksNormallyAfterAHandlerThrows() {
    let session = server.session()
    session.feed(
      #"{"jsonrpc":"2.0","id":1,"method":"fail"}"# + "\n"
        + #"{"jsonrpc":"2.0","id":2,"method":"echo","params":{"k":1}}"# + "\n")
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","id":1,"error":{"code":4242,"message":"boom"}}"#,
        #"{"jsonrpc":"2.0","id":2,"result":{"k":1}}"#,
      ])
  }

  // MARK: Notifications

  @Test func aNotificationIsHandledButNeverAnswered() {
    let session = server.session()
    session.feed(#"{"jsonrpc":"2.0","method":"count"}"# + "\n")
    #expect(session.outputText() == "")
    #expect(server.countCalls == 1)
    session.feed(#"{"jsonrpc":"2.0","id":1,"method":"count"}"# + "\n")
    #expect(session.outputLines() == [#"{"jsonrpc":"2.0","id":1,"result":2}"#])
  }

  @Test(arguments: [
    #"{"jsonrpc":"2.0","method":"nope"}"#,
    #"{"jsonrpc":"2.0","method":"nope","params":{"x":1}}"#,
    #"{"jsonrpc":"2.0","method":"fail"}"#,
    #"{"jsonrpc":"2.0","method":"greet"}"#,
    #"{"jsonrpc":"2.0","method":"greet","params":{"name":5}}"#,
    #"{"jsonrpc":"2.0","method":"greet","params":{"name":"a","options":{"times":"x"}}}"#,
    #"{"jsonrpc":"2.0","method":"greet","params":["ann"]}"#,
    #"{"jsonrpc":"2.0","method":"echo","params":{}}"#,
  ])
  func notificationsAreNeverAnsweredEvenForUnknownMethodsOrBadParams(text: String) {
    #expect(server.reply(text) == "")
  }

  @Test func aNotificationWithAnArrayOfParamsIsNotRun() {
    _ = server.reply(#"{"jsonrpc":"2.0","method":"count","params":[1]}"#)
    #expect(server.countCalls == 0)
  }
}

/// The method table: every registered name is found by its bytes, nothing else is, and
/// registering a name again replaces its handler.
@Suite struct MethodTableTests {
  private static func reply(_ dispatcher: Dispatcher, _ method: String) -> String {
    let session = RPCSession(id: 1, dispatcher: dispatcher)
    var line = Array(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)"}"#.utf8)
    line.append(0x0A)
    line.withUnsafeBytes { session.receive($0) }
    return String(decoding: session.takeOutput(), as: UTF8.self)
  }

  @Test func manyNamesAreEachFoundAndUnknownNamesAreNot() {
    let dispatcher = Dispatcher()
    // Names of many lengths that share prefixes, suffixes and lengths (the table grows).
    let names = (0..<300).map { i in
      String(repeating: "m", count: i % 23) + "\(i)" + (i % 2 == 0 ? "/x" : "")
    }
    for (i, name) in names.enumerated() {
      dispatcher.register(name) { _, w throws(RPCError) in w.int(i) }
    }
    #expect(dispatcher.methodNames == names)
    for (i, name) in names.enumerated() {
      #expect(Self.reply(dispatcher, name) == #"{"jsonrpc":"2.0","id":1,"result":\#(i)}"# + "\n")
    }
    for unknown in ["", "m", "mm0", names[1] + "x", String(names[2].dropLast())] {
      #expect(Self.reply(dispatcher, unknown).contains(#""code":-32601"#), "\(unknown)")
    }
  }

  /// The table compares a name with the last two found before hashing it: runs of one name,
  /// two names taking turns, names that differ from them by a byte or in length, and names
  /// registered after them are still told apart.
  @Test func theLastNamesFoundNeverAnswerForAnother() {
    let dispatcher = Dispatcher()
    let names = ["stringForKey", "stringForKez", "stringForKe", "stringForKeyy", "loadAd", ""]
    for (i, name) in names.enumerated() {
      dispatcher.register(name) { _, w throws(RPCError) in w.int(i) }
    }
    // Runs, pairs taking turns (loadAd and releaseAd), a third name between them, and back.
    let order = [0, 0, 1, 0, 2, 3, 3, 0, 4, 5, 0, 5, 5, 1, 4, 1, 4, 1, 2, 4, 1, 2, 2, 0, 1, 0]
    for i in order {
      #expect(
        Self.reply(dispatcher, names[i]) == #"{"jsonrpc":"2.0","id":1,"result":\#(i)}"# + "\n",
        "\(names[i])")
    }
    #expect(Self.reply(dispatcher, "stringForKeY").contains(#""code":-32601"#))
    #expect(
      Self.reply(dispatcher, "stringForKey") == #"{"jsonrpc":"2.0","id":1,"result":0}"# + "\n")
    // A name registered after the last lookup is found, and the one before still is.
    dispatcher.register("later") { _, w throws(RPCError) in w.int(99) }
    #expect(Self.reply(dispatcher, "later") == #"{"jsonrpc":"2.0","id":1,"result":99}"# + "\n")
    #expect(
      Self.reply(dispatcher, "stringForKey") == #"{"jsonrpc":"2.0","id":1,"result":0}"# + "\n")
  }

  @Test func registeringANameAgainReplacesItsHandler() {
    let dispatcher = Dispatcher()
    dispatcher.register("a") { _, w throws(RPCError) in w.int(1) }
    dispatcher.register("a") { _, w throws(RPCError) in w.int(2) }
    #expect(dispatcher.methodNames == ["a"])
    #expect(Self.reply(dispatcher, "a") == #"{"jsonrpc":"2.0","id":1,"result":2}"# + "\n")
  }
}
