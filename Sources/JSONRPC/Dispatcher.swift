import ByteKeys
import Glibc

/// Turns message bytes into replies: parsing, validation of the JSON-RPC 2.0 envelope,
/// batches, notifications and method dispatch. No I/O: replies are appended to the session's
/// output, which the transport writes.
///
/// One dispatcher serves every connection of a process and lives on the loop thread (it owns a
/// reusable parser). Handlers run synchronously, in message order.
public final class Dispatcher {
  public let limits: RPCLimits
  private let parser: JSONParser
  private let table = MethodTable()

  /// Whether requests in the canonical spelling take the fast layer (``CanonicalEnvelope``).
  /// For tests and the session fuzz target, which turn it off to hold the two paths to the
  /// same replies; never changes what a client sees.
  public var readsCanonicalEnvelopes = true

  public init(limits: RPCLimits = RPCLimits()) {
    self.limits = limits
    self.parser = JSONParser(maxDepth: limits.maxDepth)
  }

  /// Registers (or replaces) the handler for `method`, and its fast layer, if it has one
  /// (``DirectHandler``: the answer to a canonical request read from its params' bytes).
  public func register(
    _ method: String, _ handler: @escaping MethodHandler, direct: DirectHandler? = nil
  ) {
    table.register(method, handler, direct: direct)
  }

  /// Whether `method` is registered with a fast layer.
  public func hasDirectHandler(_ method: String) -> Bool {
    var name = method
    return name.withUTF8 { table.lookup($0).map(table.answersDirectly) ?? false }
  }

  /// Every registered method name, in registration order.
  public var methodNames: [String] { table.names }

  /// Handles one complete message received on `session`, appending any reply to its output.
  public func handle(message: UnsafeRawBufferPointer, session: RPCSession) {
    var w = session.beginReply()
    let base = w.bytes.count
    var produced: Bool
    do {
      if readsCanonicalEnvelopes, let envelope = CanonicalEnvelope(message),
        let done = handleCanonical(envelope, session, &w)
      {
        produced = done
      } else {
        produced = try parser.parse(message) { root in
          root.kind == .array
            ? handleBatch(root, session, &w)
            : handleSingle(root, session, &w)
        }
      }
    } catch let error as JSONParseError {
      w.bytes.removeSubrange(base...)
      w.needsComma = false
      Self.writeError(.parseError(error.description), id: nil, into: &w)
      produced = true
    } catch {
      w.bytes.removeSubrange(base...)
      w.needsComma = false
      Self.writeError(.internalError(), id: nil, into: &w)
      produced = true
    }
    session.endReply(&w, produced: produced)
  }

  /// A request in the canonical spelling: only its params are parsed. Nil when they do not
  /// parse (nothing was written): the general path reads the message again and words the
  /// error with its offset in the whole message.
  private func handleCanonical(
    _ envelope: CanonicalEnvelope, _ session: RPCSession, _ w: inout JSONWriter
  ) -> Bool? {
    let target = table.lookup(envelope.method)
    guard let params = envelope.params else {
      return dispatch(
        id: envelope.id, method: envelope.method, target: target, params: nil, session, &w)
    }
    if let target, table.answersDirectly(target), !session.hasShutDown {
      // The method's fast layer, straight from the params' bytes; when it declines, nothing
      // is left of its attempt and the request goes on as any other.
      let mark = w.bytes.count
      Self.writeResultStart(id: envelope.id, into: &w)
      do throws(RPCError) {
        if try table.answerDirectly(target, FlatParams(params), session, &w) {
          w.endObject()
          return true
        }
      } catch {
        // The error the method's handler would have thrown: worded as the general path does.
        w.bytes.removeSubrange(mark...)
        w.needsComma = false
        Self.writeError(error, id: envelope.id, into: &w)
        return true
      }
      w.bytes.removeSubrange(mark...)
      w.needsComma = false
    }
    // The params sit one level inside the envelope's object.
    return try? parser.parse(params, depthOutside: 1) { params in
      dispatch(
        id: envelope.id, method: envelope.method, target: target, params: params, session, &w)
    }
  }

  // MARK: - Envelope

  private func handleBatch(_ batch: JSONRef, _ session: RPCSession, _ w: inout JSONWriter) -> Bool {
    guard batch.count > 0 else {
      Self.writeError(.invalidRequest("empty batch"), id: nil, into: &w)
      return true
    }
    guard batch.count <= limits.maxBatch else {
      Self.writeError(
        .invalidRequest(
          "a batch of \(batch.count) requests exceeds the limit of \(limits.maxBatch) (--max-batch)"
        ),
        id: nil, into: &w)
      return true
    }
    // Each member's reply goes to its slot; the array is written now, or, when some member
    // deferred its reply, by the last of them to answer.
    let reply = BatchReply(session: session, count: batch.count)
    let outer = currentBatch
    currentBatch = reply
    defer { currentBatch = outer }
    for (slot, element) in batch.elements.enumerated() {
      let mark = w.bytes.count
      currentSlot = slot
      if handleSingle(element, session, &w) {
        reply.set(slot, Array(w.bytes[mark...]))
      }
      w.bytes.removeSubrange(mark...)
      w.needsComma = false
    }
    guard reply.seal(), let bytes = reply.arrayBytes else { return false }
    w.raw(bytes)
    return true
  }

  /// Handles one request object; returns whether a reply was written.
  private func handleSingle(_ request: JSONRef, _ session: RPCSession, _ w: inout JSONWriter)
    -> Bool
  {
    guard request.kind == .object else {
      Self.writeError(.invalidRequest("a request must be a JSON object"), id: nil, into: &w)
      return true
    }
    var id: JSONRef?
    var version: JSONRef?
    var method: JSONRef?
    var params: JSONRef?
    request.forEachMember { key, value in
      switch key.count {
      case 2 where key[0] == UInt8(ascii: "i") && key[1] == UInt8(ascii: "d"):
        id = value
      case 7 where Self.equal(key, "jsonrpc"):
        version = value
      case 6 where Self.equal(key, "method"):
        method = value
      case 6 where Self.equal(key, "params"):
        params = value
      default:
        break
      }
    }
    if method == nil, let id, RPCSession.isServerRequestID(id),
      version?.stringEquals("2.0") == true, let outcome = responseOutcome(of: request)
    {
      // A response to a request this server sent (mediation adapters): never answered. Other
      // response-shaped messages are invalid requests, as JSON-RPC says.
      session.handleResponse(id: id, outcome)
      return false
    }
    if let id, id.kind != .string && id.kind != .number && id.kind != .null {
      Self.writeError(
        .invalidRequest("id must be a string, a number or null"), id: nil, into: &w)
      return true
    }
    let token = id.map(RequestIDToken.init)
    guard let version, Self.isVersion2(version) else {
      Self.writeError(.invalidRequest("jsonrpc must be exactly \"2.0\""), id: token, into: &w)
      return true
    }
    guard let method, method.kind == .string else {
      Self.writeError(.invalidRequest("method must be a string"), id: token, into: &w)
      return true
    }
    if let params, params.kind != .object && params.kind != .array {
      Self.writeError(
        .invalidRequest("params must be an object when present"), id: token, into: &w)
      return true
    }
    if let name = method.unescapedStringBytes {
      return dispatch(
        id: token, method: name, target: table.lookup(name), params: params, session, &w)
    }
    // An escaped method name is decoded first.
    var name = method.stringValue ?? ""
    return name.withUTF8 {
      dispatch(id: token, method: $0, target: table.lookup($0), params: params, session, &w)
    }
  }

  /// A request whose envelope is valid (however it was read): the method (`target`, the
  /// lookup of `method`) is called, or the error written. Returns whether a reply was written.
  private func dispatch(
    id: RequestIDToken?, method: UnsafeBufferPointer<UInt8>, target: MethodTable.Method?,
    params: JSONRef?, _ session: RPCSession, _ w: inout JSONWriter
  ) -> Bool {
    let isNotification = id == nil
    if session.hasShutDown, !Self.equal(method, "exit") {
      // After shutdown only exit is taken: requests are refused, notifications ignored.
      guard !isNotification else { return false }
      Self.writeError(.shutDown, id: id, into: &w)
      return true
    }
    if isNotification {
      // Valid notifications are never answered, whatever happens.
      guard let target, params?.kind != .array else { return false }
      var discard = JSONWriter(capacity: 0)
      begin(id: nil)
      let call = MethodCall(
        params: Params(params), session: session, isNotification: true, dispatcher: self)
      try? table.call(target, call, &discard)
      return false
    }
    guard let target else {
      Self.writeError(
        .methodNotFound(String(decoding: method, as: UTF8.self)), id: id, into: &w)
      return true
    }
    if params?.kind == .array {
      Self.writeError(
        .invalidParams("params must be an object: this service takes params by name only"),
        id: id, into: &w)
      return true
    }
    let mark = w.bytes.count
    Self.writeResultStart(id: id, into: &w)
    begin(id: id)
    do throws(RPCError) {
      try table.call(
        target,
        MethodCall(
          params: Params(params), session: session, isNotification: false, dispatcher: self), &w)
      if deferred != nil {
        // The handler will answer later (DeferredReply): nothing to write now.
        deferred = nil
        w.bytes.removeSubrange(mark...)
        w.needsComma = false
        return false
      }
      w.endObject()
    } catch {
      deferred = nil
      w.bytes.removeSubrange(mark...)
      w.needsComma = false
      Self.writeError(error, id: id, into: &w)
    }
    return true
  }

  // MARK: - Deferred replies and responses

  /// The request being handled, for ``deferCurrentReply(session:)``.
  private var currentIsNotification = true
  private var currentBatch: BatchReply?
  private var currentSlot = 0
  private var deferred: DeferredReply?

  private func begin(id: RequestIDToken?) {
    currentIsNotification = id == nil
    deferredIDSource = id
    deferred = nil
  }

  /// The id of the running request, copied only if its handler defers.
  private var deferredIDSource: RequestIDToken?

  func deferCurrentReply(session: RPCSession) -> DeferredReply {
    if let deferred { return deferred }
    let id: [UInt8]? = currentIsNotification ? nil : deferredIDSource.map { Array($0.raw) }
    let batch = currentBatch
    if id != nil { batch?.expectDeferred() }
    let requestID = currentIsNotification ? nil : deferredIDSource.flatMap(RequestID.init)
    let reply = DeferredReply(
      session: session, id: id, requestID: requestID, batch: batch, slot: currentSlot)
    session.track(reply)
    deferred = reply
    return reply
  }

  /// `result` or `error` of a response object; `nil` when it is not a well-formed response.
  private func responseOutcome(of message: JSONRef) -> Result<JSONRef, RPCError>? {
    let result = message["result"]
    let error = message["error"]
    switch (result, error) {
    case (let result?, nil):
      return .success(result)
    case (nil, let error?):
      guard error.kind == .object else { return nil }
      let params = Params(error)
      let code = (try? params.optionalInt("code")) ?? nil
      let text = (try? params.optionalString("message")) ?? nil
      return .failure(
        RPCError(
          code: code.map(ErrorCode.init(rawValue:)) ?? .internalError, message: text ?? "",
          data: error["data"].map { $0.materialize() }))
    default:
      return nil
    }
  }

  @inline(__always)
  private static func equal(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
    key.count == name.utf8CodeUnitCount
      && ByteKeys.equal(key.baseAddress!, name.utf8Start, count: key.count)
  }

  /// Whether `version` is the string `"2.0"` (its token is exactly those five bytes: an
  /// escaped spelling such as `"2\u002e0"` is longer and takes the general comparison).
  @inline(__always)
  private static func isVersion2(_ version: JSONRef) -> Bool {
    let raw = version.rawBytes
    if raw.count == 5 {
      let p = UnsafeRawPointer(raw.baseAddress!)
      // `"2.0"` as a little-endian word, then its closing quote.
      return version.kind == .string && p.loadUnaligned(as: UInt32.self) == 0x302E_3222
        && p.load(fromByteOffset: 4, as: UInt8.self) == 0x22
    }
    return version.stringEquals("2.0")
  }

  // MARK: - Writing

  private static let versionPrefix: StaticString = #"{"jsonrpc":"2.0","id":"#

  static func writeEnvelopeStart(id: RequestIDToken?, into w: inout JSONWriter) {
    w.raw(
      UnsafeBufferPointer(start: versionPrefix.utf8Start, count: versionPrefix.utf8CodeUnitCount))
    if let id { w.raw(id.raw) } else { w.null() }
  }

  private static let resultKey: StaticString = #","result":"#

  /// `{"jsonrpc":"2.0","id":<id>,"result":` in one reservation of the writer.
  @inline(__always)
  static func writeResultStart(id: RequestIDToken?, into w: inout JSONWriter) {
    let prefix = versionPrefix.utf8CodeUnitCount
    let suffix = resultKey.utf8CodeUnitCount
    let idBytes = id?.raw
    let idCount = idBytes?.count ?? 4
    let to = w.bytes.reserveFree(prefix + idCount + suffix)
    to.update(from: versionPrefix.utf8Start, count: prefix)
    if let idBytes {
      (to + prefix).update(from: idBytes.baseAddress!, count: idCount)
    } else {
      (to + prefix).update(from: ("null" as StaticString).utf8Start, count: 4)
    }
    (to + prefix + idCount).update(from: resultKey.utf8Start, count: suffix)
    w.bytes.written.count += prefix + idCount + suffix
    w.needsComma = false
  }

  /// Writes a complete error response.
  static func writeError(_ error: RPCError, id: RequestIDToken?, into w: inout JSONWriter) {
    writeEnvelopeStart(id: id, into: &w)
    w.key("error")
    error.write(to: &w)
    w.endObject()
  }
}
