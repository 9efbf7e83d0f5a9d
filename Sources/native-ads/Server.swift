import Glibc
import HTTPTransport
import JSONRPC
import NativeAdsRPC
import UVTransport

/// Wires the transport to the protocol: one ``RPCSession`` per ``Connection``, replies of
/// one read written in one write, connection limits, and the lifecycle (stdin EOF, signals,
/// `exit`, the parent process ending).
///
/// Loop-thread only.
final class Server: ConnectionDelegate {
  private let eventLoop: EventLoop
  private let dispatcher: Dispatcher
  private let service: NativeAdsService
  private let options: Options
  private let log: Log
  private var listeners: [Listener] = []
  private var signals: [SignalWatcher] = []
  private var parentWatcher: ProcessWatcher?
  private var sessions: [UInt64: RPCSession] = [:]
  private var connections: [UInt64: Connection] = [:]
  /// `--http` connections still speaking HTTP (a WebSocket becomes a session in `sessions`).
  private var httpEndpoints: [UInt64: HTTPEndpoint] = [:]
  /// Sessions of single HTTP requests made so far (their IDs follow the connections').
  private var requestSessionCount: UInt64 = 0
  /// Work put off to the loop's next turn (``soon(_:)``), and the timer that runs it.
  private var putOff: [() -> Void] = []
  private var putOffTimer: LoopTimer?
  /// TCP, Unix socket and HTTP connections open (`--max-connections` counts them).
  private var socketConnectionCount = 0
  /// Connections over `--max-connections` kept until their first bytes, to be answered
  /// `-32002` in their framing (at most `--max-pending-refusals`).
  private var refusalsWaiting: Set<UInt64> = []
  private var shuttingDown = false
  /// Connections whose input ended, or kept open by a shutdown, until their deferred replies
  /// are sent (a fleet's store); during a shutdown at most until its timeout.
  private var drainingReplies: Set<UInt64> = []
  /// Connections not read while `--max-unanswered` of their requests wait for replies.
  private var heldForReplies: Set<UInt64> = []
  private var shutdownTimer: LoopTimer?
  /// The process's exit status once the loop ends: 1 after `exit` on stdio without
  /// `shutdown`, else 0.
  private(set) var exitStatus: Int32 = 0
  /// Added to each connection's number to make its session ID (a fleet's process number in
  /// the high bits, so that owner IDs are unique across the fleet).
  private let sessionIDBase: UInt64
  /// Runs once when the server is done (every connection closed): what else keeps the loop
  /// alive (a fleet's Redis connections) closes then.
  var onFinish: (() -> Void)?

  init(
    eventLoop: EventLoop, dispatcher: Dispatcher, service: NativeAdsService, options: Options,
    log: Log, sessionIDBase: UInt64 = 0
  ) {
    self.eventLoop = eventLoop
    self.dispatcher = dispatcher
    self.service = service
    self.options = options
    self.log = log
    self.sessionIDBase = sessionIDBase
  }

  /// Opens the transports asked for. Throws when a listen address is unusable.
  func start() throws(UVError) {
    do {
      try open()
    } catch {
      // Whatever opened before the failure is closed, so that the loop can end and free it.
      stopAccepting()
      finish()
      throw error
    }
  }

  private func open() throws(UVError) {
    for signum in [SIGINT, SIGTERM] {
      signals.append(
        try SignalWatcher(eventLoop: eventLoop, signal: signum) { [unowned self] s in
          log.info("signal \(s): stopping")
          shutdown()
        })
    }
    if let tcp = options.tcp {
      listen(
        try Listener.tcp(eventLoop: eventLoop, host: tcp.host, port: tcp.port) {
          [unowned self] connection in accept(connection)
        })
    }
    if let path = options.unix {
      listen(
        try Listener.unix(eventLoop: eventLoop, path: path) { [unowned self] connection in
          accept(connection)
        })
    }
    if let http = options.http {
      let listener = try Listener.tcp(eventLoop: eventLoop, host: http.host, port: http.port) {
        [unowned self] connection in acceptHTTP(connection)
      }
      listeners.append(listener)
      httpPolicy = Self.policy(listening: listener.boundAddress, fallback: http, options: options)
      Log.line("listening on http://\(listener.boundAddress)")
    }
    if let pid = options.parentPID {
      parentWatcher = ProcessWatcher(eventLoop: eventLoop, pid: pid) { [unowned self] in
        log.info("parent process \(pid) ended: stopping")
        shutdown()
      }
    }
    if options.stdio {
      let connection = try Stdio.open(eventLoop: eventLoop)
      attach(connection)
    } else {
      Stdio.protectStdout()
    }
  }

  private func listen(_ listener: Listener) {
    listeners.append(listener)
    Log.line("listening on \(listener.boundAddress)")
  }

  private func accept(_ connection: Connection) {
    log.debug("connection \(connection.id) on \(connection.kind)")
    if socketConnectionCount >= options.maxConnections,
      refusalsWaiting.count >= options.maxPendingRefusals
    {
      // Refusals waiting for their first bytes are bounded too: silent connections over the
      // limit must not pile up. This one is closed without a reply.
      log.debug(
        "connection \(connection.id) closed at once: \(refusalsWaiting.count) refusals waiting")
      connection.close()
      return
    }
    socketConnectionCount += 1
    let session = attach(connection)
    if socketConnectionCount > options.maxConnections {
      refusalsWaiting.insert(connection.id)
      log.warn(
        "connection \(connection.id) refused: \(options.maxConnections) connections already open")
      session.reject(with: .tooManyConnections(limit: options.maxConnections))
    }
  }

  /// What a connection is, for people (the inspector's `loadedBy`).
  private static func label(of connection: Connection, as name: String?) -> String {
    switch connection.kind {
    case .tcp(let peer): "\(name ?? "tcp") \(peer)"
    case .unix: name ?? "unix"
    case .stdio: "stdio"
    }
  }

  // MARK: HTTP

  private var httpPolicy = HostOriginPolicy(host: "127.0.0.1", port: 0)

  /// The Host and Origin checks of the address `--http` listens on (`HOST:PORT`).
  private static func policy(
    listening address: String, fallback: (host: String, port: Int), options: Options
  ) -> HostOriginPolicy {
    var host = fallback.host
    var port = fallback.port
    if let colon = address.lastIndex(of: ":"), let p = Int(address[address.index(after: colon)...])
    {
      port = p
      host = String(address[..<colon]).trimmingBrackets
    }
    return HostOriginPolicy(host: host, port: port, allowedOrigins: options.allowedOrigins)
  }

  private func acceptHTTP(_ connection: Connection) {
    log.debug("connection \(connection.id) on http \(connection.kind)")
    socketConnectionCount += 1
    connections[connection.id] = connection
    connection.delegate = self
    if socketConnectionCount > options.maxConnections {
      log.warn(
        "connection \(connection.id) refused: \(options.maxConnections) connections already open")
      let refusal = HTTPResponse.text(
        503, "\(options.maxConnections) connections already open (--max-connections)")
      refusal.serialized(close: true).withUnsafeBytes { connection.write($0) }
      connection.closeAfterFlush()
      return
    }
    var limits = HTTPLimits()
    limits.maxHeaderBytes = options.maxHeaderBytes
    limits.maxBodyBytes = options.rpc.maxMessageBytes
    let endpoint = HTTPEndpoint(
      connection: connection, limits: limits, policy: httpPolicy,
      soon: { [unowned self] work in soon(work) },
      auction: { [unowned self, weak connection] body, answer in
        let service = service
        let limits = OpenRTBBidder.Limits(
          maximumImpressions: options.maxAuctionImps, maximumAssets: service.maxResponseAssets)
        guard let replica = service.replica else {
          return answer(
            OpenRTBBidder.auction(body, inventory: service.manager.inventory, limits: limits))
        }
        // In a fleet no bid comes from a store older than the last change acknowledged (as a
        // load waits).
        replica.catchUp { caught in
          // A client gone meanwhile gets no auction run for it.
          guard let connection, !connection.isClosing else { return }
          switch caught {
          case .success:
            answer(
              OpenRTBBidder.auction(body, inventory: service.manager.inventory, limits: limits))
          case .failure(let unavailable):
            answer(OpenRTBBidder.unavailable(unavailable.reason, body: body))
          }
        }
      },
      makeRequestSession: { [unowned self] in
        requestSessionCount += 1
        let session = RPCSession(
          id: sessionIDBase + (1 << 39) + requestSessionCount, dispatcher: dispatcher,
          framing: .ndjson)
        session.label = Self.label(of: connection, as: "http")
        service.attachRequest(session)
        return session
      })
    endpoint.onUpgrade = { [unowned self] endpoint, rest in
      let connection = endpoint.connection
      httpEndpoints.removeValue(forKey: connection.id)
      log.debug("connection \(connection.id): WebSocket")
      let session = attach(connection, framing: .webSocket)
      if !rest.isEmpty { rest.withUnsafeBytes { session.receive($0) } }
      flush(session, to: connection)
    }
    httpEndpoints[connection.id] = endpoint
    if shuttingDown {
      endpoint.shutdown()
    } else {
      connection.startReading()
    }
  }

  @discardableResult
  private func attach(_ connection: Connection, framing: Framing? = nil) -> RPCSession {
    let id = sessionIDBase + connection.id
    let session =
      framing.map { RPCSession(id: id, dispatcher: dispatcher, framing: $0) }
      ?? RPCSession(id: id, dispatcher: dispatcher)
    session.label = Self.label(of: connection, as: framing == .webSocket ? "websocket" : nil)
    session.onOutput = { [unowned self, unowned connection] s in flush(s, to: connection) }
    // Unretained: asked only while the connection delivers a read or a drain, and the session
    // drops the closure when the connection closes (connectionDidClose), before it is freed.
    let flow = Unmanaged.passUnretained(connection)
    session.maxUnanswered = options.rpc.maxUnanswered
    session.canContinue = {
      flow._withUnsafeGuaranteedRef { !$0.isPausedForBackpressure && !$0.isClosing }
    }
    service.attach(session)
    sessions[connection.id] = session
    connections[connection.id] = connection
    connection.delegate = self
    connection.startReading()
    return session
  }

  private func flush(_ session: RPCSession, to connection: Connection) {
    var out = session.takeOutput()
    if !out.isEmpty {
      out.withUnsafeBytes { connection.write($0) }
      session.recycleOutput(&out)
    }
    holdForReplies(session, connection)
    if session.shouldClose { connection.closeAfterFlush() }
    if !drainingReplies.isEmpty, session.unansweredRequestCount == 0,
      drainingReplies.remove(connection.id) != nil
    {
      if shuttingDown { session.goingAway() }
      connection.closeAfterFlush()
    }
    if session.exitRequested { exit(session, on: connection) }
  }

  /// `exit` arrived on `connection` (its replies are queued): on stdio the process ends, with
  /// status 0 after `shutdown` and 1 without; any other connection just closes.
  private func exit(_ session: RPCSession, on connection: Connection) {
    guard connection.kind == .stdio else {
      connection.closeAfterFlush()
      return
    }
    if !shuttingDown { exitStatus = session.hasShutDown ? 0 : 1 }
    log.info("exit on stdio: stopping (status \(exitStatus))")
    shutdown()
  }

  /// Runs `work` on the loop's next turn, outside whatever callback is running now. What a
  /// reply resumes (a held connection's set-aside input, the next pipelined HTTP request)
  /// must not be dispatched from inside another message's dispatch: the reply may be
  /// answered while the dispatcher is in the middle of that message (an adapter's answer on
  /// another connection), and the dispatcher handles one message at a time.
  private func soon(_ work: @escaping () -> Void) {
    putOff.append(work)
    guard putOff.count == 1 else { return }
    let timer = putOffTimer ?? LoopTimer(eventLoop: eventLoop)
    putOffTimer = timer
    timer.start(after: 0) { [unowned self] in
      let due = putOff
      putOff = []
      for work in due { work() }
    }
  }

  /// Stops reading a connection with `--max-unanswered` requests waiting for their replies,
  /// and reads it again (what was set aside first, on the loop's next turn) once fewer than
  /// half are.
  private func holdForReplies(_ session: RPCSession, _ connection: Connection) {
    let waiting = session.unansweredRequestCount
    if waiting >= options.rpc.maxUnanswered {
      if heldForReplies.insert(connection.id).inserted {
        log.debug("connection \(connection.id): \(waiting) replies waiting: not reading")
        connection.stopReading()
      }
    } else if !heldForReplies.isEmpty, waiting <= options.rpc.maxUnanswered / 2,
      heldForReplies.remove(connection.id) != nil, !shuttingDown,
      !drainingReplies.contains(connection.id)
    {
      connection.startReading()
      soon { [unowned self] in
        guard sessions[connection.id] === session else { return }
        session.resumeInput()
        // What resuming wrote; and when it filled the connection's requests up again (the
        // rest of one read), it is held again here, to be resumed by a later reply.
        flush(session, to: connection)
      }
    }
  }

  // MARK: ConnectionDelegate

  func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
    if let endpoint = httpEndpoints[connection.id] { return endpoint.received(bytes) }
    guard let session = sessions[connection.id] else { return }
    session.receive(bytes)
    flush(session, to: connection)
  }

  func connectionDidDrain(_ connection: Connection) {
    if let endpoint = httpEndpoints[connection.id] { return endpoint.drained() }
    guard let session = sessions[connection.id] else { return }
    session.resumeInput()
    flush(session, to: connection)
  }

  func connectionDidReachEOF(_ connection: Connection) {
    // Finish what is in flight, deferred replies included, then close (stdin EOF, or a TCP
    // client's half-close).
    if let endpoint = httpEndpoints[connection.id] { return endpoint.endOfInput() }
    let session = sessions[connection.id]
    session?.inputEnded()
    if let session, session.unansweredRequestCount > 0 {
      drainingReplies.insert(connection.id)
    } else {
      connection.closeAfterFlush()
    }
  }

  func connectionDidClose(_ connection: Connection) {
    if connection.kind != .stdio { socketConnectionCount -= 1 }
    refusalsWaiting.remove(connection.id)
    drainingReplies.remove(connection.id)
    heldForReplies.remove(connection.id)
    httpEndpoints.removeValue(forKey: connection.id)?.connectionClosed()
    sessions.removeValue(forKey: connection.id)?.close()
    connections.removeValue(forKey: connection.id)
    log.debug("connection \(connection.id) closed")
    if connection.kind == .stdio && listeners.isEmpty {
      shutdown()
    }
    if shuttingDown && connections.isEmpty { finish() }
  }

  // MARK: Shutdown

  /// Stops accepting, stops reading, lets queued replies drain, then lets the loop end.
  func shutdown() {
    guard !shuttingDown else { return }
    shuttingDown = true
    stopAccepting()
    for (id, connection) in connections {
      // Replies in flight are still sent: a connection waiting for some stops reading and
      // closes once they are written. A WebSocket client is told the server is going away.
      if let endpoint = httpEndpoints[id] {
        endpoint.shutdown()
        continue
      }
      if let session = sessions[id], session.unansweredRequestCount > 0 {
        connection.stopReading()
        drainingReplies.insert(id)
      } else {
        sessions[id]?.goingAway()
        connection.closeAfterFlush()
      }
    }
    if connections.isEmpty {
      finish()
    } else {
      let timer = LoopTimer(eventLoop: eventLoop, keepsLoopAlive: false)
      timer.start(after: options.shutdownTimeoutMilliseconds) { [unowned self] in
        log.warn("shutdown: closing \(connections.count) connection(s) that did not drain in time")
        for connection in connections.values { connection.close() }
      }
      shutdownTimer = timer
    }
  }

  /// Closes the listeners and the parent watcher: no new connection, no more stop signal.
  private func stopAccepting() {
    for listener in listeners { listener.close() }
    listeners.removeAll()
    parentWatcher?.close()
    parentWatcher = nil
  }

  private func finish() {
    putOffTimer?.close()
    putOffTimer = nil
    for s in signals { s.close() }
    signals.removeAll()
    shutdownTimer?.close()
    shutdownTimer = nil
    let done = onFinish
    onFinish = nil
    done?()
  }
}

extension String {
  /// An IPv6 address without the brackets of `[::1]:PORT`.
  fileprivate var trimmingBrackets: String {
    hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
  }
}
