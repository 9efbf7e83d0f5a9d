import JSONRPC

/// Checks one connection's output (see `SessionFuzz.swift` for the rules).
func checkOutput(_ record: ConnectionRecord, connection n: Int) {
  fuzzCheck(!record.outputBeforeInput, "connection \(n) was written to before it sent anything")
  let ids = requestIDs(in: record.input)
  for message in frames(of: record.output, framing: record.framing ?? .ndjson, connection: n) {
    guard let root = ReferenceJSON.parse(message, maxDepth: 1024) else {
      fuzzCheck(false, "connection \(n): a message that is not JSON: \(message.debugText)")
      return
    }
    switch root.value {
    case .array(let replies):
      fuzzCheck(!replies.isEmpty, "connection \(n): an empty batch reply")
      for reply in replies {
        checkServerMessage(reply, in: message, ids: ids, connection: n, inBatch: true)
      }
    default:
      checkServerMessage(root, in: message, ids: ids, connection: n, inBatch: false)
    }
  }
}

/// Splits output into message bodies, checking the framing.
private func frames(of output: [UInt8], framing: Framing, connection n: Int) -> [[UInt8]] {
  var bodies: [[UInt8]] = []
  switch framing {
  case .ndjson:
    guard !output.isEmpty else { return [] }
    fuzzCheck(output.last == 0x0A, "connection \(n): NDJSON output does not end with a newline")
    for line in output.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false) {
      fuzzCheck(!line.isEmpty, "connection \(n): an empty NDJSON line")
      bodies.append(Array(line))
    }
  case .contentLength:
    let prefix = Array("Content-Length: ".utf8)
    var i = 0
    while i < output.count {
      fuzzCheck(
        output[i...].starts(with: prefix),
        "connection \(n): a frame does not start with Content-Length: \(Array(output[i...]).debugText)"
      )
      i += prefix.count
      var length = 0
      var digits = 0
      while i < output.count, output[i] >= 0x30, output[i] <= 0x39 {
        length = length * 10 + Int(output[i] - 0x30)
        digits += 1
        i += 1
      }
      fuzzCheck(digits > 0, "connection \(n): a Content-Length without digits")
      fuzzCheck(
        output[i...].starts(with: [0x0D, 0x0A, 0x0D, 0x0A]),
        "connection \(n): a Content-Length header not ended by CRLFCRLF")
      i += 4
      fuzzCheck(
        i + length <= output.count, "connection \(n): a frame shorter than its Content-Length")
      bodies.append(Array(output[i..<i + length]))
      i += length
    }
  case .webSocket:
    // Chosen by the HTTP transport after an upgrade, never detected from a connection's
    // first bytes: the sessions of this target never speak it.
    fuzzCheck(false, "connection \(n): WebSocket framing on a plain session")
  }
  return bodies
}

/// The raw bytes of every id the connection's requests carried (top level or in batches).
private func requestIDs(in input: [UInt8]) -> Set<[UInt8]> {
  var framer = MessageFramer(maxMessageBytes: SessionWorld.limits.maxMessageBytes)
  var ids: Set<[UInt8]> = []
  input.withUnsafeBytes { raw in
    _ = framer.feed(raw) { event in
      guard case .message(let body) = event else { return true }
      let bytes = Array(body)
      guard let root = ReferenceJSON.parse(bytes, maxDepth: 1024) else { return true }
      let requests: [ReferenceJSON.Node]
      if case .array(let items) = root.value { requests = items } else { requests = [root] }
      for request in requests {
        guard case .object(let members) = request.value else { continue }
        for member in members where member.key == Array("id".utf8) {
          ids.insert(Array(bytes[member.value.range]))
        }
      }
      return true
    }
  }
  return ids
}

private func checkServerMessage(
  _ node: ReferenceJSON.Node, in message: [UInt8], ids: Set<[UInt8]>, connection n: Int,
  inBatch: Bool
) {
  let text = message.debugText
  guard case .object(let members) = node.value else {
    fuzzCheck(false, "connection \(n): a message that is not an object: \(text)")
    return
  }
  var seen: [String: ReferenceJSON.Node] = [:]
  for member in members {
    let key = String(decoding: member.key, as: UTF8.self)
    fuzzCheck(seen[key] == nil, "connection \(n): member \(key) twice in \(text)")
    seen[key] = member.value
  }
  fuzzCheck(
    seen["jsonrpc"]?.value == .string(Array("2.0".utf8)),
    "connection \(n): no \"jsonrpc\":\"2.0\" in \(text)")
  if let method = seen["method"] {
    // A notification, or a request of the server's (to a mediation adapter).
    fuzzCheck(!inBatch, "connection \(n): a notification inside a batch reply: \(text)")
    guard case .string = method.value else {
      fuzzCheck(false, "connection \(n): a method that is not a string in \(text)")
      return
    }
    guard case .object = seen["params"]?.value else {
      fuzzCheck(false, "connection \(n): a notification without object params: \(text)")
      return
    }
    var allowed: Set<String> = ["jsonrpc", "method", "params"]
    if let id = seen["id"] {
      guard case .string(let s) = id.value, s.starts(with: Array("native-ads:".utf8)) else {
        fuzzCheck(false, "connection \(n): a server request whose id is not native-ads:N: \(text)")
        return
      }
      allowed.insert("id")
    }
    fuzzCheck(
      Set(seen.keys).isSubset(of: allowed), "connection \(n): unexpected members in \(text)")
    return
  }
  // A response.
  guard let id = seen["id"] else {
    fuzzCheck(false, "connection \(n): a response without an id: \(text)")
    return
  }
  switch id.value {
  case .null: break
  case .string, .number:
    let raw = Array(message[id.range])
    fuzzCheck(
      ids.contains(raw), "connection \(n): reply id \(raw.debugText) was never sent: \(text)")
  default:
    fuzzCheck(false, "connection \(n): an id that is not a string, number or null: \(text)")
  }
  let hasResult = seen["result"] != nil
  let error = seen["error"]
  fuzzCheck(
    hasResult != (error != nil), "connection \(n): not exactly one of result and error: \(text)")
  fuzzCheck(
    Set(seen.keys).isSubset(of: ["jsonrpc", "id", "result", "error"]),
    "connection \(n): unexpected members in \(text)")
  if let error {
    guard case .object(let fields) = error.value else {
      fuzzCheck(false, "connection \(n): an error that is not an object: \(text)")
      return
    }
    let code = fields.last { $0.key == Array("code".utf8) }?.value.value
    let messageText = fields.last { $0.key == Array("message".utf8) }?.value.value
    guard case .number(let digits) = code,
      Int(String(decoding: digits, as: UTF8.self)) != nil
    else {
      fuzzCheck(false, "connection \(n): an error code that is not an integer: \(text)")
      return
    }
    guard case .string = messageText else {
      fuzzCheck(false, "connection \(n): an error message that is not a string: \(text)")
      return
    }
  }
}
