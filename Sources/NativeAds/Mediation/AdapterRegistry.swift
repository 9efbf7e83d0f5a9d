/// The mediation adapters, by class name: the built-in ones (``SampleCustomEvent``), and
/// those registered by code or by connections (through the RPC layer).
///
/// Loop-bound: used only on the event loop thread. A waterfall looks its adapters up when it
/// asks each source, so changes apply to sources not asked yet.
public final class AdapterRegistry {
  private struct Registration {
    var adapter: any MediationAdapter
    var owner: OwnerID?
  }

  private var registrations: [String: Registration] = [:]
  private let builtInNames: Set<String>

  /// Creates a registry holding the built-in adapters (set up).
  public init() {
    let builtIns: [(String, any MediationAdapter)] = [
      (SampleCustomEvent.className, SampleCustomEvent())
    ]
    builtInNames = Set(builtIns.map(\.0))
    for (className, adapter) in builtIns {
      adapter.setUp()
      registrations[className] = Registration(adapter: adapter, owner: nil)
    }
  }

  /// Registers `adapter` under `className` for `owner` (nil: not tied to a connection) and sets
  /// it up (``MediationAdapter/setUp()``). A class registered before, by anyone, is taken
  /// over: loads already asking the old adapter keep waiting on it.
  ///
  /// Returns false, changing nothing, when refused: `className` is empty or a built-in
  /// adapter's (``isBuiltIn(_:)``; the RPC layer reports that as invalid params).
  @discardableResult
  public func register(className: String, adapter: any MediationAdapter, owner: OwnerID?)
    -> Bool
  {
    guard !className.isEmpty, !isBuiltIn(className) else { return false }
    registrations[className] = Registration(adapter: adapter, owner: owner)
    adapter.setUp()
    return true
  }

  /// Unregisters `className`; false when it was not registered or is built in (built-ins
  /// stay).
  @discardableResult
  public func unregister(className: String) -> Bool {
    guard !isBuiltIn(className) else { return false }
    return registrations.removeValue(forKey: className) != nil
  }

  /// Unregisters every class `owner` registered; returns their names, sorted.
  @discardableResult
  public func unregisterAll(ownedBy owner: OwnerID) -> [String] {
    let names = registrations.filter { $0.value.owner == owner }.keys.sorted()
    for name in names { registrations.removeValue(forKey: name) }
    return names
  }

  /// The adapter registered under `className`.
  public func adapter(named className: String) -> (any MediationAdapter)? {
    registrations[className]?.adapter
  }

  /// Who registered `className`: nil for built-ins, adapters registered without an owner, and
  /// unknown names.
  public func owner(of className: String) -> OwnerID? {
    registrations[className]?.owner
  }

  /// Whether `className` is a built-in adapter's.
  public func isBuiltIn(_ className: String) -> Bool {
    builtInNames.contains(className)
  }

  /// Every registered class name, sorted.
  public var classNames: [String] { registrations.keys.sorted() }
}
