/// The protocol state of one connection: its framer, its detected framing, its pending output
/// and any input it had to set aside. No I/O: the transport feeds it bytes with
/// ``receive(_:)`` and writes what ``takeOutput()`` returns.
///
/// Output reaches the transport in three ways: after a `receive` returns (the transport takes
/// everything one read produced and writes it at once); through ``onOutput`` in the middle of a
/// read, whenever the pending output passes ``outputFlushThreshold`` (so a read that triggers
/// megabytes of replies never holds them all); and through ``onOutput`` for notifications
/// caused by another connection.
///
/// Flow control: after each message the session asks ``canContinue`` (the transport says
/// `false` while the connection is over its high-water mark). When told to stop, the rest of
/// the bytes already read are set aside and handled by ``resumeInput()`` once the peer has
/// read its replies, so a client that stops reading cannot make the server buffer without
/// bound.
///
/// Loop-thread only, like everything that touches it.
public final class RPCSession {
  /// Unique for the life of the process; the domain uses it as the owner of loaded ads.
  public let id: UInt64
  public let dispatcher: Dispatcher
  /// What the connection is, for people (`tcp 127.0.0.1:50312`, `stdio`, `websocket ...`).
  public var label = ""
  private var framer: MessageFramer
  private var detectedFraming: Framing?
  private var output = ByteBuffer()
  /// A written output buffer given back (``recycleOutput(_:)``), to take the next output.
  private var spareOutput: ByteBuffer?
  private var receiving = false
  private var rejection: RPCError?
  private var pendingInput: [UInt8] = []
  /// Set while a reply is being written straight into `output`.
  private var replyMark: Int?
  /// Notifications raised while a reply was being written; they are placed before it.
  private var notificationsDuringReply = ByteBuffer()

  /// Pending output that triggers a mid-read ``onOutput`` (default 64 KiB).
  public var outputFlushThreshold = 64 * 1024
  /// Called when output should be written now (mid-read, or outside any read).
  public var onOutput: ((RPCSession) -> Void)?
  /// Asked after each message: may the session handle the next one now?
  public var canContinue: (() -> Bool)?
  /// Called once when the session is closed (the RPC layer releases the session's ads).
  public var onClose: ((RPCSession) -> Void)?
  /// Set when the stream cannot continue (a broken Content-Length header): write the output,
  /// then close the connection.
  public private(set) var shouldClose = false
  public private(set) var isClosed = false

  public init(id: UInt64, dispatcher: Dispatcher) {
    self.id = id
    self.dispatcher = dispatcher
    self.framer = MessageFramer(maxMessageBytes: dispatcher.limits.maxMessageBytes)
  }

  /// A session whose framing is known from the start: `.webSocket` after an HTTP upgrade
  /// (its input is the client's frames), `.ndjson` for one HTTP request's body given whole to
  /// ``receiveMessage(_:)``.
  public init(id: UInt64, dispatcher: Dispatcher, framing: Framing) {
    self.id = id
    self.dispatcher = dispatcher
    let limit = dispatcher.limits.maxMessageBytes
    self.framer =
      framing == .webSocket
      ? MessageFramer(webSocketMaxMessageBytes: limit) : MessageFramer(maxMessageBytes: limit)
    self.detectedFraming = framing
  }

  /// Handles `body` as one whole message (an HTTP request's body), answering `-32600`-style
  /// errors as for any message; one over the size limit is answered as too large.
  public func receiveMessage(_ body: UnsafeRawBufferPointer) {
    guard !shouldClose, !isClosed, !exitRequested else { return }
    receiving = true
    defer { receiving = false }
    if body.count > dispatcher.limits.maxMessageBytes {
      appendError(.messageTooLarge(size: body.count, limit: dispatcher.limits.maxMessageBytes))
    } else {
      dispatcher.handle(message: body, session: self)
    }
  }

  /// The server is going away (a shutdown): a WebSocket client is sent a close frame (1001)
  /// before its connection closes; other framings have nothing to say.
  public func goingAway() {
    guard framing == .webSocket, !isClosed, !sentClose else { return }
    closeWebSocket(code: 1001, "server going away")
    if !receiving { onOutput?(self) }
  }

  /// Set once a WebSocket close frame is queued: nothing is written after it.
  private var sentClose = false

  /// The framing replies use: the one the client chose, NDJSON before it has sent anything.
  public var framing: Framing { detectedFraming ?? .ndjson }

  /// Bytes waiting to be taken by the transport.
  public var pendingOutputBytes: Int { output.count }

  /// Bytes read but set aside until the peer drains its replies.
  public var pendingInputBytes: Int { pendingInput.count }

  /// Bytes of incomplete messages held by the framer.
  public var bufferedInputBytes: Int { framer.bufferedBytes }

  // MARK: - Input

  /// Feeds bytes read from the connection; replies accumulate in the output.
  public func receive(_ chunk: UnsafeRawBufferPointer) {
    guard !shouldClose, !isClosed, !exitRequested else { return }
    if detectedFraming == nil { detectedFraming = MessageFramer.detect(chunk)?.0 }
    if let rejection {
      // Learn the client's framing from its first bytes, answer with the error, then close.
      if detectedFraming != nil {
        appendError(rejection)
        shouldClose = true
      }
      return
    }
    if !pendingInput.isEmpty {
      pendingInput.append(contentsOf: chunk)
      resumeInput()
      return
    }
    let consumed = feed(chunk)
    if consumed < chunk.count {
      pendingInput.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[consumed...]))
    }
  }

  /// Handles input set aside by flow control. The transport calls it when the connection has
  /// drained below its low-water mark, before reading again.
  public func resumeInput() {
    guard !pendingInput.isEmpty, !shouldClose, !isClosed, !exitRequested else { return }
    var input: [UInt8] = []
    swap(&input, &pendingInput)
    let consumed = input.withUnsafeBytes { feed($0) }
    if consumed < input.count {
      input.removeSubrange(0..<consumed)
      pendingInput = input
    }
  }

  private func feed(_ chunk: UnsafeRawBufferPointer) -> Int {
    receiving = true
    defer { receiving = false }
    return framer.feed(chunk) { event in
      switch event {
      case .message(let bytes):
        dispatcher.handle(message: bytes, session: self)
      case .oversized(let size):
        appendError(.messageTooLarge(size: size, limit: dispatcher.limits.maxMessageBytes))
      case .fatal(let reason):
        appendError(.parseError(reason))
        shouldClose = true
        return false
      case .webSocket(let control):
        return answer(control)
      }
      if output.count >= outputFlushThreshold { onOutput?(self) }
      return !isClosed && !exitRequested && unanswered.count < maxUnanswered
        && (canContinue?() ?? true)
    }
  }

  /// Answers a WebSocket control frame: a pong for a ping; for a close or a broken protocol, a
  /// close frame, after which the connection closes. Nothing is written after that frame:
  /// replies still in flight then are dropped (the client closed, or broke the protocol).
  private func answer(_ control: WebSocketControl) -> Bool {
    switch control {
    case .ping(let payload):
      guard !sentClose else { return true }
      Framing.webSocketHeader(payload.count, opcode: 0xA, into: &output)
      output.append(contentsOf: payload)
      return true
    case .close(let code):
      closeWebSocket(code: code ?? 1000, "")  // the framer let only valid codes through
    case .violation(let code, let reason):
      closeWebSocket(code: code, reason)
    }
    return false
  }

  private func closeWebSocket(code: UInt16, _ reason: String) {
    shouldClose = true
    guard !sentClose else { return }
    sentClose = true
    Framing.webSocketClose(code: code, reason: reason, into: &output)
  }

  // MARK: - Output

  /// Hands the pending output to the caller (the transport), leaving the session empty.
  /// Give the array back with ``recycleOutput(_:)`` once written to reuse its capacity.
  /// With nothing pending the session keeps its buffer (and its capacity) and an empty one
  /// is handed out: a flush that finds nothing must not trade the output's capacity for the
  /// spare's, or the next replies are written into a buffer that grows from nothing.
  public func takeOutput() -> ByteBuffer {
    guard !output.isEmpty else { return ByteBuffer() }
    var taken = spareOutput ?? ByteBuffer(capacity: 0)
    spareOutput = nil
    swap(&taken, &output)
    return taken
  }

  /// Returns a buffer obtained from ``takeOutput()`` whose bytes have been written.
  /// One with no storage (what an empty ``takeOutput()`` handed out) leaves the spare alone.
  public func recycleOutput(_ buffer: inout ByteBuffer) {
    guard buffer.capacity > 0, buffer.capacity <= 4 * outputFlushThreshold else { return }
    buffer.removeAll(keepingCapacity: true)
    spareOutput = buffer
  }

  /// Queues a notification (`{"jsonrpc":"2.0","method":...,"params":...}`) to this connection.
  /// `writeParams` must write exactly one JSON object.
  public func notify(_ method: StaticString, _ writeParams: (inout JSONWriter) -> Void) {
    guard !isClosed else { return }
    var w = JSONWriter(capacity: 128)
    w.raw(#"{"jsonrpc":"2.0","method":"#.utf8)
    w.string(method.description)
    w.key("params")
    writeParams(&w)
    w.endObject()
    appendFramed(w.bytes)
    if !receiving { onOutput?(self) }
  }

  /// Queues an error response with `"id": null` (connection-level errors).
  public func sendError(_ error: RPCError) {
    appendError(error)
    if !receiving { onOutput?(self) }
  }

  /// Writes a framed message now (a deferred reply, a batch completed later) and flushes it
  /// unless a read is being handled (which flushes at its end).
  func sendFramed(_ body: ByteBuffer) {
    guard !isClosed else { return }
    appendFramed(body)
    if !receiving { onOutput?(self) }
  }

  // MARK: - Requests from the server

  /// What a request the server sent came back with. The `JSONRef` is valid only during the
  /// callback.
  public typealias ResponseHandler = (Result<JSONRef, RPCError>) -> Void

  private var pendingRequests: [String: ResponseHandler] = [:]
  private var nextRequestNumber = 0

  /// Requests sent to this connection and not answered yet.
  public var pendingRequestCount: Int { pendingRequests.count }

  /// Sends a request to the client (the server acting as a JSON-RPC client, for mediation
  /// adapters). Its id is a string `"native-ads:N"`, so it never collides with the client's
  /// own ids. `onResponse` runs once, with the client's answer, or with a `-32000` error when
  /// the connection closes first; never after ``forgetRequest(_:notifyPeer:)``. Returns the id.
  @discardableResult
  public func sendRequest(
    _ method: StaticString, _ writeParams: (inout JSONWriter) -> Void,
    onResponse: @escaping ResponseHandler
  ) -> String {
    nextRequestNumber += 1
    let id = "native-ads:\(nextRequestNumber)"
    guard !isClosed else {
      onResponse(.failure(.connectionClosed))
      return id
    }
    pendingRequests[id] = onResponse
    var w = JSONWriter(capacity: 256)
    w.raw(#"{"jsonrpc":"2.0","id":"#.utf8)
    w.string(id)
    w.key("method")
    w.string(method.description)
    w.key("params")
    writeParams(&w)
    w.endObject()
    sendFramed(w.bytes)
    return id
  }

  /// Forgets a request the server sent (after its timeout, or when the load it serves was
  /// cancelled): a late answer is then ignored. With `notifyPeer`, the peer is sent
  /// `$/cancelRequest {"id"}` so that it can stop working on it.
  public func forgetRequest(_ id: String, notifyPeer: Bool = false) {
    guard pendingRequests.removeValue(forKey: id) != nil else { return }
    guard notifyPeer else { return }
    notify("$/cancelRequest") { w in
      w.beginObject()
      w.key("id")
      w.string(id)
      w.endObject()
    }
  }

  /// Whether `id` is one the server gives its own requests (`"native-ads:N"`).
  static func isServerRequestID(_ id: JSONRef) -> Bool {
    guard id.kind == .string else { return false }
    let raw = id.rawBytes
    let prefix = #""native-ads:"#.utf8
    return raw.count > prefix.count && raw.starts(with: prefix)
  }

  /// Routes a response to the request it answers; unknown ids are ignored.
  func handleResponse(id: JSONRef, _ outcome: Result<JSONRef, RPCError>) {
    guard let key = id.stringValue, let handler = pendingRequests.removeValue(forKey: key) else {
      return
    }
    handler(outcome)
  }

  /// Refuses the connection: the first bytes it sends are answered with `error` (in its own
  /// framing) and the connection is then closed. Used for the connection limit.
  public func reject(with error: RPCError) {
    rejection = error
  }

  // MARK: - Lifecycle (contract section 8)

  /// Whether `shutdown` was received: from then on every request but `exit` is answered
  /// `-32600` and notifications are ignored; replies in flight are still delivered.
  public private(set) var hasShutDown = false
  /// Whether `exit` was received: the session reads no further message, and the transport,
  /// once the output is written, ends the process (stdio) or closes the connection.
  public private(set) var exitRequested = false

  /// `shutdown` was received.
  public func beginShutdown() { hasShutDown = true }

  /// `exit` was received.
  public func requestExit() { exitRequested = true }

  /// Deferred replies not answered yet (requests and notifications alike: the work of each is
  /// in flight), by the order they were deferred in.
  private var unanswered: [UInt64: DeferredReply] = [:]
  private var deferredCount: UInt64 = 0

  /// Requests (and notifications) of the client whose replies were deferred and are not
  /// answered yet; requests that reuse an id count once each.
  public var unansweredRequestCount: Int { unanswered.count }
  /// With this many requests unanswered the session reads no further message until some are
  /// (``RPCLimits/maxUnanswered``; the transport stops reading the connection meanwhile).
  public var maxUnanswered = Int.max

  /// The deferred replies in the order they were deferred.
  private var unansweredInOrder: [DeferredReply] {
    unanswered.sorted { $0.key < $1.key }.map(\.value)
  }

  func track(_ reply: DeferredReply) {
    deferredCount &+= 1
    reply.trackingNumber = deferredCount
    unanswered[deferredCount] = reply
  }

  func forget(_ reply: DeferredReply) {
    guard unanswered[reply.trackingNumber] === reply else { return }
    unanswered.removeValue(forKey: reply.trackingNumber)
    // A notification's work done writes nothing: the transport still hears of it, to read a
    // connection held at --max-unanswered again.
    if reply.isNotification, !receiving, unanswered.count <= maxUnanswered / 2 { onOutput?(self) }
  }

  /// `$/cancelRequest {"id"}`: a request of this client that is still unanswered is answered
  /// `-32800 Request cancelled` at once and its work stopped (``DeferredReply/onCancel``).
  /// Unknown and answered ids are ignored. Returns whether a request was cancelled.
  @discardableResult
  public func cancelRequest(id: JSONRef) -> Bool {
    // The earliest of the requests that reuse the id; a scan, as cancelling is rare and at
    // most --max-unanswered replies wait.
    guard let key = RequestID(id),
      let reply = unansweredInOrder.first(where: { $0.requestID == key })
    else { return false }
    reply.cancel()
    return true
  }

  /// The client's input ended: the work of the deferred replies that should stop with it
  /// (``DeferredReply/cancelsWhenInputEnds``) stops, unanswered (as at close); the other
  /// replies are still sent.
  public func inputEnded() {
    let stopping = unansweredInOrder.filter { $0.cancelsWhenInputEnds?() == true }
    for reply in stopping { reply.abandon() }
  }

  /// Marks the session closed and runs ``onClose`` once.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    pendingInput = []
    unanswered = [:]
    let unanswered = pendingRequests
    pendingRequests = [:]
    for (_, handler) in unanswered.sorted(by: { $0.key < $1.key }) {
      handler(.failure(.connectionClosed))
    }
    onClose?(self)
    onClose = nil
    onOutput = nil
    canContinue = nil
  }

  // MARK: - Internal

  private func appendError(_ error: RPCError) {
    var w = JSONWriter(capacity: 128)
    Dispatcher.writeError(error, id: nil, into: &w)
    appendFramed(w.bytes)
  }

  private func appendFramed(_ body: ByteBuffer) {
    guard !sentClose else { return }  // nothing follows a WebSocket close frame
    if replyMark != nil {
      framing.frame(body, into: &notificationsDuringReply)
    } else {
      framing.frame(body, into: &output)
    }
  }

  /// A writer for the next reply, written straight into the output (no copy). A
  /// Content-Length reply is written after room for the longest header, which ``endReply``
  /// fills once the length is known, moving the reply back over what the header did not use.
  func beginReply() -> JSONWriter {
    var w = JSONWriter(capacity: 0)
    swap(&w.bytes, &output)
    replyMark = w.bytes.count
    let room = Framing.headerRoom(framing)
    if room > 0 { w.bytes.appendUninitialized(count: room) { $0.count } }
    return w
  }

  /// Frames the reply written since ``beginReply()`` (or discards it when nothing was
  /// produced) and puts the buffer back.
  func endReply(_ w: inout JSONWriter, produced: Bool) {
    let mark = replyMark ?? 0
    replyMark = nil
    if !produced {
      w.bytes.removeSubrange(mark...)
    } else {
      framing.fillRoom(at: mark, of: &w.bytes)
    }
    if !notificationsDuringReply.isEmpty {
      w.bytes.insert(contentsOf: notificationsDuringReply, at: mark)
      notificationsDuringReply.removeAll()
    }
    w.needsComma = false
    swap(&w.bytes, &output)
  }
}
