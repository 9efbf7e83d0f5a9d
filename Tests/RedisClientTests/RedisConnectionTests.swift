import Glibc
import LoopTestSupport
import RedisClient
import Testing
@_spi(Testing) import UVTransport

/// The Redis client against a real `redis-server`: replies of every type, pipelining,
/// logging in, and what happens when the server is missing, killed, frozen or slow.
@Suite(.serialized) struct RedisConnectionTests {
  /// Reconnects within tens of milliseconds (the defaults wait up to two seconds).
  private let quickRetries: RedisOptions = {
    var options = RedisOptions()
    options.reconnectInitialDelayMs = 10
    options.reconnectMaxDelayMs = 50
    return options
  }()

  /// Sends `command` and runs the loop until its reply (or failure) comes.
  private func call(
    _ connection: RedisConnection, _ loop: EventLoop, _ command: String...,
    timeoutMs: UInt64? = nil
  ) -> Result<RedisReply, RedisError>? {
    var result: Result<RedisReply, RedisError>?
    connection.send(command.map { Array($0.utf8) }, timeoutMs: timeoutMs) { result = $0 }
    _ = loop.run(until: { result != nil }, timeoutMilliseconds: 10_000)
    return result
  }

  private func connect(_ url: String, _ loop: EventLoop, options: RedisOptions = RedisOptions())
    throws -> RedisConnection
  {
    let connection = RedisConnection(
      address: try RedisAddress(parsing: url), options: options, eventLoop: loop)
    #expect(loop.run(until: { connection.state == .connected }, timeoutMilliseconds: 10_000))
    return connection
  }

  @Test func everyReplyTypeComesBackAsSent() throws {
    let server = try RedisServer()
    let loop = try EventLoop()
    let redis = try connect(server.unixURL, loop)
    let binary: [UInt8] = [0, 1, 2, 255, 10, 13, 0x22]
    var set: Result<RedisReply, RedisError>?
    redis.send([Array("SET".utf8), Array("k".utf8), binary]) { set = $0 }
    #expect(loop.run(until: { set != nil }))
    #expect(set == .success(.status("OK")))
    #expect(call(redis, loop, "GET", "k") == .success(.string(binary)))
    #expect(call(redis, loop, "GET", "missing") == .success(.null))
    #expect(call(redis, loop, "INCRBY", "n", "41") == .success(.integer(41)))
    #expect(call(redis, loop, "RPUSH", "l", "a", "", "c") == .success(.integer(3)))
    #expect(
      call(redis, loop, "LRANGE", "l", "0", "-1")
        == .success(.array([.string(Array("a".utf8)), .string([]), .string(Array("c".utf8))])))
    guard case .success(.error(let message)) = call(redis, loop, "INCR", "l") else {
      Issue.record("INCR on a list is an error reply")
      return
    }
    #expect(message.hasPrefix("WRONGTYPE"))
    #expect(call(redis, loop, "PING") == .success(.status("PONG")))
    redis.close()
    #expect(loop.runToCompletion())
  }

  @Test func pipelinedCommandsAreAnsweredInOrder() throws {
    let server = try RedisServer()
    let loop = try EventLoop()
    let redis = try connect(server.unixURL, loop)
    var replies: [Int64] = []
    for _ in 0..<5_000 {
      redis.send("INCR", "counter") { result in
        if case .success(.integer(let value)) = result { replies.append(value) }
      }
    }
    #expect(redis.inFlight > 0)
    #expect(loop.run(until: { replies.count == 5_000 }))
    #expect(replies == Array(1...5_000))
    #expect(redis.inFlight == 0)
    redis.close()
    #expect(loop.runToCompletion())
  }

  @Test func commandsFailAtOnceWhileTheServerIsDownAndTheConnectionComesBackByItself() throws {
    let server = try RedisServer()
    server.stop()
    let loop = try EventLoop()
    let options = quickRetries
    var disconnects: [String] = []
    let redis = RedisConnection(
      address: try RedisAddress(parsing: server.unixURL), options: options, eventLoop: loop)
    redis.onDisconnected = { disconnects.append($0) }
    #expect(loop.run(until: { disconnects.count >= 2 }))
    #expect(redis.state != .connected)
    guard case .failure(let error) = call(redis, loop, "PING") else {
      Issue.record("PING with no server must fail")
      return
    }
    switch error {
    case .notConnected, .connectionLost: break
    default: Issue.record("unexpected failure \(error)")
    }
    #expect(!redis.lastFailure.isEmpty)

    try server.start()
    #expect(loop.run(until: { redis.state == .connected }))
    #expect(call(redis, loop, "PING") == .success(.status("PONG")))
    #expect(redis.connectionCount == 1)
    redis.close()
    #expect(loop.runToCompletion())
  }

  @Test func aKilledServerFailsTheCommandsInFlightAndARestartedOneIsReconnected() throws {
    let server = try RedisServer()
    let loop = try EventLoop()
    let options = quickRetries
    let redis = try connect(server.unixURL, loop, options: options)
    var connects = 0
    redis.onConnected = { connects += 1 }
    // A blocking pop holds a command in flight until the server dies.
    var popped: Result<RedisReply, RedisError>?
    redis.send("BLPOP", "never", "0", timeoutMs: 60_000) { popped = $0 }
    #expect(loop.run(until: { redis.inFlight == 1 }))
    server.stop()
    #expect(loop.run(until: { popped != nil }))
    guard case .failure(.connectionLost) = popped else {
      Issue.record(
        "the command in flight fails with connectionLost, got \(String(describing: popped))")
      return
    }
    try server.start()
    #expect(loop.run(until: { connects == 1 && redis.state == .connected }))
    #expect(call(redis, loop, "PING") == .success(.status("PONG")))
    redis.close()
    #expect(loop.runToCompletion())
  }

  @Test func aFrozenServerTimesOutTheCommandAndTheConnectionIsMadeAgainWhenItThaws() throws {
    let server = try RedisServer()
    let loop = try EventLoop()
    var options = quickRetries
    options.commandTimeoutMs = 200
    options.connectTimeoutMs = 200
    let redis = try connect(server.unixURL, loop, options: options)
    server.suspend()
    let sentAt = loop.nowMilliseconds
    let frozen = call(redis, loop, "PING")
    let waited = loop.nowMilliseconds - sentAt
    #expect(frozen == .failure(.timedOut(milliseconds: 200)))
    // Bounded: the timeout, give or take a loop iteration (never much more).
    #expect(waited >= 200 && waited < 2_000)
    server.resume()
    #expect(loop.run(until: { redis.state == .connected }))
    #expect(call(redis, loop, "PING") == .success(.status("PONG")))
    redis.close()
    #expect(loop.runToCompletion())
  }

  /// A script that keeps the server busy for `ms` milliseconds of its own clock.
  private func busyScript(_ ms: Int) -> String {
    """
    local t = redis.call('TIME'); local start = t[1] * 1000000 + t[2]
    repeat t = redis.call('TIME') until t[1] * 1000000 + t[2] - start >= \(ms * 1000)
    return 1
    """
  }

  @Test func aCommandQueuedBehindOnesTheServerIsStillAnsweringIsNotLate() throws {
    let server = try RedisServer()
    let loop = try EventLoop()
    var options = quickRetries
    options.commandTimeoutMs = 400
    let redis = try connect(server.unixURL, loop, options: options)
    // Three scripts of 300 ms: A at 0 (answered at 300), B at once (run 300-600), C 100 ms
    // after A's reply (run 600-900). B and C are answered 600 and 500 ms after they were
    // sent, past the timeout, but never 400 ms after the server's last reply.
    var results: [String: Result<RedisReply, RedisError>] = [:]
    let gap = LoopTimer(eventLoop: loop)
    defer { gap.close() }
    redis.send("EVAL", busyScript(300), "0") { result in
      results["A"] = result
      gap.start(after: 100) { redis.send("EVAL", busyScript(300), "0") { results["C"] = $0 } }
    }
    let start = LoopTimer(eventLoop: loop)
    defer { start.close() }
    start.start(after: 10) {
      redis.send("EVAL", busyScript(300), "0") { results["B"] = $0 }
    }
    #expect(loop.run(until: { results.count == 3 }, timeoutMilliseconds: 10_000))
    #expect(
      results == [
        "A": .success(.integer(1)), "B": .success(.integer(1)), "C": .success(.integer(1)),
      ])
    redis.close()
    #expect(loop.runToCompletion())
  }

  @Test func aReplyThatCameWhileTheLoopWasBusyIsNotLate() throws {
    let server = try RedisServer()
    let loop = try EventLoop()
    var options = quickRetries
    options.commandTimeoutMs = 100
    let redis = try connect(server.unixURL, loop, options: options)
    var result: Result<RedisReply, RedisError>?
    redis.send("PING") { result = $0 }
    _ = loop.runOnce(blocking: false)  // writes it
    // The loop thread is then busy for three timeouts while the reply arrives: the timer runs
    // before the socket is polled, and must find the reply there.
    usleep(300_000)
    #expect(loop.run(until: { result != nil }, timeoutMilliseconds: 10_000))
    #expect(result == .success(.status("PONG")))
    redis.close()
    #expect(loop.runToCompletion())
  }

  @Test func aCommandSentFromTheCompletionOfATimedOutOneFailsAtOnceAsNotConnected() throws {
    let server = try RedisServer()
    let loop = try EventLoop()
    var options = quickRetries
    options.commandTimeoutMs = 100
    let redis = try connect(server.unixURL, loop, options: options)
    server.suspend()
    var first: Result<RedisReply, RedisError>?
    var resent: Result<RedisReply, RedisError>?
    redis.send("PING") { result in
      first = result
      redis.send("PING") { resent = $0 }
    }
    #expect(loop.run(until: { resent != nil }))
    #expect(first == .failure(.timedOut(milliseconds: 100)))
    guard case .failure(.notConnected) = resent else {
      Issue.record(
        "the resend must fail at once, not go to the dropped connection: \(String(describing: resent))"
      )
      return
    }
    server.resume()
    #expect(loop.run(until: { redis.state == .connected }))
    redis.close()
    #expect(loop.runToCompletion())
  }

  @Test func commandsBeyondTheInFlightLimitFailAtOnce() throws {
    let server = try RedisServer()
    let loop = try EventLoop()
    var options = RedisOptions()
    options.maxInFlight = 10
    let redis = try connect(server.unixURL, loop, options: options)
    var results: [Result<RedisReply, RedisError>] = []
    for _ in 0..<11 { redis.send("PING") { results.append($0) } }
    #expect(results == [.failure(.overloaded(limit: 10))])
    #expect(loop.run(until: { results.count == 11 }))
    #expect(results.dropFirst().allSatisfy { $0 == .success(.status("PONG")) })
    redis.close()
    #expect(loop.runToCompletion())
  }

  @Test func aPasswordAndADatabaseInTheURLAreUsedOnEveryConnection() throws {
    let server = try RedisServer(arguments: ["--requirepass", "s3cret"])
    let loop = try EventLoop()
    let db3 = try connect("unix:\(server.socketPath)?db=3&password=s3cret", loop)
    #expect(call(db3, loop, "SET", "where", "three") == .success(.status("OK")))
    let db0 = try connect("unix:\(server.socketPath)?password=s3cret", loop)
    #expect(call(db0, loop, "GET", "where") == .success(.null))
    #expect(call(db0, loop, "SELECT", "3") == .success(.status("OK")))
    #expect(call(db0, loop, "GET", "where") == .success(.string(Array("three".utf8))))

    let options = quickRetries
    let wrong = RedisConnection(
      address: try RedisAddress(parsing: "unix:\(server.socketPath)?password=nope"),
      options: options, eventLoop: loop)
    #expect(loop.run(until: { wrong.lastFailure.contains("AUTH refused") }))
    for redis in [db3, db0, wrong] { redis.close() }
    #expect(loop.runToCompletion())
  }

  @Test func aHostNameIsResolvedWithoutBlockingAndTCPWorks() throws {
    let server = try RedisServer(tcp: true)
    let loop = try EventLoop()
    let redis = try connect("redis://localhost:\(server.port!)/2", loop)
    #expect(call(redis, loop, "PING") == .success(.status("PONG")))
    redis.close()
    #expect(loop.runToCompletion())
  }

  @Test func closingFailsWhatIsInFlightAndEverythingAfter() throws {
    let server = try RedisServer()
    let loop = try EventLoop()
    let redis = try connect(server.unixURL, loop)
    var popped: Result<RedisReply, RedisError>?
    redis.send("BLPOP", "never", "0", timeoutMs: 60_000) { popped = $0 }
    redis.close()
    #expect(popped == .failure(.closed))
    var after: Result<RedisReply, RedisError>?
    redis.send("PING") { after = $0 }
    #expect(after == .failure(.closed))
    #expect(loop.runToCompletion())
  }
}
