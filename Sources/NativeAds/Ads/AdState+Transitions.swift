/// Every rule about what happens to a live ad, in one place, for inventory and mediated ads
/// alike. Mediation decides only who tracks (``NativeAd/impressionTracker``,
/// ``NativeAd/clickTracker``): when the adapter does, the service asks it and records what it
/// reports.
///
/// The callers (``AdManager``) check the request first (the ad's kind, asset keys, Mute This
/// Ad reasons), so a change always applies.
extension AdState {
  /// Applies `change` to the state of `ad` at time `now` and says what happened. Every change
  /// first notices a video that has played to its end (`videoDidEnd`).
  public mutating func apply(_ change: AdChange, to ad: NativeAd, at now: Double) -> AdTransition {
    var effects: [AdEffect] = []
    if let ended = video?.settle(at: now) { effects.append(.event(ended)) }
    let outcome: AdOutcome
    switch change {
    case .settle:
      outcome = .changed(!effects.isEmpty)
    case .recordImpression:
      outcome = .impression(recordImpression(of: ad, at: now, effects: &effects))
    case .reportVisibility(let visiblePixels):
      if adView == nil {
        outcome = .impression(.notRecorded(.notRegistered))
      } else if visiblePixels < 1 {
        outcome = .impression(.notRecorded(.notVisible))
      } else {
        outcome = .impression(recordImpression(of: ad, at: now, effects: &effects))
      }
    case .click(let assetKey, let schemes, let caller):
      outcome = .click(
        click(ad, on: assetKey, openable: schemes, by: caller, at: now, effects: &effects))
    case .dismissScreen:
      outcome = .changed(isScreenPresented)
      if isScreenPresented {
        isScreenPresented = false
        effects += [.event(.willDismissScreen), .event(.didDismissScreen)]
      }
    case .setCustomClickHandler(let enabled, let caller):
      if enabled {
        customClickHandlerOwners.insert(caller)
      } else {
        customClickHandlerOwners.remove(caller)
      }
      outcome = .changed(enabled)
    case .mute(let reason):
      outcome = .changed(!isMuted)
      if !isMuted {
        isMuted = true
        muteReason = reason
        effects.append(.event(.didMute, reason: reason))
      }
    case .videoControl(let action):
      outcome = .video(videoControl(action, of: ad, at: now, effects: &effects))
    case .registerAdView(let registration):
      adView = registration
      if ad.isMediated {
        effects.append(
          .adapter(
            .didRender(
              clickable: registration.clickable.map(\.rawValue),
              nonclickable: registration.nonclickable.map(\.rawValue))))
      }
      if registration.nonclickable.contains(.mediaView) { showMedia(at: now, effects: &effects) }
      outcome = .adView(registration)
    case .unregisterAdView, .release:
      let hadView = adView != nil
      if case .unregisterAdView = change { adView = nil }
      if hadView, ad.isMediated { effects.append(.adapter(.didUntrackView)) }
      outcome = .changed(hadView)
    case .adapterImpression:
      let recordable = !isMuted && !ad.isExpired(at: now) && !impressionRecorded
      if recordable {
        impressionRecorded = true
        effects.append(.event(.didRecordImpression))
      }
      outcome = .changed(recordable)
    case .adapterClick:
      let recordable = !isMuted && !ad.isExpired(at: now)
      if recordable {
        clickCount += 1
        effects.append(.event(.didRecordClick, assetKey: pendingAdapterClickAsset))
        pendingAdapterClickAsset = nil
      }
      outcome = .changed(recordable)
    case .adapterEvent(let kind):
      switch kind {
      case .willPresentScreen: isScreenPresented = true
      case .didDismissScreen: isScreenPresented = false
      default: if kind.isVideoEvent { video?.networkReported(kind, at: now) }
      }
      effects.append(.event(kind))
      outcome = .changed(true)
    }
    return AdTransition(outcome: outcome, effects: effects)
  }

  /// The impression rules: not recorded when muted, expired or recorded before (in that
  /// order); an adapter that tracks impressions is asked to (once) instead. A custom-format
  /// ad's impression is the app showing it: its video starts playing.
  private mutating func recordImpression(
    of ad: NativeAd, at now: Double, effects: inout [AdEffect]
  ) -> ImpressionOutcome {
    if isMuted { return .notRecorded(.muted) }
    if ad.isExpired(at: now) { return .notRecorded(.expired) }
    guard !impressionRecorded else { return .notRecorded(.alreadyRecorded) }
    if ad.impressionTracker == .adapter {
      if !adapterToldOfImpression {
        adapterToldOfImpression = true
        effects.append(.adapter(.handleImpression))
      }
      return .notRecorded(.handledByAdapter)
    }
    impressionRecorded = true
    effects.append(.event(.didRecordImpression))
    if ad.isMediated { effects.append(.adapter(.didRecordImpression)) }
    if ad.kind == .customNative { showMedia(at: now, effects: &effects) }
    guard let tracking = ad.creative.tracking else { return .recorded }
    let urls = tracking.impressionURLs
    for url in urls { effects.append(.event(.impressionTracker, url: url)) }
    return ImpressionOutcome(recorded: true, trackingURLs: urls)
  }

  /// The click rules (see ``AdManager/performClick(adId:key:openableURLSchemes:by:completion:)``).
  private mutating func click(
    _ ad: NativeAd, on assetKey: String, openable schemes: [String], by caller: OwnerID,
    at now: Double, effects: inout [AdEffect]
  ) -> ClickOutcome {
    if isMuted { return .notRecorded(.muted) }
    if ad.isExpired(at: now) { return .notRecorded(.expired) }
    if let adView, !adView.clickable.contains(where: { $0.rawValue == assetKey }) {
      return .notRecorded(.notClickable)
    }
    if ad.clickTracker == .adapter {
      pendingAdapterClickAsset = assetKey
      effects.append(.adapter(.handleClick(assetKey: assetKey)))
      return ClickOutcome(recorded: false, action: .adapter, url: nil, reason: .handledByAdapter)
    }
    clickCount += 1
    effects.append(.event(.didRecordClick, assetKey: assetKey))
    if ad.isMediated { effects.append(.adapter(.didRecordClick(assetKey: assetKey))) }
    // Third-party click trackers are pinged whatever handles the click (the SDK's rule).
    let creative = ad.creative
    let trackingURLs = creative.tracking?.clickURLs(assetKey: assetKey)
    for url in trackingURLs ?? [] {
      effects.append(.event(.clickTracker, assetKey: assetKey, url: url))
    }

    // A set custom click handler runs, and the SDK takes no other action (contract 1.1).
    if ad.kind == .customNative, customClickHandlerOwners.contains(caller) {
      effects.append(.customClick(assetID: assetKey, owner: caller))
      return ClickOutcome(
        recorded: true, action: .customClickHandler, url: nil, trackingURLs: trackingURLs)
    }
    // An asset with a link of its own goes there; any other click goes to the ad's links.
    let assetLink = creative.tracking?.link(ofAsset: assetKey)
    let deepLinks = assetLink.map { $0.isDeepLink ? [$0.url] : [] } ?? creative.deepLinks
    let landingPageURL = assetLink?.landingPageURL ?? creative.landingPageURL
    let outcome: ClickOutcome
    if let deepLink = URLScheme.firstOpenable(deepLinks, schemes: schemes) {
      outcome = ClickOutcome(
        recorded: true, action: .deepLink, url: deepLink, trackingURLs: trackingURLs)
    } else if ad.isMediated, landingPageURL.isEmpty {
      // The adapter's network handles the click-through (contract 1.1).
      return ClickOutcome(recorded: true, action: .none, url: nil)
    } else {
      outcome = ClickOutcome(
        recorded: true, action: .landingPage, url: landingPageURL, trackingURLs: trackingURLs)
    }
    isScreenPresented = true
    effects.append(.event(.willPresentScreen))
    return outcome
  }

  private mutating func videoControl(
    _ action: VideoAction, of ad: NativeAd, at now: Double, effects: inout [AdEffect]
  ) -> VideoControlOutcome {
    let playAllowed = ad.kind != .customNative || impressionRecorded
    guard let result = video?.control(action, playAllowed: playAllowed, at: now) else {
      return VideoControlOutcome(applied: false, reason: .noVideo, state: nil)
    }
    if let event = result.event { effects.append(.event(event)) }
    return result.outcome
  }

  /// The app shows the ad's media: a stopped video starts playing (contract 1.1).
  private mutating func showMedia(at now: Double, effects: inout [AdEffect]) {
    if let played = video?.mediaShown(at: now) { effects.append(.event(played)) }
  }
}
