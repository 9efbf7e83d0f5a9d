import JSONRPC
import Testing

/// Replies given later (a handler waiting on a timer or another connection) and requests the
/// server sends to a client (mediation adapters), with their responses routed back.
@Suite struct DeferredReplyTests {
  /// A server whose `later` method defers; the test answers through `pending`.
  final class Later {
    let server = TestServer()
    var pending: [DeferredReply] = []

    init() {
      server.dispatcher.register("later") { [unowned self] call, _ throws(RPCError) in
        pending.append(call.deferReply())
      }
    }
  }

  @Test func aDeferredReplyIsWrittenWhenItIsResolvedWithTheRequestsID() throws {
    let later = Later()
    let session = later.server.session()
    var flushed = 0
    session.onOutput = { _ in flushed += 1 }
    session.feed(#"{"jsonrpc":"2.0","id":"a\u00e9","method":"later"}"# + "\n")
    #expect(session.outputText() == "")
    later.pending[0].resolve { w in w.int(7) }
    #expect(flushed == 1)
    #expect(session.outputLines() == [#"{"jsonrpc":"2.0","id":"a\u00e9","result":7}"#])
  }

  @Test func onlyTheFirstAnswerOfADeferredReplyCounts() {
    let later = Later()
    let session = later.server.session()
    session.feed(#"{"jsonrpc":"2.0","id":1,"method":"later"}"# + "\n")
    later.pending[0].reject(RPCError(code: 1001, message: "No fill"))
    later.pending[0].resolve { w in w.int(1) }
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","id":1,"error":{"code":1001,"message":"No fill"}}"#
      ])
  }

  @Test func otherRequestsAreAnsweredWhileOneWaits() {
    let later = Later()
    let session = later.server.session()
    session.feed(
      #"{"jsonrpc":"2.0","id":1,"method":"later"}"# + "\n"
        + #"{"jsonrpc":"2.0","id":2,"method":"count"}"# + "\n")
    #expect(session.outputLines() == [#"{"jsonrpc":"2.0","id":2,"result":1}"#])
    later.pending[0].resolve { w in w.bool(true) }
    #expect(session.outputLines() == [#"{"jsonrpc":"2.0","id":1,"result":true}"#])
  }

  @Test func aBatchWithADeferredMemberIsAnsweredWholeAndInOrderWhenItCompletes() {
    let later = Later()
    let session = later.server.session()
    session.feed(
      #"[{"jsonrpc":"2.0","id":1,"method":"count"},{"jsonrpc":"2.0","id":2,"method":"later"},"#
        + #"{"jsonrpc":"2.0","method":"later"},{"jsonrpc":"2.0","id":3,"method":"nope"}]"# + "\n")
    #expect(session.outputText() == "")
    later.pending[1].resolve { w in w.int(0) }  // the notification's: never counted
    #expect(session.outputText() == "")
    later.pending[0].resolve { w in w.string("late") }
    #expect(
      session.outputLines() == [
        #"[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":"late"},"#
          + #"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found","#
          + #""data":{"method":"nope"}}}]"#
      ])
  }

  @Test func aDeferredReplyAfterTheConnectionClosedWritesNothing() {
    let later = Later()
    let session = later.server.session()
    session.feed(#"{"jsonrpc":"2.0","id":1,"method":"later"}"# + "\n")
    session.close()
    later.pending[0].resolve { w in w.int(1) }
    #expect(session.outputText() == "")
  }

  @Test func aDeferredReplyIsFramedForAContentLengthClient() {
    let later = Later()
    let session = later.server.session()
    let body = #"{"jsonrpc":"2.0","id":5,"method":"later"}"#
    session.feed("Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    later.pending[0].resolve { w in w.null() }
    let reply = #"{"jsonrpc":"2.0","id":5,"result":null}"#
    #expect(session.outputText() == "Content-Length: \(reply.utf8.count)\r\n\r\n" + reply)
  }

  // MARK: Requests from the server

  @Test func aServerRequestHasItsOwnIDAndItsResponseIsRoutedBack() throws {
    let session = TestServer().session()
    session.feed(#"{"jsonrpc":"2.0","method":"hello"}"# + "\n")  // the client speaks NDJSON
    var answers: [String] = []
    let id = session.sendRequest("adapter.loadNativeAd", { w in w.raw("{}".utf8) }) { outcome in
      switch outcome {
      case .success(let result): answers.append(result.materialize().jsonText)
      case .failure(let error): answers.append("error \(error.code)")
      }
    }
    #expect(id == "native-ads:1")
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","id":"native-ads:1","method":"adapter.loadNativeAd","params":{}}"#
      ])
    #expect(session.pendingRequestCount == 1)
    session.feed(#"{"jsonrpc":"2.0","id":"native-ads:1","result":{"ad":1}}"# + "\n")
    #expect(answers == [#"{"ad":1}"#])
    #expect(session.pendingRequestCount == 0)
    #expect(session.outputText() == "", "a response is never answered")
    session.feed(#"{"jsonrpc":"2.0","id":"native-ads:1","result":2}"# + "\n")
    #expect(answers.count == 1, "a second answer changes nothing")
  }

  @Test func anErrorResponseReachesTheRequesterWithItsCodeAndData() {
    let session = TestServer().session()
    var received: RPCError?
    session.sendRequest("adapter.loadNativeAd", { w in w.raw("{}".utf8) }) { outcome in
      if case .failure(let error) = outcome { received = error }
    }
    _ = session.takeOutput()
    session.feed(
      #"{"jsonrpc":"2.0","id":"native-ads:1","error":{"code":3,"message":"no inventory","#
        + #""data":{"domain":"acme"}}}"# + "\n")
    #expect(
      received
        == RPCError(code: 3, message: "no inventory", data: .object([("domain", .string("acme"))])))
  }

  @Test func aCancelledRequestIgnoresItsLateAnswer() {
    let session = TestServer().session()
    var calls = 0
    let id = session.sendRequest("adapter.loadNativeAd", { w in w.null() }) { _ in calls += 1 }
    session.forgetRequest(id)
    session.feed(#"{"jsonrpc":"2.0","id":"native-ads:1","result":1}"# + "\n")
    #expect(calls == 0)
    #expect(session.pendingRequestCount == 0)
  }

  @Test func closingTheConnectionFailsEveryUnansweredRequestOnce() {
    let session = TestServer().session()
    var outcomes: [ErrorCode] = []
    for _ in 0..<2 {
      session.sendRequest("adapter.loadNativeAd", { w in w.null() }) { outcome in
        if case .failure(let error) = outcome { outcomes.append(error.code) }
      }
    }
    session.close()
    session.close()
    #expect(outcomes == [-32000, -32000])
  }

  @Test func aLateOrUnknownResponseToAServerRequestIsIgnoredSilently() {
    let session = TestServer().session()
    session.feed(#"{"jsonrpc":"2.0","id":"native-ads:99","result":1}"# + "\n")
    #expect(session.outputText() == "")
  }

  @Test func aResponseShapedMessageWithAClientIDIsAnInvalidRequest() {
    let session = TestServer().session()
    session.feed(#"{"jsonrpc":"2.0","id":7,"result":1}"# + "\n")
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request","data":{"detail":"method must be a string"}}}"#
      ])
  }
}
