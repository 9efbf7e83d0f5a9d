import JSONRPC
import NativeAds
import NativeAdsRPC

/// A ``LiveAdStore`` that answers later, like a store over the network: every call that
/// records is held, doing nothing, until the test releases it. Released calls run in the order
/// they were made, each on the state as it is then (as a remote store applies a change when it
/// arrives), over an ``InMemoryLiveAdStore``. Reads answer at once, from what has been kept.
final class HeldLiveAdStore: LiveAdStore {
  private let kept = InMemoryLiveAdStore()
  private var held: [(description: String, run: () -> Void)] = []

  /// The calls held, oldest first: `insert`, `apply <change>`, `remove`.
  var heldCalls: [String] { held.map(\.description) }

  /// Whether lookups are held too (a fleet's store, where an ad may live in another process).
  let isShared: Bool
  /// When set, every call released from now on fails with it (the store went out of reach).
  var unavailable: StoreUnavailable?

  init(isShared: Bool = false) {
    self.isShared = isShared
  }

  func ad(_ id: String) -> NativeAd? { kept.ad(id) }

  var ads: [NativeAd] { kept.ads }

  func find(_ id: String, completion: @escaping (Result<NativeAd?, StoreUnavailable>) -> Void) {
    hold("find") { [kept, unowned self] in
      if let unavailable { return completion(.failure(unavailable)) }
      kept.find(id, completion: completion)
    }
  }

  func insert(
    _ ads: [NativeAd], completion: @escaping (Result<Void, StoreUnavailable>) -> Void
  ) {
    hold("insert") { [kept, unowned self] in
      if let unavailable { return completion(.failure(unavailable)) }
      kept.insert(ads, completion: completion)
    }
  }

  func apply(
    _ change: AdChange, to ad: NativeAd, at now: Double,
    completion: @escaping (Result<AdTransition, StoreUnavailable>) -> Void
  ) {
    hold("apply \(Self.name(of: change))") { [kept, unowned self] in
      if let unavailable { return completion(.failure(unavailable)) }
      kept.apply(change, to: ad, at: now, completion: completion)
    }
  }

  func release(
    _ ad: NativeAd, at now: Double,
    completion: @escaping (Result<AdTransition, StoreUnavailable>) -> Void
  ) {
    hold("release") { [kept, unowned self] in
      if let unavailable { return completion(.failure(unavailable)) }
      kept.release(ad, at: now, completion: completion)
    }
  }

  /// Answers the oldest held call; returns its description (nil when none was held).
  @discardableResult
  func releaseNext() -> String? {
    guard !held.isEmpty else { return nil }
    let call = held.removeFirst()
    call.run()
    return call.description
  }

  /// Answers held calls, including those made while answering, until none is left; returns
  /// their descriptions.
  @discardableResult
  func releaseAll() -> [String] {
    var released: [String] = []
    while let next = releaseNext() { released.append(next) }
    return released
  }

  /// Forgets the held calls without answering them (their completions hold the manager,
  /// which holds this store: a harness that goes away drops them).
  func dropHeldCalls() {
    held.removeAll()
  }

  private func hold(_ description: String, _ run: @escaping () -> Void) {
    held.append((description, run))
  }

  private static func name(of change: AdChange) -> String {
    switch change {
    case .settle: "settle"
    case .recordImpression: "recordImpression"
    case .reportVisibility: "reportVisibility"
    case .click: "click"
    case .dismissScreen: "dismissScreen"
    case .setCustomClickHandler: "setCustomClickHandler"
    case .mute: "mute"
    case .videoControl: "videoControl"
    case .registerAdView: "registerAdView"
    case .unregisterAdView: "unregisterAdView"
    case .release: "release"
    case .adapterImpression: "adapterImpression"
    case .adapterClick: "adapterClick"
    case .adapterEvent: "adapterEvent"
    }
  }
}

/// A service over the built-in inventory whose live ads are kept in a ``HeldLiveAdStore``,
/// with a manual clock, and clients on it (as ``ServiceHarness``).
final class HeldStoreHarness {
  let clock = ManualClock()
  let store: HeldLiveAdStore
  let manager: AdManager
  let dispatcher = Dispatcher()
  let service: NativeAdsService
  private var nextSessionID: UInt64 = 1
  /// The connections made, closed when the harness goes (a session and the service hold each
  /// other until the session closes, as the server closes it when its connection closes).
  private var sessions: [RPCSession] = []

  /// `shared`: lookups are held too, as in a fleet.
  init(shared: Bool = false) {
    store = HeldLiveAdStore(isShared: shared)
    manager = AdManager(
      inventory: StoreLoader.builtInInventory(), clock: clock, seed: 42, store: store)
    service = NativeAdsService(manager: manager, dispatcher: dispatcher)
  }

  /// A new connection, attached to the service.
  func connect() -> Client {
    let session = RPCSession(id: nextSessionID, dispatcher: dispatcher)
    nextSessionID += 1
    service.attach(session)
    sessions.append(session)
    return Client(session)
  }

  deinit {
    for session in sessions { session.close() }
    store.dropHeldCalls()
  }
}
