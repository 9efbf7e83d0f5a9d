import HTTPTransport
import Testing

/// Parses `text` fed in `chunkSize`-byte pieces (0: whole): the requests, and the failure that
/// ended it, if any.
private func parse(_ text: String, chunkSize: Int = 0, limits: HTTPLimits = HTTPLimits())
  -> (requests: [HTTPRequest], failure: HTTPParseError?)
{
  let parser = HTTPRequestParser(limits: limits)
  var pending: [UInt8] = []
  var requests: [HTTPRequest] = []
  let bytes = Array(text.utf8)
  let size = chunkSize == 0 ? max(1, bytes.count) : chunkSize
  for start in stride(from: 0, to: bytes.count, by: size) {
    pending += bytes[start..<min(bytes.count, start + size)]
    while !pending.isEmpty {
      switch pending.withUnsafeBytes({ parser.parse($0) }) {
      case .needMore: pending = []
      case .failure(let error): return (requests, error)
      case .request(let request, let consumed):
        requests.append(request)
        pending.removeFirst(consumed)
        if request.isUpgrade { return (requests, nil) }
      }
    }
  }
  return (requests, nil)
}

@Suite struct HTTPRequestParserTests {
  @Test(arguments: [0, 1, 7])
  func pipelinedRequestsComeOneAtATimeWhateverTheChunks(chunkSize: Int) {
    let text =
      "POST /rpc HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
      + "GET /?x=1 HTTP/1.1\r\nhost: a\r\nX-Two: 1\r\nx-two: 2\r\n\r\n"
      + "POST /rpc HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n[1,\r\n2\r\n2]\r\n0\r\n\r\n"
    let (requests, failure) = parse(text, chunkSize: chunkSize)
    #expect(failure == nil)
    #expect(requests.map(\.method) == ["POST", "GET", "POST"])
    #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == ["{}", "", "[1,2]"])
    #expect(requests[1].path == "/" && requests[1].target == "/?x=1")
    #expect(requests[1].header("x-two") == "1, 2" && requests[1].count(of: "x-two") == 2)
    #expect(requests.allSatisfy { $0.keepAlive && !$0.isUpgrade })
  }

  @Test func connectionCloseAndHTTP10AreNotKeptAlive() {
    let (requests, _) = parse(
      "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET / HTTP/1.0\r\n\r\n")
    #expect(requests.map(\.keepAlive) == [false, false])
  }

  @Test func anUpgradeStopsAtTheEndOfItsHeaders() {
    let text =
      "GET /rpc HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\u{81}\u{80}"
    let parser = HTTPRequestParser(limits: HTTPLimits())
    let bytes = Array(text.utf8)
    guard case .request(let request, let consumed) = bytes.withUnsafeBytes({ parser.parse($0) })
    else {
      Issue.record("no request")
      return
    }
    #expect(request.isUpgrade && request.header("upgrade", contains: "WebSocket"))
    #expect(Array(bytes[consumed...]) == Array("\u{81}\u{80}".utf8))
  }

  @Test func limitsAndMalformedRequestsFailWithTheirStatus() {
    var limits = HTTPLimits()
    limits.maxBodyBytes = 10
    limits.maxHeaderBytes = 100
    limits.maxHeaders = 3
    let cases: [(String, Int)] = [
      ("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n", 413),
      ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n123456\r\n6\r\n123456\r\n", 413),
      ("GET / HTTP/1.1\r\nX: \(String(repeating: "p", count: 120))\r\n\r\n", 431),
      ("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", 431),
      ("NOT HTTP\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
    ]
    for (text, status) in cases {
      #expect(parse(text, limits: limits).failure?.status == status, "\(text.debugDescription)")
    }
  }

  @Test func expectContinueIsReportedOnceForARequestWithABody() {
    let parser = HTTPRequestParser(limits: HTTPLimits())
    let head = Array("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8)
    guard case .needMore = head.withUnsafeBytes({ parser.parse($0) }) else {
      Issue.record("the body is still to come")
      return
    }
    #expect(parser.takeContinueRequest())
    #expect(!parser.takeContinueRequest())
  }
}

@Suite struct WebSocketHandshakeTests {
  @Test func theAcceptKeyIsRFC6455sExample() {
    #expect(
      WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }
}

@Suite struct HostOriginPolicyTests {
  @Test func theServersOwnHostAndOriginPassOthersAreRefused() {
    let policy = HostOriginPolicy(
      host: "127.0.0.1", port: 7412, allowedOrigins: ["http://localhost:3000/"])
    for host in ["127.0.0.1:7412", "localhost:7412", "LOCALHOST:7412"] {
      #expect(policy.refusal(host: host, origin: nil) == nil, "\(host)")
    }
    for origin in ["http://127.0.0.1:7412", "http://localhost:7412", "http://localhost:3000"] {
      #expect(policy.refusal(host: "127.0.0.1:7412", origin: origin) == nil, "\(origin)")
    }
    for host in [nil, "evil.test:7412", "127.0.0.1:7413", "127.0.0.1", "127.0.0.1.nip.io:7412"] {
      #expect(policy.refusal(host: host, origin: nil) != nil, "\(String(describing: host))")
    }
    for origin in ["null", "https://127.0.0.1:7412", "http://localhost:3001", "http://evil.test"] {
      #expect(policy.refusal(host: "127.0.0.1:7412", origin: origin) != nil, "\(origin)")
    }
  }

  @Test func onAWildcardAddressAnOriginPassesOnlyWhenItIsTheRequestsOwnHost() {
    let policy = HostOriginPolicy(host: "0.0.0.0", port: 7412)
    #expect(policy.refusal(host: "192.168.1.5:7412", origin: "http://192.168.1.5:7412") == nil)
    // A page of another site served from an address: not this server's own page.
    #expect(policy.refusal(host: "192.168.1.5:7412", origin: "http://6.6.6.6:7412") != nil)
    #expect(policy.refusal(host: "192.168.1.5:7412", origin: "http://localhost:7412") != nil)
  }

  @Test func onAWildcardAddressIPLiteralsWithThePortAreOwnButNamesAreNot() {
    let policy = HostOriginPolicy(host: "0.0.0.0", port: 80)
    #expect(policy.refusal(host: "10.1.2.3", origin: nil) == nil)
    #expect(policy.refusal(host: "10.1.2.3:80", origin: nil) == nil)
    #expect(policy.refusal(host: "[fe80::1]:80", origin: nil) == nil)
    #expect(policy.refusal(host: "localhost", origin: nil) == nil)
    #expect(policy.refusal(host: "rebound.evil.test", origin: nil) != nil)
    #expect(policy.refusal(host: "10.1.2.3:81", origin: nil) != nil)
  }
}

@Suite struct HTTPResponseTests {
  @Test func noHeaderValueCanEndItsLineOrWriteAnother() {
    let response = HTTPResponse(
      status: 204, headers: [("X-Test", "a\r\nSet-Cookie: x=1\u{0}b\tc"), ("X\nY", "z")])
    let text = String(decoding: response.serialized(close: false), as: UTF8.self)
    #expect(text == "HTTP/1.1 204 No Content\r\nX-Test: a  Set-Cookie: x=1 b\tc\r\nX Y: z\r\n\r\n")
  }
}
