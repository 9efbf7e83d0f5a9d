import JSONRPC

/// A small vocabulary for writing JSON Schemas (draft 2020-12) as values, so that the OpenRPC
/// document, the format schemas and the files in `schemas/` all come from one place.
enum Schema {
  static let string: JSONValue = .object([("type", .string("string"))])
  static let integer: JSONValue = .object([("type", .string("integer"))])
  static let number: JSONValue = .object([("type", .string("number"))])
  static let boolean: JSONValue = .object([("type", .string("boolean"))])
  static let null: JSONValue = .object([("type", .string("null"))])
  static let anyObject: JSONValue = .object([("type", .string("object"))])

  /// A reference to a shared schema (`#/components/schemas/Name` in the OpenRPC document,
  /// rewritten to `#/$defs/Name` in standalone schema files).
  static func ref(_ name: String) -> JSONValue {
    .object([("$ref", .string("#/components/schemas/" + name))])
  }

  static func array(_ items: JSONValue, minItems: Int? = nil) -> JSONValue {
    var members: [(String, JSONValue)] = [("type", .string("array")), ("items", items)]
    if let minItems { members.append(("minItems", .int(minItems))) }
    return .object(members)
  }

  static func nullable(_ schema: JSONValue) -> JSONValue {
    .object([("oneOf", .array([schema, null]))])
  }

  static func enumeration(_ values: [String]) -> JSONValue {
    .object([("type", .string("string")), ("enum", .array(values.map(JSONValue.string)))])
  }

  static func constant(_ value: String) -> JSONValue {
    .object([("const", .string(value))])
  }

  static func integer(minimum: Int? = nil, maximum: Int? = nil) -> JSONValue {
    var members: [(String, JSONValue)] = [("type", .string("integer"))]
    if let minimum { members.append(("minimum", .int(minimum))) }
    if let maximum { members.append(("maximum", .int(maximum))) }
    return .object(members)
  }

  static func number(minimum: Double, maximum: Double) -> JSONValue {
    .object([
      ("type", .string("number")), ("minimum", .double(minimum)), ("maximum", .double(maximum)),
    ])
  }

  /// An object with the given properties; `closed` forbids others.
  static func object(
    _ properties: [(String, JSONValue)], required: [String] = [], closed: Bool = false,
    description: String? = nil
  ) -> JSONValue {
    var members: [(String, JSONValue)] = [("type", .string("object"))]
    if let description { members.append(("description", .string(description))) }
    members.append(("properties", .object(properties)))
    if !required.isEmpty { members.append(("required", .array(required.map(JSONValue.string)))) }
    if closed { members.append(("additionalProperties", .bool(false))) }
    return .object(members)
  }

  /// `{"type":"object","additionalProperties": values}`.
  static func map(_ values: JSONValue) -> JSONValue {
    .object([("type", .string("object")), ("additionalProperties", values)])
  }

  static func oneOf(_ schemas: [JSONValue]) -> JSONValue {
    .object([("oneOf", .array(schemas))])
  }

  static func described(_ schema: JSONValue, _ text: String) -> JSONValue {
    guard case .object(var members) = schema else { return schema }
    members.insert(("description", .string(text)), at: 0)
    return .object(members)
  }

  /// Rewrites `#/components/schemas/X` references to `#/$defs/X` (standalone files).
  static func standalone(_ value: JSONValue) -> JSONValue {
    switch value {
    case .string(let s) where s.hasPrefix("#/components/schemas/"):
      return .string("#/$defs/" + s.dropFirst("#/components/schemas/".count))
    case .array(let items): return .array(items.map(standalone))
    case .object(let members): return .object(members.map { ($0.0, standalone($0.1)) })
    default: return value
    }
  }
}
