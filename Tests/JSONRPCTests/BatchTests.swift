import JSONRPC
import Testing

@Suite struct BatchTests {
  private let server = TestServer(
    limits: RPCLimits(maxMessageBytes: 1 << 20, maxDepth: 16, maxBatch: 3))

  @Test func aBatchIsAnsweredWithAnArrayInRequestOrder() {
    let batch = """
      [{"jsonrpc":"2.0","id":"b","method":"echo","params":{"n":2}},\
      {"jsonrpc":"2.0","id":1,"method":"nope"},\
      {"jsonrpc":"2.0","id":"a","method":"echo","params":{"n":1}}]
      """
    #expect(
      server.reply(batch)
        == """
        [{"jsonrpc":"2.0","id":"b","result":{"n":2}},\
        {"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found","data":{"method":"nope"}}},\
        {"jsonrpc":"2.0","id":"a","result":{"n":1}}]
        """)
  }

  @Test func aBatchOfOneIsAnsweredWithAnArrayOfOne() {
    #expect(
      server.reply(#"[{"jsonrpc":"2.0","id":1,"method":"echo"}]"#)
        == #"[{"jsonrpc":"2.0","id":1,"result":null}]"#)
  }

  @Test func notificationsInABatchAreLeftOutWithoutStrayCommas() {
    let n = #"{"jsonrpc":"2.0","method":"count"}"#
    #expect(
      server.reply("[\(n),\(#"{"jsonrpc":"2.0","id":1,"method":"echo"}"#),\(n)]")
        == #"[{"jsonrpc":"2.0","id":1,"result":null}]"#)
    #expect(
      server.reply("[\(n),\(#"{"jsonrpc":"2.0","id":1,"method":"count"}"#)]")
        == #"[{"jsonrpc":"2.0","id":1,"result":4}]"#)
    #expect(server.countCalls == 4)
  }

  @Test func aThrowingHandlerInsideABatchLeavesNoPartialOutput() {
    let batch = """
      [{"jsonrpc":"2.0","id":1,"method":"echo"},\
      {"jsonrpc":"2.0","id":2,"method":"fail"},\
      {"jsonrpc":"2.0","id":3,"method":"echo"}]
      """
    #expect(
      server.reply(batch)
        == """
        [{"jsonrpc":"2.0","id":1,"result":null},\
        {"jsonrpc":"2.0","id":2,"error":{"code":4242,"message":"boom"}},\
        {"jsonrpc":"2.0","id":3,"result":null}]
        """)
  }

  @Test(arguments: ["[]", "[ ]", " [\t] "])
  func anEmptyBatchGetsASingleInvalidRequest(text: String) throws {
    let reply = try server.replyValue(text)
    #expect(reply["id"] == .null)
    #expect(reply["error"]?["code"] == .number("-32600"))
    #expect(reply["error"]?["message"] == .string("Invalid Request"))
  }

  @Test func aBatchOfNonRequestsGetsOneInvalidRequestPerElement() throws {
    let reply = try server.replyValue("[1,2,3]")
    let items = try #require(reply.arrayItems)
    #expect(items.count == 3)
    for item in items {
      #expect(item["id"] == .null)
      #expect(item["error"]?["code"] == .number("-32600"))
      #expect(item["error"]?["message"] == .string("Invalid Request"))
    }
  }

  @Test func aNestedBatchIsOneInvalidRequest() throws {
    let reply = try server.replyValue(#"[[{"jsonrpc":"2.0","id":1,"method":"echo"}]]"#)
    #expect(reply.arrayItems?.count == 1)
    #expect(reply[0]?["error"]?["code"] == .number("-32600"))
    #expect(reply[0]?["id"] == .null)
  }

  @Test func invalidRequestsInABatchKeepTheirLegalIds() throws {
    let reply = try server.replyValue(
      #"[{"jsonrpc":"1.0","id":"x","method":"echo"},{"jsonrpc":"2.0","id":{},"method":"echo"},5]"#)
    #expect(reply.arrayItems?.map { $0["id"] } == [.string("x"), .null, .null])
    #expect(reply.arrayItems?.allSatisfy { $0["error"]?["code"] == .number("-32600") } == true)
  }

  @Test func anAllNotificationBatchProducesNoOutputAtAll() {
    let session = server.session()
    session.feed(
      #"[{"jsonrpc":"2.0","method":"count"},{"jsonrpc":"2.0","method":"nope"},{"jsonrpc":"2.0","method":"fail"}]"#
        + "\n")
    #expect(session.pendingOutputBytes == 0)
    #expect(session.outputText() == "")
    #expect(server.countCalls == 1)
  }

  @Test func invalidJSONAnywhereInABatchGetsASingleParseError() throws {
    let reply = try server.replyValue(#"[{"jsonrpc":"2.0","id":1,"method":"echo"},{]"#)
    #expect(reply.arrayItems == nil)
    #expect(reply["id"] == .null)
    #expect(reply["error"]?["code"] == .number("-32700"))
  }

  @Test func aBatchAtTheLimitIsServedAndOneOverGetsASingleInvalidRequest() throws {
    let request = #"{"jsonrpc":"2.0","id":1,"method":"echo"}"#
    let atLimit = try server.replyValue("[\(request),\(request),\(request)]")
    #expect(atLimit.arrayItems?.count == 3)
    let over = try server.replyValue("[\(request),\(request),\(request),\(request)]")
    #expect(over.arrayItems == nil)
    #expect(over["id"] == .null)
    #expect(over["error"]?["code"] == .number("-32600"))
    #expect(over["error"]?["message"] == .string("Invalid Request"))
  }

  @Test func anOversizedBatchRunsNoneOfItsRequests() {
    let n = #"{"jsonrpc":"2.0","method":"count"}"#
    _ = server.reply("[\(n),\(n),\(n),\(n)]")
    #expect(server.countCalls == 0)
  }

  @Test func batchElementsKeepTheirIdsByteForByte() {
    let reply = server.reply(
      #"[{"jsonrpc":"2.0","id":18446744073709551617,"method":"echo"},{"jsonrpc":"2.0","id":"\u00e9","method":"echo"},{"jsonrpc":"2.0","id":1.50,"method":"echo"}]"#
    )
    #expect(
      reply
        == #"[{"jsonrpc":"2.0","id":18446744073709551617,"result":null},{"jsonrpc":"2.0","id":"\u00e9","result":null},{"jsonrpc":"2.0","id":1.50,"result":null}]"#
    )
  }

  @Test func aBatchIsAnsweredOnOneLine() {
    let session = server.session()
    session.feed(
      #"[{"jsonrpc":"2.0","id":1,"method":"echo"},{"jsonrpc":"2.0","id":2,"method":"echo"}]"#
        + "\n")
    #expect(session.outputLines().count == 1)
  }
}
