/// Why a byte sequence is not acceptable JSON.
///
/// Thrown by ``JSONParser/parse(_:)``; the dispatcher turns every case into a JSON-RPC
/// `-32700 Parse error` whose `data.detail` is ``description``.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, in words a client developer can act on.
  public var reason: String
  /// Byte offset in the message where the problem was found.
  public var offset: Int

  public init(_ reason: String, at offset: Int) {
    self.reason = reason
    self.offset = offset
  }

  public var description: String { "\(reason) at byte \(offset)" }
}

/// Why and where a parse failed, as the parser records it: no `String` is built on the
/// parser's path; ``error(maxDepth:)`` writes the words of the ``JSONParseError``. (A plain
/// code and a separate detail, rather than an enum with payloads: the parser's exits then
/// differ only in small constants, which the compiler does not keep in registers.)
struct JSONParseFailure {
  enum Problem: UInt8 {
    case endOfInput
    case tooDeep
    case trailingData
    case expectedKey
    case expectedColon
    case expectedObjectSeparator
    case expectedArraySeparator
    /// The byte is the detail.
    case unexpectedByte
    case invalidLiteral
    case invalidNumber
    case leadingZero
    case digitAfterPoint
    case digitInExponent
    case unterminatedString
    case invalidEscape
    case invalidUnicodeEscape
    /// The escaped code unit is the detail.
    case loneSurrogate
    case controlCharacter
    case invalidUTF8
  }

  var problem: Problem
  var offset: Int
  var detail: UInt32

  init(_ problem: Problem, at offset: Int, detail: UInt32 = 0) {
    self.problem = problem
    self.offset = offset
    self.detail = detail
  }

  func error(maxDepth: Int) -> JSONParseError {
    JSONParseError(reason(maxDepth: maxDepth), at: offset)
  }

  private func reason(maxDepth: Int) -> String {
    switch problem {
    case .endOfInput: return "unexpected end of input"
    case .tooDeep: return "nesting deeper than \(maxDepth) levels"
    case .trailingData: return "unexpected data after the JSON value"
    case .expectedKey: return "expected a string key in object"
    case .expectedColon: return "expected ':' after object key"
    case .expectedObjectSeparator: return "expected ',' or '}' in object"
    case .expectedArraySeparator: return "expected ',' or ']' in array"
    case .unexpectedByte:
      let c = UInt8(truncatingIfNeeded: detail)
      if c >= 0x80 { return "invalid UTF-8 or unexpected byte" }
      if c >= 0x20 && c < 0x7F { return "unexpected character '\(Character(Unicode.Scalar(c)))'" }
      return "unexpected byte 0x\(String(c, radix: 16))"
    case .invalidLiteral: return "invalid literal"
    case .invalidNumber: return "invalid number"
    case .leadingZero: return "invalid number: leading zero"
    case .digitAfterPoint: return "invalid number: digit expected after '.'"
    case .digitInExponent: return "invalid number: digit expected in exponent"
    case .unterminatedString: return "unterminated string"
    case .invalidEscape: return "invalid escape in string"
    case .invalidUnicodeEscape: return "invalid \\u escape"
    case .loneSurrogate:
      let hex = String(detail, radix: 16, uppercase: false)
      return
        "lone surrogate \\u\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex) in string"
    case .controlCharacter: return "control character in string must be escaped"
    case .invalidUTF8: return "invalid UTF-8"
    }
  }
}
