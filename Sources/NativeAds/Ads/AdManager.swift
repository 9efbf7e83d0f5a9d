import Glibc

/// The domain's front door: loads ads, keeps the table of live ads, and routes what happens to
/// them. The rules live elsewhere, each with one owner: decisioning in ``CreativeSelector``,
/// loads in the ``WaterfallEngine`` asking ``AdSource``s, an ad's transitions in ``AdState``
/// (and its video in ``VideoPlayer``), the events in the ``AdEventStream`` and the
/// ``AdEventLog``.
///
/// Loop-bound: create and use it on the event loop thread only. Calls that record answer
/// through a completion, which runs at once with the in-memory ``LiveAdStore`` and may run
/// later with a shared one. Reads of an ad this process holds are synchronous. Every call
/// naming an ad first notices a video that has played to its end (`videoDidEnd`).
public final class AdManager {
  /// A call's answer: its outcome, or why the call cannot be served.
  public typealias Reply<T> = (Result<T, AdObjectError>) -> Void

  /// Where ads come from. Changes apply to the next load.
  public let inventory: Inventory
  /// The time source.
  public let clock: any AdClock
  /// How long a loaded ad stays valid, in seconds (one hour by default).
  public let adLifetime: Double
  /// Where the live ads and their recorded state are kept.
  public let store: any LiveAdStore
  /// Every recorded event, to every subscriber (the log first).
  public let eventStream = AdEventStream()
  /// The log of recorded events; subscribed to ``eventStream``.
  public let eventLog: any AdEventLog
  /// What the event stream holds for the event log.
  private let eventLogRelay: AdEventRelay
  /// The mediation adapters, by class name (``SampleCustomEvent`` is built in).
  public let adapters: AdapterRegistry
  /// The deadline of a waterfall load, in milliseconds, for units without their own
  /// ``AdUnit/deadlineMs`` (the server's `--mediation-deadline-ms`).
  public var mediationDeadlineMs: UInt64 = 10_000
  /// Runs the per-source timeouts and load deadlines. Without one, nothing times out.
  public var scheduler: (any MediationScheduler)? {
    get { engine.scheduler }
    set { engine.scheduler = newValue }
  }

  let engine: WaterfallEngine
  private let catalog: AdSourceCatalog
  private var random: SplitMix64
  /// The UTF-8 of every ad ID's prefix (`ad-<6 hex digits>-<scope>`), followed by the count.
  private let adIDPrefix: [UInt8]
  private var adCounter: UInt64 = 0
  /// The manager's seed: a load's seeds derive from it when its request gives none.
  private let seed: UInt64
  private var loadCounter: UInt64 = 0
  /// Loads whose ads the store is still keeping, by serving number.
  private var servingLoads: [UInt64: LoadTicket] = [:]
  private var servingCounter: UInt64 = 0
  /// The load whose ads are being inserted by the current call, until the store answers.
  private var servingInline: UInt64?
  /// With a shared store: the calls waiting for their turn on each ad (``serially(_:_:)``).
  private var adTurns: [String: [(@escaping () -> Void) -> Void]] = [:]

  /// Creates a manager serving `inventory`.
  ///
  /// - Parameters:
  ///   - clock: the time source (a ``ManualClock`` in tests).
  ///   - seed: seeds the pseudo-random response identifiers, the ad ID prefix and where the
  ///     rotation of tied creatives starts; nil derives one from the clock and the process ID.
  ///     The same seed gives the same identifiers and the same rotation.
  ///   - adLifetime: seconds from load to expiry.
  ///   - store: where live ads are kept (in this process's memory by default).
  ///   - eventLog: the event log (by default the last `maxEvents` events, in memory).
  ///   - adIDScope: put into every ad ID after the prefix (a fleet's process number, so that
  ///     processes started with the same seed make different IDs).
  public init(
    inventory: Inventory, clock: any AdClock = SystemClock(), seed: UInt64? = nil,
    adLifetime: Double = 3600, maxEvents: Int = 100_000,
    store: any LiveAdStore = InMemoryLiveAdStore(), eventLog: (any AdEventLog)? = nil,
    adIDScope: String = ""
  ) {
    self.inventory = inventory
    self.clock = clock
    self.adLifetime = adLifetime
    self.store = store
    self.adsAreLocal = !store.isShared
    self.eventLog = eventLog ?? InMemoryAdEventLog(capacity: maxEvents)
    // Subscribed through a relay (``AdEventRelay``): the log is used by every event recorded.
    eventLogRelay = AdEventRelay(to: self.eventLog)
    let seed =
      seed
      ?? (UInt64(bitPattern: Int64(clock.now() * 1_000_000))
        ^ (UInt64(UInt32(bitPattern: getpid())) << 40))
    self.seed = seed
    self.adapters = AdapterRegistry()
    var random = SplitMix64(seed: seed)
    self.adIDPrefix = Array(("ad-" + random.hexIdentifier(length: 6) + "-" + adIDScope).utf8)
    self.random = random
    self.engine = WaterfallEngine(clock: clock)
    self.catalog = AdSourceCatalog(inventory: inventory, adapters: adapters, seed: seed)
    catalog.makeDelegate = { [unowned self] in MediatedAdEventDelegate(manager: self) }
    eventStream.subscribe(eventLogRelay)
  }

  // MARK: Loading

  /// Loads ads for `owner` and hands the result to `completion`, exactly once (unless the load
  /// is cancelled with ``cancelLoads(ownedBy:)``). See the contract (loading an ad),
  /// `docs/sdk-behaviour.md` and `docs/mediation.md`:
  /// - an invalid request fails at once with ``GADErrorCode/invalidRequest`` (unknown unit,
  ///   `numberOfAds` < 1, no ad types, `customNative` without format IDs; no source is tried);
  /// - a unit without a waterfall serves up to `numberOfAds` (at most 5) distinct creatives,
  ///   best first (``CreativeSelector``), or fails with ``GADErrorCode/noFill``;
  /// - a unit with a ``AdUnit/waterfall`` asks its sources by eCPM until one fills
  ///   (``WaterfallEngine``), serving one ad, within its deadline (``AdUnit/deadlineMs``,
  ///   else ``mediationDeadlineMs``).
  ///
  /// Response info echoes `request.isTestRequest`. A random source's seed is `request.seed`,
  /// else one mixed from the manager's seed and its count of loads.
  ///
  /// With `response` (an ad response string, decoded: ``AdResponse``) the response is the
  /// load's one source: the unit need not exist (its ID names what the response is for), and
  /// `adTypes` must include ``AdKind/native``.
  ///
  /// Returns the load's ticket, for ``cancelLoad(_:)``; nil when the request was invalid.
  @discardableResult
  public func load(
    _ request: AdRequest, response: AdResponse? = nil, owner: OwnerID,
    completion: @escaping (LoadResult) -> Void
  ) -> LoadTicket? {
    switch startLoad(request, response: response, owner: owner) {
    case .answered(let result, let ticket):
      completion(result)
      return ticket
    case .pending(let pending):
      pending.onAnswer = completion
      return pending.ticket
    }
  }

  /// ``load(_:response:owner:completion:)`` answered at once when it can: a load whose sources
  /// and store answer inside the call (a unit's own creatives, the in-memory store) returns its
  /// result, with no completion made or called; any other returns the ``PendingLoad`` that
  /// answers later. The same rules, results and effects as the completion form.
  public func startLoad(_ request: AdRequest, response: AdResponse? = nil, owner: OwnerID)
    -> LoadStart
  {
    let responseIdentifier = ResponseIdentifier(drawingFrom: &random)
    func invalid(_ detail: String) -> LoadStart {
      .answered(
        .failure(
          AdLoadError(
            code: .invalidRequest, message: "Invalid request: " + detail,
            responseInfo: ResponseInfo(
              identifier: responseIdentifier, isTestRequest: request.isTestRequest,
              loaded: nil, tried: []))), nil)
    }
    let problem: String?
    if request.options.numberOfAds < 1 {
      problem = "numberOfAds must be at least 1 (got \(request.options.numberOfAds))"
    } else if request.adTypes.isEmpty {
      problem = "adTypes must name at least one ad type"
    } else if request.adTypes.contains(.customNative) && request.customNativeAdFormatIDs.isEmpty {
      problem = "customNative was requested without any customNativeAdFormatIDs"
    } else if response != nil, !request.adTypes.contains(.native) {
      problem = "an ad response string gives system-defined native ads: adTypes must include native"
    } else {
      problem = nil
    }
    if let problem { return invalid(problem) }
    let found = inventory.adUnit(request.adUnitID)
    guard let unit = found ?? response.map({ _ in AdUnit(id: request.adUnitID, creativeIDs: []) })
    else {
      return invalid("unknown ad unit ID \"\(request.adUnitID)\"")
    }
    loadCounter += 1
    var options = request.options
    let mediated = response == nil && unit.hasWaterfall
    options.numberOfAds = mediated ? 1 : min(options.numberOfAds, LoaderOptions.maximumNumberOfAds)
    let plan = LoadPlan(
      request: request, unit: unit, owner: owner,
      sources: response.map { [ResponseSource($0)] } ?? catalog.sources(for: unit),
      options: options,
      seed: request.seed ?? SeedSequence.mix(seed, loadCounter),
      deadlineMs: mediated ? unit.deadlineMs ?? mediationDeadlineMs : nil,
      responseIdentifier: responseIdentifier)
    let started = engine.start(plan)
    let ticket = LoadTicket(number: started.number, owner: owner)
    // The unit's ID alone, not the request: capturing the request would copy all its fields.
    let adUnitID = request.adUnitID
    let run: WaterfallLoad
    // Consumed: its payload moves out, not copied and then destroyed with it.
    switch consume started {
    case .finished(_, .failure(let error)): return .answered(.failure(error), ticket)
    case .finished(_, .success(let loaded)):
      return serve(loaded, ticket: ticket, adUnitID: adUnitID, options: options)
    case .waiting(let waiting): run = waiting
    }
    // Waiting on a source. Strong captures: an answer in flight keeps the manager alive until
    // it comes (a weak reference would give the manager a side table, and every retain of it
    // would take the slow path).
    let pending = PendingLoad(ticket: ticket)
    run.completion = { [self] result in
      switch result {
      case .failure(let error): pending.answer(.failure(error))
      case .success(let loaded):
        switch serve(loaded, ticket: ticket, adUnitID: adUnitID, options: options) {
        case .answered(let served, _): pending.answer(served)
        case .pending(let keeping): keeping.onAnswer = pending.answer
        }
      }
    }
    return .pending(pending)
  }

  /// Makes live ads of what a load filled with and keeps them: answered when the store kept
  /// them at once (one in this process's memory: no completion to make and call), pending
  /// until a store that answers later has.
  private func serve(
    _ loaded: LoadFill, ticket: LoadTicket, adUnitID: String, options: LoaderOptions
  ) -> LoadStart {
    let ads = liveAds(of: loaded, owner: ticket.owner, adUnitID: adUnitID, options: options)
    if let kept = store.insertNow(ads) {
      return .answered(served(ads, kept, responseInfo: loaded.responseInfo), ticket)
    }
    let pending = PendingLoad(ticket: ticket)
    keep(ads, loaded.responseInfo, ticket: ticket, completion: pending.answer)
    if let early = pending.takeEarlyAnswer() { return .answered(early, ticket) }
    return .pending(pending)
  }

  /// The live ads made of what a load filled with, each bound to its fill's adapter, loaded
  /// when the fill was made.
  private func liveAds(
    of loaded: LoadFill, owner: OwnerID, adUnitID: String, options: LoaderOptions
  ) -> [NativeAd] {
    let now = loaded.filledAt
    func live(_ fill: SourceFill) -> NativeAd {
      let ad = NativeAd(
        id: nextAdID(), creative: fill.creative, options: options,
        responseInfo: loaded.responseInfo, loadedAt: now, expiresAt: now + adLifetime,
        owner: owner, adUnitID: adUnitID, mediationBox: fill.mediationBox)
      fill.bind?(ad)
      return ad
    }
    // The common load serves one ad: an array of one made at once (map's general path
    // reserves and grows its result).
    if loaded.fills.count == 1 { return [live(loaded.fills[0])] }
    return loaded.fills.map(live)
  }

  /// The next ad ID, written in one string: the prefix, then the ad counter in base 36
  /// (`0-9a-z`). An ID of up to 15 bytes is a string kept inline, with no allocation: with the
  /// 10-byte prefix of a single server that holds for the first 36^5 (60 million) ads, where
  /// decimal digits would pass it after 99,999.
  private func nextAdID() -> String {
    adCounter += 1
    var digits = 1
    var rest = adCounter / 36
    while rest > 0 {
      digits += 1
      rest /= 36
    }
    return adIDPrefix.withUnsafeBufferPointer { prefix in
      String(unsafeUninitializedCapacity: prefix.count + digits) { out in
        _ = out.initialize(from: prefix)
        var n = adCounter
        var i = prefix.count + digits
        repeat {
          i -= 1
          let digit = UInt8(truncatingIfNeeded: n % 36)
          out[i] = digit < 10 ? 0x30 &+ digit : 0x61 &+ (digit &- 10)
          n /= 36
        } while n > 0
        return prefix.count + digits
      }
    }
  }

  /// Keeps a load's ads in a store that answers later, then answers. The store may answer
  /// after the owner went away (its loads cancelled): then the ads are released at once and
  /// nobody is answered.
  private func keep(
    _ ads: [NativeAd], _ responseInfo: ResponseInfo, ticket: LoadTicket,
    completion: @escaping (LoadResult) -> Void
  ) {
    servingCounter += 1
    let serving = servingCounter
    servingInline = serving
    store.insert(ads) { [self] kept in
      if servingInline == serving {
        servingInline = nil
      } else if servingLoads.removeValue(forKey: serving) == nil {
        if case .success = kept { for ad in ads { release(ad) { _ in } } }
        return
      }
      completion(served(ads, kept, responseInfo: responseInfo))
    }
    // Not kept yet: the owner may leave before the store answers.
    if servingInline == serving {
      servingInline = nil
      servingLoads[serving] = ticket
    }
  }

  /// What a load answers once the store kept its ads, or could not.
  private func served(
    _ ads: [NativeAd], _ kept: Result<Void, StoreUnavailable>, responseInfo: ResponseInfo
  ) -> LoadResult {
    switch kept {
    case .success: return .success((ads, responseInfo))
    case .failure(let unavailable):
      return .failure(
        AdLoadError(
          code: .internalError, message: "The ads could not be kept: \(unavailable.reason)",
          responseInfo: responseInfo, unavailableStore: unavailable))
    }
  }

  /// Cancels `owner`'s loads in flight (its connection closed): their completions are never
  /// called and the sources they wait on are abandoned. Returns how many.
  @discardableResult
  public func cancelLoads(ownedBy owner: OwnerID) -> Int {
    let serving = servingLoads.filter { $0.value.owner == owner }.keys
    for number in serving { servingLoads.removeValue(forKey: number) }
    return engine.cancelLoads(ownedBy: owner) + serving.count
  }

  /// Cancels the load `ticket` if it has not answered yet (the app cancelled its request): its
  /// completion is never called, its timers stop, and the source it waits on is told
  /// (``AbandonReason/cancelled``); ads a store is still keeping for it are released when
  /// the store answers. Returns whether it was in flight.
  @discardableResult
  public func cancelLoad(_ ticket: LoadTicket) -> Bool {
    if engine.cancel(loadNumbered: ticket.number) { return true }
    guard let serving = servingLoads.first(where: { $0.value == ticket })?.key else {
      return false
    }
    servingLoads.removeValue(forKey: serving)
    return true
  }

  /// Whether the load `ticket` is still asking its sources (a waterfall waiting on an adapter
  /// or a timeout), as opposed to answered or having its ads kept by the store.
  public func isAskingSources(_ ticket: LoadTicket) -> Bool {
    engine.isRunning(loadNumbered: ticket.number)
  }

  /// Unregisters the adapters `owner` registered (its connection closed) and fails at once
  /// every source waiting on one of them (``AdNetworkError/adapterConnectionClosed``): those
  /// loads move on to their next source. Returns the class names unregistered, sorted.
  @discardableResult
  public func releaseAdapters(ownedBy owner: OwnerID) -> [String] {
    let names = adapters.unregisterAll(ownedBy: owner)
    engine.failAsks(answeredBy: owner)
    return names
  }

  // MARK: Reading ads

  /// Hands `reply` the live ad `adId`, after noticing a video that has played to its end:
  /// at once from a store in this process; from a shared store (a fleet) after it looked the
  /// ad up, wherever it was loaded, with its state as it is now.
  ///
  /// Fails with ``AdObjectError/adNotFound(adId:)`` when unknown or released, and
  /// ``AdObjectError/storeUnavailable(adId:_:)`` when a shared store cannot be reached.
  public func withAd(_ adId: String, _ reply: @escaping Reply<NativeAd>) {
    taking(adId) { [self] found, done in
      reply(found)
      done()
    }
  }

  /// Hands `body` the ad `adId` (or why there is none) and a `done` to call once it has
  /// answered. With the ads in this process: at once, `done` doing nothing. With a shared
  /// store: in the ad's turn (``serially(_:_:)``), once the store found it.
  private func taking(
    _ adId: String,
    _ body: @escaping (Result<NativeAd, AdObjectError>, @escaping () -> Void) -> Void
  ) {
    guard !adsAreLocal else {
      return body(Result { () throws(AdObjectError) in try ad(adId) }, {})
    }
    serially(adId) { [self] done in
      store.find(adId) { [self] found in
        switch found {
        case .success(let ad?): body(.success(settled(ad)), done)
        case .success(nil): body(.failure(.adNotFound(adId: adId)), done)
        case .failure(let unavailable):
          body(.failure(.storeUnavailable(adId: adId, unavailable)), done)
        }
      }
    }
  }

  /// Runs the calls naming ad `adId` one at a time, in the order they came, with a shared
  /// store: a call's lookup and change complete before the next call on the ad starts, so that
  /// a client's calls apply in its order (a registration before the visibility it enables) and
  /// this process's calls never race each other for the ad's version. Each `body` calls its
  /// `done` once, when it has answered.
  private func serially(_ adId: String, _ body: @escaping (@escaping () -> Void) -> Void) {
    if adTurns[adId] != nil {
      adTurns[adId]!.append(body)
      return
    }
    adTurns[adId] = []
    takeTurns(adId, body)
  }

  /// Runs `first`, then the calls queued behind it; a call that answers at once hands over in
  /// this loop (no recursion), one that answers later hands over from its completion.
  private func takeTurns(_ adId: String, _ first: @escaping (@escaping () -> Void) -> Void) {
    final class Turn {
      var running = true
      var finishedAtOnce = false
    }
    var next: ((@escaping () -> Void) -> Void)? = first
    while let body = next {
      next = nil
      let turn = Turn()
      body { [self] in
        if turn.running {
          turn.finishedAtOnce = true
        } else if let following = nextTurn(adId) {
          takeTurns(adId, following)
        }
      }
      turn.running = false
      guard turn.finishedAtOnce else { return }
      next = nextTurn(adId)
    }
  }

  private func nextTurn(_ adId: String) -> ((@escaping () -> Void) -> Void)? {
    // Mutated in place (no copy of the queue is held while it changes).
    guard adTurns[adId]?.isEmpty == false else {
      adTurns.removeValue(forKey: adId)
      return nil
    }
    return adTurns[adId]!.removeFirst()
  }

  /// Whether every ad is in this process (then ``ad(_:)`` is the whole truth and reads need
  /// not wait). Read once from the store: asked on every request.
  public let adsAreLocal: Bool

  /// The live ad `adId` held by this process, after noticing a video that has played to its
  /// end. With a shared store (``adsAreLocal`` false) use ``withAd(_:_:)``.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)`` when unknown or released.
  public func ad(_ adId: String) throws(AdObjectError) -> NativeAd {
    guard let ad = store.ad(adId) else { throw .adNotFound(adId: adId) }
    return settled(ad)
  }

  /// The same, by the UTF-8 bytes of the ID (as a request carries it).
  public func ad(utf8 adId: UnsafeBufferPointer<UInt8>) throws(AdObjectError) -> NativeAd {
    guard let ad = store.ad(utf8: adId) else {
      throw .adNotFound(adId: String(decoding: adId, as: UTF8.self))
    }
    return settled(ad)
  }

  private func settled(_ ad: NativeAd) -> NativeAd {
    if ad.state.video?.isPlaying == true, ad.state.video?.hasPlayedToEnd(at: clock.now()) == true {
      change(ad, .settle) { _ in }
    }
    return ad
  }

  /// The text asset of ad `adId` (held by this process) under `key`
  /// (``NativeAd/string(forKey:)``); nil when it has none. Expired and muted ads still answer.
  public func string(forKey key: String, adId: String) throws(AdObjectError) -> String? {
    try ad(adId).string(forKey: key)
  }

  /// The video controller of ad `adId` (held by this process) now; nil without video.
  public func videoState(adId: String) throws(AdObjectError) -> VideoControllerState? {
    try ad(adId).video(at: clock.now())
  }

  /// The video controller of ad `adId`, wherever it is kept (``withAd(_:_:)``), now; nil
  /// without video.
  public func videoState(adId: String, reply: @escaping Reply<VideoControllerState?>) {
    withAd(adId) { [clock] in reply($0.map { $0.video(at: clock.now()) }) }
  }

  // MARK: Changing ads

  /// Applies `change` to `ad` through the store, then records its events and sends its
  /// messages, in order; `completion` gets the transition, or why the store could not apply
  /// it.
  func change(
    _ ad: NativeAd, _ change: AdChange,
    completion: @escaping (Result<AdTransition, StoreUnavailable>) -> Void
  ) {
    let now = clock.now()
    store.apply(change, to: ad, at: now) { [self] applied in
      if case .success(let transition) = applied { route(transition, of: ad, at: now) }
      completion(applied)
    }
  }

  /// Looks up ad `adId`, checks `validate` on it, applies the change it returns and answers
  /// with `outcome` of the transition.
  func change<T>(
    adId: String, reply: @escaping Reply<T>,
    _ validate: @escaping (NativeAd) throws(AdObjectError) -> AdChange,
    outcome: @escaping (AdTransition, NativeAd) -> T
  ) {
    taking(adId) { [self] found, done in
      let ad: NativeAd
      let request: AdChange
      do throws(AdObjectError) {
        ad = try found.get()
        request = try validate(ad)
      } catch {
        reply(.failure(error))
        return done()
      }
      change(ad, request) { applied in
        switch applied {
        case .success(let transition): reply(.success(outcome(transition, ad)))
        case .failure(let unavailable) where unavailable.adIsGone:
          reply(.failure(.adNotFound(adId: adId)))
        case .failure(let unavailable):
          reply(.failure(.storeUnavailable(adId: adId, unavailable)))
        }
        done()
      }
    }
  }

  /// Records the transition's events and sends its messages, in order (unless a shared store
  /// delivered them already).
  private func route(_ transition: AdTransition, of ad: NativeAd, at now: Double) {
    guard !transition.effectsDelivered else { return }
    // The shared store's numbers, read by position (an optional iterator over them would be
    // copied and destroyed through Optional's generic witnesses on every call).
    let sequences = transition.eventSequences
    var events = 0
    for effect in transition.effects {
      switch effect {
      case .event(let kind, let assetKey, let reason, let url):
        var sequence: Int?
        if let sequences, events < sequences.count { sequence = sequences[events] }
        events += 1
        eventStream.publish(
          kind, on: ad, assetKey: assetKey, reason: reason, url: url, at: now,
          sequence: sequence)
      case .customClick(let assetID, let owner):
        eventStream.publishCustomClick(on: ad.id, assetID: assetID, for: owner)
      case .adapter(let notice):
        tell(ad, notice)
      }
    }
  }

  /// Tells the adapter of mediated ad `ad` (held here, with its forwarding) `notice`.
  private func tell(_ ad: NativeAd, _ notice: AdapterNotice) {
    guard let forwarding = ad.mediation?.forwarding else { return }
    switch notice {
    case .didRecordImpression: forwarding.didRecordImpression(adId: ad.id)
    case .didRecordClick(let key): forwarding.didRecordClickOnAsset(named: key, adId: ad.id)
    case .handleImpression: forwarding.handleImpression(adId: ad.id)
    case .handleClick(let key): forwarding.handleClick(assetKey: key, adId: ad.id)
    case .didRender(let clickable, let nonclickable):
      forwarding.didRender(adId: ad.id, clickable: clickable, nonclickable: nonclickable)
    case .didUntrackView: forwarding.didUntrackView(adId: ad.id)
    }
  }

  /// Another process of a fleet changed mediated ad `adId`, which this process loaded: tells
  /// its adapter `notice`, as ``route(_:of:at:)`` would have here.
  public func deliver(_ notice: AdapterNotice, toAdapterOf adId: String) {
    guard let ad = store.ad(adId) else { return }
    tell(ad, notice)
  }

  /// An adapter reported `change` (``AdChange/adapterImpression``...) on the ad it mapped;
  /// returns whether it was recorded (as far as the store has answered by now).
  func adapterReported(_ change: AdChange, on ad: NativeAd) -> Bool {
    var recorded = false
    self.change(ad, change) { applied in
      if case .success(let transition) = applied { recorded = transition.outcome.changed }
    }
    return recorded
  }

  // MARK: Release

  /// Releases ad `adId`: every later call naming it fails with
  /// ``AdObjectError/adNotFound(adId:)``. Works on expired and muted ads too. A mediated ad
  /// with a registered ad view tells its adapter ``MediatedNativeAdForwarding/didUntrackView(adId:)``.
  public func release(adId: String, completion: @escaping Reply<Void>) {
    taking(adId) { [self] found, done in
      switch found {
      case .success(let ad):
        release(ad) {
          completion($0)
          done()
        }
      case .failure(let error):
        completion(.failure(error))
        done()
      }
    }
  }

  /// Releases every ad loaded by `owner` (its connection closed), in ad ID order; returns how
  /// many.
  @discardableResult
  public func releaseAll(ownedBy owner: OwnerID) -> Int {
    let owned = store.ads.filter { $0.owner == owner }.sorted { $0.id < $1.id }
    for ad in owned { release(ad) { _ in } }
    return owned.count
  }

  /// Told of each ad released, by whatever means (the inspector's watchers).
  public var onReleased: ((String) -> Void)?

  /// ``release(adId:completion:)`` answered at once: for ads in this process
  /// (``adsAreLocal``) kept by a store that answers at once (``LiveAdStore/releaseNow(_:at:)``),
  /// the same lookup, release and effects with no completion to make and call. Nil when the
  /// answer would come later (a shared store): use the completion form then.
  public func releaseNow(adId: String) -> Result<Void, AdObjectError>? {
    guard adsAreLocal else { return nil }
    let ad: NativeAd
    do {
      ad = try self.ad(adId)
    } catch {
      return .failure(error)
    }
    return releaseNow(ad) ? .success(()) : nil
  }

  /// ``releaseNow(adId:)`` of an ad this process holds, found already (``ad(utf8:)``): true
  /// when it was released (a release at once cannot fail), false when the store would answer
  /// later (nothing was done then).
  public func releaseNow(_ ad: NativeAd) -> Bool {
    guard adsAreLocal else { return false }
    let now = clock.now()
    guard let transition = store.releaseNow(ad, at: now) else { return false }
    released(ad, transition, at: now)
    return true
  }

  private func release(_ ad: NativeAd, completion: @escaping Reply<Void>) {
    let now = clock.now()
    // A store that answers at once: no completion for it (`releaseAll`, a closing connection).
    if let transition = store.releaseNow(ad, at: now) {
      released(ad, transition, at: now)
      return completion(.success(()))
    }
    store.release(ad, at: now) { [self] released in
      completion(finishRelease(ad, released, at: now))
    }
  }

  /// What the store's release of `ad` means: its effects delivered and the inspector told, or
  /// why it could not be released.
  private func finishRelease(
    _ ad: NativeAd, _ released: Result<AdTransition, StoreUnavailable>, at now: Double
  ) -> Result<Void, AdObjectError> {
    switch released {
    case .success(let transition):
      self.released(ad, transition, at: now)
      return .success(())
    case .failure(let unavailable) where unavailable.adIsGone:
      return .failure(.adNotFound(adId: ad.id))
    case .failure(let unavailable):
      return .failure(.storeUnavailable(adId: ad.id, unavailable))
    }
  }

  /// The effects of `ad`'s release delivered and the inspector told.
  private func released(_ ad: NativeAd, _ transition: AdTransition, at now: Double) {
    route(transition, of: ad, at: now)
    onReleased?(ad.id)
  }
}
