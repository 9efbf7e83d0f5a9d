import JSONRPC
import NativeAds

extension MethodContext {
  /// Answers with a domain call that replies through a completion: the result is written
  /// straight into `w` when the call answered at once (the in-memory store always does), and
  /// the reply is deferred when it answers later (a shared store's round trip).
  func answer<T, Failure: Error>(
    into w: inout JSONWriter, error map: @escaping (Failure) -> RPCError,
    _ start: (@escaping (Result<T, Failure>) -> Void) -> Void,
    write: @escaping (T, inout JSONWriter) -> Void
  ) throws(RPCError) {
    try answer(
      into: &w, error: map,
      load: { completion in
        start(completion)
        return nil
      }, write: write)
  }

  /// ``answer(into:error:_:write:)`` for a load: `start` returns its ticket, and the load is
  /// cancelled when the client cancels the deferred request (`$/cancelRequest`; the reply is
  /// `-32800` by then). Nothing is allocated for that unless the reply is deferred.
  func answer<T, Failure: Error>(
    into w: inout JSONWriter, error map: @escaping (Failure) -> RPCError,
    load start: (@escaping (Result<T, Failure>) -> Void) -> LoadTicket?,
    write: @escaping (T, inout JSONWriter) -> Void
  ) throws(RPCError) {
    // Where the answer goes, shared with the completion: kept for this handler when it comes
    // at once, sent as the deferred reply when it comes later. One captured tuple of concrete
    // types (a generic class here would cost a metadata lookup on every call).
    var slot: (immediate: Result<T, Failure>?, later: DeferredReply?) = (nil, nil)
    let ticket = start { outcome in
      guard let reply = slot.later else {
        slot.immediate = outcome
        return
      }
      switch outcome {
      case .success(let value): reply.resolve { w in write(value, &w) }
      case .failure(let error): reply.reject(map(error))
      }
    }
    switch slot.immediate {
    case .success(let value)?: write(value, &w)
    case .failure(let error)?: throw map(error)
    case nil:
      let reply = call.deferReply()
      if let ticket {
        let manager = service.manager
        reply.onCancel = { manager.cancelLoad(ticket) }
        reply.cancelsWhenInputEnds = { manager.isAskingSources(ticket) }
      }
      slot.later = reply
    }
  }

  /// ``answer(into:error:_:write:)`` for a call about an ad, whose errors `method` reports.
  func answer<T>(
    _ method: String, into w: inout JSONWriter,
    _ start: (@escaping AdManager.Reply<T>) -> Void,
    write: @escaping (T, inout JSONWriter) -> Void
  ) throws(RPCError) {
    try answer(into: &w, error: { $0.rpcError(method: method) }, start, write: write)
  }
}

extension MethodContext {
  /// Answers with what `write` writes of ad `adId`, found by ``AdManager/withAd(_:_:)``: at
  /// once when the ads are in this process, once the shared store found it otherwise.
  func answer(
    about adId: String, _ method: String, into w: inout JSONWriter,
    write: @escaping (NativeAd, inout JSONWriter) -> Void
  ) throws(RPCError) {
    let manager = service.manager
    try answer(method, into: &w, { manager.withAd(adId, $0) }, write: write)
  }
}

extension MethodContext {
  /// In a fleet (``NativeAdsService/replica``; not while a change of the fleet's log is being
  /// applied), sends this store change through the fleet's log and answers, later, what
  /// applying it wrote. Returns true when it did: the handler then does nothing more.
  func replicatedStoreChange(_ method: String) -> Bool {
    guard let replica = service.replica, !service.isReplaying else { return false }
    let request: JSONValue = .object([
      ("jsonrpc", .string("2.0")), ("id", .int(0)), ("method", .string(method)),
      ("params", call.params.object?.materialize() ?? .object([])),
    ])
    let reply = call.deferReply()
    replica.submit(Array(request.jsonText.utf8)) { result in
      switch result {
      case .failure(let unavailable): reply.reject(unavailable.rpcError())
      case .success(let answer):
        if let error = answer["error"] {
          reply.reject(RPCError(replayed: error))
        } else {
          reply.resolve { $0.value(answer["result"] ?? .null) }
        }
      }
    }
    return true
  }

  /// In a fleet, answers with `write` once this process has caught up with the fleet's store
  /// changes; returns false without a fleet (the handler answers at once).
  func afterStoreCatchUp(_ write: @escaping (inout JSONWriter) -> Void) -> Bool {
    guard let replica = service.replica, !service.isReplaying else { return false }
    let reply = call.deferReply()
    replica.catchUp { caught in
      switch caught {
      case .failure(let unavailable): reply.reject(unavailable.rpcError())
      case .success: reply.resolve(write)
      }
    }
    return true
  }
}

extension RPCError {
  /// The error a replayed store change answered (`{"code", "message", "data"?}`).
  init(replayed error: JSONValue) {
    var code: ErrorCode = .internalError
    if case .number(let text)? = error["code"], let raw = Int(text) {
      code = ErrorCode(rawValue: raw)
    }
    var message = "Internal error"
    if case .string(let text)? = error["message"] { message = text }
    self.init(code: code, message: message, data: error["data"])
  }
}

extension AdObjectError {
  /// Runs `body`, reporting an ``AdObjectError`` as method `method` answers it.
  @inline(__always)
  static func reported<T>(by method: String, _ body: () throws(AdObjectError) -> T)
    throws(RPCError) -> T
  {
    do {
      return try body()
    } catch {
      throw error.rpcError(method: method)
    }
  }
}
