/// A reply that a handler gives later: after waiting on a timer or on another connection (a
/// mediation adapter), without blocking the loop.
///
/// Obtained from ``MethodCall/deferReply()``; the handler then returns without writing a
/// result. Exactly one of ``resolve(_:)`` or ``reject(_:)`` takes effect; later calls, and
/// calls after the connection closed, do nothing. Inside a batch, the batch's reply (one
/// array, in request order) is written when its last deferred member is answered.
/// Loop-thread only.
public final class DeferredReply {
  private weak var session: RPCSession?
  private let id: [UInt8]?
  /// The request's id as `$/cancelRequest` names it; nil for notifications.
  let requestID: RequestID?
  private let batch: BatchReply?
  private let slot: Int
  /// Its place among the session's unanswered replies (set when the session tracks it).
  var trackingNumber: UInt64 = 0
  public private(set) var isAnswered = false
  /// Stops the work behind the reply when the client cancels the request (`$/cancelRequest`):
  /// the reply has been answered `-32800 Request cancelled` by then. Runs at most once.
  public var onCancel: (() -> Void)?
  /// Asked when the client's input ends (stdin EOF, a socket's end): true when the reply waits
  /// on work that the client going away should stop (a waterfall asking its sources), and that
  /// work is then stopped, unanswered, as when the connection closes; nil or false, and the
  /// reply is still sent before the connection closes (a fleet's store answering).
  public var cancelsWhenInputEnds: (() -> Bool)?

  init(session: RPCSession, id: [UInt8]?, requestID: RequestID?, batch: BatchReply?, slot: Int) {
    self.session = session
    self.id = id
    self.requestID = requestID
    self.batch = batch
    self.slot = slot
  }

  /// The client cancelled the request: answers `-32800` and stops the work.
  func cancel() {
    guard !isAnswered else { return }
    let stop = onCancel
    reject(.requestCancelled)
    stop?()
  }

  /// The client went away (its input ended): stops the work without answering, as when its
  /// connection closes.
  func abandon() {
    guard !isAnswered else { return }
    let stop = onCancel
    answered()
    stop?()
  }

  /// True when nobody will read the reply (a notification): the work may still be done.
  public var isNotification: Bool { id == nil }

  /// Answers with a result; `writeResult` writes exactly one JSON value.
  public func resolve(_ writeResult: (inout JSONWriter) -> Void) {
    guard !isAnswered else { return }
    answered()
    guard let id else { return }
    var w = JSONWriter(capacity: 256)
    w.raw(#"{"jsonrpc":"2.0","id":"#.utf8)
    w.raw(id)
    w.key("result")
    writeResult(&w)
    w.endObject()
    deliver(w.bytes)
  }

  /// Answers with an error.
  public func reject(_ error: RPCError) {
    guard !isAnswered else { return }
    answered()
    guard let id else { return }
    var w = JSONWriter(capacity: 128)
    w.raw(#"{"jsonrpc":"2.0","id":"#.utf8)
    w.raw(id)
    w.key("error")
    error.write(to: &w)
    w.endObject()
    deliver(w.bytes)
  }

  private func answered() {
    isAnswered = true
    onCancel = nil
    session?.forget(self)
  }

  private func deliver(_ body: ByteBuffer) {
    if let batch {
      batch.fill(slot, with: body)
    } else if let session, !session.isClosed {
      session.sendFramed(body)
    }
  }
}

/// The reply to a batch some of whose requests were deferred: each member's reply (or nothing,
/// for notifications) in request order, written as one array once all are known.
final class BatchReply {
  private weak var session: RPCSession?
  private(set) var slots: [[UInt8]?]
  /// Deferred members not answered yet.
  private(set) var pending = 0
  /// Set once the dispatcher has gone through every member: from then on the last answer
  /// writes the batch.
  private var sealed = false

  init(session: RPCSession, count: Int) {
    self.session = session
    self.slots = Array(repeating: nil, count: count)
  }

  func set(_ slot: Int, _ body: [UInt8]) { slots[slot] = body }

  func expectDeferred() { pending += 1 }

  /// The dispatcher is done with the batch; true when nothing is pending (write it now).
  func seal() -> Bool {
    sealed = true
    return pending == 0
  }

  /// The whole reply: `[r1,r2,...]`, or nil when every member was a notification.
  var arrayBytes: ByteBuffer? {
    var bytes = ByteBuffer(capacity: 256)
    bytes.append(UInt8(ascii: "["))
    var first = true
    for case let reply? in slots {
      if !first { bytes.append(UInt8(ascii: ",")) }
      first = false
      bytes.append(contentsOf: reply)
    }
    bytes.append(UInt8(ascii: "]"))
    return first ? nil : bytes
  }

  func fill(_ slot: Int, with body: ByteBuffer) {
    slots[slot] = body.array
    pending -= 1
    guard sealed, pending == 0, let session, !session.isClosed else { return }
    if let bytes = arrayBytes { session.sendFramed(bytes) }  // only notifications: nothing
  }
}

/// A request's id as the client wrote it, to find the request `$/cancelRequest` names: a
/// string, or a number by its text (`1` and `1.0` are different ids, as the reply echoes them).
struct RequestID: Hashable {
  private let isString: Bool
  private let text: String

  /// The id `id`; nil for `null` and anything that is not a string or a number.
  init?(_ id: JSONRef) {
    guard id.kind == .string || id.kind == .number else { return nil }
    self.init(RequestIDToken(id))
  }

  /// The id `token`; nil for `null`.
  init?(_ token: RequestIDToken) {
    switch token.kind {
    case .string:
      isString = true
      text = token.text
    case .number:
      isString = false
      text = String(decoding: token.raw, as: UTF8.self)
    case .null:
      return nil
    }
  }
}
