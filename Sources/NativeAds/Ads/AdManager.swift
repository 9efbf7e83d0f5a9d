import Glibc

/// The domain's front door: loads ads from an ``Inventory``, keeps the loaded ads, and records
/// what happens to them: impressions, clicks, ad view registration, Mute This Ad, full-screen
/// presentations and video playback.
///
/// Loop-bound: create and use it on the event loop thread only. Every method is synchronous,
/// but a waterfall load may complete later, from a ``scheduler`` timer or an adapter's answer.
/// Every event goes through one place: it is appended to the event log (``events``,
/// ``events(adId:event:since:limit:)``) and handed to ``sink`` (weak). Errors are typed: loads
/// throw ``AdLoadError``, calls about an ad throw ``AdObjectError``.
///
/// Video time is read from ``clock``: a playing video that has reached its end is noticed by
/// the next call naming the ad (any method taking an `adId`, and ``ad(_:)``), which moves it to
/// ``VideoPlaybackState/ended`` and records `videoDidEnd` before doing anything else.
///
/// Mediation (see `docs/mediation.md`): units with a ``AdUnit/waterfall`` load through
/// ``load(_:owner:completion:)``, asking the inventory and the custom event adapters of
/// ``adapters`` in turn, with timeouts run by ``scheduler``. Ads a custom event filled carry
/// ``NativeAd/mediation``; their impressions and clicks are tracked by the service or by the
/// adapter, as the mapped ad says.
public final class AdManager {
  /// Where ads come from. Changes apply to the next load.
  public let inventory: Inventory
  /// The time source.
  public let clock: any AdClock
  /// How long a loaded ad stays valid, in seconds (one hour by default).
  public let adLifetime: Double
  /// How many events the log keeps; older ones are dropped (sequence numbers keep increasing).
  public let maxEvents: Int
  /// Receives events and custom clicks. Weak: the RPC layer owns both objects.
  public weak var sink: (any AdEventSink)?
  /// The sequence number of the latest event ever recorded (0 before the first), whether or
  /// not the log still keeps it.
  public private(set) var lastSequence = 0
  /// Runs the per-source timeouts and load deadlines of waterfalls. Without one, nothing
  /// times out: a waterfall waits for each adapter's answer.
  public var scheduler: (any MediationScheduler)?
  /// The mediation adapters, by class name (``SampleCustomEvent`` is built in).
  public let adapters: AdapterRegistry
  /// The deadline of a waterfall load, in milliseconds, for units without their own
  /// ``AdUnit/deadlineMs`` (the server's `--mediation-deadline-ms`).
  public var mediationDeadlineMs: UInt64 = 10_000
  /// The per-adapter load timeout, in milliseconds, for the RPC layer to give a `customEvent`
  /// source that states none (``WaterfallSource/customEvent(adapterClassName:parameter:eCPM:timeoutMs:label:)``
  /// always carries one).
  public var defaultAdapterTimeoutMs: UInt64 = WaterfallSource.defaultTimeoutMs

  var random: SplitMix64
  var rotation: CreativeRotation
  let adIDPrefix: String
  var adCounter: UInt64 = 0
  var liveAds: [String: NativeAd] = [:]
  /// The manager's seed: adapters' seeds derive from it when a request gives none.
  let seed: UInt64
  /// How many waterfall loads were started.
  var waterfallLoadCounter: UInt64 = 0
  /// How many adapter loads were asked (numbers their load IDs).
  var adapterLoadCounter: UInt64 = 0
  /// The waterfall loads in flight, by number.
  var activeLoads: [UInt64: WaterfallLoad] = [:]
  /// The log's storage: the kept events are `log[logStart...]` (a dropped prefix is compacted
  /// away once it is as long as the kept part, so dropping is amortised O(1)).
  private var log: [AdEvent] = []
  private var logStart = 0

  /// Creates a manager serving `inventory`.
  ///
  /// - Parameters:
  ///   - clock: the time source (a ``ManualClock`` in tests).
  ///   - seed: seeds the pseudo-random response identifiers, the ad ID prefix and where the
  ///     rotation of tied creatives starts; nil derives one from the clock and the process ID.
  ///     The same seed gives the same identifiers and the same rotation.
  ///   - adLifetime: seconds from load to expiry.
  ///   - maxEvents: how many events the log keeps (at least 0).
  public init(
    inventory: Inventory, clock: any AdClock = SystemClock(), seed: UInt64? = nil,
    adLifetime: Double = 3600, maxEvents: Int = 100_000
  ) {
    self.inventory = inventory
    self.clock = clock
    self.adLifetime = adLifetime
    self.maxEvents = max(0, maxEvents)
    let seed =
      seed
      ?? (UInt64(bitPattern: Int64(clock.now() * 1_000_000))
        ^ (UInt64(UInt32(bitPattern: getpid())) << 40))
    self.seed = seed
    self.adapters = AdapterRegistry()
    var random = SplitMix64(seed: seed)
    self.adIDPrefix = "ad-" + random.hexIdentifier(length: 6) + "-"
    self.random = random
    self.rotation = CreativeRotation(seed: seed)
  }

  // MARK: Loading

  /// Loads up to `request.options.numberOfAds` (at most 5) ads for `owner`, best first, each a
  /// distinct creative of the unit. See the contract, `loadAd`, and `docs/sdk-behaviour.md`:
  /// creatives are filtered by kind, format, media orientation and targeting, ranked by
  /// priority then eCPM, and tied creatives rotate from load to load. The response info
  /// (of the ads and of failures) echoes `request.isTestRequest`. Each ad with video content
  /// gets a video controller, stopped at 0.
  ///
  /// A unit with a ``AdUnit/waterfall`` runs it as ``load(_:owner:completion:)`` does, and
  /// answers when it finishes without waiting for an adapter (as with built-in adapters such
  /// as ``SampleCustomEvent``). When it would wait, the load is cancelled and fails with
  /// ``GADErrorCode/internalError``: such units need ``load(_:owner:completion:)``.
  ///
  /// - Throws: ``AdLoadError`` with ``GADErrorCode/invalidRequest`` (unknown unit,
  ///   `numberOfAds` < 1, no ad types, `customNative` without format IDs; no source is tried)
  ///   or ``GADErrorCode/noFill`` (nothing eligible); for waterfall units also the failures of
  ///   ``load(_:owner:completion:)``. All carry response info.
  public func load(_ request: AdRequest, owner: OwnerID) throws(AdLoadError) -> (
    ads: [NativeAd], responseInfo: ResponseInfo
  ) {
    let prepared = try prepareLoad(request)
    guard prepared.unit.waterfall != nil else {
      return try loadFromInventory(request, unit: prepared.unit, owner: owner, prepared: prepared)
    }
    var outcome: Result<(ads: [NativeAd], responseInfo: ResponseInfo), AdLoadError>?
    let run = startWaterfall(request, owner: owner, prepared: prepared) { outcome = $0 }
    if let outcome { return try outcome.get() }
    let tried = run.tried
    cancel(run)
    throw AdLoadError(
      code: .internalError,
      message:
        "Internal error: the waterfall of ad unit \"\(request.adUnitID)\" waits for an adapter;"
        + " load it with a completion",
      responseInfo: responseInfo(prepared.responseIdentifier, request, loaded: nil, tried: tried))
  }

  /// What every load starts with: a fresh response identifier, the start time, and the unit.
  struct PreparedLoad {
    var unit: AdUnit
    var responseIdentifier: String
    var started: Double
  }

  /// Draws the response identifier and validates `request`.
  ///
  /// - Throws: ``AdLoadError`` with ``GADErrorCode/invalidRequest`` (see ``load(_:owner:)``).
  func prepareLoad(_ request: AdRequest) throws(AdLoadError) -> PreparedLoad {
    let started = clock.now()
    let responseIdentifier = random.base64URLIdentifier(length: 24)
    func invalid(_ detail: String) -> AdLoadError {
      AdLoadError(
        code: .invalidRequest, message: "Invalid request: " + detail,
        responseInfo: responseInfo(responseIdentifier, request, loaded: nil, tried: []))
    }
    guard request.options.numberOfAds >= 1 else {
      throw invalid("numberOfAds must be at least 1 (got \(request.options.numberOfAds))")
    }
    guard !request.adTypes.isEmpty else {
      throw invalid("adTypes must name at least one ad type")
    }
    if request.adTypes.contains(.customNative) && request.customNativeAdFormatIDs.isEmpty {
      throw invalid("customNative was requested without any customNativeAdFormatIDs")
    }
    guard let unit = inventory.adUnit(request.adUnitID) else {
      throw invalid("unknown ad unit ID \"\(request.adUnitID)\"")
    }
    return PreparedLoad(unit: unit, responseIdentifier: responseIdentifier, started: started)
  }

  /// Response info for a load of `request`, echoing its `isTestRequest`.
  func responseInfo(
    _ identifier: String, _ request: AdRequest, loaded: AdNetworkInfo?, tried: [AdNetworkInfo]
  ) -> ResponseInfo {
    var info = ResponseInfo(
      responseIdentifier: identifier, loadedAdNetworkResponseInfo: loaded,
      adNetworkInfoArray: tried)
    info.isTestRequest = request.isTestRequest
    return info
  }

  /// Loads from the creatives of a unit without a waterfall (see ``load(_:owner:)``).
  func loadFromInventory(
    _ request: AdRequest, unit: AdUnit, owner: OwnerID, prepared: PreparedLoad
  ) throws(AdLoadError) -> (ads: [NativeAd], responseInfo: ResponseInfo) {
    var options = request.options
    options.numberOfAds = min(options.numberOfAds, LoaderOptions.maximumNumberOfAds)
    let chosen = Array(
      CreativeSelector.rankedCreatives(
        of: unit, for: request, in: inventory, rotation: &rotation
      )
      .prefix(options.numberOfAds))
    let finished = clock.now()
    let latency = max(0, finished - prepared.started)

    guard let best = chosen.first else {
      let entry = AdNetworkInfo(
        adNetworkClassName: AdNetworkInfo.googleAdapterClassName,
        adSourceName: sourceName(ofUnit: unit), latency: latency, error: .noFill)
      throw AdLoadError(
        code: .noFill, message: AdNetworkError.noFill.message,
        responseInfo: responseInfo(
          prepared.responseIdentifier, request, loaded: nil, tried: [entry]))
    }
    let entry = AdNetworkInfo(
      adNetworkClassName: AdNetworkInfo.googleAdapterClassName,
      adSourceName: sourceName(of: best), latency: latency, error: nil)
    let info = responseInfo(prepared.responseIdentifier, request, loaded: entry, tried: [entry])
    let ads = chosen.map { creative in
      makeAd(
        creative: creative, options: options, responseInfo: info, owner: owner, at: finished)
    }
    return (ads, info)
  }

  /// Creates a live ad of `creative`, loaded at `now`.
  func makeAd(
    creative: Creative, options: LoaderOptions, responseInfo: ResponseInfo, owner: OwnerID,
    at now: Double
  ) -> NativeAd {
    adCounter += 1
    let ad = NativeAd(
      id: adIDPrefix + String(adCounter), creative: creative, options: options,
      responseInfo: responseInfo, loadedAt: now, expiresAt: now + adLifetime, owner: owner)
    ad.manager = self
    ad.videoAnchor = now
    liveAds[ad.id] = ad
    return ad
  }

  /// The source name for a creative: `Reservation` when direct-sold, `AdMob Network` when
  /// indirect.
  func sourceName(of creative: Creative) -> String {
    creative.isIndirect
      ? AdNetworkInfo.adMobNetworkSourceName : AdNetworkInfo.reservationSourceName
  }

  /// The source name reported for a no-fill: `Reservation` when the unit lists any direct-sold
  /// creative, else `AdMob Network`.
  func sourceName(ofUnit unit: AdUnit) -> String {
    let hasDirect = unit.creativeIDs.contains { inventory.creative($0)?.isIndirect == false }
    return hasDirect ? AdNetworkInfo.reservationSourceName : AdNetworkInfo.adMobNetworkSourceName
  }

  // MARK: Ads

  /// The live ad with ID `adId`. Like every call naming an ad, it first notices a video that
  /// has played to its end (see the type's discussion).
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)`` when unknown or released.
  public func ad(_ adId: String) throws(AdObjectError) -> NativeAd {
    guard let ad = liveAds[adId] else { throw .adNotFound(adId: adId) }
    settleVideo(of: ad)
    return ad
  }

  /// The live ads, in no particular order.
  public var ads: [NativeAd] { Array(liveAds.values) }

  /// The live ads loaded by `owner`, in no particular order.
  public func ads(ownedBy owner: OwnerID) -> [NativeAd] {
    liveAds.values.filter { $0.owner == owner }
  }

  /// The text asset of ad `adId` under `key` (see ``NativeAd/string(forKey:)``), nil when it
  /// has none. Expired and muted ads still answer.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``.
  public func string(forKey key: String, adId: String) throws(AdObjectError) -> String? {
    try ad(adId).string(forKey: key)
  }

  /// The image asset of ad `adId` under `key` (see ``NativeAd/image(forKey:)``), nil when it
  /// has none. Expired and muted ads still answer.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``.
  public func image(forKey key: String, adId: String) throws(AdObjectError) -> AdImage? {
    try ad(adId).image(forKey: key)
  }

  /// Whether `ad` has expired (the clock has reached its ``NativeAd/expiresAt``). An expired ad
  /// records no impression and no click; its assets can still be read and it can be released.
  public func isExpired(_ ad: NativeAd) -> Bool {
    clock.now() >= ad.expiresAt
  }

  // MARK: Impressions

  /// Records the impression of ad `adId` (either kind): recorded (and a `didRecordImpression`
  /// event for the owner) the first time. Otherwise nothing is recorded and the reason is, in
  /// this order of precedence: ``NotRecordedReason/muted`` (Mute This Ad),
  /// ``NotRecordedReason/expired``, ``NotRecordedReason/alreadyRecorded``.
  ///
  /// Mediated ads (``NativeAd/mediation``): when the adapter does not handle impressions, the
  /// recorded impression is also forwarded to it
  /// (``MediatedNativeAdForwarding/didRecordImpression(adId:)``, once). When it does, nothing
  /// is recorded (``NotRecordedReason/handledByAdapter``): the adapter is told
  /// ``MediatedNativeAdForwarding/handleImpression(adId:)`` (the first time only) and its
  /// ``MediationNativeAdEventDelegate/reportImpression()`` records it; the outcome says
  /// recorded if the adapter reported it during that call.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``.
  public func recordImpression(adId: String) throws(AdObjectError) -> ImpressionOutcome {
    recordImpression(on: try ad(adId))
  }

  private func recordImpression(on ad: NativeAd) -> ImpressionOutcome {
    if ad.isMuted { return .notRecorded(.muted) }
    if isExpired(ad) { return .notRecorded(.expired) }
    guard !ad.impressionRecorded else { return .notRecorded(.alreadyRecorded) }
    if let mediation = ad.mediation, mediation.handlesUserImpressions {
      if !ad.adapterToldOfImpression {
        ad.adapterToldOfImpression = true
        mediation.forwarding?.handleImpression(adId: ad.id)
      }
      return ad.impressionRecorded ? .recorded : .notRecorded(.handledByAdapter)
    }
    ad.impressionRecorded = true
    emit(.didRecordImpression, on: ad)
    ad.mediation?.forwarding?.didRecordImpression(adId: ad.id)
    return .recorded
  }

  // MARK: Native ad view

  /// Registers the native ad view of system-defined ad `adId`, replacing any earlier
  /// registration, and returns the canonical keys (duplicates removed, order kept).
  ///
  /// Keys are ``NativeAssetKey`` names or identifiers `"3001"`–`"3010"`; the ad need not have
  /// the asset. While registered, clicks count only on clickable assets and
  /// ``reportVisibility(adId:visiblePixels:)`` records the impression. A key in both lists is
  /// clickable. A mediated ad's adapter is told
  /// (``MediatedNativeAdForwarding/didRender(adId:clickable:nonclickable:)``, canonical names).
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``; ``AdObjectError/wrongAdKind(adId:message:)``
  ///   for a custom-format ad; ``AdObjectError/invalidAssetKey(adId:field:key:)`` for a key
  ///   that is not an asset name or identifier (`field` e.g. `clickableAssets[1]`);
  ///   ``AdObjectError/mediaViewNotClickable(adId:field:)`` for `mediaView` (or `"3010"`) among
  ///   the clickable assets. Nothing changes when it throws.
  public func registerAdView(adId: String, clickable: [String], nonclickable: [String])
    throws(AdObjectError) -> (clickable: [NativeAssetKey], nonclickable: [NativeAssetKey])
  {
    let ad = try nativeAd(adId, method: "registerAdView")
    func resolve(_ keys: [String], list: String, clickable: Bool) throws(AdObjectError)
      -> [NativeAssetKey]
    {
      var resolved: [NativeAssetKey] = []
      for (index, key) in keys.enumerated() {
        let field = "\(list)[\(index)]"
        guard let assetKey = NativeAssetKey(nameOrIdentifier: key) else {
          throw .invalidAssetKey(adId: adId, field: field, key: key)
        }
        if clickable && assetKey == .mediaView {
          throw .mediaViewNotClickable(adId: adId, field: field)
        }
        if !resolved.contains(assetKey) { resolved.append(assetKey) }
      }
      return resolved
    }
    let registration = AdViewRegistration(
      clickable: try resolve(clickable, list: "clickableAssets", clickable: true),
      nonclickable: try resolve(nonclickable, list: "nonclickableAssets", clickable: false))
    ad.adView = registration
    ad.mediation?.forwarding?.didRender(
      adId: adId, clickable: registration.clickable.map(\.rawValue),
      nonclickable: registration.nonclickable.map(\.rawValue))
    return (registration.clickable, registration.nonclickable)
  }

  /// Unregisters the native ad view of system-defined ad `adId`; false when none was
  /// registered. A mediated ad's adapter is told
  /// (``MediatedNativeAdForwarding/didUntrackView(adId:)``) when one was.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``, or
  ///   ``AdObjectError/wrongAdKind(adId:message:)`` for a custom-format ad.
  public func unregisterAdView(adId: String) throws(AdObjectError) -> Bool {
    let ad = try nativeAd(adId, method: "unregisterAdView")
    guard ad.adView != nil else { return false }
    ad.adView = nil
    ad.mediation?.forwarding?.didUntrackView(adId: adId)
    return true
  }

  /// The app reports how many pixels of system-defined ad `adId`'s registered view are on
  /// screen. With at least one visible pixel the impression is recorded exactly as
  /// ``recordImpression(adId:)`` would (once; reasons `muted`, `expired`, `alreadyRecorded`).
  /// Before that: ``NotRecordedReason/notRegistered`` when no ad view is registered, then
  /// ``NotRecordedReason/notVisible`` when `visiblePixels` is 0 (or less).
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``, or
  ///   ``AdObjectError/wrongAdKind(adId:message:)`` for a custom-format ad (its impressions are
  ///   the app's job).
  public func reportVisibility(adId: String, visiblePixels: Int) throws(AdObjectError)
    -> ImpressionOutcome
  {
    let ad = try nativeAd(adId, method: "reportVisibility")
    guard ad.adView != nil else { return .notRecorded(.notRegistered) }
    guard visiblePixels >= 1 else { return .notRecorded(.notVisible) }
    return recordImpression(on: ad)
  }

  /// The system-defined ad `adId`, for a method that applies only to those.
  private func nativeAd(_ adId: String, method: String) throws(AdObjectError) -> NativeAd {
    let ad = try ad(adId)
    guard ad.kind == .native else {
      throw .wrongAdKind(
        adId: adId, message: "\(method) applies only to system-defined native ads")
    }
    return ad
  }

  // MARK: Clicks

  /// Clicks the asset `key` of ad `adId` on behalf of `caller`, and says what to open.
  ///
  /// `_adChoices` on an indirect ad is never an ad click, whatever the ad's state: nothing is
  /// recorded and the outcome is ``ClickAction/adChoices`` with the AdChoices page. Any other
  /// key must name an asset the ad has (see ``NativeAd/resolveAssetKey(_:)``). The click then
  /// records nothing (``ClickOutcome/notRecorded(_:)``) when, in this order: the ad is muted
  /// (``NotRecordedReason/muted``), expired (``NotRecordedReason/expired``), or its native ad
  /// view is registered without this asset among the clickable ones
  /// (``NotRecordedReason/notClickable``).
  ///
  /// Otherwise the click is recorded (a `didRecordClick` event for the owner, with the
  /// canonical key) and the action is, in order: the custom click handler (custom creative
  /// with a custom click action, handler enabled by `caller`; the sink is told to send
  /// `caller` a `customClick`), the first deep link whose scheme is in `openableURLSchemes`
  /// (case-insensitive; `"myapp"`, `"myapp:"` and `"myapp://"` all work), else the landing
  /// page. A deep link or landing page means the app leaves: a `willPresentScreen` event
  /// follows `didRecordClick` and the ad has a screen presented until
  /// ``reportScreenDismissed(adId:)``.
  ///
  /// Mediated ads (``NativeAd/mediation``): when the adapter does not handle clicks, the
  /// recorded click is forwarded to it
  /// (``MediatedNativeAdForwarding/didRecordClickOnAsset(named:adId:)``), and a mapped ad with
  /// neither an openable deep link nor a landing page answers ``ClickAction/none`` (recorded,
  /// nothing presented). When it does, nothing is recorded: the adapter is told
  /// ``MediatedNativeAdForwarding/handleClick(assetKey:adId:)`` and the outcome is
  /// ``ClickAction/adapter`` with ``NotRecordedReason/handledByAdapter`` (recorded, without a
  /// reason, if the adapter reported the click during that call).
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``, or
  ///   ``AdObjectError/assetNotFound(adId:key:)`` for a key the ad does not have (including
  ///   `_adChoices` on a direct-sold ad).
  public func performClick(
    adId: String, key: String, openableURLSchemes: [String], by caller: OwnerID
  ) throws(AdObjectError) -> ClickOutcome {
    let ad = try ad(adId)
    let creative = ad.creative
    if key == AdChoicesInfo.assetKey {
      guard let adChoices = creative.adChoices else {
        throw .assetNotFound(adId: adId, key: key)
      }
      return ClickOutcome(recorded: false, action: .adChoices, url: adChoices.clickURL)
    }
    guard let assetKey = ad.resolveAssetKey(key) else {
      throw .assetNotFound(adId: adId, key: key)
    }
    if ad.isMuted { return .notRecorded(.muted) }
    if isExpired(ad) { return .notRecorded(.expired) }
    if let adView = ad.adView,
      !adView.clickable.contains(where: { $0.rawValue == assetKey })
    {
      return .notRecorded(.notClickable)
    }
    if let mediation = ad.mediation, mediation.handlesUserClicks {
      let before = ad.clickCount
      ad.pendingAdapterClickAsset = assetKey
      mediation.forwarding?.handleClick(assetKey: assetKey, adId: adId)
      let recorded = ad.clickCount > before
      return ClickOutcome(
        recorded: recorded, action: .adapter, url: nil,
        reason: recorded ? nil : .handledByAdapter)
    }

    ad.clickCount += 1
    emit(.didRecordClick, on: ad, assetKey: assetKey)
    ad.mediation?.forwarding?.didRecordClickOnAsset(named: assetKey, adId: adId)

    if ad.kind == .customNative, creative.hasCustomClickAction,
      ad.customClickHandlerOwners.contains(caller)
    {
      sink?.adManager(self, customClickOn: adId, assetID: assetKey, for: caller)
      return ClickOutcome(recorded: true, action: .customClickHandler, url: nil)
    }
    let openable = Set(openableURLSchemes.map(Self.normalizedScheme))
    let outcome: ClickOutcome
    if let deepLink = creative.deepLinks.first(where: { link in
      Self.scheme(of: link).map { openable.contains($0) } ?? false
    }) {
      outcome = ClickOutcome(recorded: true, action: .deepLink, url: deepLink)
    } else if ad.mediation != nil, creative.landingPageURL.isEmpty {
      return ClickOutcome(recorded: true, action: .none, url: nil)
    } else {
      outcome = ClickOutcome(recorded: true, action: .landingPage, url: creative.landingPageURL)
    }
    ad.isScreenPresented = true
    emit(.willPresentScreen, on: ad)
    return outcome
  }

  /// The app reports that the user came back from the screen a click opened: when ad `adId`
  /// has one presented, records `willDismissScreen` then `didDismissScreen` and returns true;
  /// false (nothing recorded) otherwise.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``.
  public func reportScreenDismissed(adId: String) throws(AdObjectError) -> Bool {
    let ad = try ad(adId)
    guard ad.isScreenPresented else { return false }
    ad.isScreenPresented = false
    emit(.willDismissScreen, on: ad)
    emit(.didDismissScreen, on: ad)
    return true
  }

  /// Enables or disables, for `caller`, the custom click handler of custom ad `adId`; returns
  /// `enabled`.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``, or ``AdObjectError/wrongAdKind(adId:message:)``
  ///   for a system-defined native ad.
  public func setCustomClickHandler(adId: String, enabled: Bool, by caller: OwnerID)
    throws(AdObjectError) -> Bool
  {
    let ad = try ad(adId)
    guard ad.kind == .customNative else {
      throw .wrongAdKind(
        adId: adId, message: "setCustomClickHandler applies only to custom native ads")
    }
    if enabled {
      ad.customClickHandlerOwners.insert(caller)
    } else {
      ad.customClickHandlerOwners.remove(caller)
    }
    return enabled
  }

  // MARK: Mute This Ad

  /// Mutes ad `adId` (Mute This Ad), optionally with one of the reasons its creative offers.
  /// The first mute records `didMute` with the reason and returns true; muting again changes
  /// nothing and returns false. A muted ad records no more impressions or clicks.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``; ``AdObjectError/muteNotOffered(adId:)``
  ///   when the creative offers no reasons; ``AdObjectError/invalidMuteReason(adId:reason:offered:)``
  ///   for a reason that is not offered (checked also when already muted).
  public func muteThisAd(adId: String, reason: String?) throws(AdObjectError) -> Bool {
    let ad = try ad(adId)
    let offered = ad.creative.muteThisAdReasons
    guard !offered.isEmpty else { throw .muteNotOffered(adId: adId) }
    if let reason, !offered.contains(reason) {
      throw .invalidMuteReason(adId: adId, reason: reason, offered: offered)
    }
    guard !ad.isMuted else { return false }
    ad.isMuted = true
    ad.muteReason = reason
    emit(.didMute, on: ad, reason: reason)
    return true
  }

  // MARK: Video

  /// Applies `action` to the video controller of ad `adId`.
  ///
  /// Nothing changes (`applied` false) when, in this order: the ad has no video
  /// (``VideoControlOutcome/Reason/noVideo``, state nil); custom controls are not enabled
  /// (``VideoControlOutcome/Reason/customControlsNotEnabled``); the action is `play` on a
  /// custom-format ad whose impression is not recorded yet
  /// (``VideoControlOutcome/Reason/impressionNotRecorded``); the action changes nothing
  /// (``VideoControlOutcome/Reason/noChange``).
  ///
  /// Transitions: `play` from stopped, paused or ended (ended restarts at 0) → playing
  /// (`videoDidPlay`); `pause` from playing → paused, time frozen (`videoDidPause`); `stop`
  /// from anything but stopped → stopped at 0 (`videoDidEnd` when it was playing or paused);
  /// `mute` / `unmute` toggle ``VideoControllerState/isMuted`` (`videoDidMute`,
  /// `videoDidUnmute`). Events go to the owner through the sink and the log.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``.
  public func videoControl(adId: String, action: VideoAction) throws(AdObjectError)
    -> VideoControlOutcome
  {
    let ad = try ad(adId)
    let now = clock.now()
    guard var state = ad.videoSnapshot(at: now) else {
      return VideoControlOutcome(applied: false, reason: .noVideo, state: nil)
    }
    let current = state
    func refused(_ reason: VideoControlOutcome.Reason) -> VideoControlOutcome {
      VideoControlOutcome(applied: false, reason: reason, state: current)
    }
    guard state.customControlsEnabled else { return refused(.customControlsNotEnabled) }
    if action == .play, ad.kind == .customNative, !ad.impressionRecorded {
      return refused(.impressionNotRecorded)
    }

    let event: AdEventKind?
    switch action {
    case .play:
      switch state.playbackState {
      case .playing: return refused(.noChange)
      case .ended: state.currentTime = 0
      case .stopped, .paused: break
      }
      state.playbackState = .playing
      event = .videoDidPlay
    case .pause:
      guard state.playbackState == .playing else { return refused(.noChange) }
      state.playbackState = .paused
      event = .videoDidPause
    case .stop:
      let wasRunning = state.playbackState == .playing || state.playbackState == .paused
      guard state.playbackState != .stopped else { return refused(.noChange) }
      state.playbackState = .stopped
      state.currentTime = 0
      event = wasRunning ? .videoDidEnd : nil
    case .mute:
      guard !state.isMuted else { return refused(.noChange) }
      state.isMuted = true
      event = .videoDidMute
    case .unmute:
      guard state.isMuted else { return refused(.noChange) }
      state.isMuted = false
      event = .videoDidUnmute
    }
    ad.videoStorage = state
    ad.videoAnchor = now
    if let event { emit(event, on: ad) }
    return VideoControlOutcome(applied: true, state: state)
  }

  /// The video controller of ad `adId` now, nil when it has no video (see
  /// ``NativeAd/video``).
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``.
  public func videoState(adId: String) throws(AdObjectError) -> VideoControllerState? {
    try ad(adId).videoSnapshot(at: clock.now())
  }

  /// When `ad`'s video is playing and has reached its end: stores it as ended at its duration
  /// and records `videoDidEnd` (once: it is no longer playing afterwards).
  func settleVideo(of ad: NativeAd) {
    guard ad.videoStorage?.playbackState == .playing else { return }
    let now = clock.now()
    guard let state = ad.videoSnapshot(at: now), state.playbackState == .ended else { return }
    ad.videoStorage = state
    ad.videoAnchor = now
    emit(.videoDidEnd, on: ad)
  }

  // MARK: Release

  /// Releases ad `adId`: every later call naming it throws ``AdObjectError/adNotFound(adId:)``.
  /// Works on expired and muted ads too. A mediated ad with a registered ad view tells its
  /// adapter ``MediatedNativeAdForwarding/didUntrackView(adId:)``; its adapter's reports do
  /// nothing from then on.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)`` when unknown or already released.
  public func release(adId: String) throws(AdObjectError) {
    release(try ad(adId))
  }

  /// Releases every ad loaded by `owner` (e.g. when its connection closes), as
  /// ``release(adId:)`` does, in ad ID order; returns how many.
  @discardableResult
  public func releaseAll(ownedBy owner: OwnerID) -> Int {
    let owned = liveAds.values.filter { $0.owner == owner }.sorted { $0.id < $1.id }
    for ad in owned { release(ad) }
    return owned.count
  }

  private func release(_ ad: NativeAd) {
    liveAds.removeValue(forKey: ad.id)
    ad.isReleased = true
    if ad.adView != nil { ad.mediation?.forwarding?.didUntrackView(adId: ad.id) }
  }

  // MARK: Events

  /// The events the log keeps, oldest first (at most ``maxEvents``).
  public var events: [AdEvent] { Array(log[logStart...]) }

  /// The kept events with a sequence number greater than `since` (all when nil), about ad
  /// `adId` (any when nil), whose ``AdEventKind/wireName`` is `event` (any when nil; so
  /// `didMute` matches both Mute This Ad and video mutes), oldest first, at most `limit`.
  public func events(adId: String?, event: String?, since: Int?, limit: Int) -> [AdEvent] {
    guard limit > 0, logStart < log.count else { return [] }
    var index = logStart
    if let since {
      // Sequence numbers are consecutive, so the first one after `since` is found directly.
      let skip = since - log[logStart].sequence + 1
      guard skip < log.count - logStart else { return [] }
      index += max(0, skip)
    }
    var found: [AdEvent] = []
    while index < log.count, found.count < limit {
      let candidate = log[index]
      index += 1
      if let adId, candidate.adId != adId { continue }
      if let event, candidate.event.wireName != event { continue }
      found.append(candidate)
    }
    return found
  }

  /// The one place events are recorded: numbers the event, appends it to the log (dropping
  /// the oldest beyond ``maxEvents``) and hands it to the sink.
  func emit(
    _ kind: AdEventKind, on ad: NativeAd, assetKey: String? = nil, reason: String? = nil
  ) {
    lastSequence += 1
    let event = AdEvent(
      sequence: lastSequence, adId: ad.id, owner: ad.owner, event: kind,
      assetKey: assetKey, reason: reason, time: clock.now())
    log.append(event)
    if log.count - logStart > maxEvents {
      logStart += 1
      if logStart >= log.count - logStart {
        log.removeFirst(logStart)
        logStart = 0
      }
    }
    sink?.adManager(self, didRecord: event)
  }

  // MARK: URL schemes

  /// The lowercased scheme of `url` (the text before the first `:`), or nil when it has none.
  static func scheme(of url: String) -> String? {
    guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return nil }
    return url[..<colon].lowercased()
  }

  /// A scheme as a caller may write it (`MyApp`, `myapp:`, `myapp://`), lowercased and bare.
  static func normalizedScheme(_ scheme: String) -> String {
    var bare = Substring(scheme)
    if bare.hasSuffix("://") {
      bare = bare.dropLast(3)
    } else if bare.hasSuffix(":") {
      bare = bare.dropLast()
    }
    return bare.lowercased()
  }
}
