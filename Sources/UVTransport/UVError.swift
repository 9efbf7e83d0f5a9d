import CLibUV

/// A libuv error code with its symbolic name and message (`EADDRINUSE: address already in
/// use`). The one place where libuv status codes become Swift errors.
public struct UVError: Error, Sendable, CustomStringConvertible {
  public let code: Int32
  /// What the transport was doing (`bind 127.0.0.1:7411`).
  public let operation: String

  public init(_ code: Int32, _ operation: String) {
    self.code = code
    self.operation = operation
  }

  public var name: String { String(cString: uv_err_name(code)) }
  public var message: String { String(cString: uv_strerror(code)) }
  public var description: String { "\(operation): \(name): \(message)" }

  /// Throws when `status` is negative.
  @discardableResult
  static func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(UVError)
    -> Int32
  {
    if status < 0 { throw UVError(status, operation()) }
    return status
  }

  static let eof = Int32(UV_EOF.rawValue)
  static let canceled = Int32(UV_ECANCELED.rawValue)
}
