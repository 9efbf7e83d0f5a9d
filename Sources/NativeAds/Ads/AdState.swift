/// What has been recorded about a live ad: its impression and clicks, ad view, custom click
/// handlers, Mute This Ad, full-screen presentation and video controller. A plain value; it
/// changes only through ``apply(_:to:at:)`` (see `AdState+Transitions.swift`), applied by the
/// ``LiveAdStore`` that keeps it.
public struct AdState: Sendable, Equatable {
  /// Whether the impression has been recorded.
  public internal(set) var impressionRecorded = false
  /// How many clicks have been recorded.
  public internal(set) var clickCount = 0
  /// Whether the user muted the ad (Mute This Ad).
  public internal(set) var isMuted = false
  /// Whether a click opened a screen that the app has not reported dismissed.
  public internal(set) var isScreenPresented = false
  /// Whether an adapter that tracks impressions itself was asked to handle the impression.
  var adapterToldOfImpression = false
  /// What few ads ever have (custom click handlers, an ad view, a mute reason, a video, a
  /// click handed to an adapter), behind one reference, nil while the ad has none of it: an
  /// ad is made and freed on every load and release, and each of these fields stored inline
  /// was a word or more to clear and a reference to release (the state takes 32 bytes of an
  /// ad instead of 128).
  private var rare: Rare?

  /// The owners that enabled the custom click handler.
  public internal(set) var customClickHandlerOwners: Set<OwnerID> {
    get { rare?.fields.customClickHandlerOwners ?? [] }
    set { change(toDefault: newValue.isEmpty) { $0.customClickHandlerOwners = newValue } }
  }
  /// The registered native ad view (system-defined ads only); nil when none is registered.
  public internal(set) var adView: AdViewRegistration? {
    get { rare?.fields.adView }
    set { change(toDefault: newValue == nil) { $0.adView = newValue } }
  }
  /// The reason given with the mute, if any.
  public internal(set) var muteReason: String? {
    get { rare?.fields.muteReason }
    set { change(toDefault: newValue == nil) { $0.muteReason = newValue } }
  }
  /// The video controller; nil without video content.
  public internal(set) var video: VideoPlayer? {
    get { rare?.fields.video }
    set { change(toDefault: newValue == nil) { $0.video = newValue } }
  }
  /// The asset of the last click handed to an adapter that tracks clicks, until it reports one.
  var pendingAdapterClickAsset: String? {
    get { rare?.fields.pendingAdapterClickAsset }
    set { change(toDefault: newValue == nil) { $0.pendingAdapterClickAsset = newValue } }
  }

  /// The state of an ad just loaded at `now` with `options` from `creative`.
  init(creative: Creative, options: LoaderOptions, at now: Double) {
    if creative.hasVideoContent {
      let media = creative.media
      video = VideoPlayer(
        VideoControllerState(
          isMuted: options.startMuted,
          customControlsEnabled: options.customControlsRequested && media.customControlsAllowed,
          clickToExpandEnabled: options.clickToExpandRequested && media.clickToExpandAllowed,
          duration: max(0, media.duration)),
        at: now)
    }
  }

  public static func == (a: AdState, b: AdState) -> Bool {
    a.impressionRecorded == b.impressionRecorded && a.clickCount == b.clickCount
      && a.isMuted == b.isMuted && a.isScreenPresented == b.isScreenPresented
      && a.adapterToldOfImpression == b.adapterToldOfImpression
      && (a.rare === b.rare || a.rare?.fields ?? Rare.Fields() == b.rare?.fields ?? Rare.Fields())
  }

  /// Changes the rare fields: in place when this state holds the only reference to them,
  /// else in a copy (a value: a copy of the state never sees the change). Back to none when
  /// all are at their defaults again. Nothing at all when the change sets a field to its
  /// default (`toDefault`) and none is kept: a change through optional chaining,
  /// `video?.settle(at:)`, sets the property even when it is nil.
  private mutating func change(toDefault: Bool, _ body: (inout Rare.Fields) -> Void) {
    guard rare != nil else {
      if toDefault { return }
      var fields = Rare.Fields()
      body(&fields)
      if fields != Rare.Fields() { rare = Rare(fields) }
      return
    }
    if !isKnownUniquelyReferenced(&rare) { rare = Rare(rare!.fields) }
    body(&rare!.fields)
    if rare!.fields == Rare.Fields() { rare = nil }
  }

  /// Copy on write (``change(_:)``): changed only while uniquely referenced, so a state and
  /// its copies never share a change, whatever thread each is on.
  private final class Rare: @unchecked Sendable {
    struct Fields: Equatable {
      var customClickHandlerOwners: Set<OwnerID> = []
      var adView: AdViewRegistration?
      var muteReason: String?
      var video: VideoPlayer?
      var pendingAdapterClickAsset: String?
    }
    var fields: Fields
    init(_ fields: Fields) { self.fields = fields }
  }
}

/// Who records an ad's impressions or clicks: the service, or the mediation adapter that
/// mapped it (the mapped ad's `handlesUserImpressions` / `handlesUserClicks`).
public enum Tracker: Sendable, Equatable {
  case service
  case adapter
}

/// A change asked of a live ad (see ``AdState/apply(_:to:at:)``).
public enum AdChange: Sendable, Equatable {
  /// Notice a video that has played to its end (done first by every change, and by reads).
  case settle
  /// The app records the impression.
  case recordImpression
  /// The app reports how many pixels of the registered ad view are visible.
  case reportVisibility(visiblePixels: Int)
  /// The app clicks an asset (its canonical key) on behalf of `caller`.
  case click(assetKey: String, openableURLSchemes: [String], caller: OwnerID)
  /// The user came back from the screen a click opened.
  case dismissScreen
  /// `caller` enables or disables its custom click handler.
  case setCustomClickHandler(enabled: Bool, caller: OwnerID)
  /// Mute This Ad (the reason is already checked against the offered ones).
  case mute(reason: String?)
  /// A custom-controls action on the video.
  case videoControl(VideoAction)
  /// The app registers the native ad view.
  case registerAdView(AdViewRegistration)
  /// The app unregisters the native ad view.
  case unregisterAdView
  /// The ad is released: a mediated ad's adapter stops tracking a registered view.
  case release
  /// The adapter of a mediated ad reports the impression.
  case adapterImpression
  /// The adapter of a mediated ad reports a click.
  case adapterClick
  /// The adapter of a mediated ad reports a full-screen or video event.
  case adapterEvent(AdEventKind)
}

/// What a change did: its outcome, and what follows from it, in order.
public struct AdTransition: Sendable, Equatable {
  /// What the caller is answered.
  public var outcome: AdOutcome
  /// The events to record and the messages to send, in order.
  public var effects: [AdEffect]
  /// The sequence numbers a shared store gave the ``AdEffect/event(_:assetKey:reason:)``
  /// effects, in order (a fleet numbers its events once for all processes); nil when this
  /// process numbers them.
  public var eventSequences: [Int]? = nil
  /// True when a shared store delivered the effects itself (another process published them
  /// first): this process then routes none of them.
  public var effectsDelivered = false

  public init(outcome: AdOutcome, effects: [AdEffect]) {
    self.outcome = outcome
    self.effects = effects
  }
}

/// The answer to one ``AdChange``.
///
/// The cases with a payload keep it boxed (`indirect`): a transition is made and destroyed on
/// every change, most of them ``changed(_:)`` (a release, a dismissal), and an enum of four
/// structs inline was copied and destroyed through value witnesses whatever its case.
public enum AdOutcome: Sendable, Equatable {
  indirect case impression(ImpressionOutcome)
  indirect case click(ClickOutcome)
  indirect case video(VideoControlOutcome)
  indirect case adView(AdViewRegistration)
  /// Whether the change changed anything (dismissals, mutes, unregistering, adapter reports,
  /// and the custom click handler's new setting).
  case changed(Bool)

  /// The ``changed(_:)`` value, false for the other cases.
  public var changed: Bool {
    if case .changed(let value) = self { return value }
    return false
  }
}

/// What follows from a change, beyond its answer.
public enum AdEffect: Sendable, Equatable {
  /// Record an event on the ad (the log, and the ad's owner).
  case event(AdEventKind, assetKey: String? = nil, reason: String? = nil, url: String? = nil)
  /// Tell the mediation adapter of the ad.
  case adapter(AdapterNotice)
  /// Hand a click to the custom click handler `owner` enabled.
  case customClick(assetID: String, owner: OwnerID)
}

/// What the service tells the adapter of a mediated ad (``MediatedNativeAdForwarding``).
public enum AdapterNotice: Sendable, Equatable {
  case didRecordImpression
  case didRecordClick(assetKey: String)
  case handleImpression
  case handleClick(assetKey: String)
  case didRender(clickable: [String], nonclickable: [String])
  case didUntrackView
}
