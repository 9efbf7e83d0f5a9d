import JSONRPC
import Testing

@Suite struct ParamsTests {
  private enum Fruit: String, CaseIterable {
    case apple, pear
  }

  /// Runs `body` on the params object `json` (`nil` for absent params).
  private func decode<T>(_ json: String?, _ body: (Params) throws(InvalidField) -> T) throws
    -> Result<
      T, RPCError
    >
  {
    guard let json else {
      do throws(InvalidField) {
        return .success(try body(Params(nil)))
      } catch {
        return .failure(error.rpcError)
      }
    }
    return try withRoot(json) { root in
      do throws(InvalidField) {
        return .success(try body(Params(root)))
      } catch {
        return .failure(error.rpcError)
      }
    }
  }

  private func error(_ json: String?, _ body: (Params) throws(InvalidField) -> Void) throws
    -> RPCError?
  {
    if case .failure(let e) = try decode(json, body) { return e }
    return nil
  }

  // MARK: Through the dispatcher

  @Test func decodesNestedParams() {
    let server = TestServer()
    #expect(
      server.reply(
        #"{"jsonrpc":"2.0","id":1,"method":"greet","params":{"name":"ann","options":{"times":2,"loud":true},"extra":[1]}}"#
      ) == #"{"jsonrpc":"2.0","id":1,"result":"HELLO HELLO ANN"}"#)
  }

  @Test func aNestedFieldOfTheWrongTypeIsNamedInMessageAndData() {
    let server = TestServer()
    #expect(
      server.reply(
        #"{"jsonrpc":"2.0","id":1,"method":"greet","params":{"name":"ann","options":{"times":"2"}}}"#
      )
        == #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: options.times must be an integer","data":{"field":"options.times"}}}"#
    )
  }

  @Test(arguments: [
    (#"{}"#, "Invalid params: name is required", "name"),
    (#"{"name":null}"#, "Invalid params: name is required", "name"),
    (#"{"name":5}"#, "Invalid params: name must be a string", "name"),
    (#"{"name":"a","options":"x"}"#, "Invalid params: options must be an object", "options"),
    (#"{"name":"a","options":[]}"#, "Invalid params: options must be an object", "options"),
    (
      #"{"name":"a","options":{"times":1.5}}"#, "Invalid params: options.times must be an integer",
      "options.times"
    ),
    (
      #"{"name":"a","options":{"times":1e30}}"#, "Invalid params: options.times must be an integer",
      "options.times"
    ),
    (
      #"{"name":"a","options":{"loud":1}}"#, "Invalid params: options.loud must be a boolean",
      "options.loud"
    ),
    (
      #"{"name":"a","options":{"loud":"true"}}"#, "Invalid params: options.loud must be a boolean",
      "options.loud"
    ),
  ])
  func paramsThatFailToDecodeGetInvalidParamsNamingTheField(
    params: String, message: String, field: String
  ) throws {
    let server = TestServer()
    let reply = try server.replyValue(
      #"{"jsonrpc":"2.0","id":1,"method":"greet","params":\#(params)}"#)
    #expect(
      reply["error"]
        == .object([
          ("code", .number("-32602")), ("message", .string(message)),
          ("data", .object([("field", .string(field))])),
        ]))
  }

  @Test func absentParamsAreLikeAnEmptyObject() throws {
    let server = TestServer()
    let reply = try server.replyValue(#"{"jsonrpc":"2.0","id":1,"method":"greet"}"#)
    #expect(reply["error"]?["message"] == .string("Invalid params: name is required"))
  }

  @Test func nullMeansAbsentForOptionalParams() {
    let server = TestServer()
    #expect(
      server.reply(
        #"{"jsonrpc":"2.0","id":1,"method":"greet","params":{"name":"b","options":null}}"#)
        == #"{"jsonrpc":"2.0","id":1,"result":"hello b"}"#)
    #expect(
      server.reply(
        #"{"jsonrpc":"2.0","id":1,"method":"greet","params":{"name":"b","options":{"times":null,"loud":null}}}"#
      ) == #"{"jsonrpc":"2.0","id":1,"result":"hello b"}"#)
  }

  @Test func integralNumbersInAnyFormAreIntegers() {
    let server = TestServer()
    for times in ["2", "2.0", "2e0", "0.2e1"] {
      #expect(
        server.reply(
          #"{"jsonrpc":"2.0","id":1,"method":"greet","params":{"name":"c","options":{"times":\#(times)}}}"#
        ) == #"{"jsonrpc":"2.0","id":1,"result":"hello hello c"}"#, "\(times)")
    }
  }

  // MARK: Accessors

  @Test func stringsAreDecoded() throws {
    let value = try decode(#"{"s":"a\nb","o":null}"#) { (p: Params) throws(InvalidField) in
      (try p.string("s"), try p.optionalString("o"), try p.optionalString("missing"))
    }
    let (s, o, missing) = try value.get()
    #expect(s == "a\nb")
    #expect(o == nil)
    #expect(missing == nil)
    #expect(
      try error(#"{"s":1}"#) { (p: Params) throws(InvalidField) in _ = try p.optionalString("s") }
        == .invalidParams(field: "s", "must be a string"))
  }

  @Test func stringArraysNameTheBadElement() throws {
    #expect(
      try decode(#"{"a":["x","y"]}"#) { (p: Params) throws(InvalidField) in
        try p.optionalStringArray("a")
      }
      .get() == ["x", "y"])
    #expect(
      try decode(#"{"a":[]}"#) { (p: Params) throws(InvalidField) in try p.optionalStringArray("a")
      }
      .get() == [])
    let element = try error(#"{"a":["x",2]}"#) { (p: Params) throws(InvalidField) in
      _ = try p.optionalStringArray("a")
    }
    #expect(element?.message == "Invalid params: a[1] must be a string")
    #expect(element?.data == .object([("field", .string("a[1]"))]))
    let notArray = try error(#"{"a":"x"}"#) { (p: Params) throws(InvalidField) in
      _ = try p.optionalStringArray("a")
    }
    #expect(notArray?.message == "Invalid params: a must be an array of strings")
  }

  @Test func enumsListTheAllowedValues() throws {
    #expect(
      try decode(#"{"f":"pear"}"#) { (p: Params) throws(InvalidField) in
        try p.optionalEnum("f", Fruit.self)
      }
      .get() == .pear)
    let bad = try error(#"{"f":"plum"}"#) { (p: Params) throws(InvalidField) in
      _ = try p.optionalEnum("f", Fruit.self)
    }
    #expect(bad?.code == -32602)
    #expect(bad?.message == #"Invalid params: f must be one of "apple", "pear""#)
    #expect(bad?.data == .object([("field", .string("f"))]))
  }

  @Test func numbersAndBooleans() throws {
    let (i, d, b) = try decode(#"{"i":-7,"d":2.5,"b":false}"#) { (p: Params) throws(InvalidField) in
      (try p.int("i"), try p.optionalDouble("d"), try p.bool("b"))
    }.get()
    #expect(i == -7)
    #expect(d == 2.5)
    #expect(b == false)
    #expect(
      try error(#"{}"#) { (p: Params) throws(InvalidField) in _ = try p.int("i") }
        == .invalidParams(field: "i", "is required"))
    #expect(
      try error(#"{}"#) { (p: Params) throws(InvalidField) in _ = try p.bool("b") }
        == .invalidParams(field: "b", "is required"))
    #expect(
      try error(#"{"d":"1"}"#) { (p: Params) throws(InvalidField) in _ = try p.optionalDouble("d") }
        == .invalidParams(field: "d", "must be a number"))
    #expect(
      try error(#"{"d":1e999}"#) { (p: Params) throws(InvalidField) in _ = try p.optionalDouble("d")
      }
        == .invalidParams(field: "d", "must be a number"))
  }

  @Test func nestedObjectsPrefixTheirFieldPaths() throws {
    let e = try error(#"{"options":{"inner":{"n":true}}}"#) { (p: Params) throws(InvalidField) in
      _ = try p.optionalObject("options")?.optionalObject("inner")?.optionalInt("n")
    }
    #expect(e?.message == "Invalid params: options.inner.n must be an integer")
    #expect(e?.data == .object([("field", .string("options.inner.n"))]))
    let path = try decode(#"{"o":{}}"#) { (p: Params) throws(InvalidField) in
      try p.optionalObject("o")?.path("x")
    }.get()
    #expect(path == "o.x")
  }

  @Test func rawGivesTheMemberOrNilForNullAndAbsent() throws {
    let kinds = try decode(#"{"a":[1],"n":null}"#) { (p: Params) throws(InvalidField) in
      [p.raw("a")?.kind, p.raw("n")?.kind, p.raw("x")?.kind]
    }.get()
    #expect(kinds == [.array, nil, nil])
  }

  @Test func theWireErrorHasCodeMessageAndData() {
    var w = JSONWriter()
    RPCError.invalidParams(field: "options.numberOfAds", "must be an integer").write(to: &w)
    #expect(
      String(decoding: w.bytes, as: UTF8.self)
        == #"{"code":-32602,"message":"Invalid params: options.numberOfAds must be an integer","data":{"field":"options.numberOfAds"}}"#
    )
  }

  @Test func theReservedErrorsCarryTheSpecificationsExactMessages() {
    #expect(RPCError.parseError().message == "Parse error")
    #expect(RPCError.parseError().code == -32700)
    #expect(RPCError.invalidRequest().message == "Invalid Request")
    #expect(RPCError.invalidRequest().code == -32600)
    #expect(RPCError.methodNotFound("m").message == "Method not found")
    #expect(RPCError.methodNotFound("m").code == -32601)
    #expect(RPCError.invalidParams("x").message == "Invalid params: x")
    #expect(RPCError.invalidParams("x").code == -32602)
    #expect(RPCError.internalError().message == "Internal error")
    #expect(RPCError.internalError().code == -32603)
    #expect(RPCError.parseError().data == nil)
    #expect(RPCError.parseError("d").data == .object([("detail", .string("d"))]))
  }

  // MARK: Unknown members

  @Test func unknownMembersAreRefusedFirstInDocumentOrder() throws {
    let allowed = MemberNames(["url", "width", "height"])
    #expect(
      try error(#"{"url":"a","width":1,"height":2}"#) { (p: Params) throws(InvalidField) in
        try p.rejectUnknownMembers(allowed: allowed)
      } == nil)
    #expect(
      try error("{}") { (p: Params) throws(InvalidField) in
        try p.rejectUnknownMembers(allowed: allowed)
      } == nil)
    let typo = try error(#"{"url":"a","widht":1,"heigth":2}"#) { (p: Params) throws(InvalidField) in
      try p.rejectUnknownMembers(allowed: allowed)
    }
    #expect(typo?.message == "Invalid params: widht is not a known field")
    // A prefix or an extension of a known name is not that name.
    let prefix = try error(#"{"ur":"a"}"#) { (p: Params) throws(InvalidField) in
      try p.rejectUnknownMembers(allowed: allowed)
    }
    #expect(prefix?.message == "Invalid params: ur is not a known field")
    let longer = try error(#"{"urls":"a"}"#) { (p: Params) throws(InvalidField) in
      try p.rejectUnknownMembers(allowed: allowed)
    }
    #expect(longer?.message == "Invalid params: urls is not a known field")
  }

  @Test func aKnownNameWrittenWithEscapesIsKnown() throws {
    let allowed = MemberNames(["url", "caf\u{E9}"])
    #expect(
      try error(#"{"\u0075rl":"a","caf\u00e9":1}"#) { (p: Params) throws(InvalidField) in
        try p.rejectUnknownMembers(allowed: allowed)
      } == nil)
    let unknown = try error(#"{"\u0075rls":"a"}"#) { (p: Params) throws(InvalidField) in
      try p.rejectUnknownMembers(allowed: allowed)
    }
    #expect(unknown?.message == "Invalid params: urls is not a known field")
    #expect(allowed.contains("caf\u{E9}"))
    #expect(!allowed.contains("cafe"))
  }

  // MARK: Two borrowed strings in one pass

  /// `stringParams(a, b)` answers what `stringParam(a)` then `stringParam(b)` answer, errors
  /// included, whatever the order, the repeats, the nulls and the escapes of the members.
  @Test(arguments: [
    #"{"adId":"x","key":"y"}"#, #"{"key":"y","adId":"x"}"#, #"{"adId":"x"}"#, #"{"key":"y"}"#,
    "{}", #"{"adId":null,"key":"y"}"#, #"{"adId":"x","key":3}"#, #"{"adId":[],"key":"y"}"#,
    #"{"adId":"x","key":"y","adId":"z"}"#, #"{"\u0061dId":"x","k\u0065y":"y\n"}"#,
    #"{"adId":"x","key":"y","other":1}"#, #"{"adIdx":"x","ke":"y"}"#,
  ])
  func twoStringsInOnePassAnswerLikeTwoLookups(json: String) throws {
    let onePass = try decode(json) { p throws(InvalidField) in
      let (a, b) = try p.stringParams("adId", "key")
      return [a.string, b.string]
    }
    let twoLookups = try decode(json) { p throws(InvalidField) in
      [try p.stringParam("adId").string, try p.stringParam("key").string]
    }
    switch (onePass, twoLookups) {
    case (.success(let a), .success(let b)): #expect(a == b)
    case (.failure(let a), .failure(let b)): #expect(a.message == b.message)
    default: Issue.record("\(onePass) against \(twoLookups)")
    }
  }
}
