import JSONRPC

/// One described member, typed: its name and ``WireType`` (for schemas, unknown-member checks
/// and writers) and how its value is read (decoding goes through it, so the type and bound
/// rules are the description's).
///
/// Fields are `static let`s next to the code that reads them: reading one costs what the
/// matching ``Params`` accessor costs, no lookup or allocation more.
struct Field<Value>: Sendable {
  let name: StaticString
  let type: WireType
  let required: Bool
  let summary: String?
  private let reader: @Sendable (Params, StaticString) throws(InvalidField) -> Value

  init(
    _ name: StaticString, _ type: WireType, required: Bool, summary: String? = nil,
    read: @escaping @Sendable (Params, StaticString) throws(InvalidField) -> Value
  ) {
    self.name = name
    self.type = type
    self.required = required
    self.summary = summary
    self.reader = read
  }

  /// The member as a shape or a method lists it.
  var member: WireMember {
    WireMember(name: name.description, type: type, required: required, summary: summary)
  }

  /// The value in `params`, by this field's rules.
  @inline(__always)
  func read(_ params: Params) throws(InvalidField) -> Value { try reader(params, name) }

  /// The same field with another summary.
  func described(_ text: String) -> Field {
    Field(name, type, required: required, summary: text, read: reader)
  }
}

extension Params {
  /// The value of `field` in these params.
  @inline(__always)
  func callAsFunction<Value>(_ field: Field<Value>) throws(InvalidField) -> Value {
    try field.read(self)
  }
}

/// Decodes a method's params: the body reads with ``Field``s, and a failure becomes the
/// `-32602` reply naming the field.
@inline(__always)
func decoding<T>(_ body: () throws(InvalidField) -> T) throws(RPCError) -> T {
  do {
    return try body()
  } catch {
    throw error.rpcError
  }
}

// MARK: Scalars

extension Field where Value == String {
  /// A required string (`nonEmpty`: and not `""`).
  static func string(_ name: StaticString, nonEmpty: Bool = false, summary: String? = nil)
    -> Field
  {
    Field(name, .string(nonEmpty: nonEmpty), required: true, summary: summary) {
      p, n throws(InvalidField) in nonEmpty ? try p.nonEmptyString(n) : try p.string(n)
    }
  }
}

extension Field where Value == StringParam {
  /// A required string, borrowed (for lookups by the string: no `String` is made).
  static func stringParam(_ name: StaticString, summary: String? = nil) -> Field {
    Field(name, .string(), required: true, summary: summary) { p, n throws(InvalidField) in
      try p.stringParam(n)
    }
  }
}

extension Field where Value == String? {
  /// An optional string.
  static func optionalString(_ name: StaticString, summary: String? = nil) -> Field {
    Field(name, .string(), required: false, summary: summary) { p, n throws(InvalidField) in
      try p.optionalString(n)
    }
  }
}

extension Field where Value == Bool {
  /// A required boolean.
  static func boolean(_ name: StaticString) -> Field {
    Field(name, .boolean, required: true) { p, n throws(InvalidField) in try p.bool(n) }
  }
}

extension Field where Value == Bool? {
  /// An optional boolean.
  static func optionalBool(_ name: StaticString, summary: String? = nil) -> Field {
    Field(name, .boolean, required: false, summary: summary) { p, n throws(InvalidField) in
      try p.optionalBool(n)
    }
  }
}

extension Field where Value == Int? {
  /// An optional integer within the bounds (see ``Params/optionalInt(_:minimum:maximum:wordedAsRange:)``).
  static func optionalInt(
    _ name: StaticString, minimum: Int? = nil, maximum: Int? = nil, wordedAsRange: Bool = false
  ) -> Field {
    Field(name, .integer(minimum: minimum, maximum: maximum), required: false) {
      p, n throws(InvalidField) in
      try p.optionalInt(n, minimum: minimum, maximum: maximum, wordedAsRange: wordedAsRange)
    }
  }
}

extension Field where Value == Int {
  /// A required integer within the bounds.
  static func int(_ name: StaticString, minimum: Int? = nil, maximum: Int? = nil) -> Field {
    Field(name, .integer(minimum: minimum, maximum: maximum), required: true) {
      p, n throws(InvalidField) in
      guard let v = try p.optionalInt(n, minimum: minimum, maximum: maximum) else {
        throw InvalidField(p.path(n), "is required")
      }
      return v
    }
  }
}

extension Field where Value == Double? {
  /// An optional finite number, within `range` when given.
  static func optionalNumber(_ name: StaticString, in range: ClosedRange<Double>? = nil) -> Field {
    Field(name, .number(range), required: false) { p, n throws(InvalidField) in
      guard let range else { return try p.optionalDouble(n) }
      return try p.optionalDouble(n, in: range)
    }
  }
}

// MARK: Enumerations

extension Field
where Value: RawRepresentable & CaseIterable & SendableMetatype, Value.RawValue == String {
  /// A required string among the raw values of the domain enum `Value`.
  static func enumeration(_ name: StaticString) -> Field {
    Field(name, .cases(of: Value.self), required: true) { p, n throws(InvalidField) in
      guard let value = try p.optionalEnum(n, Value.self) else {
        throw InvalidField(p.path(n), "is required")
      }
      return value
    }
  }
}

extension Field {
  /// An optional string among the raw values of `E`.
  static func optionalEnumeration<E: RawRepresentable & CaseIterable & SendableMetatype>(
    _ name: StaticString, _: E.Type
  ) -> Field where Value == E?, E.RawValue == String {
    Field(name, .cases(of: E.self), required: false) { p, n throws(InvalidField) in
      try p.optionalEnum(n, E.self)
    }
  }

  /// An optional array of raw values of `E` (`key[i] must be one of ...`).
  static func enumerationArray<E: RawRepresentable & CaseIterable & SendableMetatype>(
    _ name: StaticString, _: E.Type
  ) -> Field where Value == [E]?, E.RawValue == String {
    Field(name, .array(.cases(of: E.self)), required: false) { p, n throws(InvalidField) in
      guard let texts = try p.optionalStringArray(n) else { return nil }
      var values: [E] = []
      values.reserveCapacity(texts.count)
      for (i, text) in texts.enumerated() {
        guard let value = E(rawValue: text) else {
          let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
          throw InvalidField("\(p.path(n))[\(i)]", "must be one of \(allowed)")
        }
        values.append(value)
      }
      return values
    }
  }
}

// MARK: Collections and nested shapes

extension Field where Value == [String]? {
  /// An optional array of strings.
  static func stringArray(_ name: StaticString, summary: String? = nil) -> Field {
    Field(name, .array(.string()), required: false, summary: summary) {
      p, n throws(InvalidField) in try p.optionalStringArray(n)
    }
  }
}

extension Field where Value == [(key: String, value: String)]? {
  /// An optional object of string values, in document order (`extraAssets`, `settings`).
  static func stringMap(_ name: StaticString) -> Field {
    Field(name, .map(.string()), required: false) { p, n throws(InvalidField) in
      guard let object = try p.optionalObject(n) else { return nil }
      var out: [(key: String, value: String)] = []
      for (name, value) in object.uniqueMembers {
        out.append((name, try object.string(value, named: name)))
      }
      return out
    }
  }
}

extension Field where Value == Params? {
  /// An optional nested object of `shape`, checked against it and read with a longer path.
  static func object(_ name: StaticString, _ shape: WireShape, summary: String? = nil) -> Field {
    Field(name, .shape(shape), required: false, summary: summary) { p, n throws(InvalidField) in
      guard let object = try p.optionalObject(n) else { return nil }
      try shape.check(object)
      return object
    }
  }

  /// An optional nested object whose members are free (checked by the reader).
  static func object(_ name: StaticString, _ type: WireType, summary: String? = nil) -> Field {
    Field(name, type, required: false, summary: summary) { p, n throws(InvalidField) in
      try p.optionalObject(n)
    }
  }
}

extension Field where Value == Params {
  /// A required nested object of `shape`.
  static func requiredObject(_ name: StaticString, _ shape: WireShape, summary: String? = nil)
    -> Field
  {
    Field(name, .shape(shape), required: true, summary: summary) { p, n throws(InvalidField) in
      let object = try p.requiredObject(n)
      try shape.check(object)
      return object
    }
  }
}

extension Field where Value == [Params]? {
  /// An optional array of objects of `shape` (`key[i].` paths).
  static func objectArray(_ name: StaticString, _ shape: WireShape, minItems: Int? = nil)
    -> Field
  {
    Field(name, .array(.shape(shape), minItems: minItems), required: false) {
      p, n throws(InvalidField) in
      guard let objects = try p.objectArray(n) else { return nil }
      if let minItems, objects.count < minItems {
        throw InvalidField(
          p.path(n),
          minItems == 1 ? "must not be empty" : "must hold at least \(minItems) items")
      }
      for object in objects { try shape.check(object) }
      return objects
    }
  }
}

extension Field {
  /// The field, required: absent or `null` is `is required`.
  func orRequired<Wrapped>() -> Field<Wrapped> where Value == Wrapped? {
    Field<Wrapped>(name, type, required: true, summary: summary) {
      [self] p, n throws(InvalidField) in
      guard let value = try self.read(p) else { throw InvalidField(p.path(n), "is required") }
      return value
    }
  }
}
