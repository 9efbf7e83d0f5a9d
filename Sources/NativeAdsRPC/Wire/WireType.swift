import JSONRPC

/// What a member's value is on the wire: one description from which its JSON Schema is
/// generated and by which its ``Field`` decodes it (see docs/adding-a-method.md).
indirect enum WireType: Sendable {
  /// A string; `nonEmpty` refuses `""`.
  case string(nonEmpty: Bool = false)
  /// An integer within the bounds given.
  case integer(minimum: Int? = nil, maximum: Int? = nil)
  /// A finite number, within `range` when given.
  case number(ClosedRange<Double>? = nil)
  case boolean
  /// One of these strings (the raw values of a `CaseIterable` domain enum).
  case enumeration([String])
  /// A nested object: a reference when the shape is named, else the shape inline.
  case shape(WireShape)
  /// A reference to a named component that is not decoded (results: `Image`, `ResponseInfo`).
  case component(String)
  case array(WireType, minItems: Int? = nil)
  /// An object whose member names are free and whose values are all of one type.
  case map(WireType)
  case oneOf([WireType])
  /// The type, or `null` (results).
  case nullable(WireType)
  /// Exactly this value.
  case constant(JSONValue)
  /// Any object.
  case anyObject
  /// The type, with a `description`.
  case described(WireType, String)

  /// The raw values of `E`, in declaration order.
  static func cases<E: CaseIterable & RawRepresentable>(of _: E.Type) -> WireType
  where E.RawValue == String {
    .enumeration(E.allCases.map(\.rawValue))
  }

  /// The JSON Schema (draft 2020-12) of the type.
  var schema: JSONValue {
    switch self {
    case .string: Schema.string
    case .integer(nil, nil): Schema.integer
    case .integer(let minimum, let maximum): Schema.integer(minimum: minimum, maximum: maximum)
    case .number(nil): Schema.number
    case .number(let range?): Schema.number(minimum: range.lowerBound, maximum: range.upperBound)
    case .boolean: Schema.boolean
    case .enumeration(let values): Schema.enumeration(values)
    case .shape(let shape): shape.name.map(Schema.ref) ?? shape.schema
    case .component(let name): Schema.ref(name)
    case .array(let items, let minItems): Schema.array(items.schema, minItems: minItems)
    case .map(let values): Schema.map(values.schema)
    case .oneOf(let types): Schema.oneOf(types.map(\.schema))
    case .nullable(let type): Schema.nullable(type.schema)
    case .constant(let value): .object([("const", value)])
    case .anyObject: Schema.anyObject
    case .described(let type, let text): Schema.described(type.schema, text)
    }
  }
}

/// One member of a ``WireShape``, or one param of a method.
struct WireMember: Sendable {
  var name: String
  var type: WireType
  var required: Bool
  /// Said in the schema's `description`.
  var summary: String?

  var schema: JSONValue { summary.map { Schema.described(type.schema, $0) } ?? type.schema }
}
