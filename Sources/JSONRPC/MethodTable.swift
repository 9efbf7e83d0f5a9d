import ByteKeys

/// Method names to handlers, looked up by the raw bytes of the `method` string so that the
/// hot path builds no `String`: one hash of the name, one probe (rarely two) in a table at
/// most a quarter full, one comparison.
///
/// A lookup answers the method's ``Method`` number, and the handler is called in place
/// through it. The table keeps what a lookup and a call read in memory of its own (plain
/// pointers, built at the first lookup after a registration), so neither copies an array or a
/// closure out of the table: no reference counting per request. Methods are registered before
/// requests are handled, never during a call.
final class MethodTable {
  /// A registered method, by its position in registration order.
  struct Method: Equatable {
    fileprivate let index: Int
  }

  /// A handler as stored (a struct keeps the closure at its own type: no reabstraction thunk
  /// around every call).
  private struct Handler {
    let body: MethodHandler
    /// Its fast layer; one that always declines when it has none. (Not an optional: an
    /// optional closure is kept at its most general type, and calling it would wrap it in a
    /// conversion thunk allocated on every call.)
    let direct: DirectHandler
    let hasDirect: Bool

    init(_ body: @escaping MethodHandler, direct: DirectHandler?) {
      self.body = body
      self.direct = direct ?? { _, _, _ in false }
      hasDirect = direct != nil
    }
  }

  /// What lookups read: the names' bytes end to end, where each starts, their hashes, and
  /// the open-addressing slots (index into the names plus one, 0 for an empty slot).
  private struct Index {
    var bytes: UnsafeMutablePointer<UInt8>
    var starts: UnsafeMutablePointer<Int>
    var hashes: UnsafeMutablePointer<UInt64>
    var slots: UnsafeMutablePointer<Int32>
    var mask: Int

    private static func zeroed(_ count: Int) -> UnsafeMutablePointer<Int32> {
      let p = UnsafeMutablePointer<Int32>.allocate(capacity: count)
      p.initialize(repeating: 0, count: count)
      return p
    }

    /// The index of `names` (a quarter full at most).
    init(_ names: [[UInt8]]) {
      let total = names.reduce(0) { $0 + $1.count }
      var slotCount = 16
      while names.count * 4 > slotCount { slotCount *= 2 }
      bytes = .allocate(capacity: max(1, total))
      starts = .allocate(capacity: names.count + 1)
      starts.initialize(to: 0)
      hashes = .allocate(capacity: max(1, names.count))
      slots = Self.zeroed(slotCount)
      mask = slotCount - 1
      var offset = 0
      for (i, name) in names.enumerated() {
        name.withUnsafeBufferPointer { n in
          if let base = n.baseAddress { (bytes + offset).initialize(from: base, count: n.count) }
          offset += n.count
          (starts + i + 1).initialize(to: offset)
          (hashes + i).initialize(to: MethodTable.hash(n))
        }
        var s = Int(truncatingIfNeeded: hashes[i]) & mask
        while slots[s] != 0 { s = (s + 1) & mask }
        slots[s] = Int32(i + 1)
      }
    }

    func free() {
      bytes.deallocate()
      starts.deallocate()
      hashes.deallocate()
      slots.deallocate()
    }

    /// Whether method `i` is named `name`.
    @inline(__always)
    func names(_ i: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
      starts[i + 1] - starts[i] == name.count
        && (name.isEmpty || ByteKeys.equal(bytes + starts[i], name.baseAddress!, count: name.count))
    }

    func find(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
      let hash = MethodTable.hash(name)
      var s = Int(truncatingIfNeeded: hash) & mask
      while slots[s] != 0 {
        let i = Int(slots[s]) - 1
        if hashes[i] == hash, names(i, name) { return i }
        s = (s + 1) & mask
      }
      return nil
    }
  }

  private var index: Index?
  /// The methods the last two lookups found, compared first: clients send runs of one method
  /// (a pipeline of `stringForKey`s) or of two taking turns (`loadAd` then `releaseAd`), and
  /// a comparison or two is cheaper than hashing the name.
  private var lastFound: Int?
  private var previousFound: Int?
  private var nameBytes: [[UInt8]] = []
  private(set) var names: [String] = []
  /// The handlers, `names.count` of them initialised, in registration order.
  private var handlers: UnsafeMutablePointer<Handler>
  private var handlerCapacity = 32
  /// Handlers running now (a handler may make calls that dispatch further requests).
  private var running = 0

  init() {
    handlers = .allocate(capacity: handlerCapacity)
  }

  deinit {
    handlers.deinitialize(count: names.count)
    handlers.deallocate()
    index?.free()
  }

  func register(_ name: String, _ handler: @escaping MethodHandler, direct: DirectHandler?) {
    // Replacing or moving the handlers while one runs would free the closure being run.
    precondition(running == 0, "methods are registered outside method calls")
    let bytes = Array(name.utf8)
    if let i = nameBytes.firstIndex(of: bytes) {
      handlers[i] = Handler(handler, direct: direct)
      return
    }
    if names.count == handlerCapacity {
      let grown = UnsafeMutablePointer<Handler>.allocate(capacity: handlerCapacity * 2)
      grown.moveInitialize(from: handlers, count: names.count)
      handlers.deallocate()
      handlers = grown
      handlerCapacity *= 2
    }
    (handlers + names.count).initialize(to: Handler(handler, direct: direct))
    names.append(name)
    nameBytes.append(bytes)
    // Built again at the next lookup: registering every method at start-up builds it once.
    index?.free()
    index = nil
    (lastFound, previousFound) = (nil, nil)
  }

  /// The method named `name` (its UTF-8 bytes), if registered.
  @inline(__always)
  func lookup(_ name: UnsafeBufferPointer<UInt8>) -> Method? {
    guard let index = index ?? built() else { return nil }
    if let last = lastFound, index.names(last, name) { return Method(index: last) }
    if let previous = previousFound, index.names(previous, name) {
      (lastFound, previousFound) = (previous, lastFound)
      return Method(index: previous)
    }
    guard let found = index.find(name) else { return nil }
    (lastFound, previousFound) = (found, lastFound)
    return Method(index: found)
  }

  /// The index, built at the first lookup after a registration; nil while nothing is
  /// registered.
  private func built() -> Index? {
    guard !nameBytes.isEmpty else { return nil }
    let built = Index(nameBytes)
    index = built
    return built
  }

  /// Calls the handler of `method`.
  @inline(__always)
  func call(_ method: Method, _ call: MethodCall, _ result: inout JSONWriter) throws(RPCError) {
    running &+= 1
    defer { running &-= 1 }
    try handlers[method.index].body(call, &result)
  }

  /// Whether `method` has a fast layer.
  @inline(__always)
  func answersDirectly(_ method: Method) -> Bool { handlers[method.index].hasDirect }

  /// Calls the fast layer of `method` (which has one: ``answersDirectly(_:)``); whether it
  /// answered.
  @inline(__always)
  func answerDirectly(
    _ method: Method, _ params: FlatParams, _ session: RPCSession, _ result: inout JSONWriter
  ) throws(RPCError) -> Bool {
    running &+= 1
    defer { running &-= 1 }
    return try handlers[method.index].direct(params, session, &result)
  }

  /// ``ByteKeys``' hash of the name, a word at a time (only registered names are inserted,
  /// so a client's lookups cannot crowd the table).
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    ByteKeys.hash(UnsafeRawBufferPointer(bytes))
  }
}
