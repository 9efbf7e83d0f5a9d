import JSONRPC
import Testing

/// A dispatcher with a few small methods, and sessions fed request strings.
///
/// - `echo`: the params object back (or `null` without params).
/// - `fail`: writes part of a result, then throws `{"code": 4242, "message": "boom"}`.
/// - `count`: counts its calls (notifications included); the result is the count.
/// - `greet`: decodes `name` (required string), `options.times` (optional integer) and
///   `options.loud` (optional boolean); the result is the greeting.
/// - `text`: the string `héllo €` (multi-byte UTF-8).
final class TestServer {
  let dispatcher: Dispatcher
  private(set) var countCalls = 0

  init(limits: RPCLimits = RPCLimits()) {
    dispatcher = Dispatcher(limits: limits)
    dispatcher.register("echo") { call, w throws(RPCError) in
      if let object = call.params.object {
        w.value(object.materialize())
      } else {
        w.null()
      }
    }
    dispatcher.register("fail") { _, w throws(RPCError) in
      w.beginObject()
      w.key("partial")
      w.string("this must not be sent")
      throw RPCError(code: 4242, message: "boom")
    }
    dispatcher.register("count") { [unowned self] _, w throws(RPCError) in
      countCalls += 1
      w.int(countCalls)
    }
    dispatcher.register("greet") { call, w throws(RPCError) in
      let name: String
      let times: Int
      let loud: Bool
      do throws(InvalidField) {
        name = try call.params.string("name")
        let options = try call.params.optionalObject("options")
        times = try options?.optionalInt("times") ?? 1
        loud = try options?.optionalBool("loud") ?? false
      } catch {
        throw error.rpcError
      }
      let greeting = String(repeating: "hello ", count: times) + name
      w.string(loud ? greeting.uppercased() : greeting)
    }
    dispatcher.register("text") { _, w throws(RPCError) in
      w.string("héllo €")
    }
  }

  /// A new session on this server's dispatcher.
  func session(id: UInt64 = 1) -> RPCSession {
    RPCSession(id: id, dispatcher: dispatcher)
  }

  /// Sends `line` (a `\n` is appended) on a fresh NDJSON session and returns the output
  /// without its final newline; empty when nothing was answered. A line that does not start
  /// with `{` or `[` (which would select Content-Length framing) is sent after an ignored
  /// notification that sets the session's framing to NDJSON.
  func reply(_ line: String) -> String {
    let session = session()
    let first = line.first { !$0.isWhitespace }
    if first != "{" && first != "[" {
      session.feed(#"{"jsonrpc":"2.0","method":"unregistered.notification"}"# + "\n")
    }
    session.feed(line + "\n")
    let out = session.outputText()
    if out.hasSuffix("\n") { return String(out.dropLast()) }
    return out
  }

  /// Like ``reply(_:)``, parsed.
  func replyValue(_ line: String) throws -> JSONValue {
    try parse(reply(line))
  }
}

extension RPCSession {
  /// Feeds `text` as one chunk.
  func feed(_ text: String) {
    feed(bytes: Array(text.utf8))
  }

  /// Feeds `bytes` as one chunk.
  func feed(bytes: [UInt8]) {
    bytes.withUnsafeBytes { receive($0) }
  }

  /// Takes the pending output as text.
  func outputText() -> String {
    String(decoding: takeOutput(), as: UTF8.self)
  }

  /// Takes the pending output as NDJSON lines (without their newlines).
  func outputLines() -> [String] {
    let text = outputText()
    #expect(text.isEmpty || text.hasSuffix("\n"), "NDJSON output must end with a newline")
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }
}
