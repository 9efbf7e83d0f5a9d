/// A load's response identifier (`GADResponseInfo.responseIdentifier`).
///
/// A load draws one of 24 base64url characters (`A–Z a–z 0–9 - _`), kept inline in three
/// words: a load makes no string for it, and a writer copies its bytes as they are (none needs
/// an escape). Any other text (an identifier restored from a fleet's record, or set by a
/// caller) is kept as a string. Two identifiers are equal when their text is.
public struct ResponseIdentifier: Sendable, Equatable, CustomStringConvertible {
  /// How many characters a drawn identifier has.
  public static let drawnLength = 24

  @usableFromInline enum Storage: Sendable {
    /// A drawn identifier's 24 characters, eight to a word, first character in the lowest
    /// byte.
    case drawn(UInt64, UInt64, UInt64)
    case text(String)
  }

  @usableFromInline let storage: Storage

  /// An identifier of any text.
  public init(_ text: String) {
    storage = .text(text)
  }

  /// Draws a fresh identifier from `random`: the same characters as
  /// `random.base64URLIdentifier(length: 24)` would give.
  public init(drawingFrom random: inout SplitMix64) {
    var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &words) { out in
      random.base64URLCharacters(into: UnsafeMutableRawBufferPointer(out))
    }
    storage = .drawn(words.0, words.1, words.2)
  }

  /// Whether its characters are all of the base64url alphabet (a drawn identifier): written
  /// into JSON as they are.
  public var needsNoEscape: Bool {
    if case .drawn = storage { true } else { false }
  }

  /// Calls `body` with the identifier's UTF-8 bytes.
  @inlinable
  public func withUTF8<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    switch storage {
    case .drawn(let a, let b, let c):
      var words = (a, b, c)
      return try withUnsafeBytes(of: &words) { try body($0) }
    case .text(var text):
      return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
  }

  /// The identifier's text.
  public var description: String {
    switch storage {
    case .drawn: withUTF8 { String(decoding: $0, as: UTF8.self) }
    case .text(let text): text
    }
  }

  public static func == (a: ResponseIdentifier, b: ResponseIdentifier) -> Bool {
    switch (a.storage, b.storage) {
    case (.drawn(let a0, let a1, let a2), .drawn(let b0, let b1, let b2)):
      a0 == b0 && a1 == b1 && a2 == b2
    case (.text(let a), .text(let b)): a == b
    default: a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }
  }
}
