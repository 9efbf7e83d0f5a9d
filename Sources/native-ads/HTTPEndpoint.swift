import HTTPTransport
import JSONRPC
import NativeAdsRPC
import UVTransport

/// One connection to `--http` (contract section 9), until it becomes a WebSocket: HTTP/1.1
/// requests read with ``HTTPRequestParser`` and answered one at a time, in order (keep-alive and
/// pipelining; a `POST /rpc` whose replies are deferred holds the requests behind it).
///
/// - `POST /rpc`: the body is one JSON-RPC message or batch, handled by a session of its own
///   (``NativeAdsService/attachRequest(_:)``: its ads outlive it); the reply is the response's
///   body, `204` when there is none (notifications only).
/// - `GET /rpc` with `Upgrade: websocket`: the handshake, then the server makes the
///   connection a WebSocket session (``onUpgrade``).
/// - `GET /`: the inspector page, embedded in the binary.
/// - `POST /openrtb2/auction`: the mock OpenRTB bidder (``OpenRTBBidder``, docs/openrtb.md).
/// - Every request is first checked against ``HostOriginPolicy``: `403` when a page of
///   another site, or a rebound name, sent it.
///
/// Loop-thread only.
final class HTTPEndpoint {
  let connection: Connection
  private let parser: HTTPRequestParser
  private let policy: HostOriginPolicy
  /// A new session for one `POST /rpc`, attached to the service.
  private let makeRequestSession: () -> RPCSession
  /// Runs work on the loop's next turn (``Server``'s `soon`): a deferred reply may come in the
  /// middle of another message's dispatch, and the next request must not be dispatched then.
  private let soon: (@escaping () -> Void) -> Void
  /// Runs the mock bidder's auction of a bid request's body, answering at once or later (in
  /// a fleet, once the store is caught up with).
  private let auction: ([UInt8], @escaping (OpenRTBBidder.Reply) -> Void) -> Void
  /// The handshake is answered: the server takes the connection over as a WebSocket, with
  /// the bytes that followed the request.
  var onUpgrade: ((HTTPEndpoint, [UInt8]) -> Void)?

  /// Bytes read and not yet parsed (the next pipelined requests), from `inputStart` on.
  private var input: [UInt8] = []
  private var inputStart = 0
  /// While a request waits, reading goes on (to see the client go away) up to this much.
  static let maxInputWhileWaiting = 64 * 1024
  /// A request whose response comes later (the requests behind it wait).
  private enum Waiting {
    /// A `POST /rpc` waiting for its deferred replies, and whether its response closes.
    case rpc(RPCSession, close: Bool)
    /// A bid request waiting for the fleet's store to be caught up with.
    case auction
  }

  private var waiting: Waiting?
  private var inputEnded = false
  private var closeWhenIdle = false
  private var done = false

  init(
    connection: Connection, limits: HTTPLimits, policy: HostOriginPolicy,
    soon: @escaping (@escaping () -> Void) -> Void,
    auction: @escaping ([UInt8], @escaping (OpenRTBBidder.Reply) -> Void) -> Void,
    makeRequestSession: @escaping () -> RPCSession
  ) {
    self.auction = auction
    self.connection = connection
    self.parser = HTTPRequestParser(limits: limits)
    self.policy = policy
    self.soon = soon
    self.makeRequestSession = makeRequestSession
  }

  /// Whether a request is waiting for its replies.
  var isBusy: Bool { waiting != nil }

  // MARK: From the server (the connection's delegate)

  func received(_ bytes: UnsafeRawBufferPointer) {
    guard !done else { return }
    input.append(contentsOf: bytes)
    if waiting != nil {
      // Read on while a request waits, to see the client go away, but not without bound.
      if input.count - inputStart >= Self.maxInputWhileWaiting { connection.stopReading() }
      return
    }
    serve()
  }

  /// The connection drained below its low-water mark: requests held back by backpressure go on.
  func drained() { serve() }

  /// The client ended its input: the requests it sent are answered, then the connection
  /// closes. A request whose loads still ask their sources is stopped, as a TCP client's
  /// are when it goes away (their adapters are told), and nothing more is sent.
  func endOfInput() {
    inputEnded = true
    guard let pending = waiting else { return serve() }
    guard case .rpc(let session, _) = pending else { return }
    session.inputEnded()
    if session.unansweredRequestCount == 0 {
      waiting = nil
      session.close()
      finishServing()
    }
  }

  /// A shutdown: the request in flight is answered, then the connection closes.
  func shutdown() {
    closeWhenIdle = true
    connection.stopReading()
    if waiting == nil { finishServing() }
  }

  /// Whether the response to `request` is the connection's last. (A client that ended its
  /// input is not: the requests it sent before are answered, then ``serve()`` closes.)
  private func closes(after request: HTTPRequest) -> Bool {
    // HTTP/1.0 closes after each response (its keep-alive extension is not spoken here).
    !request.keepAlive || request.versionMinor == 0 && request.versionMajor == 1 || closeWhenIdle
  }

  /// The connection closed: a request still waiting is stopped.
  func connectionClosed() {
    done = true
    if case .rpc(let session, _)? = waiting { session.close() }
    waiting = nil
  }

  // MARK: Requests

  private func serve() {
    while !done, waiting == nil, inputStart < input.count, !connection.isPausedForBackpressure,
      !connection.isClosing
    {
      let outcome = input.withUnsafeBytes {
        parser.parse(UnsafeRawBufferPointer(rebasing: $0[inputStart...]))
      }
      switch outcome {
      case .needMore:
        // The parser took every byte in: what it holds of the request is its own.
        input.removeAll(keepingCapacity: input.capacity <= 65536)
        inputStart = 0
        if parser.takeContinueRequest() { write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
      case .failure(let error):
        input = []
        inputStart = 0
        headOnly = false
        respond(.text(error.status, error.reason), close: true)
      case .request(let request, let consumed):
        inputStart += consumed
        if inputStart == input.count {
          input.removeAll(keepingCapacity: input.capacity <= 65536)
          inputStart = 0
        }
        handle(request)
      }
    }
    if inputEnded, waiting == nil, !done { finishServing() }
  }

  private func handle(_ request: HTTPRequest) {
    let close = closes(after: request)
    headOnly = request.method == "HEAD"
    if request.count(of: "host") > 1 {
      return respond(.text(400, "more than one Host header"), close: true)
    }
    if let refusal = policy.refusal(host: request.header("host"), origin: request.header("origin"))
    {
      return respond(.text(403, refusal), close: close)
    }
    let cors = corsHeaders(request)
    switch (request.path, request.method) {
    case ("/rpc", "POST"):
      post(request, cors: cors, close: close)
    case ("/rpc", "GET"):
      guard request.isUpgrade || request.header("upgrade") != nil else {
        return respond(
          .text(
            426, "GET /rpc opens a WebSocket (Upgrade: websocket); POST /rpc takes one message",
            headers: [("Upgrade", "websocket")]), close: close)
      }
      let response = WebSocketHandshake.response(to: request)
      guard response.status == 101, request.isUpgrade else {
        return respond(response, close: close)
      }
      guard !closeWhenIdle else {
        return respond(.text(503, "the server is shutting down"), close: true)
      }
      write(response.serialized(close: false))
      done = true
      let rest = input
      input = []
      onUpgrade?(self, rest)
    case ("/rpc", "OPTIONS"):
      respond(preflight(allowing: "GET, POST, OPTIONS", cors: cors), close: close)
    case ("/rpc", _):
      respond(
        .text(
          405, "\(request.method) /rpc: use POST, or GET to open a WebSocket",
          headers: [("Allow", "GET, POST, OPTIONS")]), close: close)
    case (Self.auctionPath, "POST"):
      guard isJSON(request) else {
        return respond(
          .text(
            415, "POST \(Self.auctionPath) takes an OpenRTB bid request as application/json",
            headers: cors), close: close)
      }
      bid(request, cors: cors, close: close)
    case (Self.auctionPath, "OPTIONS"):
      respond(preflight(allowing: "POST, OPTIONS", cors: cors), close: close)
    case (Self.auctionPath, _):
      respond(
        .text(
          405, "\(request.method) \(Self.auctionPath): the bidder takes POST",
          headers: cors + [("Allow", "POST, OPTIONS")]), close: close)
    case ("/", "GET"), ("/", "HEAD"):
      respond(Inspector.page, close: close)
    case ("/", _):
      respond(
        .text(
          405, "\(request.method) /: the inspector is read with GET",
          headers: [("Allow", "GET, HEAD")]), close: close)
    default:
      respond(
        .text(
          404,
          "no \(request.path) here: POST /rpc, GET /rpc (WebSocket), GET /, POST \(Self.auctionPath)"
        ),
        close: close)
    }
  }

  /// For a page of an origin `--allow-origin` gave: the headers that let it read the response.
  /// The answer to a CORS preflight of a path taking `methods` (`OPTIONS /rpc`,
  /// `OPTIONS /openrtb2/auction`): 204 with the CORS headers of `request`'s origin.
  private func preflight(allowing methods: String, cors: [(name: String, value: String)])
    -> HTTPResponse
  {
    HTTPResponse(
      status: 204,
      headers: cors + [
        ("Allow", methods), ("Access-Control-Allow-Methods", methods),
        ("Access-Control-Allow-Headers", "Content-Type"), ("Access-Control-Max-Age", "600"),
      ])
  }

  private func corsHeaders(_ request: HTTPRequest) -> [(name: String, value: String)] {
    guard let origin = request.header("origin") else { return [] }
    return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
  }

  /// The mock bidder's path.
  static let auctionPath = "/openrtb2/auction"

  /// Whether the request's body is declared JSON (`Content-Type: application/json`).
  private func isJSON(_ request: HTTPRequest) -> Bool {
    request.header("content-type")?.split(separator: ";").first.map {
      $0.trimmingCharacters().lowercased()
    } == "application/json"
  }

  private func post(_ request: HTTPRequest, cors: [(name: String, value: String)], close: Bool) {
    guard isJSON(request) else {
      return respond(
        .text(
          415, "POST /rpc takes a JSON-RPC message as Content-Type: application/json",
          headers: cors), close: close)
    }
    let session = makeRequestSession()
    request.body.withUnsafeBytes { session.receiveMessage($0) }
    guard session.unansweredRequestCount > 0 else {
      return answer(session, cors: cors, close: close)
    }
    waiting = .rpc(session, close: close)
    // Its replies come later, maybe in the middle of another connection's message: its
    // response, and the requests behind it, are put off to the loop's next turn.
    session.onOutput = { [unowned self] s in
      guard s.unansweredRequestCount == 0 else { return }
      soon { [weak self] in
        guard let self, case .rpc(let current, let close)? = waiting, current === s else {
          return
        }
        waiting = nil
        answer(s, cors: cors, close: close)
        resume()
      }
    }
  }

  /// A request that waited has its response: the requests behind it are served.
  private func resume() {
    if !done, !closeWhenIdle, !inputEnded { connection.startReading() }
    // A shutdown closes once nothing waits (a request served since the reply may).
    if closeWhenIdle, waiting == nil { finishServing() }
    serve()
  }

  /// `POST /openrtb2/auction`: the bid response, now or (in a fleet) once the store is
  /// caught up with, the requests behind it waiting meanwhile.
  private func bid(_ request: HTTPRequest, cors: [(name: String, value: String)], close: Bool) {
    var handled = false
    waiting = .auction
    auction(request.body) { [weak self] reply in
      guard let self, !done, case .auction? = waiting else { return }
      waiting = nil
      var headers = cors
      if !reply.body.isEmpty { headers.append(("Content-Type", "application/json")) }
      if let reasons = reply.noBidHeader { headers.append(("X-OpenRTB-No-Bid", reasons)) }
      headers.append(("X-OpenRTB-Version", "2.6"))
      respond(
        HTTPResponse(status: reply.status, headers: headers, body: reply.body),
        close: close || closeWhenIdle)
      // Answered later: from the loop's next turn, as a deferred POST /rpc is.
      if handled { soon { [weak self] in self?.resume() } }
    }
    handled = true
  }

  /// The request's replies are all there: its response.
  private func answer(
    _ session: RPCSession, cors: [(name: String, value: String)], close requestCloses: Bool
  ) {
    // A shutdown may have come while it waited. (The client's end has the requests it sent
    // behind this one answered first.)
    let close = requestCloses || closeWhenIdle
    headOnly = false
    var out = session.takeOutput()
    var body = out.array
    session.recycleOutput(&out)
    session.close()
    if body.last == 0x0A { body.removeLast() }
    let response =
      body.isEmpty
      ? HTTPResponse(status: 204, headers: cors)
      : HTTPResponse(
        status: 200,
        headers: cors + [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
        body: body)
    respond(response, close: close)
  }

  /// Whether the request being answered is a HEAD (its response carries no body).
  private var headOnly = false

  private func respond(_ response: HTTPResponse, close: Bool) {
    write(response.serialized(close: close, headOnly: headOnly))
    if close {
      done = true
      connection.closeAfterFlush()
    }
  }

  private func finishServing() {
    guard !done else { return }
    done = true
    connection.closeAfterFlush()
  }

  private func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { connection.write($0) }
  }
}

extension Substring {
  fileprivate func trimmingCharacters() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
