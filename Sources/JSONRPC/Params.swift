/// Typed access to a request's named params, with errors that name the exact field.
///
/// Every accessor throws ``RPCError/invalidParams(field:_:)`` (`-32602`, e.g.
/// `Invalid params: options.numberOfAds must be an integer`, `data.field` set). `null` for an
/// optional param means absent. Field paths are only built when an error is thrown, so the
/// success path allocates nothing but the values it returns.
public struct Params {
  /// The object being read, or `nil` when the params are absent.
  public let object: JSONRef?
  private let prefix: String

  /// The path prefix of this object's fields (`"options."`, `"creatives[3]."`).
  public var pathPrefix: String { prefix }

  public init(_ object: JSONRef?, prefix: String = "") {
    self.object = object
    self.prefix = prefix
  }

  /// The full path of a field, for error messages.
  public func path(_ key: StaticString) -> String { prefix + key.description }

  @inline(__always)
  private func lookup(_ key: StaticString) -> JSONRef? {
    guard let v = object?[key], !v.isNull else { return nil }
    return v
  }

  private func missing(_ key: StaticString) -> InvalidField {
    InvalidField(path(key), "is required")
  }

  // MARK: Strings

  public func string(_ key: StaticString) throws(InvalidField) -> String {
    guard let v = lookup(key) else { throw missing(key) }
    guard let s = v.stringValue else { throw InvalidField(path(key), "must be a string") }
    return s
  }

  public func optionalString(_ key: StaticString) throws(InvalidField) -> String? {
    guard let v = lookup(key) else { return nil }
    guard let s = v.stringValue else { throw InvalidField(path(key), "must be a string") }
    return s
  }

  public func optionalStringArray(_ key: StaticString) throws(InvalidField) -> [String]? {
    guard let v = lookup(key) else { return nil }
    guard v.kind == .array else {
      throw InvalidField(path(key), "must be an array of strings")
    }
    var out: [String] = []
    out.reserveCapacity(v.count)
    for (i, e) in v.elements.enumerated() {
      guard let s = e.stringValue else {
        throw InvalidField("\(path(key))[\(i)]", "must be a string")
      }
      out.append(s)
    }
    return out
  }

  /// A string restricted to the raw values of `E`.
  public func optionalEnum<E: RawRepresentable & CaseIterable>(_ key: StaticString, _: E.Type)
    throws(InvalidField) -> E? where E.RawValue == String
  {
    guard let s = try optionalString(key) else { return nil }
    guard let e = E(rawValue: s) else {
      let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw InvalidField(path(key), "must be one of \(allowed)")
    }
    return e
  }

  // MARK: Numbers and booleans

  public func optionalBool(_ key: StaticString) throws(InvalidField) -> Bool? {
    guard let v = lookup(key) else { return nil }
    guard let b = v.boolValue else { throw InvalidField(path(key), "must be a boolean") }
    return b
  }

  public func bool(_ key: StaticString) throws(InvalidField) -> Bool {
    guard let b = try optionalBool(key) else { throw missing(key) }
    return b
  }

  public func optionalInt(_ key: StaticString) throws(InvalidField) -> Int? {
    guard let v = lookup(key) else { return nil }
    guard let i = v.intValue else { throw InvalidField(path(key), "must be an integer") }
    return i
  }

  public func int(_ key: StaticString) throws(InvalidField) -> Int {
    guard let i = try optionalInt(key) else { throw missing(key) }
    return i
  }

  public func optionalDouble(_ key: StaticString) throws(InvalidField) -> Double? {
    guard let v = lookup(key) else { return nil }
    guard let d = v.doubleValue, d.isFinite else {
      throw InvalidField(path(key), "must be a number")
    }
    return d
  }

  // MARK: Nested

  /// A nested object (`options`, `request`), read with the same rules and a longer path.
  public func optionalObject(_ key: StaticString) throws(InvalidField) -> Params? {
    guard let v = lookup(key) else { return nil }
    guard v.kind == .object else { throw InvalidField(path(key), "must be an object") }
    return Params(v, prefix: path(key) + ".")
  }

  /// The raw value of a member, for handlers with unusual shapes.
  public func raw(_ key: StaticString) -> JSONRef? { lookup(key) }
}
