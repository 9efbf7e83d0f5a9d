/// Why a byte sequence is not acceptable JSON.
///
/// Thrown by ``JSONParser/parse(_:)``; the dispatcher turns every case into a JSON-RPC
/// `-32700 Parse error` whose `data.detail` is ``description``.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, in words a client developer can act on.
  public var reason: String
  /// Byte offset in the message where the problem was found.
  public var offset: Int

  public init(_ reason: String, at offset: Int) {
    self.reason = reason
    self.offset = offset
  }

  public var description: String { "\(reason) at byte \(offset)" }
}
