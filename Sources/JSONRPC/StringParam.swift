/// A string param read without building a `String`: the bytes of its token when it has no
/// escapes, or the string decoded once when it has.
///
/// For handlers that only look something up by the string (an ad ID, an asset key): the
/// common request then costs no allocation and no UTF-8 validation beyond the parser's.
/// Borrowed like ``JSONRef``: valid only during the method call.
public struct StringParam {
  private let ref: JSONRef

  init(_ ref: JSONRef) { self.ref = ref }

  /// The string (decoded and copied).
  public var string: String { ref.stringValue ?? "" }

  /// Calls `body` with the string's UTF-8 bytes (escapes decoded).
  @inlinable @inline(__always)
  public func withUTF8<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R)
    throws(E) -> R
  {
    if let bytes = unescapedBytes { return try body(bytes) }
    var decoded = string
    return try decoded.withUTF8 { bytes in Result { () throws(E) in try body(bytes) } }.get()
  }

  /// The token's bytes between the quotes, when it has no escapes.
  @usableFromInline var unescapedBytes: UnsafeBufferPointer<UInt8>? {
    ref.unescapedStringBytes
  }
}

extension Params {
  /// A required string, borrowed (``StringParam``); the same rules and errors as
  /// ``string(_:)``.
  public func stringParam(_ key: StaticString) throws(InvalidField) -> StringParam {
    try stringParam(raw(key), key)
  }

  /// Two required strings, borrowed, found in one pass over the members: the same rules and
  /// errors as ``stringParam(_:)`` for `a`, then for `b`.
  @inlinable
  public func stringParams(_ a: StaticString, _ b: StaticString) throws(InvalidField)
    -> (StringParam, StringParam)
  {
    let (va, vb) = object?.members(a, b) ?? (nil, nil)
    return (try stringParam(va, a), try stringParam(vb, b))
  }

  /// The rule of a required borrowed string, for the member `value` (`null` is absent).
  @usableFromInline
  func stringParam(_ value: JSONRef?, _ key: StaticString) throws(InvalidField)
    -> StringParam
  {
    guard let v = value, !v.isNull else { throw InvalidField(path(key), "is required") }
    guard v.kind == .string else { throw InvalidField(path(key), "must be a string") }
    return StringParam(v)
  }
}
