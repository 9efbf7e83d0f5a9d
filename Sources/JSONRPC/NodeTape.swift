/// The growable node storage of a ``JSONParser``: a manually managed buffer, so that appending
/// is amortised O(1) in every build configuration (an `Array` in a struct copied on mutation
/// made large documents quadratic in debug builds). Owned and freed by the parser.
@usableFromInline
struct NodeTape {
  @usableFromInline var base: UnsafeMutablePointer<JSONNode>
  @usableFromInline var count = 0
  @usableFromInline var capacity: Int

  init(capacity: Int) {
    self.capacity = max(16, capacity)
    base = .allocate(capacity: self.capacity)
  }

  /// Frees the storage; the tape must not be used afterwards.
  func deallocate() { base.deallocate() }

  @inline(__always)
  mutating func append(_ node: JSONNode) {
    if count == capacity { grow() }
    (base + count).initialize(to: node)
    count += 1
  }

  private mutating func grow() {
    let bigger = UnsafeMutablePointer<JSONNode>.allocate(capacity: capacity * 2)
    bigger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = bigger
    capacity *= 2
  }

  @inline(__always)
  subscript(index: Int) -> JSONNode {
    get { base[index] }
    nonmutating set { base[index] = newValue }
  }

  var buffer: UnsafeBufferPointer<JSONNode> { UnsafeBufferPointer(start: base, count: count) }
}
