/// Reading whole documents (store files, store items) with the same field-naming errors as
/// params: arrays of objects, keys known only at run time, and strict key sets.
extension Params {
  /// The path of a member whose name is known only at run time.
  public func path(named name: String) -> String { pathPrefix + name }

  /// An array of objects, each read with the path `key[i].`.
  public func objectArray(_ key: StaticString) throws(RPCError) -> [Params]? {
    guard let v = raw(key) else { return nil }
    guard v.kind == .array else { throw .invalidParams(field: path(key), "must be an array") }
    var out: [Params] = []
    out.reserveCapacity(v.count)
    for (i, element) in v.elements.enumerated() {
      let field = "\(path(key))[\(i)]"
      guard element.kind == .object else { throw .invalidParams(field: field, "must be an object") }
      out.append(Params(element, prefix: field + "."))
    }
    return out
  }

  /// A required nested object.
  public func requiredObject(_ key: StaticString) throws(RPCError) -> Params {
    guard let p = try optionalObject(key) else {
      throw .invalidParams(field: path(key), "is required")
    }
    return p
  }

  /// The names of the object's members, each once, in order of first appearance (a repeated
  /// key is one member whose value is the last given, as with ``value(named:)``).
  public var memberNames: [String] {
    var seen = Set<String>()
    return (object?.members ?? []).compactMap { seen.insert($0.key).inserted ? $0.key : nil }
  }

  /// The member named `name` (`nil` when absent or `null`).
  public func value(named name: String) -> JSONRef? {
    guard let v = object?.member(name), !v.isNull else { return nil }
    return v
  }

  /// A nested object under a run-time name, read with a longer path.
  public func object(named name: String) throws(RPCError) -> Params {
    guard let v = value(named: name), v.kind == .object else {
      throw .invalidParams(field: path(named: name), "must be an object")
    }
    return Params(v, prefix: path(named: name) + ".")
  }

  /// A string under a run-time name.
  public func string(named name: String) throws(RPCError) -> String {
    guard let s = value(named: name)?.stringValue else {
      throw .invalidParams(field: path(named: name), "must be a string")
    }
    return s
  }

  /// Refuses members whose names are not in `allowed` (a typo in a store file is an error,
  /// not a silently ignored field).
  public func rejectUnknownMembers(allowed: Set<String>) throws(RPCError) {
    for name in memberNames where !allowed.contains(name) {
      throw .invalidParams(field: path(named: name), "is not a known field")
    }
  }

  /// A required integer at least `minimum`.
  public func int(_ key: StaticString, atLeast minimum: Int) throws(RPCError) -> Int {
    let v = try int(key)
    guard v >= minimum else {
      throw .invalidParams(
        field: path(key),
        minimum == 1 ? "must be a positive integer" : "must be at least \(minimum)")
    }
    return v
  }

  /// An optional number within `range`.
  public func optionalDouble(_ key: StaticString, in range: ClosedRange<Double>) throws(RPCError)
    -> Double?
  {
    guard let v = try optionalDouble(key) else { return nil }
    guard range.contains(v) else {
      throw .invalidParams(
        field: path(key),
        "must be between \(JSONWriter.format(range.lowerBound)) and \(JSONWriter.format(range.upperBound))"
      )
    }
    return v
  }

  /// A required string that is not empty.
  public func nonEmptyString(_ key: StaticString) throws(RPCError) -> String {
    let s = try string(key)
    guard !s.isEmpty else { throw .invalidParams(field: path(key), "must not be empty") }
    return s
  }
}

extension RPCError {
  /// For `-32602` errors that name a field: the field and the problem
  /// (`("creatives[3].assets.MainImage.width", "must be a positive integer")`).
  public var fieldProblem: (field: String, problem: String)? {
    guard code == -32602, case .string(let field)? = data?["field"] else { return nil }
    let prefix = "Invalid params: \(field) "
    guard message.hasPrefix(prefix) else { return nil }
    return (field, String(message.dropFirst(prefix.count)))
  }
}
