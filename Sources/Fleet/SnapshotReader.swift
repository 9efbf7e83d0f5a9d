import JSONRPC

/// Reads a value the fleet wrote to Redis (an ad's record or state, an event), naming the
/// place of anything missing or mistyped (`record.creative.content.images[1].url`). What the
/// fleet reads, it wrote itself; a value that does not read means another version of the
/// service wrote it, or the key was changed by hand.
struct SnapshotReader {
  let value: JSONValue
  let path: String

  init(_ value: JSONValue, path: String) {
    self.value = value
    self.path = path
  }

  init(parsing bytes: [UInt8], path: String) throws(SnapshotError) {
    do {
      value = try bytes.withUnsafeBytes { try JSONParser().parseValue($0) }
    } catch {
      throw SnapshotError(path: path, problem: "is not JSON (\(error))")
    }
    self.path = path
  }

  func fail(_ problem: String) -> SnapshotError { SnapshotError(path: path, problem: problem) }

  /// The member `name`, nil when absent or null.
  func optional(_ name: String) -> SnapshotReader? {
    guard case .object(let members) = value else { return nil }
    guard let found = members.last(where: { $0.0 == name })?.1, found != .null else {
      return nil
    }
    return SnapshotReader(found, path: path + "." + name)
  }

  func callAsFunction(_ name: String) throws(SnapshotError) -> SnapshotReader {
    guard case .object = value else { throw fail("must be an object") }
    guard let member = optional(name) else {
      throw SnapshotError(path: path + "." + name, problem: "is missing")
    }
    return member
  }

  var elements: [SnapshotReader] {
    get throws(SnapshotError) {
      guard case .array(let items) = value else { throw fail("must be an array") }
      return items.enumerated().map { SnapshotReader($1, path: path + "[\($0)]") }
    }
  }

  var members: [(String, SnapshotReader)] {
    get throws(SnapshotError) {
      guard case .object(let items) = value else { throw fail("must be an object") }
      return items.map { ($0.0, SnapshotReader($0.1, path: path + "." + $0.0)) }
    }
  }

  var string: String {
    get throws(SnapshotError) {
      guard case .string(let text) = value else { throw fail("must be a string") }
      return text
    }
  }

  var bool: Bool {
    get throws(SnapshotError) {
      guard case .bool(let flag) = value else { throw fail("must be true or false") }
      return flag
    }
  }

  var double: Double {
    get throws(SnapshotError) {
      guard case .number(let text) = value, let number = Double(text) else {
        throw fail("must be a number")
      }
      return number
    }
  }

  var int: Int {
    get throws(SnapshotError) {
      guard case .number(let text) = value, let number = Int(text) else {
        throw fail("must be an integer")
      }
      return number
    }
  }

  var uint64: UInt64 {
    get throws(SnapshotError) {
      guard case .number(let text) = value, let number = UInt64(text) else {
        throw fail("must be a non-negative integer")
      }
      return number
    }
  }

  func enumeration<T: RawRepresentable>(_: T.Type) throws(SnapshotError) -> T
  where T.RawValue == String {
    guard let found = T(rawValue: try string) else {
      throw fail("\"\((try? string) ?? "")\" is not a known value")
    }
    return found
  }

  var strings: [String] {
    get throws(SnapshotError) {
      var out: [String] = []
      for element in try elements { out.append(try element.string) }
      return out
    }
  }
}

/// A value in Redis that does not read as the fleet writes it.
public struct SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
  public var path: String
  public var problem: String
  public var description: String { "\(path) \(problem)" }
}

extension JSONValue {
  /// A string, or null for nil.
  static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
  /// An unsigned integer (owner IDs use all 64 bits).
  static func uint64(_ v: UInt64) -> JSONValue { .number(String(v)) }
  static func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
}
