/// Where the live ads and their recorded state are kept: in this process's memory
/// (``InMemoryLiveAdStore``), or, for a fleet of processes, somewhere they share.
///
/// Everything that records answers through a completion, which an implementation may call at
/// once or later (after a round trip to a shared store), always on the event loop thread, and
/// with ``StoreUnavailable`` when the shared store cannot be reached. A change is applied
/// atomically: ``AdState/apply(_:to:at:)`` on the state as it is, and the state it leaves is
/// what the next change sees, whichever process makes it.
public protocol LiveAdStore: AnyObject {
  /// Whether other processes share the ads: then an ad may be loaded, changed or released
  /// elsewhere, and every call naming one finds it through ``find(_:completion:)``. False for
  /// a store in this process only, whose ``ad(_:)`` is the whole truth.
  var isShared: Bool { get }
  /// The live ad `id` held by this process, or nil (unknown here, or released).
  func ad(_ id: String) -> NativeAd?
  /// The same, by the UTF-8 bytes of the ID (requests carry the ID as bytes; a store can look
  /// it up without making a `String`).
  func ad(utf8 id: UnsafeBufferPointer<UInt8>) -> NativeAd?
  /// Every live ad held by this process, in no particular order.
  var ads: [NativeAd] { get }
  /// The live ad `id` wherever it was loaded, with its state as it is now; nil when unknown
  /// or released.
  func find(_ id: String, completion: @escaping (Result<NativeAd?, StoreUnavailable>) -> Void)
  /// Keeps newly loaded ads; `completion` runs once they are kept.
  func insert(
    _ ads: [NativeAd], completion: @escaping (Result<Void, StoreUnavailable>) -> Void)
  /// Applies `change` to the state of `ad` at time `now` and hands back what happened.
  func apply(
    _ change: AdChange, to ad: NativeAd, at now: Double,
    completion: @escaping (Result<AdTransition, StoreUnavailable>) -> Void)
  /// Releases `ad`: applies ``AdChange/release`` and forgets it, atomically (later lookups do
  /// not find it), then hands back what happened.
  func release(
    _ ad: NativeAd, at now: Double,
    completion: @escaping (Result<AdTransition, StoreUnavailable>) -> Void)
  /// ``insert(_:completion:)`` answered at once, by a store that can (one in this process's
  /// memory); nil from one that answers later, which is then asked through the completion.
  /// Default: nil.
  func insertNow(_ ads: [NativeAd]) -> Result<Void, StoreUnavailable>?
  /// ``release(_:at:completion:)`` done at once, by a store that can (one in this process's
  /// memory, whose releases cannot fail): the transition; nil from one that answers later (a
  /// shared store), which is then asked through the completion. Default: nil. (A transition
  /// alone, not a `Result`: an optional `Result` of a transition is copied and destroyed
  /// through Optional's generic witnesses, a tenth of a release.)
  func releaseNow(_ ad: NativeAd, at now: Double) -> AdTransition?
}

extension LiveAdStore {
  public func ad(utf8 id: UnsafeBufferPointer<UInt8>) -> NativeAd? {
    ad(String(decoding: id, as: UTF8.self))
  }

  public func insertNow(_ ads: [NativeAd]) -> Result<Void, StoreUnavailable>? { nil }

  public func releaseNow(_ ad: NativeAd, at now: Double) -> AdTransition? { nil }
}

/// The live ads of one process, in an ``AdIDTable``. Every completion runs before the call
/// returns.
public final class InMemoryLiveAdStore: LiveAdStore {
  private var table = AdIDTable()

  /// An empty store.
  public init() {}

  public var isShared: Bool { false }

  public func ad(_ id: String) -> NativeAd? {
    var id = id
    return id.withUTF8 { table.ad(utf8: $0) }
  }

  public func ad(utf8 id: UnsafeBufferPointer<UInt8>) -> NativeAd? { table.ad(utf8: id) }

  public var ads: [NativeAd] { table.ads }

  public func find(
    _ id: String, completion: @escaping (Result<NativeAd?, StoreUnavailable>) -> Void
  ) {
    completion(.success(ad(id)))
  }

  public func insert(
    _ ads: [NativeAd], completion: @escaping (Result<Void, StoreUnavailable>) -> Void
  ) {
    keep(ads)
    completion(.success(()))
  }

  public func insertNow(_ ads: [NativeAd]) -> Result<Void, StoreUnavailable>? {
    keep(ads)
    return .success(())
  }

  private func keep(_ ads: [NativeAd]) {
    for ad in ads { table.insert(ad) }
  }

  public func apply(
    _ change: AdChange, to ad: NativeAd, at now: Double,
    completion: @escaping (Result<AdTransition, StoreUnavailable>) -> Void
  ) {
    // In place: the state is not copied out and back.
    completion(.success(ad.state.apply(change, to: ad, at: now)))
  }

  public func release(
    _ ad: NativeAd, at now: Double,
    completion: @escaping (Result<AdTransition, StoreUnavailable>) -> Void
  ) {
    completion(.success(released(ad, at: now)))
  }

  // (Optional, as the requirement says: a non-optional result would not witness it, and the
  // default, nil, would be taken.)
  public func releaseNow(_ ad: NativeAd, at now: Double) -> AdTransition? {
    released(ad, at: now)
  }

  private func released(_ ad: NativeAd, at now: Double) -> AdTransition {
    let transition = ad.state.apply(.release, to: ad, at: now)
    table.remove(ad.id)
    ad.isReleased = true
    return transition
  }
}
