/// The calls that record something about an ad. Each checks the request against the ad, then
/// applies one ``AdChange`` (whose rules are ``AdState``'s) and answers with its outcome.
extension AdManager {
  /// Records the impression of ad `adId` (either kind). Not recorded, in this order, when the
  /// ad is muted, expired, or recorded before. For a mediated ad whose adapter tracks
  /// impressions, the adapter is asked (once) and its report records it: the outcome says
  /// recorded when it reported during the call, else ``NotRecordedReason/handledByAdapter``.
  /// A custom-format video starts playing (the app shows the ad: contract 1.1).
  public func recordImpression(adId: String, completion: @escaping Reply<ImpressionOutcome>) {
    change(adId: adId, reply: completion, { _ in .recordImpression }, outcome: Self.impression)
  }

  /// The app reports how many pixels of system-defined ad `adId`'s registered view are on
  /// screen: with at least one, the impression is recorded as ``recordImpression(adId:completion:)``
  /// does. Before that: ``NotRecordedReason/notRegistered`` without a registered view, then
  /// ``NotRecordedReason/notVisible`` for no visible pixel. Fails with
  /// ``AdObjectError/wrongAdKind(adId:applies:)`` for a custom-format ad.
  public func reportVisibility(
    adId: String, visiblePixels: Int, completion: @escaping Reply<ImpressionOutcome>
  ) {
    change(
      adId: adId, reply: completion,
      { ad throws(AdObjectError) in
        try Self.require(.native, ad)
        return .reportVisibility(visiblePixels: visiblePixels)
      }, outcome: Self.impression)
  }

  private static func impression(_ transition: AdTransition, _ ad: NativeAd) -> ImpressionOutcome {
    guard case .impression(var outcome) = transition.outcome else {
      return .notRecorded(.alreadyRecorded)
    }
    // An adapter that tracks impressions may report it while it is asked.
    if outcome.reason == .handledByAdapter, ad.state.impressionRecorded { return .recorded }
    // An ad with trackers always says which to fetch: none when nothing was recorded.
    if ad.creative.hasTracking, outcome.trackingURLs == nil { outcome.trackingURLs = [] }
    return outcome
  }

  /// Clicks the asset `key` of ad `adId` on behalf of `caller`, and says what to open.
  ///
  /// `_adChoices` on an indirect ad is never an ad click: nothing is recorded and the outcome
  /// is ``ClickAction/adChoices`` with the AdChoices page. Any other key must name an asset
  /// the ad has (``NativeAd/resolveAssetKey(_:)``; names and identifiers for native ads). The
  /// click then records nothing when, in this order, the ad is muted, expired, or its ad view
  /// is registered without this asset among the clickable ones. Otherwise it is recorded (a
  /// `didRecordClick` with the canonical key) and the action is, in order: the custom click
  /// handler `caller` enabled (custom-format ads; contract 1.1: whatever the creative), the
  /// first deep link whose scheme is in `openableURLSchemes`, else the landing page (a
  /// mediated ad without one answers ``ClickAction/none``). A deep link or landing page
  /// presents a screen (`willPresentScreen`) until ``reportScreenDismissed(adId:completion:)``.
  /// A mediated ad whose adapter tracks clicks hands the click to it
  /// (``ClickAction/adapter``; recorded when the adapter reports it during the call).
  ///
  /// Fails with ``AdObjectError/adNotFound(adId:)`` or ``AdObjectError/assetNotFound(adId:key:)``.
  public func performClick(
    adId: String, key: String, openableURLSchemes: [String], by caller: OwnerID,
    completion: @escaping Reply<ClickOutcome>
  ) {
    if key == AdChoicesInfo.assetKey {
      // Never an ad click, whatever the ad's state.
      return withAd(adId) { found in
        completion(
          found.flatMap { (ad) -> Result<ClickOutcome, AdObjectError> in
            guard let adChoices = ad.creative.adChoices else {
              return .failure(.assetNotFound(adId: adId, key: key))
            }
            return .success(
              ClickOutcome(
                recorded: false, action: .adChoices, url: adChoices.clickURL,
                trackingURLs: ad.creative.hasTracking ? [] : nil))
          })
      }
    }
    var clicksBefore = 0
    change(
      adId: adId, reply: completion,
      { ad throws(AdObjectError) in
        guard let assetKey = ad.resolveAssetKey(key) else {
          throw .assetNotFound(adId: adId, key: key)
        }
        clicksBefore = ad.state.clickCount
        return .click(assetKey: assetKey, openableURLSchemes: openableURLSchemes, caller: caller)
      },
      outcome: { transition, ad in
        guard case .click(var outcome) = transition.outcome else { return .notRecorded(.muted) }
        if outcome.reason == .handledByAdapter, ad.state.clickCount > clicksBefore {
          outcome.recorded = true
          outcome.reason = nil
        }
        // An ad with trackers always says which to fetch: none when nothing was recorded.
        if ad.creative.hasTracking, outcome.trackingURLs == nil { outcome.trackingURLs = [] }
        return outcome
      })
  }

  /// The user came back from the screen a click opened: when ad `adId` has one presented,
  /// records `willDismissScreen` then `didDismissScreen` and answers true; false otherwise.
  public func reportScreenDismissed(adId: String, completion: @escaping Reply<Bool>) {
    change(adId: adId, reply: completion, { _ in .dismissScreen }, outcome: Self.changed)
  }

  /// Enables or disables, for `caller`, the custom click handler of custom-format ad `adId`;
  /// answers `enabled`. Fails with ``AdObjectError/wrongAdKind(adId:applies:)`` for a
  /// system-defined ad.
  public func setCustomClickHandler(
    adId: String, enabled: Bool, by caller: OwnerID, completion: @escaping Reply<Bool>
  ) {
    change(
      adId: adId, reply: completion,
      { ad throws(AdObjectError) in
        try Self.require(.customNative, ad)
        return .setCustomClickHandler(enabled: enabled, caller: caller)
      }, outcome: Self.changed)
  }

  /// Mutes ad `adId` (Mute This Ad), optionally with one of the reasons its creative offers:
  /// the first mute records `didMute` with the reason and answers true; muting again answers
  /// false. Fails with ``AdObjectError/muteNotOffered(adId:)`` when the creative offers no
  /// reasons, ``AdObjectError/invalidMuteReason(adId:reason:offered:)`` for a reason it does
  /// not offer (checked also when already muted).
  public func muteThisAd(adId: String, reason: String?, completion: @escaping Reply<Bool>) {
    change(
      adId: adId, reply: completion,
      { ad throws(AdObjectError) in
        let offered = ad.creative.muteThisAdReasons
        guard !offered.isEmpty else { throw .muteNotOffered(adId: adId) }
        if let reason, !offered.contains(reason) {
          throw .invalidMuteReason(adId: adId, reason: reason, offered: offered)
        }
        return .mute(reason: reason)
      }, outcome: Self.changed)
  }

  /// Applies a custom-controls `action` to the video of ad `adId`. Nothing changes when, in
  /// this order: the ad has no video; custom controls are not enabled; the action is `play` on
  /// a custom-format ad whose impression is not recorded; the action changes nothing. See
  /// ``VideoPlayer/control(_:playAllowed:at:)``.
  public func videoControl(
    adId: String, action: VideoAction, completion: @escaping Reply<VideoControlOutcome>
  ) {
    change(
      adId: adId, reply: completion, { _ in .videoControl(action) },
      outcome: { transition, _ in
        guard case .video(let outcome) = transition.outcome else {
          return VideoControlOutcome(applied: false, reason: .noVideo, state: nil)
        }
        return outcome
      })
  }

  /// Registers the native ad view of system-defined ad `adId`, replacing any earlier one, and
  /// answers it with canonical keys (duplicates removed, order kept; a key in both lists is
  /// clickable). Keys are ``NativeAssetKey`` names or identifiers `"3001"`–`"3010"`; the ad
  /// need not have the asset. A `mediaView` shows the media: a stopped video starts playing
  /// (contract 1.1). Fails, changing nothing, with ``AdObjectError/wrongAdKind(adId:applies:)``,
  /// ``AdObjectError/invalidAssetKey(adId:clickable:index:key:)`` or
  /// ``AdObjectError/mediaViewNotClickable(adId:index:)``.
  public func registerAdView(
    adId: String, clickable: [String], nonclickable: [String],
    completion: @escaping Reply<AdViewRegistration>
  ) {
    change(
      adId: adId, reply: completion,
      { ad throws(AdObjectError) in
        try Self.require(.native, ad)
        let registration = AdViewRegistration(
          clickable: try Self.assetKeys(clickable, clickable: true, adId: adId),
          nonclickable: try Self.assetKeys(nonclickable, clickable: false, adId: adId))
        return .registerAdView(registration)
      },
      outcome: { transition, ad in
        guard case .adView(let registration) = transition.outcome else {
          return ad.state.adView ?? AdViewRegistration(clickable: [], nonclickable: [])
        }
        return registration
      })
  }

  /// Unregisters the native ad view of system-defined ad `adId`; answers false when none was
  /// registered. A mediated ad's adapter is told when one was.
  public func unregisterAdView(adId: String, completion: @escaping Reply<Bool>) {
    change(
      adId: adId, reply: completion,
      { ad throws(AdObjectError) in
        try Self.require(.native, ad)
        return .unregisterAdView
      }, outcome: Self.changed)
  }

  /// The adapter of mediated ad `adId` reports `change` (``AdChange/adapterImpression``,
  /// ``AdChange/adapterClick`` or ``AdChange/adapterEvent(_:)``) over the wire: answers
  /// whether it was recorded, once the store has it (the callers check that the reporter is
  /// the adapter that mapped the ad).
  public func adapterReport(_ change: AdChange, adId: String, completion: @escaping Reply<Bool>) {
    self.change(adId: adId, reply: completion, { _ in change }, outcome: Self.changed)
  }

  private static func changed(_ transition: AdTransition, _ ad: NativeAd) -> Bool {
    transition.outcome.changed
  }

  private static func require(_ kind: AdKind, _ ad: NativeAd) throws(AdObjectError) {
    guard ad.kind == kind else { throw .wrongAdKind(adId: ad.id, applies: kind) }
  }

  private static func assetKeys(_ keys: [String], clickable: Bool, adId: String)
    throws(AdObjectError) -> [NativeAssetKey]
  {
    var resolved: [NativeAssetKey] = []
    for (index, key) in keys.enumerated() {
      guard let assetKey = NativeAssetKey(nameOrIdentifier: key) else {
        throw .invalidAssetKey(adId: adId, clickable: clickable, index: index, key: key)
      }
      if clickable && assetKey == .mediaView {
        throw .mediaViewNotClickable(adId: adId, index: index)
      }
      if !resolved.contains(assetKey) { resolved.append(assetKey) }
    }
    return resolved
  }
}
