import Glibc

/// The growable node storage of a ``JSONParser``: a manually managed buffer, so that appending
/// is amortised O(1) in every build configuration (an `Array` in a struct copied on mutation
/// made large documents quadratic in debug builds). Owned and freed by the parser. It is
/// `malloc`ed and grows with `realloc`, which moves a large block by remapping its pages
/// rather than copying them (a document of millions of nodes grows its tape many times).
///
/// The parser's fast layer writes nodes at `base + count` itself, in the room it checked,
/// with `base`, `count` and `capacity` copied into local variables (registers) for the run.
@usableFromInline
struct NodeTape {
  @usableFromInline var base: UnsafeMutablePointer<JSONNode>
  @usableFromInline var count = 0
  @usableFromInline var capacity: Int

  init(capacity: Int) {
    self.capacity = max(16, capacity)
    base = NodeTape.resized(nil, to: self.capacity)
  }

  /// Frees the storage; the tape must not be used afterwards.
  func deallocate() { free(base) }

  /// Appends `node`, growing the storage when it is full.
  mutating func append(_ node: JSONNode) {
    if count == capacity { grow() }
    (base + count).initialize(to: node)
    count += 1
  }

  /// Doubles the capacity (the storage may move).
  @inline(never)
  mutating func grow() {
    base = NodeTape.resized(base, to: capacity * 2)
    capacity *= 2
  }

  /// `storage` (or new storage) resized for `capacity` nodes, its nodes kept. (`JSONNode` is
  /// a trivial type: its bytes can be moved by `realloc`.)
  private static func resized(
    _ storage: UnsafeMutablePointer<JSONNode>?, to capacity: Int
  ) -> UnsafeMutablePointer<JSONNode> {
    guard let raw = realloc(storage, capacity * MemoryLayout<JSONNode>.stride) else {
      fatalError("out of memory for \(capacity) JSON nodes")
    }
    return raw.bindMemory(to: JSONNode.self, capacity: capacity)
  }

  @inline(__always)
  subscript(index: Int) -> JSONNode {
    get { base[index] }
    nonmutating set { base[index] = newValue }
  }

  var buffer: UnsafeBufferPointer<JSONNode> { UnsafeBufferPointer(start: base, count: count) }
}
