/// A loaded ad: one creative served to one owner, and what has been recorded about it
/// (``state``).
///
/// Created by ``AdManager/load(_:owner:completion:)`` and alive until released. Its facts never
/// change; its ``state`` changes only through the ``LiveAdStore`` that keeps it, by
/// ``AdState/apply(_:to:at:)``. Loop-bound: used only on the event loop thread.
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
  /// The ad unit it was loaded for.
  public let adUnitID: String
  /// How the ad was mediated, when a custom event filled it; nil for inventory ads.
  public var mediation: MediationInfo? { mediationBox?.info }
  /// ``mediation`` behind one reference (``MediationBox``).
  private let mediationBox: MediationBox?
  /// What has been recorded about it. Changed by its ``LiveAdStore`` only.
  public internal(set) var state: AdState
  /// Whether it has been released (a released ad is no longer reachable by its ID).
  public internal(set) var isReleased = false
  /// Kept for the layer that presents the ad to clients (the RPC service keeps the ad's
  /// pre-encoded assets here, so that a request about the ad needs one lookup: the ad's). The
  /// domain never reads it.
  public var presentation: AnyObject?

  convenience init(
    id: String, creative: Creative, options: LoaderOptions, responseInfo: ResponseInfo,
    loadedAt: Double, expiresAt: Double, owner: OwnerID, adUnitID: String,
    mediation: MediationInfo? = nil
  ) {
    self.init(
      id: id, creative: creative, options: options, responseInfo: responseInfo,
      loadedAt: loadedAt, expiresAt: expiresAt, owner: owner, adUnitID: adUnitID,
      mediationBox: mediation.map(MediationBox.init))
  }

  /// An ad whose mediation info is boxed already (a fill's: the box is shared, not made again).
  init(
    id: String, creative: Creative, options: LoaderOptions, responseInfo: ResponseInfo,
    loadedAt: Double, expiresAt: Double, owner: OwnerID, adUnitID: String,
    mediationBox: MediationBox?
  ) {
    self.id = id
    self.creative = creative
    self.options = options
    self.responseInfo = responseInfo
    self.loadedAt = loadedAt
    self.expiresAt = expiresAt
    self.owner = owner
    self.adUnitID = adUnitID
    self.mediationBox = mediationBox
    self.state = AdState(creative: creative, options: options, at: loadedAt)
  }

  /// Whether the ad has expired at time `now`. An expired ad records no impression and no
  /// click; its assets can still be read and it can be released.
  public func isExpired(at now: Double) -> Bool { now >= expiresAt }

  /// Whether a custom event filled it.
  public var isMediated: Bool { mediationBox != nil }

  /// Who records its impression: the adapter when it maps an ad that tracks impressions
  /// itself, else the service.
  public var impressionTracker: Tracker {
    mediationBox?.info.handlesUserImpressions == true ? .adapter : .service
  }

  /// Who records its clicks (as ``impressionTracker``).
  public var clickTracker: Tracker {
    mediationBox?.info.handlesUserClicks == true ? .adapter : .service
  }

  /// The video controller at time `now`; nil without video. Reading records nothing.
  public func video(at now: Double) -> VideoControllerState? { state.video?.state(at: now) }

  /// Whether the ad has video content (and so a video controller).
  public var hasVideo: Bool { state.video != nil }

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

/// A ``MediationInfo`` behind one reference: the info is large (two existentials, two
/// strings), and an inventory ad or fill, the common one, then stores, copies and frees one
/// nil word; a mediated fill's box becomes its ad's.
final class MediationBox {
  let info: MediationInfo
  init(_ info: MediationInfo) { self.info = info }
}
