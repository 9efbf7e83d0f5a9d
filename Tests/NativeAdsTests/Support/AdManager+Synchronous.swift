@testable import NativeAds

/// The manager's calls as the in-memory store answers them: at once. Each wrapper fails the
/// test (a trap) if a call did not answer before returning.
extension AdManager {
  func synchronously<T, E: Error>(_ start: (@escaping (Result<T, E>) -> Void) -> Void) throws(E)
    -> T
  {
    var answer: Result<T, E>?
    start { answer = $0 }
    guard let answer else { preconditionFailure("the call did not answer at once") }
    return try answer.get()
  }

  /// A load that answers at once (units whose sources all answer at once).
  func load(_ request: AdRequest, owner: OwnerID) throws(AdLoadError) -> (
    ads: [NativeAd], responseInfo: ResponseInfo
  ) {
    try synchronously { load(request, owner: owner, completion: $0) }
  }

  func recordImpression(adId: String) throws(AdObjectError) -> ImpressionOutcome {
    try synchronously { recordImpression(adId: adId, completion: $0) }
  }

  func reportVisibility(adId: String, visiblePixels: Int) throws(AdObjectError)
    -> ImpressionOutcome
  {
    try synchronously { reportVisibility(adId: adId, visiblePixels: visiblePixels, completion: $0) }
  }

  func performClick(adId: String, key: String, openableURLSchemes: [String], by caller: OwnerID)
    throws(AdObjectError) -> ClickOutcome
  {
    try synchronously {
      performClick(
        adId: adId, key: key, openableURLSchemes: openableURLSchemes, by: caller, completion: $0)
    }
  }

  func reportScreenDismissed(adId: String) throws(AdObjectError) -> Bool {
    try synchronously { reportScreenDismissed(adId: adId, completion: $0) }
  }

  func setCustomClickHandler(adId: String, enabled: Bool, by caller: OwnerID)
    throws(AdObjectError) -> Bool
  {
    try synchronously {
      setCustomClickHandler(adId: adId, enabled: enabled, by: caller, completion: $0)
    }
  }

  func muteThisAd(adId: String, reason: String?) throws(AdObjectError) -> Bool {
    try synchronously { muteThisAd(adId: adId, reason: reason, completion: $0) }
  }

  func videoControl(adId: String, action: VideoAction) throws(AdObjectError)
    -> VideoControlOutcome
  {
    try synchronously { videoControl(adId: adId, action: action, completion: $0) }
  }

  func registerAdView(adId: String, clickable: [String], nonclickable: [String])
    throws(AdObjectError) -> (clickable: [NativeAssetKey], nonclickable: [NativeAssetKey])
  {
    let registration = try synchronously {
      registerAdView(
        adId: adId, clickable: clickable, nonclickable: nonclickable, completion: $0)
    }
    return (registration.clickable, registration.nonclickable)
  }

  func unregisterAdView(adId: String) throws(AdObjectError) -> Bool {
    try synchronously { unregisterAdView(adId: adId, completion: $0) }
  }

  func release(adId: String) throws(AdObjectError) {
    try synchronously { release(adId: adId, completion: $0) }
  }

  /// Receives every event and custom click (held weakly, as the stream does).
  var sink: RecordingSink? {
    get { nil }
    set { if let newValue { eventStream.subscribe(newValue) } }
  }

  /// The kept events, oldest first.
  var events: [AdEvent] {
    guard let log = eventLog as? InMemoryAdEventLog else { return [] }
    return log.events
  }

  /// The kept events matching a query.
  func events(adId: String?, event: String?, since: Int?, limit: Int) -> [AdEvent] {
    guard let log = eventLog as? InMemoryAdEventLog else { return [] }
    return log.events(matching: AdEventQuery(adId: adId, name: event, since: since, limit: limit))
  }

  /// The latest event's sequence number.
  var lastSequence: Int { eventStream.lastSequence }

  /// The live ads, in no particular order.
  var ads: [NativeAd] { store.ads }

  /// The live ads loaded by `owner`.
  func ads(ownedBy owner: OwnerID) -> [NativeAd] { store.ads.filter { $0.owner == owner } }

  /// The image asset of ad `adId` under `key`.
  func image(forKey key: String, adId: String) throws(AdObjectError) -> AdImage? {
    try ad(adId).image(forKey: key)
  }

  /// Whether `ad` has expired now.
  func isExpired(_ ad: NativeAd) -> Bool { ad.isExpired(at: clock.now()) }

  /// How many loads are in flight.
  var inFlightLoadCount: Int { engine.inFlightCount }

  /// The video controller of `ad` now.
  func video(of ad: NativeAd) -> VideoControllerState? { ad.video(at: clock.now()) }
}

/// The recorded state of an ad, as tests read it.
extension NativeAd {
  var impressionRecorded: Bool { state.impressionRecorded }
  var clickCount: Int { state.clickCount }
  var customClickHandlerOwners: Set<OwnerID> { state.customClickHandlerOwners }
  var adView: AdViewRegistration? { state.adView }
  var isMuted: Bool { state.isMuted }
  var muteReason: String? { state.muteReason }
  var isScreenPresented: Bool { state.isScreenPresented }
}
