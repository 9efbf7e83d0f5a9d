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
  private var table = MethodTable()

  public init(limits: RPCLimits = RPCLimits()) {
    self.limits = limits
    self.parser = JSONParser(maxDepth: limits.maxDepth)
  }

  /// Registers (or replaces) the handler for `method`.
  public func register(_ method: String, _ handler: @escaping MethodHandler) {
    table.register(method, handler)
  }

  /// Every registered method name, in registration order.
  public var methodNames: [String] { table.names }

  /// Handles one complete message received on `session`, appending any reply to its output.
  public func handle(message: UnsafeRawBufferPointer, session: RPCSession) {
    var w = session.beginReply()
    let base = w.bytes.count
    var produced: Bool
    do {
      produced = try parser.parse(message) { root in
        root.kind == .array
          ? handleBatch(root, session, &w)
          : handleSingle(root, session, &w)
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
    w.beginArray()
    var any = false
    for element in batch.elements {
      let mark = w.bytes.count
      let comma = w.needsComma
      w.element()
      if handleSingle(element, session, &w) {
        any = true
      } else {
        w.bytes.removeSubrange(mark...)
        w.needsComma = comma
      }
    }
    w.endArray()
    return any
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
    if let id, id.kind != .string && id.kind != .number && id.kind != .null {
      Self.writeError(
        .invalidRequest("id must be a string, a number or null"), id: nil, into: &w)
      return true
    }
    guard let version, version.stringEquals("2.0") else {
      Self.writeError(.invalidRequest("jsonrpc must be exactly \"2.0\""), id: id, into: &w)
      return true
    }
    guard let method, method.kind == .string else {
      Self.writeError(.invalidRequest("method must be a string"), id: id, into: &w)
      return true
    }
    if let params, params.kind != .object && params.kind != .array {
      Self.writeError(
        .invalidRequest("params must be an object when present"), id: id, into: &w)
      return true
    }
    let isNotification = id == nil
    let handler = lookup(method)
    if isNotification {
      // Valid notifications are never answered, whatever happens.
      guard let handler, params?.kind != .array else { return false }
      var discard = JSONWriter(capacity: 0)
      let call = MethodCall(params: Params(params), session: session, isNotification: true)
      try? handler(call, &discard)
      return false
    }
    guard let handler else {
      Self.writeError(.methodNotFound(method.stringValue ?? ""), id: id, into: &w)
      return true
    }
    if params?.kind == .array {
      Self.writeError(
        .invalidParams("params must be an object: this service takes params by name only"),
        id: id, into: &w)
      return true
    }
    let mark = w.bytes.count
    Self.writeEnvelopeStart(id: id, into: &w)
    w.key("result")
    do throws(RPCError) {
      try handler(MethodCall(params: Params(params), session: session, isNotification: false), &w)
      w.endObject()
    } catch {
      w.bytes.removeSubrange(mark...)
      w.needsComma = false
      Self.writeError(error, id: id, into: &w)
    }
    return true
  }

  @inline(__always)
  private static func equal(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
    key.count == name.utf8CodeUnitCount && memcmp(key.baseAddress!, name.utf8Start, key.count) == 0
  }

  private func lookup(_ method: JSONRef) -> MethodHandler? {
    let raw = method.rawBytes
    if raw.count >= 2, !raw[1..<raw.count - 1].contains(0x5C) {
      return table.lookup(UnsafeBufferPointer(rebasing: raw[1..<raw.count - 1]))
    }
    // Escaped method names are decoded first.
    var name = method.stringValue ?? ""
    return name.withUTF8 { table.lookup($0) }
  }

  // MARK: - Writing

  private static let versionPrefix: StaticString = #"{"jsonrpc":"2.0","id":"#

  static func writeEnvelopeStart(id: JSONRef?, into w: inout JSONWriter) {
    w.raw(
      UnsafeBufferPointer(start: versionPrefix.utf8Start, count: versionPrefix.utf8CodeUnitCount))
    if let id { w.raw(id.rawBytes) } else { w.null() }
  }

  /// Writes a complete error response.
  static func writeError(_ error: RPCError, id: JSONRef?, into w: inout JSONWriter) {
    writeEnvelopeStart(id: id, into: &w)
    w.key("error")
    error.write(to: &w)
    w.endObject()
  }
}
