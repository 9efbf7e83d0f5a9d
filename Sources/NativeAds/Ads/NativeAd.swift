/// A loaded ad: one creative served to one owner, with its counters, its ad view registration,
/// its Mute This Ad state and its video controller.
///
/// Created by ``AdManager/load(_:owner:)`` or ``AdManager/load(_:owner:completion:)`` and alive
/// until released. Loop-bound: used only on
/// the event loop thread. State changes go through ``AdManager`` so that events are recorded.
public final class NativeAd {
  /// The ad ID: opaque, unique for the life of the process.
  public let id: String
  /// The creative served (a copy: later inventory changes do not affect it).
  public let creative: Creative
  /// The loader options of the load that produced it (`numberOfAds` clamped).
  public let options: LoaderOptions
  /// The response info of the load that produced it.
  public let responseInfo: ResponseInfo
  /// When it was loaded, in seconds since the Unix epoch.
  public let loadedAt: Double
  /// When it expires, in seconds since the Unix epoch.
  public let expiresAt: Double
  /// Who loaded it; its events go there.
  public let owner: OwnerID
  /// Whether its impression has been recorded.
  public internal(set) var impressionRecorded = false
  /// How many clicks have been recorded on it.
  public internal(set) var clickCount = 0
  /// The owners that enabled the custom click handler for it.
  public internal(set) var customClickHandlerOwners: Set<OwnerID> = []
  /// Whether it has been released (a released ad is no longer reachable by its ID).
  public internal(set) var isReleased = false
  /// The registered native ad view (system-defined ads only); nil when none is registered.
  public internal(set) var adView: AdViewRegistration?
  /// Whether the user muted it (Mute This Ad); a muted ad records no impression or click.
  public internal(set) var isMuted = false
  /// The reason given with the mute, if any.
  public internal(set) var muteReason: String?
  /// Whether a click opened a landing page or an app that the app has not reported dismissed.
  public internal(set) var isScreenPresented = false
  /// How the ad was mediated, when a custom event filled it; nil for inventory ads.
  public internal(set) var mediation: MediationInfo?

  /// Whether the adapter of a mediated ad that handles impressions was told
  /// ``MediatedNativeAdForwarding/handleImpression(adId:)``.
  var adapterToldOfImpression = false
  /// The asset of the last click handed to an adapter that handles clicks, until it reports a
  /// click.
  var pendingAdapterClickAsset: String?

  /// The manager that loaded it: the video snapshot reads its clock.
  weak var manager: AdManager?
  /// The video controller as of ``videoAnchor`` (nil without video). While playing,
  /// `currentTime` is the position at the anchor and advances with the clock from there.
  var videoStorage: VideoControllerState?
  /// When the stored video state was last anchored (the clock time playback last started).
  var videoAnchor: Double = 0

  init(
    id: String, creative: Creative, options: LoaderOptions, responseInfo: ResponseInfo,
    loadedAt: Double, expiresAt: Double, owner: OwnerID
  ) {
    self.id = id
    self.creative = creative
    self.options = options
    self.responseInfo = responseInfo
    self.loadedAt = loadedAt
    self.expiresAt = expiresAt
    self.owner = owner
    let media = creative.media
    if media.hasVideoContent {
      videoStorage = VideoControllerState(
        isMuted: options.startMuted,
        customControlsEnabled: options.customControlsRequested && media.customControlsAllowed,
        clickToExpandEnabled: options.clickToExpandRequested && media.clickToExpandAllowed,
        duration: max(0, media.duration))
    }
  }

  /// The video controller now (nil when the media has no video): `currentTime` advanced by the
  /// manager's clock while playing, and a video that has played to its end shown as `ended` at
  /// its duration. Reading it records nothing: the `didEnd` event is sent by the next
  /// ``AdManager`` call naming the ad.
  public var video: VideoControllerState? {
    guard let manager else { return videoStorage }
    return videoSnapshot(at: manager.clock.now())
  }

  /// The video controller at time `now` (see ``video``).
  func videoSnapshot(at now: Double) -> VideoControllerState? {
    guard var state = videoStorage, state.playbackState == .playing else { return videoStorage }
    let position = state.currentTime + max(0, now - videoAnchor)
    if position >= state.duration {
      state.playbackState = .ended
      state.currentTime = state.duration
    } else {
      state.currentTime = position
    }
    return state
  }

  /// Whether the ad has video content (and so a video controller).
  public var hasVideo: Bool { videoStorage != nil }

  /// The ad kind.
  public var kind: AdKind { creative.kind }

  /// The images a native ad exposes: all of them with `shouldRequestMultipleImages`, else only
  /// the first. Empty for custom ads.
  public var images: [AdImage] {
    guard let assets = creative.content.nativeAssets else { return [] }
    return options.shouldRequestMultipleImages ? assets.images : Array(assets.images.prefix(1))
  }

  /// The keys of the assets the ad has: for a custom ad its asset names in creative order (the
  /// SDK's `availableAssetKeys`), followed by `_adChoices` when it is indirect; for a native ad
  /// the ``NativeAssetKey`` names it has.
  public var availableAssetKeys: [String] {
    switch creative.content {
    case .custom(_, let assets):
      assets.map(\.name) + (creative.adChoices == nil ? [] : [AdChoicesInfo.assetKey])
    case .native(let assets): NativeAssetKey.allCases.filter { assets.has($0) }.map(\.rawValue)
    }
  }

  /// The text asset under `key`: for native ads the text asset names (`headline`, `body`,
  /// `callToAction`, `store`, `price`, `advertiser`), for custom ads the format's text asset
  /// names. Nil for any other key and for missing assets.
  public func string(forKey key: String) -> String? {
    switch creative.content {
    case .native(let assets):
      guard let assetKey = NativeAssetKey(rawValue: key) else { return nil }
      return assets.text(for: assetKey)
    case .custom:
      return creative.content.customAsset(named: key)?.text
    }
  }

  /// The image under `key`: `_adChoices` for indirect ads of both kinds; for native ads `icon`
  /// and `image` (the first image); for custom ads the format's image asset names. Nil
  /// otherwise. Image bytes are always there; leaving them out under `disableImageLoading` is
  /// the encoder's job.
  public func image(forKey key: String) -> AdImage? {
    if key == AdChoicesInfo.assetKey { return creative.adChoices?.image }
    switch creative.content {
    case .native(let assets):
      switch key {
      case NativeAssetKey.icon.rawValue: return assets.icon
      case NativeAssetKey.image.rawValue: return assets.images.first
      default: return nil
      }
    case .custom:
      return creative.content.customAsset(named: key)?.image
    }
  }

  /// The canonical key of the asset a click on `key` lands on, or nil when the ad has no such
  /// asset. Native ads accept ``NativeAssetKey`` names and identifiers (`"3001"`...) for assets
  /// they have (`mediaView` always); custom ads accept the names of their assets. `_adChoices`
  /// is not an asset here.
  public func resolveAssetKey(_ key: String) -> String? {
    switch creative.content {
    case .native(let assets):
      guard let assetKey = NativeAssetKey(nameOrIdentifier: key), assets.has(assetKey) else {
        return nil
      }
      return assetKey.rawValue
    case .custom(_, let assets):
      return assets.contains { $0.name == key } ? key : nil
    }
  }
}
