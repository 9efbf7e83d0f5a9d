import JSONRPC

/// `$/cancelRequest {"id"}` (a notification, as in LSP): a request of the same connection that
/// is still unanswered (a load waiting on a waterfall) is answered `-32800 Request cancelled`
/// at once and its work is stopped; unknown and answered ids are ignored (contract section 8).
enum CancelRequest: ServiceMethod {
  static let name = "$/cancelRequest"
  static let id = Field<JSONRef>(
    "id", .oneOf([.string(), .integer()]), required: true,
    summary: "The id of the request to cancel, as the client sent it."
  ) { p, n throws(InvalidField) in
    guard let v = p.raw(n), v.kind == .string || v.kind == .number else {
      throw InvalidField(p.path(n), "must be a string or a number")
    }
    return v
  }
  static var signature: MethodSignature {
    MethodSignature(
      summary:
        "A notification: cancels a request of this connection that is not answered yet (it is"
        + " answered -32800 Request cancelled and its work stops).",
      params: [id.member], result: nil)
  }

  static func decode(_ params: Params) throws(RPCError) -> Params { params }

  static func handle(_ params: Params, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let target = try decoding { () throws(InvalidField) in try params(id) }
    context.session.cancelRequest(id: target)
    w.null()
  }
}

/// `shutdown` (as in LSP): `null`; from then on the connection answers every request but
/// `exit` with `-32600`, ignores notifications, and finishes what is in flight.
enum Shutdown: ServiceMethod {
  static let name = "shutdown"
  static var signature: MethodSignature {
    MethodSignature(
      summary:
        "Prepares this connection to exit: every later request but exit is refused (-32600);"
        + " replies in flight are still sent.",
      params: [], result: .constant(.null), errors: [])
  }

  static func decode(_ params: Params) throws(RPCError) {}

  static func handle(_: Void, context: MethodContext, result w: inout JSONWriter) throws(RPCError) {
    context.session.beginShutdown()
    w.null()
  }
}

/// `exit` (a notification, as in LSP): on stdio the process ends (status 0 after `shutdown`,
/// 1 without) once its replies are written; on any other connection that connection closes.
enum Exit: ServiceMethod {
  static let name = "exit"
  static var signature: MethodSignature {
    MethodSignature(
      summary:
        "A notification: on stdio the process exits (status 0 after shutdown, 1 without) once"
        + " its replies are written; any other connection closes.",
      params: [], result: nil, errors: [])
  }

  static func decode(_ params: Params) throws(RPCError) {}

  static func handle(_: Void, context: MethodContext, result w: inout JSONWriter) throws(RPCError) {
    context.session.requestExit()
    w.null()
  }
}
