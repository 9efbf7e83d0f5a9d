/// A param or document member that fails to decode: where (`creatives[3].assets.MainImage.width`)
/// and what is wrong (`must be a positive integer`). Every ``Params`` accessor throws it; the
/// RPC layer answers it as ``rpcError`` and the store loader reports it as is, so neither has
/// to read a message back.
public struct InvalidField: Error, Sendable, Equatable {
  /// The full path of the member.
  public var field: String
  /// What is wrong, phrased to follow the path.
  public var problem: String

  public init(_ field: String, _ problem: String) {
    self.field = field
    self.problem = problem
  }

  /// `-32602` `Invalid params: <field> <problem>` with `data.field`.
  public var rpcError: RPCError { .invalidParams(field: field, problem) }
}
