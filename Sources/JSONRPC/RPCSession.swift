/// The protocol state of one connection: its framer, its detected framing and its pending
/// output. No I/O: the transport feeds it bytes with ``receive(_:)`` and writes what
/// ``takeOutput()`` returns; output produced outside a `receive` (a notification caused by
/// another connection) is announced through ``onOutput``.
///
/// Loop-thread only, like everything that touches it.
public final class RPCSession {
  /// Unique for the life of the process; the domain uses it as the owner of loaded ads.
  public let id: UInt64
  public let dispatcher: Dispatcher
  private var framer: MessageFramer
  private var output: [UInt8] = []
  private var scratch = JSONWriter(capacity: 512)
  private var receiving = false
  private var rejection: RPCError?

  /// Called when output is waiting outside a ``receive(_:)`` call; the transport should take
  /// and write it.
  public var onOutput: ((RPCSession) -> Void)?
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

  /// The framing replies use: the one the client chose, NDJSON before it has sent anything.
  public var framing: Framing { detectedFraming ?? .ndjson }
  private var detectedFraming: Framing?

  /// Bytes waiting to be taken by the transport.
  public var pendingOutputBytes: Int { output.count }

  /// Bytes of incomplete messages held by the framer.
  public var bufferedInputBytes: Int { framer.bufferedBytes }

  /// Feeds bytes read from the connection; replies accumulate in the output.
  public func receive(_ chunk: UnsafeRawBufferPointer) {
    guard !shouldClose else { return }
    if detectedFraming == nil { detectedFraming = MessageFramer.detect(chunk)?.0 }
    if let rejection {
      // Learn the client's framing from its first bytes, answer with the error, then close.
      if detectedFraming != nil {
        appendError(rejection)
        shouldClose = true
      }
      return
    }
    receiving = true
    defer { receiving = false }
    framer.feed(chunk) { event in
      switch event {
      case .message(let bytes):
        dispatcher.handle(message: bytes, session: self)
      case .oversized(let size):
        appendError(.messageTooLarge(size: size, limit: dispatcher.limits.maxMessageBytes))
      case .fatal(let reason):
        appendError(.parseError(reason))
        shouldClose = true
      }
    }
  }

  /// Hands the pending output to the caller (the transport), leaving the session empty.
  public func takeOutput() -> [UInt8] {
    var taken: [UInt8] = []
    swap(&taken, &output)
    return taken
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

  /// Refuses the connection: the first bytes it sends are answered with `error` (in its own
  /// framing) and the connection is then closed. Used for the connection limit.
  public func reject(with error: RPCError) {
    rejection = error
  }

  /// Marks the session closed and runs ``onClose`` once.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    onClose?(self)
    onClose = nil
    onOutput = nil
  }

  // MARK: - Internal

  private func appendError(_ error: RPCError) {
    var w = JSONWriter(capacity: 128)
    Dispatcher.writeError(error, id: nil, into: &w)
    appendFramed(w.bytes)
  }

  func appendFramed(_ body: [UInt8]) {
    framing.frame(body, into: &output)
  }

  func takeScratch() -> JSONWriter {
    var w = JSONWriter(capacity: 0)
    swap(&w, &scratch)
    return w
  }

  func returnScratch(_ w: inout JSONWriter) {
    w.bytes.removeAll(keepingCapacity: w.bytes.capacity <= 1 << 20)
    w.needsComma = false
    swap(&w, &scratch)
  }
}
