/// One entry of a parsed document's tape.
///
/// A document is a flat array of nodes in document order (a container is followed by its
/// descendants; an object's members alternate key, value). Scalars keep the byte range of
/// their token so that nothing is decoded until a handler asks for it.
@usableFromInline
struct JSONNode: Sendable {
  @usableFromInline
  enum Kind: UInt8, Sendable {
    case null, bool, number, string, array, object
  }

  @usableFromInline var kind: Kind
  /// For strings: the token contains escapes. For bools: the value. For numbers: integer syntax.
  @usableFromInline var flag: Bool
  /// Byte offset of the token (for strings: just after the opening quote).
  @usableFromInline var start: UInt32
  /// Scalars: byte offset just past the token (strings: of the closing quote).
  /// Containers: the byte offset just past the closing bracket.
  @usableFromInline var end: UInt32
  /// Containers: number of elements (arrays) or members (objects).
  @usableFromInline var count: UInt32
  /// Index of the next node after this one and all its descendants.
  @usableFromInline var next: UInt32

  @inlinable
  init(kind: Kind, flag: Bool, start: Int, end: Int, count: Int = 0, next: Int) {
    self.kind = kind
    self.flag = flag
    self.start = UInt32(truncatingIfNeeded: start)
    self.end = UInt32(truncatingIfNeeded: end)
    self.count = UInt32(truncatingIfNeeded: count)
    self.next = UInt32(truncatingIfNeeded: next)
  }
}
