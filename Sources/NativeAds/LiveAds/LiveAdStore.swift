/// Where the live ads and their recorded state are kept: in this process's memory
/// (``InMemoryLiveAdStore``), or, for a fleet of processes, somewhere they share.
///
/// Reads of an ad this process holds are synchronous (``ad(_:)``); everything that records
/// answers through a completion, which an implementation may call at once or later (after a
/// round trip to a shared store), always on the event loop thread. A change is applied
/// atomically: ``AdState/apply(_:to:at:)`` on the state as it is, and the state it leaves is
/// what the next change sees.
public protocol LiveAdStore: AnyObject {
  /// The live ad `id` held by this process, or nil (unknown or released).
  func ad(_ id: String) -> NativeAd?
  /// Every live ad held by this process, in no particular order.
  var ads: [NativeAd] { get }
  /// Keeps newly loaded ads; `completion` runs once they are kept.
  func insert(_ ads: [NativeAd], completion: @escaping () -> Void)
  /// Applies `change` to the state of `ad` at time `now` and hands back what happened.
  func apply(
    _ change: AdChange, to ad: NativeAd, at now: Double,
    completion: @escaping (AdTransition) -> Void)
  /// Forgets `ad` (released): later lookups do not find it. `completion` runs once it is gone.
  func remove(_ ad: NativeAd, completion: @escaping () -> Void)
}

/// The live ads of one process, in a dictionary. Every completion runs before the call
/// returns.
public final class InMemoryLiveAdStore: LiveAdStore {
  private var table: [String: NativeAd] = [:]

  /// An empty store.
  public init() {}

  public func ad(_ id: String) -> NativeAd? { table[id] }

  public var ads: [NativeAd] { Array(table.values) }

  public func insert(_ ads: [NativeAd], completion: @escaping () -> Void) {
    for ad in ads { table[ad.id] = ad }
    completion()
  }

  public func apply(
    _ change: AdChange, to ad: NativeAd, at now: Double,
    completion: @escaping (AdTransition) -> Void
  ) {
    var state = ad.state
    let transition = state.apply(change, to: ad, at: now)
    ad.state = state
    completion(transition)
  }

  public func remove(_ ad: NativeAd, completion: @escaping () -> Void) {
    table.removeValue(forKey: ad.id)
    ad.isReleased = true
    completion()
  }
}
