import JSONRPC
import Testing

@Suite struct RPCSessionTests {
  private let server = TestServer(
    limits: RPCLimits(maxMessageBytes: 64, maxDepth: 16, maxBatch: 10))

  /// Splits Content-Length framed output into bodies, checking every header's byte count.
  private func lspBodies(_ buffer: ByteBuffer) -> [String] {
    let output = buffer.array
    var bodies: [String] = []
    var rest = output[...]
    while !rest.isEmpty {
      let prefix = Array("Content-Length: ".utf8)
      guard rest.starts(with: prefix) else {
        Issue.record("expected a Content-Length header in \(String(decoding: rest, as: UTF8.self))")
        return bodies
      }
      rest = rest.dropFirst(prefix.count)
      let digits = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }
      let length = Int(String(decoding: digits, as: UTF8.self)) ?? -1
      rest = rest.dropFirst(digits.count)
      guard rest.starts(with: [0x0D, 0x0A, 0x0D, 0x0A]), length >= 0, rest.count >= 4 + length
      else {
        Issue.record("malformed frame")
        return bodies
      }
      rest = rest.dropFirst(4)
      bodies.append(String(decoding: rest.prefix(length), as: UTF8.self))
      rest = rest.dropFirst(length)
    }
    return bodies
  }

  // MARK: Framing of replies

  @Test func repliesUseNDJSONUntilTheClientHasSpoken() {
    let session = server.session()
    #expect(session.framing == .ndjson)
    session.feed("  \r\n")
    #expect(session.framing == .ndjson)
    #expect(session.outputText() == "")
  }

  @Test func anNDJSONClientGetsNewlineTerminatedReplies() {
    let session = server.session()
    session.feed(#"{"jsonrpc":"2.0","id":1,"method":"text"}"# + "\r\n")
    #expect(session.framing == .ndjson)
    #expect(session.outputText() == #"{"jsonrpc":"2.0","id":1,"result":"héllo €"}"# + "\n")
  }

  @Test func aContentLengthClientGetsContentLengthRepliesCountingBytes() {
    let session = server.session()
    session.feed(lspMessage(#"{"jsonrpc":"2.0","id":1,"method":"text"}"#))
    #expect(session.framing == .contentLength)
    let body = #"{"jsonrpc":"2.0","id":1,"result":"héllo €"}"#
    #expect(body.utf8.count == body.count + 3)
    #expect(session.outputText() == "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
  }

  /// The header is written in room reserved before the reply: replies of every length (one
  /// to six digits, shorter and longer than that room) come out exactly framed, in order.
  @Test(arguments: [0, 1, 9, 30, 100, 5_000, 300_000])
  func contentLengthRepliesOfAnyLengthAreFramedExactly(padding: Int) {
    let session = TestServer().session()  // the default message limit
    let text = String(repeating: "x", count: padding)
    let request = #"{"jsonrpc":"2.0","id":7,"method":"echo","params":{"p":"\#(text)"}}"#
    session.feed(lspMessage(request) + lspMessage(request))
    let body = #"{"jsonrpc":"2.0","id":7,"result":{"p":"\#(text)"}}"#
    let framed = "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    #expect(session.outputText() == framed + framed)
  }

  @Test func severalContentLengthRequestsInOneChunkAreAnsweredInOrder() {
    let session = server.session()
    session.feed(
      lspMessage(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"é":1}}"#)
        + lspMessage(#"{"jsonrpc":"2.0","method":"count"}"#)
        + lspMessage(#"[{"jsonrpc":"2.0","id":2,"method":"text"}]"#))
    #expect(
      lspBodies(session.takeOutput()) == [
        #"{"jsonrpc":"2.0","id":1,"result":{"é":1}}"#,
        #"[{"jsonrpc":"2.0","id":2,"result":"héllo €"}]"#,
      ])
  }

  @Test func requestsFedOneByteAtATimeGetTheSameReplies() {
    let ndjson = Array(
      ("\n" + #"{"jsonrpc":"2.0","id":1,"method":"text"}"# + "\r\n\n"
        + #"[{"jsonrpc":"2.0","id":2,"method":"echo"},{"jsonrpc":"2.0","method":"count"}]"#
        + "\n{bad\n" + #"{"jsonrpc":"2.0","id":"é","method":"nope"}"# + "\n").utf8)
    let lsp = Array(
      (lspMessage(#"{"jsonrpc":"2.0","id":1,"method":"text"}"#) + lspMessage("{bad")
        + lspMessage(#"{"jsonrpc":"2.0","id":"é","method":"nope"}"#)).utf8)
    for stream in [ndjson, lsp] {
      let whole = server.session()
      whole.feed(bytes: stream)
      let expected = whole.takeOutput()
      #expect(!expected.isEmpty)
      for chunks in chunkings(of: stream, randomCount: 10) {
        let session = server.session()
        for chunk in chunks { session.feed(bytes: chunk) }
        #expect(session.takeOutput() == expected, "chunks: \(chunks.map(\.count))")
      }
    }
  }

  @Test func anEmptyContentLengthBodyIsAParseError() throws {
    let session = server.session()
    session.feed("Content-Length: 0\r\n\r\n")
    let bodies = lspBodies(session.takeOutput())
    #expect(bodies.count == 1)
    #expect(try parse(bodies[0])["error"]?["code"] == .number("-32700"))
    #expect(!session.shouldClose)
  }

  // MARK: Limits and broken streams

  @Test func anOversizedLineGetsMessageTooLargeAndTheNextLineIsAnswered() throws {
    let session = server.session()
    let big =
      #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"pad":""#
      + String(repeating: "x", count: 100) + #""}}"#
    session.feed(big + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"echo"}"# + "\n")
    let lines = session.outputLines()
    #expect(lines.count == 2)
    let error = try parse(lines[0])
    #expect(error["id"] == .null)
    #expect(error["error"]?["code"] == .number("-32001"))
    #expect(error["error"]?["message"] == .string("Message too large"))
    #expect(error["error"]?["data"]?["limit"] == .number("64"))
    #expect(lines[1] == #"{"jsonrpc":"2.0","id":2,"result":null}"#)
    #expect(!session.shouldClose)
  }

  @Test func anOversizedContentLengthMessageIsAnsweredInContentLengthAndSkipped() throws {
    let session = server.session()
    let big =
      #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"pad":""#
      + String(repeating: "x", count: 100) + #""}}"#
    session.feed(lspMessage(big))
    #expect(session.bufferedInputBytes == 0)
    session.feed(lspMessage(#"{"jsonrpc":"2.0","id":2,"method":"echo"}"#))
    let bodies = lspBodies(session.takeOutput())
    #expect(bodies.count == 2)
    #expect(try parse(bodies[0])["error"]?["code"] == .number("-32001"))
    #expect(bodies[1] == #"{"jsonrpc":"2.0","id":2,"result":null}"#)
    #expect(!session.shouldClose)
  }

  @Test func aBrokenContentLengthHeaderGetsAParseErrorThenTheSessionShouldClose() throws {
    let session = server.session()
    session.feed("Content-Length: many\r\n\r\n{}")
    #expect(session.shouldClose)
    let bodies = lspBodies(session.takeOutput())
    #expect(bodies.count == 1)
    let reply = try parse(bodies[0])
    #expect(reply["id"] == .null)
    #expect(reply["error"]?["code"] == .number("-32700"))
    #expect(reply["error"]?["message"] == .string("Parse error"))
    session.feed(lspMessage(#"{"jsonrpc":"2.0","id":2,"method":"echo"}"#))
    #expect(session.pendingOutputBytes == 0)
  }

  @Test func aBrokenHeaderAfterGoodMessagesStillAnswersTheGoodOnes() {
    let session = server.session()
    session.feed(lspMessage(#"{"jsonrpc":"2.0","id":1,"method":"echo"}"#) + "Bogus\r\n\r\n")
    let bodies = lspBodies(session.takeOutput())
    #expect(bodies.count == 2)
    #expect(bodies.first == #"{"jsonrpc":"2.0","id":1,"result":null}"#)
    #expect(session.shouldClose)
  }

  // MARK: Notifications to the client

  @Test func notifyWritesANotificationInTheSessionsFraming() {
    let session = server.session()
    var announced = 0
    session.onOutput = { _ in announced += 1 }
    session.notify("adEvent") { w in
      w.beginObject()
      w.key("adId")
      w.string("a\"1")
      w.endObject()
    }
    #expect(announced == 1)
    #expect(
      session.outputText() == #"{"jsonrpc":"2.0","method":"adEvent","params":{"adId":"a\"1"}}"#
        + "\n")

    let lsp = server.session(id: 2)
    lsp.feed(lspMessage(#"{"jsonrpc":"2.0","method":"count"}"#))
    lsp.notify("ping") { w in
      w.beginObject()
      w.endObject()
    }
    #expect(lspBodies(lsp.takeOutput()) == [#"{"jsonrpc":"2.0","method":"ping","params":{}}"#])
  }

  @Test func aNotificationSentWhileHandlingARequestComesBeforeItsReplyWithoutAnnouncement() {
    server.dispatcher.register("poke") { call, w throws(RPCError) in
      call.session.notify("poked") { n in
        n.beginObject()
        n.endObject()
      }
      w.bool(true)
    }
    let session = server.session()
    var announced = 0
    session.onOutput = { _ in announced += 1 }
    session.feed(#"{"jsonrpc":"2.0","id":1,"method":"poke"}"# + "\n")
    #expect(announced == 0)
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","method":"poked","params":{}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":true}"#,
      ])
  }

  @Test func sendErrorWritesAnErrorWithANullId() {
    let session = server.session()
    var announced = 0
    session.onOutput = { _ in announced += 1 }
    session.sendError(.internalError("x"))
    #expect(announced == 1)
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error","data":{"detail":"x"}}}"#
      ])
  }

  // MARK: Rejection and closing

  @Test func aRejectedNDJSONClientIsAnsweredInNDJSONThenClosed() throws {
    let session = server.session()
    session.reject(with: .tooManyConnections(limit: 2))
    session.feed("\n  ")
    #expect(session.pendingOutputBytes == 0)
    #expect(!session.shouldClose)
    session.feed(#"{"jsonrpc":"2.0","id":1,"method":"count"}"# + "\n")
    #expect(session.shouldClose)
    #expect(server.countCalls == 0)
    let lines = session.outputLines()
    #expect(lines.count == 1)
    let reply = try parse(lines[0])
    #expect(reply["id"] == .null)
    #expect(reply["error"]?["code"] == .number("-32002"))
    #expect(reply["error"]?["message"] == .string("Too many connections"))
    #expect(reply["error"]?["data"]?["limit"] == .number("2"))
    session.feed(#"{"jsonrpc":"2.0","id":2,"method":"count"}"# + "\n")
    #expect(session.pendingOutputBytes == 0)
  }

  @Test func aRejectedContentLengthClientIsAnsweredInContentLength() throws {
    let session = server.session()
    session.reject(with: .tooManyConnections(limit: 1))
    session.feed(lspMessage(#"{"jsonrpc":"2.0","id":1,"method":"count"}"#))
    #expect(session.shouldClose)
    let bodies = lspBodies(session.takeOutput())
    #expect(bodies.count == 1)
    #expect(try parse(bodies[0])["error"]?["code"] == .number("-32002"))
  }

  @Test func closeRunsOnCloseOnceAndStopsNotifications() {
    let session = server.session(id: 77)
    var closed: [UInt64] = []
    session.onClose = { closed.append($0.id) }
    session.close()
    session.close()
    #expect(closed == [77])
    #expect(session.isClosed)
    session.notify("late") { w in
      w.beginObject()
      w.endObject()
    }
    #expect(session.pendingOutputBytes == 0)
  }

  @Test func takeOutputEmptiesThePendingOutput() {
    let session = server.session()
    session.feed(#"{"jsonrpc":"2.0","id":1,"method":"echo"}"# + "\n")
    #expect(session.pendingOutputBytes == #"{"jsonrpc":"2.0","id":1,"result":null}"#.utf8.count + 1)
    _ = session.takeOutput()
    #expect(session.pendingOutputBytes == 0)
    #expect(session.takeOutput().isEmpty)
  }

  @Test func bufferedInputBytesCountsAnIncompleteMessage() {
    let session = server.session()
    session.feed(#"{"jsonrpc":"2.0","#)
    #expect(session.bufferedInputBytes == 17)
    session.feed(#""id":1,"method":"echo"}"# + "\n")
    #expect(session.bufferedInputBytes == 0)
    #expect(session.outputLines().count == 1)
  }

  // MARK: Flow control

  @Test func whenTheTransportSaysStopTheRestIsSetAsideUntilResumed() {
    let session = server.session()
    var allowed = false
    session.canContinue = { allowed }
    let requests = (1...3).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"echo"}"# + "\n" }
    session.feed(requests.joined())
    #expect(session.outputLines() == [#"{"jsonrpc":"2.0","id":1,"result":null}"#])
    #expect(session.pendingInputBytes == requests[1].utf8.count + requests[2].utf8.count)
    allowed = true
    session.resumeInput()
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","id":2,"result":null}"#, #"{"jsonrpc":"2.0","id":3,"result":null}"#,
      ])
    #expect(session.pendingInputBytes == 0)
  }

  @Test func inputSetAsideKeepsItsOrderWithNewInput() {
    let session = server.session()
    var allowed = false
    session.canContinue = { allowed }
    session.feed(
      #"{"jsonrpc":"2.0","id":1,"method":"echo"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"#)
    _ = session.takeOutput()
    allowed = true
    session.feed(#""method":"echo"}"# + "\n" + #"{"jsonrpc":"2.0","id":3,"method":"echo"}"# + "\n")
    #expect(
      session.outputLines() == [
        #"{"jsonrpc":"2.0","id":2,"result":null}"#, #"{"jsonrpc":"2.0","id":3,"result":null}"#,
      ])
    #expect(session.pendingInputBytes == 0)
  }

  @Test func stoppingAfterEveryMessageGivesTheSameRepliesInBothFramings() {
    let ndjson = (1...4).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"echo"}"# + "\n" }.joined()
    let lsp = (1...4).map { lspMessage(#"{"jsonrpc":"2.0","id":\#($0),"method":"echo"}"#) }
      .joined()
    for stream in [ndjson, lsp] {
      let whole = server.session()
      whole.feed(stream)
      let expected = whole.takeOutput()
      let session = server.session()
      session.canContinue = { false }
      session.feed(stream)
      var rounds = 0
      while session.pendingInputBytes > 0 && rounds < 10 {
        session.resumeInput()
        rounds += 1
      }
      #expect(rounds == 3)
      #expect(session.takeOutput() == expected)
    }
  }

  @Test func closingDropsInputSetAside() {
    let session = server.session()
    session.canContinue = { false }
    session.feed(String(repeating: #"{"jsonrpc":"2.0","method":"count"}"# + "\n", count: 3))
    #expect(server.countCalls == 1)
    session.close()
    #expect(session.pendingInputBytes == 0)
    session.resumeInput()
    session.feed(#"{"jsonrpc":"2.0","method":"count"}"# + "\n")
    #expect(server.countCalls == 1)
  }

  @Test func bigOutputIsHandedOverMidReadAboveTheFlushThreshold() {
    let session = server.session()
    session.outputFlushThreshold = 50
    var written: [UInt8] = []
    var calls = 0
    session.onOutput = { s in
      calls += 1
      written += s.takeOutput()
    }
    let requests = (1...5).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"text"}"# + "\n" }
    session.feed(requests.joined())
    written += session.takeOutput()
    #expect(calls >= 2)
    let reference = server.session()
    reference.feed(requests.joined())
    #expect(written == reference.takeOutput().array)
  }

  /// The transports' flushes: the socket's gives back only what it wrote (`recyclesEmpty`
  /// false), the HTTP endpoint's and the fleet's replay give back whatever they took.
  @Test(arguments: [false, true])
  func aFlushThatFindsNothingKeepsTheOutputsCapacity(recyclesEmpty: Bool) {
    let session = server.session()
    let one = #"{"jsonrpc":"2.0","id":1,"method":"text"}"# + "\n"
    // Take the output and give it back once written. Answers the capacity of what was
    // taken, nil when it was empty.
    func flush() -> Int? {
      var out = session.takeOutput()
      guard !out.isEmpty else {
        if recyclesEmpty { session.recycleOutput(&out) }
        return nil
      }
      defer { session.recycleOutput(&out) }
      return out.capacity
    }
    // Both buffers (the output and the spare) grow big once.
    for _ in 0..<2 {
      session.feed(String(repeating: one, count: 40))
      _ = flush()
    }
    let big = 40 * one.utf8.count
    // Then small replies, each read's after a flush that finds nothing (a read that
    // completed no message, or the end of a read whose replies were handed over mid-read).
    for round in 0..<4 {
      #expect(flush() == nil)
      for reply in 0..<2 {
        session.feed(one)
        #expect(flush() ?? 0 >= big, "round \(round), reply \(reply): written into a new buffer")
      }
    }
  }

  @Test func recycledOutputBuffersComeBackEmpty() {
    let session = server.session()
    session.feed(#"{"jsonrpc":"2.0","id":1,"method":"text"}"# + "\n")
    var buffer = session.takeOutput()
    #expect(!buffer.isEmpty)
    session.recycleOutput(&buffer)
    session.feed(#"{"jsonrpc":"2.0","id":2,"method":"echo"}"# + "\n")
    #expect(session.outputLines() == [#"{"jsonrpc":"2.0","id":2,"result":null}"#])
  }

  @Test func notificationsRaisedDuringAReplyPrecedeItInContentLengthAndInBatches() {
    let server = TestServer()
    server.dispatcher.register("poke") { call, w throws(RPCError) in
      call.session.notify("poked") { n in
        n.beginObject()
        n.endObject()
      }
      w.bool(true)
    }
    let lsp = server.session()
    lsp.feed(lspMessage(#"{"jsonrpc":"2.0","id":1,"method":"poke"}"#))
    #expect(
      lspBodies(lsp.takeOutput()) == [
        #"{"jsonrpc":"2.0","method":"poked","params":{}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":true}"#,
      ])
    let ndjson = server.session()
    ndjson.feed(
      #"[{"jsonrpc":"2.0","id":1,"method":"echo"},{"jsonrpc":"2.0","id":2,"method":"poke"},{"jsonrpc":"2.0","method":"poke"}]"#
        + "\n")
    #expect(
      ndjson.outputLines() == [
        #"{"jsonrpc":"2.0","method":"poked","params":{}}"#,
        #"{"jsonrpc":"2.0","method":"poked","params":{}}"#,
        #"[{"jsonrpc":"2.0","id":1,"result":null},{"jsonrpc":"2.0","id":2,"result":true}]"#,
      ])
  }

  @Test func aNotificationRaisedByAnAllNotificationBatchIsStillSent() {
    server.dispatcher.register("poke") { call, w throws(RPCError) in
      call.session.notify("poked") { n in
        n.beginObject()
        n.endObject()
      }
      w.bool(true)
    }
    let session = server.session()
    session.feed(#"[{"jsonrpc":"2.0","method":"poke"}]"# + "\n")
    #expect(session.outputLines() == [#"{"jsonrpc":"2.0","method":"poked","params":{}}"#])
  }
}
