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
  /// The same, by the UTF-8 bytes of the ID (requests carry the ID as bytes; a store can look
  /// it up without making a `String`).
  func ad(utf8 id: UnsafeBufferPointer<UInt8>) -> NativeAd?
  /// Every live ad held by this process, in no particular order.
  var ads: [NativeAd] { get }
  /// Keeps newly loaded ads; `completion` runs once they are kept.
  func insert(_ ads: [NativeAd], completion: @escaping () -> Void)
  /// Applies `change` to the state of `ad` at time `now` and hands back what happened.
  func apply(
    _ change: AdChange, to ad: NativeAd, at now: Double,
    completion: @escaping (AdTransition) -> Void)
  /// Releases `ad`: applies ``AdChange/release`` and forgets it, atomically (later lookups do
  /// not find it), then hands back what happened.
  func release(
    _ ad: NativeAd, at now: Double, completion: @escaping (AdTransition) -> Void)
}

extension LiveAdStore {
  public func ad(utf8 id: UnsafeBufferPointer<UInt8>) -> NativeAd? {
    ad(String(decoding: id, as: UTF8.self))
  }
}

/// The live ads of one process, in an ``AdIDTable``. Every completion runs before the call
/// returns.
public final class InMemoryLiveAdStore: LiveAdStore {
  private var table = AdIDTable()

  /// An empty store.
  public init() {}

  public func ad(_ id: String) -> NativeAd? {
    var id = id
    return id.withUTF8 { table.ad(utf8: $0) }
  }

  public func ad(utf8 id: UnsafeBufferPointer<UInt8>) -> NativeAd? { table.ad(utf8: id) }

  public var ads: [NativeAd] { table.ads }

  public func insert(_ ads: [NativeAd], completion: @escaping () -> Void) {
    for ad in ads { table.insert(ad) }
    completion()
  }

  public func apply(
    _ change: AdChange, to ad: NativeAd, at now: Double,
    completion: @escaping (AdTransition) -> Void
  ) {
    // In place: the state is not copied out and back.
    completion(ad.state.apply(change, to: ad, at: now))
  }

  public func release(
    _ ad: NativeAd, at now: Double, completion: @escaping (AdTransition) -> Void
  ) {
    let transition = ad.state.apply(.release, to: ad, at: now)
    table.remove(ad.id)
    ad.isReleased = true
    completion(transition)
  }
}
