import Glibc

/// The domain's front door: loads ads from an ``Inventory``, keeps the loaded ads, and records
/// their impressions and clicks.
///
/// Loop-bound: create and use it on the event loop thread only. Every method is synchronous.
/// Events go to ``sink`` (weak) and to the ``events`` log. Errors are typed: loads throw
/// ``AdLoadError``, calls about an ad throw ``AdObjectError``.
public final class AdManager {
  /// Where ads come from. Changes apply to the next load.
  public let inventory: Inventory
  /// The time source.
  public let clock: any AdClock
  /// How long a loaded ad stays valid, in seconds (one hour by default).
  public let adLifetime: Double
  /// Receives events and custom clicks. Weak: the RPC layer owns both objects.
  public weak var sink: (any AdEventSink)?
  /// Every recorded impression and click, oldest first, with sequence numbers from 1.
  public private(set) var events: [AdEvent] = []

  private var random: SplitMix64
  private let adIDPrefix: String
  private var adCounter: UInt64 = 0
  private var liveAds: [String: NativeAd] = [:]
  private var lastSequence = 0

  /// Creates a manager serving `inventory`.
  ///
  /// - Parameters:
  ///   - clock: the time source (a ``ManualClock`` in tests).
  ///   - seed: seeds the pseudo-random response identifiers and the ad ID prefix; nil derives
  ///     one from the clock and the process ID. The same seed gives the same identifiers.
  ///   - adLifetime: seconds from load to expiry.
  public init(
    inventory: Inventory, clock: any AdClock = SystemClock(), seed: UInt64? = nil,
    adLifetime: Double = 3600
  ) {
    self.inventory = inventory
    self.clock = clock
    self.adLifetime = adLifetime
    let seed =
      seed
      ?? (UInt64(bitPattern: Int64(clock.now() * 1_000_000))
        ^ (UInt64(UInt32(bitPattern: getpid())) << 40))
    var random = SplitMix64(seed: seed)
    self.adIDPrefix = "ad-" + random.hexIdentifier(length: 6) + "-"
    self.random = random
  }

  // MARK: Loading

  /// Loads up to `request.options.numberOfAds` (at most 5) ads for `owner`, best first, each a
  /// distinct creative of the unit. See the contract, `loadAd`.
  ///
  /// - Throws: ``AdLoadError`` with ``GADErrorCode/invalidRequest`` (unknown unit,
  ///   `numberOfAds` < 1, no ad types, `customNative` without format IDs; no source is tried)
  ///   or ``GADErrorCode/noFill`` (nothing eligible). Both carry response info.
  public func load(_ request: AdRequest, owner: OwnerID) throws(AdLoadError) -> (
    ads: [NativeAd], responseInfo: ResponseInfo
  ) {
    let started = clock.now()
    let responseIdentifier = random.base64URLIdentifier(length: 24)

    func invalid(_ detail: String) -> AdLoadError {
      AdLoadError(
        code: .invalidRequest, message: "Invalid request: " + detail,
        responseInfo: ResponseInfo(
          responseIdentifier: responseIdentifier, loadedAdNetworkResponseInfo: nil,
          adNetworkInfoArray: []))
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

    var options = request.options
    options.numberOfAds = min(options.numberOfAds, LoaderOptions.maximumNumberOfAds)
    let chosen = Array(
      CreativeSelector.rankedCreatives(of: unit, for: request, in: inventory)
        .prefix(options.numberOfAds))
    let finished = clock.now()
    let latency = max(0, finished - started)

    guard let best = chosen.first else {
      let entry = AdNetworkInfo(
        adNetworkClassName: AdNetworkInfo.googleAdapterClassName,
        adSourceName: sourceName(ofUnit: unit), latency: latency, error: .noFill)
      throw AdLoadError(
        code: .noFill, message: AdNetworkError.noFill.message,
        responseInfo: ResponseInfo(
          responseIdentifier: responseIdentifier, loadedAdNetworkResponseInfo: nil,
          adNetworkInfoArray: [entry]))
    }
    let entry = AdNetworkInfo(
      adNetworkClassName: AdNetworkInfo.googleAdapterClassName,
      adSourceName: sourceName(of: best), latency: latency, error: nil)
    let responseInfo = ResponseInfo(
      responseIdentifier: responseIdentifier, loadedAdNetworkResponseInfo: entry,
      adNetworkInfoArray: [entry])

    let ads = chosen.map { creative in
      adCounter += 1
      let ad = NativeAd(
        id: adIDPrefix + String(adCounter), creative: creative, options: options,
        responseInfo: responseInfo, loadedAt: finished, expiresAt: finished + adLifetime,
        owner: owner)
      liveAds[ad.id] = ad
      return ad
    }
    return (ads, responseInfo)
  }

  /// The source name for a creative: `Reservation` when direct-sold, `AdMob Network` when
  /// indirect.
  private func sourceName(of creative: Creative) -> String {
    creative.isIndirect
      ? AdNetworkInfo.adMobNetworkSourceName : AdNetworkInfo.reservationSourceName
  }

  /// The source name reported for a no-fill: `Reservation` when the unit lists any direct-sold
  /// creative, else `AdMob Network`.
  private func sourceName(ofUnit unit: AdUnit) -> String {
    let hasDirect = unit.creativeIDs.contains { inventory.creative($0)?.isIndirect == false }
    return hasDirect ? AdNetworkInfo.reservationSourceName : AdNetworkInfo.adMobNetworkSourceName
  }

  // MARK: Ads

  /// The live ad with ID `adId`.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)`` when unknown or released.
  public func ad(_ adId: String) throws(AdObjectError) -> NativeAd {
    guard let ad = liveAds[adId] else { throw .adNotFound(adId: adId) }
    return ad
  }

  /// The live ads, in no particular order.
  public var ads: [NativeAd] { Array(liveAds.values) }

  /// The live ads loaded by `owner`, in no particular order.
  public func ads(ownedBy owner: OwnerID) -> [NativeAd] {
    liveAds.values.filter { $0.owner == owner }
  }

  /// The text asset of ad `adId` under `key` (see ``NativeAd/string(forKey:)``), nil when it
  /// has none.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``.
  public func string(forKey key: String, adId: String) throws(AdObjectError) -> String? {
    try ad(adId).string(forKey: key)
  }

  /// The image asset of ad `adId` under `key` (see ``NativeAd/image(forKey:)``), nil when it
  /// has none.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``.
  public func image(forKey key: String, adId: String) throws(AdObjectError) -> AdImage? {
    try ad(adId).image(forKey: key)
  }

  /// Whether `ad` has expired (the clock has reached its ``NativeAd/expiresAt``). Expired ads
  /// still record impressions and clicks for now.
  public func isExpired(_ ad: NativeAd) -> Bool {
    clock.now() >= ad.expiresAt
  }

  // MARK: Impressions

  /// Records the impression of ad `adId`: true (and a `didRecordImpression` event for the
  /// owner) the first time, false with nothing recorded afterwards.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)``.
  public func recordImpression(adId: String) throws(AdObjectError) -> Bool {
    let ad = try ad(adId)
    guard !ad.impressionRecorded else { return false }
    ad.impressionRecorded = true
    record(.didRecordImpression, on: ad, assetKey: nil)
    return true
  }

  // MARK: Clicks

  /// Clicks the asset `key` of ad `adId` on behalf of `caller`, and says what to open.
  ///
  /// `_adChoices` on an indirect ad is not an ad click: nothing is recorded and the outcome is
  /// ``ClickAction/adChoices`` with the AdChoices page. Any other key must name an asset the ad
  /// has (see ``NativeAd/resolveAssetKey(_:)``); the click is recorded (a `didRecordClick`
  /// event for the owner, with the canonical key) and the action is, in order: the custom click
  /// handler (custom creative with a custom click action, handler enabled by `caller`; the sink
  /// is told to send `caller` a `customClick`), the first deep link whose scheme is in
  /// `openableURLSchemes` (case-insensitive; `"myapp"`, `"myapp:"` and `"myapp://"` all work),
  /// else the landing page.
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

    ad.clickCount += 1
    record(.didRecordClick, on: ad, assetKey: assetKey)

    if ad.kind == .customNative, creative.hasCustomClickAction,
      ad.customClickHandlerOwners.contains(caller)
    {
      sink?.adManager(self, customClickOn: adId, assetID: assetKey, for: caller)
      return ClickOutcome(recorded: true, action: .customClickHandler, url: nil)
    }
    let openable = Set(openableURLSchemes.map(Self.normalizedScheme))
    if let deepLink = creative.deepLinks.first(where: { link in
      Self.scheme(of: link).map { openable.contains($0) } ?? false
    }) {
      return ClickOutcome(recorded: true, action: .deepLink, url: deepLink)
    }
    return ClickOutcome(recorded: true, action: .landingPage, url: creative.landingPageURL)
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

  // MARK: Release

  /// Releases ad `adId`: every later call naming it throws ``AdObjectError/adNotFound(adId:)``.
  ///
  /// - Throws: ``AdObjectError/adNotFound(adId:)`` when unknown or already released.
  public func release(adId: String) throws(AdObjectError) {
    guard let ad = liveAds.removeValue(forKey: adId) else { throw .adNotFound(adId: adId) }
    ad.isReleased = true
  }

  /// Releases every ad loaded by `owner` (e.g. when its connection closes); returns how many.
  @discardableResult
  public func releaseAll(ownedBy owner: OwnerID) -> Int {
    let owned = liveAds.values.filter { $0.owner == owner }
    for ad in owned {
      liveAds.removeValue(forKey: ad.id)
      ad.isReleased = true
    }
    return owned.count
  }

  // MARK: Events

  private func record(_ kind: AdEventKind, on ad: NativeAd, assetKey: String?) {
    lastSequence += 1
    let event = AdEvent(
      sequence: lastSequence, adId: ad.id, owner: ad.owner, event: kind,
      assetKey: assetKey, time: clock.now())
    events.append(event)
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
