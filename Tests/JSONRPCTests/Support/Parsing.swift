import JSONRPC
import Testing

/// Parses `bytes` as one whole document.
func parse(_ bytes: [UInt8], maxDepth: Int = 128) throws -> JSONValue {
  let parser = JSONParser(maxDepth: maxDepth)
  return try bytes.withUnsafeBytes { try parser.parseValue($0) }
}

/// Parses `text` as one whole document.
func parse(_ text: String, maxDepth: Int = 128) throws -> JSONValue {
  try parse(Array(text.utf8), maxDepth: maxDepth)
}

/// The error the parser reports for `bytes`, or nil when they parse.
func parseError(_ bytes: [UInt8], maxDepth: Int = 128) -> JSONParseError? {
  do {
    _ = try parse(bytes, maxDepth: maxDepth)
    return nil
  } catch let error as JSONParseError {
    return error
  } catch {
    Issue.record("unexpected error type: \(error)")
    return nil
  }
}

/// The error the parser reports for `text`, or nil when it parses.
func parseError(_ text: String, maxDepth: Int = 128) -> JSONParseError? {
  parseError(Array(text.utf8), maxDepth: maxDepth)
}

/// Parses `text` and runs `body` on its root (refs are valid only inside `body`).
func withRoot<R>(_ text: String, _ body: (JSONRef) throws -> R) throws -> R {
  let bytes = Array(text.utf8)
  let parser = JSONParser()
  return try bytes.withUnsafeBytes { try parser.parse($0, body) }
}

/// A labelled byte sequence, for parameterized tests.
struct Bytes: Sendable, CustomTestStringConvertible {
  var label: String
  var bytes: [UInt8]

  init(_ label: String, _ bytes: [UInt8]) {
    self.label = label
    self.bytes = bytes
  }

  var testDescription: String { label }
}

extension JSONValue {
  /// The element at `index` of an array value.
  subscript(index: Int) -> JSONValue? {
    guard case .array(let items) = self, items.indices.contains(index) else { return nil }
    return items[index]
  }

  /// The elements of an array value.
  var arrayItems: [JSONValue]? {
    if case .array(let items) = self { return items }
    return nil
  }

  /// The text of a string value.
  var text: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The integer of a number value written as an integer.
  var integer: Int? {
    if case .number(let n) = self { return Int(n) }
    return nil
  }
}
