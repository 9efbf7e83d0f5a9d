/// Reading whole documents (store files, store items) with the same field-naming errors as
/// params: arrays of objects, keys known only at run time, and strict key sets.
extension Params {
  /// The path of a member whose name is known only at run time.
  public func path(named name: String) -> String { pathPrefix + name }

  /// An array of objects, each read with the path `key[i].`.
  public func objectArray(_ key: StaticString) throws(InvalidField) -> [Params]? {
    guard let v = raw(key) else { return nil }
    guard v.kind == .array else { throw InvalidField(path(key), "must be an array") }
    var out: [Params] = []
    out.reserveCapacity(v.count)
    for (i, element) in v.elements.enumerated() {
      let field = "\(path(key))[\(i)]"
      guard element.kind == .object else { throw InvalidField(field, "must be an object") }
      out.append(Params(element, prefix: field + "."))
    }
    return out
  }

  /// A required nested object.
  public func requiredObject(_ key: StaticString) throws(InvalidField) -> Params {
    guard let p = try optionalObject(key) else {
      throw InvalidField(path(key), "is required")
    }
    return p
  }

  /// The names of the object's members, each once, in order of first appearance (a repeated
  /// key is one member whose value is the last given, as with ``value(named:)``).
  public var memberNames: [String] { uniqueMembers.map(\.name) }

  /// The object's members, each name once in order of first appearance with the last value
  /// given (what ``value(named:)`` finds), in one pass: reading every member of a large
  /// object by name would be quadratic.
  public var uniqueMembers: [(name: String, value: JSONRef)] {
    var out: [(name: String, value: JSONRef)] = []
    var place: [String: Int] = [:]
    for (key, value) in object?.members ?? [] {
      if let i = place[key] {
        out[i].value = value
      } else {
        place[key] = out.count
        out.append((key, value))
      }
    }
    return out
  }

  /// The member named `name` (`nil` when absent or `null`).
  public func value(named name: String) -> JSONRef? {
    guard let v = object?.member(name), !v.isNull else { return nil }
    return v
  }

  /// A nested object under a run-time name, read with a longer path.
  public func object(named name: String) throws(InvalidField) -> Params {
    try object(value(named: name), named: name)
  }

  /// Member `value` (one of ``uniqueMembers``, nil when `null`) as a nested object named `name`.
  public func object(_ value: JSONRef?, named name: String) throws(InvalidField) -> Params {
    guard let value, !value.isNull, value.kind == .object else {
      throw InvalidField(path(named: name), "must be an object")
    }
    return Params(value, prefix: path(named: name) + ".")
  }

  /// A string under a run-time name.
  public func string(named name: String) throws(InvalidField) -> String {
    try string(value(named: name), named: name)
  }

  /// Member `value` (one of ``uniqueMembers``) as a string named `name`.
  public func string(_ value: JSONRef?, named name: String) throws(InvalidField) -> String {
    guard let s = value?.stringValue else {
      throw InvalidField(path(named: name), "must be a string")
    }
    return s
  }

  /// Refuses members whose names are not in `allowed` (a typo in a store file is an error,
  /// not a silently ignored field): the first such member, in document order.
  public func rejectUnknownMembers(allowed: MemberNames) throws(InvalidField) {
    var unknown: String?
    object?.forEachMember { key, _ in
      if unknown == nil, !allowed.contains(key) { unknown = String(decoding: key, as: UTF8.self) }
    }
    if let unknown { throw InvalidField(path(named: unknown), "is not a known field") }
  }

  /// An optional integer within `minimum...maximum` (either may be absent). Out of bounds it
  /// is `must be a positive integer` (minimum 1) or `must be at least N` below, `must be at most
  /// N` above; with `wordedAsRange`, `must be between A and B` either way.
  public func optionalInt(
    _ key: StaticString, minimum: Int?, maximum: Int?, wordedAsRange: Bool = false
  ) throws(InvalidField) -> Int? {
    guard let v = try optionalInt(key) else { return nil }
    if wordedAsRange, let minimum, let maximum, !(minimum...maximum).contains(v) {
      throw InvalidField(path(key), "must be between \(minimum) and \(maximum)")
    }
    if let minimum, v < minimum {
      throw InvalidField(
        path(key), minimum == 1 ? "must be a positive integer" : "must be at least \(minimum)")
    }
    if let maximum, v > maximum { throw InvalidField(path(key), "must be at most \(maximum)") }
    return v
  }

  /// An optional number within `range`.
  public func optionalDouble(_ key: StaticString, in range: ClosedRange<Double>)
    throws(InvalidField) -> Double?
  {
    guard let v = try optionalDouble(key) else { return nil }
    guard range.contains(v) else {
      if range.upperBound == .greatestFiniteMagnitude {
        throw InvalidField(path(key), "must be at least \(JSONWriter.format(range.lowerBound))")
      }
      throw InvalidField(
        path(key),
        "must be between \(JSONWriter.format(range.lowerBound)) and \(JSONWriter.format(range.upperBound))"
      )
    }
    return v
  }

  /// A required string that is not empty.
  public func nonEmptyString(_ key: StaticString) throws(InvalidField) -> String {
    let s = try string(key)
    guard !s.isEmpty else { throw InvalidField(path(key), "must not be empty") }
    return s
  }
}

/// A fixed set of member names, tested against a member's key bytes without making a string
/// or hashing (the shapes of the store have a dozen names or so: a scan of equal-length names
/// beats a `Set<String>`, which would need a `String` per key).
public struct MemberNames: Sendable {
  private let names: [[UInt8]]

  /// The set of `names`. (An array, not any sequence: a generic initialiser called from
  /// another module runs unspecialised, and making the store's shapes at start-up through one
  /// cost a tenth of the cold start.)
  public init(_ names: [String]) {
    var bytes: [[UInt8]] = []
    bytes.reserveCapacity(names.count)
    for name in names { bytes.append(Array(name.utf8)) }
    self.names = bytes
  }

  /// Whether `key` (UTF-8 bytes, escapes decoded) is one of the names.
  public func contains(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    for name in names where name.count == key.count {
      if name.withUnsafeBufferPointer({ $0.elementsEqual(key) }) { return true }
    }
    return false
  }

  /// Whether `name` is one of the names.
  public func contains(_ name: String) -> Bool {
    var name = name
    return name.withUTF8 { contains($0) }
  }
}
