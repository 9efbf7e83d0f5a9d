import CHiredis
import CLibUV
import Glibc
@_spi(LoopAttachment) import UVTransport

/// One connection to a Redis server on the service's libuv loop, through hiredis's asynchronous
/// API and a libuv adapter (`CHiredis/shim.h`, which says why it is not the one Debian ships):
/// no call blocks the loop (a host name is resolved on libuv's
/// thread pool).
///
/// Commands are pipelined: ``send(_:timeoutMs:completion:)`` writes at once and the reply comes
/// to the completion, in the order sent, exactly once. A command that cannot get its reply
/// (no connection, a broken one, a server silent for the command timeout, too many in flight)
/// fails with a ``RedisError`` within a bounded time. A command is late when the timeout has
/// passed since it was sent *and* since the server last answered anything: replies come in
/// order, so a server still answering the commands before it is not unreachable, only busy
/// with them (a burst of large writes), and a silent one fails them all one timeout after its
/// last reply. The connection is made again by itself, with backoff, until ``close()``.
///
/// Loop-thread only: create, use and close it on the loop thread; completions run there.
public final class RedisConnection {
  /// Where the connection is in its life.
  public enum State: Sendable, Equatable {
    /// Resolving the host name.
    case resolving
    /// Connecting (commands sent now wait for the connection and then go out).
    case connecting
    case connected
    /// Waiting to connect again (commands fail at once).
    case waitingToRetry
    case closed
  }

  public let address: RedisAddress
  public let options: RedisOptions
  public private(set) var state: State = .resolving
  /// Why the last connection failed or broke ("" before any failure).
  public private(set) var lastFailure = ""
  /// How many times a connection was established.
  public private(set) var connectionCount = 0
  /// Runs each time a connection is established, before any reply arrives on it.
  public var onConnected: (() -> Void)?
  /// Runs when a connection fails or breaks, with why.
  public var onDisconnected: ((String) -> Void)?

  private let eventLoop: EventLoop
  private var context: UnsafeMutablePointer<redisAsyncContext>?
  /// The commands waiting for their replies, oldest first (`queue[head...]`): Redis answers in
  /// order, so the oldest one's deadline is the one to watch.
  private var queue: [Pending] = []
  private var head = 0
  /// When the server last answered a command (loop milliseconds).
  private var lastReplyAt: UInt64 = 0
  private let deadlineTimer: LoopTimer
  private var armedDeadline: UInt64?
  private let retryTimer: LoopTimer
  private var connectDeadline: UInt64 = 0
  private var failuresInARow = 0
  private var retained: Unmanaged<RedisConnection>?

  /// Starts connecting to `address` at once.
  public init(address: RedisAddress, options: RedisOptions = RedisOptions(), eventLoop: EventLoop) {
    self.address = address
    self.options = options
    self.eventLoop = eventLoop
    deadlineTimer = LoopTimer(eventLoop: eventLoop, keepsLoopAlive: false)
    retryTimer = LoopTimer(eventLoop: eventLoop)
    // Kept alive until close(): hiredis's callbacks hold a plain pointer to it.
    retained = Unmanaged.passRetained(self)
    connect()
  }

  /// How many commands are waiting for their replies.
  public var inFlight: Int { queue.count - head }

  /// Sends one command (its name and arguments, each any bytes); `completion` gets the reply
  /// (an error reply is a reply: ``RedisReply/error(_:)``) or why there is none. `timeoutMs`
  /// overrides the command timeout (a blocking read, `XREAD BLOCK`, needs a longer one).
  public func send(
    _ arguments: [[UInt8]], timeoutMs: UInt64? = nil,
    completion: @escaping (Result<RedisReply, RedisError>) -> Void
  ) {
    let failure: RedisError?
    switch state {
    case .connected, .connecting:
      failure = inFlight >= options.maxInFlight ? .overloaded(limit: options.maxInFlight) : nil
    case .resolving, .waitingToRetry:
      failure = .notConnected(lastFailure: lastFailure.isEmpty ? "connecting" : lastFailure)
    case .closed:
      failure = .closed
    }
    if let failure { return completion(.failure(failure)) }
    let timeout = timeoutMs ?? options.commandTimeoutMs
    let pending = Pending(
      connection: self, completion: completion, timeoutMs: timeout,
      deadline: eventLoop.nowMilliseconds + timeout)
    guard write(arguments, pending) else {
      return completion(.failure(.connectionLost(lastFailure)))
    }
    queue.append(pending)
    arm(pending.deadline)
  }

  /// The same, with each argument given as text.
  public func send(
    _ arguments: String..., timeoutMs: UInt64? = nil,
    completion: @escaping (Result<RedisReply, RedisError>) -> Void
  ) {
    send(arguments.map { Array($0.utf8) }, timeoutMs: timeoutMs, completion: completion)
  }

  /// Closes the connection for good: commands in flight fail with ``RedisError/closed``, and
  /// later ones too.
  public func close() {
    guard state != .closed else { return }
    state = .closed
    drop(.closed)
    deadlineTimer.close()
    retryTimer.close()
    onConnected = nil
    onDisconnected = nil
    retained?.release()
    retained = nil
  }

  // MARK: Connecting

  private func connect() {
    switch address.endpoint {
    case .unix(let path):
      open(redisAsyncConnectUnix(path), what: "unix:\(path)")
    case .tcp(let host, let port):
      state = .resolving
      HostResolver.resolve(host, eventLoop: eventLoop) { [self] result in
        guard state == .resolving else { return }
        switch result {
        case .success(let ip): open(redisAsyncConnect(ip, Int32(port)), what: "\(ip):\(port)")
        case .failure(let error): failed(error.description)
        }
      }
    }
  }

  private func open(_ made: UnsafeMutablePointer<redisAsyncContext>?, what: String) {
    guard let ac = made else { return failed("connect \(what): out of memory") }
    if ac.pointee.err != 0 {
      let why = ac.pointee.errstr.map { String(cString: $0) } ?? "error \(ac.pointee.err)"
      redisAsyncFree(ac)
      return failed("connect \(what): \(why)")
    }
    guard native_ads_redis_attach(ac, eventLoop.uvLoop) == REDIS_OK else {
      redisAsyncFree(ac)
      return failed("connect \(what): cannot watch the socket")
    }
    ac.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    redisAsyncSetConnectCallback(ac, redisConnected)
    redisAsyncSetDisconnectCallback(ac, redisDisconnected)
    context = ac
    state = .connecting
    connectDeadline = eventLoop.nowMilliseconds + options.connectTimeoutMs
    arm(connectDeadline)
    // Logging in goes first in the pipeline; a refusal drops the connection.
    var login: [[String]] = []
    if let password = address.password {
      login.append(["AUTH"] + (address.username.map { [$0] } ?? []) + [password])
    }
    if address.database != 0 { login.append(["SELECT", String(address.database)]) }
    for command in login {
      send(command.map { Array($0.utf8) }, timeoutMs: options.connectTimeoutMs) {
        [self] result in
        guard case .success(.error(let message)) = result, context == ac else { return }
        lostConnection("\(command[0]) refused: \(message)", reason: .connectionLost(message))
      }
    }
  }

  fileprivate func connected(_ ac: UnsafeRawPointer?, ok: Bool) {
    guard let context, ac == UnsafeRawPointer(context) else { return }
    guard ok else {
      // hiredis frees the context right after this callback, failing what it holds.
      let why = context.pointee.errstr.map { String(cString: $0) } ?? "connect failed"
      self.context = nil
      return failed(why)
    }
    state = .connected
    failuresInARow = 0
    connectionCount += 1
    onConnected?()
    rearm()
  }

  fileprivate func disconnected(_ ac: UnsafeRawPointer?) {
    // A context this object dropped itself has already been forgotten.
    guard let context, ac == UnsafeRawPointer(context) else { return }
    let why = context.pointee.errstr.map { String(cString: $0) } ?? "closed by the server"
    self.context = nil
    failed(why)
  }

  /// Connecting failed or the connection broke: wait, then connect again.
  private func failed(_ why: String) {
    guard state != .closed else { return }
    lastFailure = why
    state = .waitingToRetry
    failuresInARow += 1
    let ceiling = min(
      options.reconnectMaxDelayMs,
      options.reconnectInitialDelayMs << UInt64(min(failuresInARow - 1, 20)))
    let delay = ceiling / 2 + UInt64.random(in: 0...max(1, ceiling - ceiling / 2))
    retryTimer.start(after: delay) { [self] in
      guard state == .waitingToRetry else { return }
      connect()
    }
    onDisconnected?(why)
  }

  /// Drops the current connection (commands in flight fail with `reason`) and connects again.
  private func lostConnection(_ why: String, reason: RedisError) {
    // Not connected from here on, before the failed commands' completions run: one that
    // sends again fails at once instead of writing to the context being freed.
    state = .waitingToRetry
    lastFailure = why
    drop(reason)
    failed(why)
  }

  /// Frees the current context, failing every command in flight with `reason`.
  private func drop(_ reason: RedisError) {
    for pending in queue[head...] { pending.failure = reason }
    queue.removeAll()
    head = 0
    guard let ac = context else { return }
    context = nil
    // Its connect and disconnect callbacks must not reach this object any more (which may be
    // gone by the time a deferred free runs them).
    ac.pointee.data = nil
    // Runs the callbacks of every command in flight with no reply: now, or (inside a callback
    // of this context) as soon as that callback returns.
    redisAsyncFree(ac)
  }

  // MARK: Commands

  fileprivate final class Pending {
    let connection: RedisConnection
    let completion: (Result<RedisReply, RedisError>) -> Void
    let timeoutMs: UInt64
    let deadline: UInt64
    /// Set when the command is failed before hiredis runs its callback.
    var failure: RedisError?

    init(
      connection: RedisConnection,
      completion: @escaping (Result<RedisReply, RedisError>) -> Void, timeoutMs: UInt64,
      deadline: UInt64
    ) {
      self.connection = connection
      self.completion = completion
      self.timeoutMs = timeoutMs
      self.deadline = deadline
    }
  }

  /// Hands the command to hiredis, which formats it into its output buffer at once.
  private func write(_ arguments: [[UInt8]], _ pending: Pending) -> Bool {
    guard let ac = context else { return false }
    let total = arguments.reduce(0) { $0 + $1.count }
    let storage = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, total))
    defer { storage.deallocate() }
    var pointers: [UnsafePointer<CChar>?] = []
    var lengths: [Int] = []
    pointers.reserveCapacity(arguments.count)
    lengths.reserveCapacity(arguments.count)
    var offset = 0
    for argument in arguments {
      argument.withUnsafeBufferPointer { bytes in
        if let base = bytes.baseAddress {
          UnsafeMutableRawPointer(storage + offset).copyMemory(from: base, byteCount: bytes.count)
        }
      }
      pointers.append(UnsafePointer(storage + offset))
      lengths.append(argument.count)
      offset += argument.count
    }
    let box = Unmanaged.passRetained(pending).toOpaque()
    let status = pointers.withUnsafeMutableBufferPointer { argv in
      redisAsyncCommandArgv(
        ac, redisReplied, box, Int32(arguments.count), argv.baseAddress, lengths)
    }
    if status != REDIS_OK {
      Unmanaged<Pending>.fromOpaque(box).release()
      return false
    }
    return true
  }

  fileprivate func replied(_ pending: Pending, _ reply: RedisReply?) {
    if reply != nil { lastReplyAt = eventLoop.nowMilliseconds }
    if head < queue.count, queue[head] === pending {
      head += 1
      if head == queue.count {
        queue.removeAll(keepingCapacity: queue.capacity <= 1024)
        head = 0
        if state == .connected, armedDeadline != nil {
          armedDeadline = nil
          deadlineTimer.stop()
        }
      } else if head >= 1024, head * 2 >= queue.count {
        queue.removeFirst(head)
        head = 0
      }
    }
    if let reply, pending.failure == nil {
      pending.completion(.success(reply))
    } else {
      pending.completion(.failure(pending.failure ?? .connectionLost(currentFailure)))
    }
  }

  /// Why the current context is going away, as far as hiredis says.
  private var currentFailure: String {
    context?.pointee.errstr.map { String(cString: $0) } ?? lastFailure
  }

  // MARK: Deadlines

  private func arm(_ deadline: UInt64) {
    if let armedDeadline, armedDeadline <= deadline { return }
    armedDeadline = deadline
    let now = eventLoop.nowMilliseconds
    deadlineTimer.start(after: deadline > now ? deadline - now : 0) { [self] in
      armedDeadline = nil
      checkDeadlines()
    }
  }

  /// Arms the timer for the next deadline there is, or stops it.
  private func rearm() {
    var next: UInt64?
    if state == .connecting { next = connectDeadline }
    if head < queue.count { next = min(next ?? .max, headDeadline) }
    guard let next else {
      armedDeadline = nil
      deadlineTimer.stop()
      return
    }
    armedDeadline = nil
    arm(next)
  }

  /// When the oldest command in flight is late: its timeout after it was sent and after the
  /// server's last reply.
  private var headDeadline: UInt64 {
    let oldest = queue[head]
    return max(oldest.deadline, lastReplyAt + oldest.timeoutMs)
  }

  private func checkDeadlines() {
    let now = eventLoop.nowMilliseconds
    if state == .connecting, now >= connectDeadline {
      return lostConnection(
        "no connection within \(options.connectTimeoutMs) ms",
        reason: .notConnected(lastFailure: "no connection within \(options.connectTimeoutMs) ms"))
    }
    // A reply that came while the loop was busy elsewhere is not late: read what is there
    // first (its completions run now, as they would from the poll), one read (16 KiB, each
    // making progress) at a time while an overdue command still waits and more has arrived.
    while head < queue.count, now >= headDeadline, state == .connected, let ac = context,
      native_ads_redis_unread_bytes(ac) > 0
    {
      redisAsyncHandleRead(ac)
    }
    if head < queue.count, now >= headDeadline {
      let timeout = queue[head].timeoutMs
      return lostConnection(
        "no reply within \(timeout) ms", reason: .timedOut(milliseconds: timeout))
    }
    rearm()
  }
}

// hiredis's callbacks: C function pointers, so plain functions that find the connection
// through the context's `data` (connect, disconnect) or the command's `privdata` (replies).

private func redisConnected(_ ac: UnsafePointer<redisAsyncContext>?, _ status: Int32) {
  guard let data = native_ads_redis_context_data(ac) else { return }
  Unmanaged<RedisConnection>.fromOpaque(data).takeUnretainedValue()
    .connected(UnsafeRawPointer(ac), ok: status == REDIS_OK)
}

private func redisDisconnected(_ ac: UnsafePointer<redisAsyncContext>?, _ status: Int32) {
  guard let data = native_ads_redis_context_data(ac) else { return }
  Unmanaged<RedisConnection>.fromOpaque(data).takeUnretainedValue()
    .disconnected(UnsafeRawPointer(ac))
}

private func redisReplied(
  _ ac: UnsafeMutablePointer<redisAsyncContext>?, _ reply: UnsafeMutableRawPointer?,
  _ privdata: UnsafeMutableRawPointer?
) {
  let pending = Unmanaged<RedisConnection.Pending>.fromOpaque(privdata!).takeRetainedValue()
  pending.connection.replied(
    pending, reply.map { RedisReply($0.assumingMemoryBound(to: redisReply.self)) })
}
