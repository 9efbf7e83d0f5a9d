import JSONRPC
import Testing

/// Contract section 8 at the session level: `$/cancelRequest` of deferred replies, the state
/// after `shutdown` and `exit`, and cancelling a request the server sent.
@Suite struct LifecycleTests {
  /// A server whose `later` method defers (each reply counts its cancellations), with
  /// `cancel {"id"}`, `shutdown` and `exit` wired to the session as the service wires them.
  final class Server {
    let server = TestServer()
    var pending: [DeferredReply] = []
    var cancelled: [Int] = []

    init() {
      server.dispatcher.register("later") { [unowned self] call, _ throws(RPCError) in
        let reply = call.deferReply()
        let index = pending.count
        reply.onCancel = { [unowned self] in cancelled.append(index) }
        pending.append(reply)
      }
      server.dispatcher.register("$/cancelRequest") { call, w throws(RPCError) in
        if let id = call.params.raw("id") { call.session.cancelRequest(id: id) }
        w.null()
      }
      server.dispatcher.register("shutdown") { call, w throws(RPCError) in
        call.session.beginShutdown()
        w.null()
      }
      server.dispatcher.register("exit") { call, w throws(RPCError) in
        call.session.requestExit()
        w.null()
      }
    }
  }

  private static func cancel(_ id: String) -> String {
    #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"# + id + "}}\n"
  }

  @Test func aCancelledRequestIsAnswered32800AtOnceAndItsWorkIsStoppedOnce() {
    let s = Server()
    let session = s.server.session()
    session.feed(#"{"jsonrpc":"2.0","id":7,"method":"later"}"# + "\n")
    #expect(session.unansweredRequestCount == 1)
    session.feed(Self.cancel("7"))
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","id":7,"error":{"code":-32800,"message":"Request cancelled"}}"#
      ])
    #expect(s.cancelled == [0])
    #expect(session.unansweredRequestCount == 0)
    // A late answer, and a second cancel, change nothing.
    s.pending[0].resolve { w in w.int(1) }
    session.feed(Self.cancel("7"))
    #expect(session.outputLines() == [])
    #expect(s.cancelled == [0])
  }

  @Test func unknownAndAnsweredIdsAreIgnoredAndAStringIdIsNotANumber() {
    let s = Server()
    let session = s.server.session()
    session.feed(
      #"{"jsonrpc":"2.0","id":1,"method":"later"}"# + "\n"
        + #"{"jsonrpc":"2.0","id":"2","method":"later"}"# + "\n")
    s.pending[0].resolve { w in w.int(1) }
    _ = session.outputLines()
    session.feed(Self.cancel("1") + Self.cancel("\"1\"") + Self.cancel("2") + Self.cancel("99"))
    #expect(session.outputLines() == [])
    #expect(s.cancelled.isEmpty)
    session.feed(Self.cancel("\"2\""))
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","id":"2","error":{"code":-32800,"message":"Request cancelled"}}"#
      ])
    #expect(s.cancelled == [1])
  }

  @Test func aCancelledBatchMemberFillsItsSlotWithTheError() {
    let s = Server()
    let session = s.server.session()
    session.feed(
      #"[{"jsonrpc":"2.0","id":1,"method":"later"},{"jsonrpc":"2.0","id":2,"method":"later"}]"#
        + "\n")
    session.feed(Self.cancel("2"))
    s.pending[0].resolve { w in w.int(1) }
    #expect(
      session.outputLines() == [
        #"[{"jsonrpc":"2.0","id":1,"result":1},"#
          + #"{"jsonrpc":"2.0","id":2,"error":{"code":-32800,"message":"Request cancelled"}}]"#
      ])
  }

  @Test func afterShutdownOnlyExitIsTakenAndRepliesInFlightAreStillSent() {
    let s = Server()
    let session = s.server.session()
    session.feed(
      #"{"jsonrpc":"2.0","id":1,"method":"later"}"# + "\n"
        + #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"# + "\n"
        + #"{"jsonrpc":"2.0","id":3,"method":"count"}"# + "\n"
        + #"{"jsonrpc":"2.0","method":"count"}"# + "\n"
        + #"{"jsonrpc":"2.0","id":4,"method":"shutdown"}"# + "\n")
    let lines = session.outputLines()
    #expect(lines.count == 3)
    #expect(lines[0] == #"{"jsonrpc":"2.0","id":2,"result":null}"#)
    #expect(lines[1].hasPrefix(#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600"#))
    #expect(lines[2].hasPrefix(#"{"jsonrpc":"2.0","id":4,"error":{"code":-32600"#))
    #expect(s.server.countCalls == 0)
    #expect(session.hasShutDown)
    s.pending[0].resolve { w in w.int(5) }
    #expect(session.outputLines() == [#"{"jsonrpc":"2.0","id":1,"result":5}"#])
    session.feed(#"{"jsonrpc":"2.0","method":"exit"}"# + "\n")
    #expect(session.exitRequested)
  }

  @Test func exitStopsReadingTheRestOfTheInput() {
    let s = Server()
    let session = s.server.session()
    session.feed(
      #"{"jsonrpc":"2.0","id":1,"method":"count"}"# + "\n" + #"{"jsonrpc":"2.0","method":"exit"}"#
        + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"count"}"# + "\n")
    #expect(session.outputLines() == [#"{"jsonrpc":"2.0","id":1,"result":1}"#])
    #expect(session.exitRequested)
    #expect(!session.hasShutDown)
    session.feed(#"{"jsonrpc":"2.0","id":3,"method":"count"}"# + "\n")
    #expect(session.outputLines() == [])
    #expect(s.server.countCalls == 1)
  }

  @Test func forgettingARequestTheServerSentCanTellThePeer() {
    let session = TestServer().session()
    let first = session.sendRequest("adapter.loadNativeAd", { w in w.null() }) { _ in }
    let second = session.sendRequest("adapter.loadNativeAd", { w in w.null() }) { _ in }
    _ = session.outputLines()
    session.forgetRequest(first)
    session.forgetRequest(second, notifyPeer: true)
    session.forgetRequest(second, notifyPeer: true)
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"native-ads:2"}}"#
      ])
    #expect(session.pendingRequestCount == 0)
  }
}
