/// What a method handler receives: the params and the session the request came in on.
///
/// Valid only during the handler call (the params point into the message bytes).
public struct MethodCall {
  /// The `params` object, or `nil` when the request has none.
  public let params: Params
  /// The connection the request arrived on. (Unowned: the session is handling this call, so
  /// it is alive; reading the property gives a strong reference to keep for later.)
  public unowned(unsafe) let session: RPCSession
  /// True for a notification: whatever the handler writes is discarded.
  public let isNotification: Bool
  /// The dispatcher outlives every call it makes (it owns the handlers).
  unowned(unsafe) let dispatcher: Dispatcher

  /// Takes the reply out of the handler's hands: the handler returns without writing a
  /// result, and answers later through the returned object.
  public func deferReply() -> DeferredReply { dispatcher.deferCurrentReply(session: session) }
}

/// A method implementation: decode `call.params` in full, do the work, then write exactly
/// one JSON value (the result) into the writer, or throw, or defer the reply.
public typealias MethodHandler = (MethodCall, inout JSONWriter) throws(RPCError) -> Void
