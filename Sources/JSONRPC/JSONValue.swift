/// An owned JSON value, for building replies and error data and for tests.
///
/// Numbers keep their textual form so that nothing is rounded on the way through; use
/// ``int(_:)`` and ``double(_:)`` to build them. ``raw(_:)`` splices bytes that are already
/// valid JSON (pre-encoded creatives) into a reply without re-encoding them.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])
  /// Bytes that are already one valid JSON value.
  case raw([UInt8])

  public static func int(_ v: Int) -> JSONValue { .number(String(v)) }
  public static func double(_ v: Double) -> JSONValue {
    v.isFinite ? .number(JSONWriter.format(v)) : .null
  }

  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    case (.raw(let x), .raw(let y)): return x == y
    default: return false
    }
  }

  /// The member named `key` of an object value.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.0 == key }?.1
  }

  /// The value encoded as compact JSON text.
  public var jsonText: String {
    var w = JSONWriter()
    w.value(self)
    return String(decoding: w.bytes, as: UTF8.self)
  }
}

extension JSONValue {
  /// The value as indented JSON text (two spaces, one member per line), for files people read.
  public var prettyText: String {
    var out = ""
    Self.pretty(self, indent: 0, into: &out)
    return out + "\n"
  }

  private static func pretty(_ value: JSONValue, indent: Int, into out: inout String) {
    let pad = String(repeating: "  ", count: indent + 1)
    let closing = String(repeating: "  ", count: indent)
    switch value {
    case .array(let items) where !items.isEmpty:
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += pad
        pretty(item, indent: indent + 1, into: &out)
        out += i == items.count - 1 ? "\n" : ",\n"
      }
      out += closing + "]"
    case .object(let members) where !members.isEmpty:
      out += "{\n"
      for (i, (key, item)) in members.enumerated() {
        out += pad + JSONValue.string(key).jsonText + ": "
        pretty(item, indent: indent + 1, into: &out)
        out += i == members.count - 1 ? "\n" : ",\n"
      }
      out += closing + "}"
    default:
      out += value.jsonText
    }
  }
}
