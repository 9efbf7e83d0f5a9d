/// What a shared live-ad store (a fleet's Redis) needs to keep an ad outside this process and
/// bring it back in any other: every fact and every recorded field, as plain values.
extension NativeAd {
  /// An ad loaded elsewhere (or earlier), made again from its facts and its state as
  /// recorded. Its ``presentation`` starts empty; ``MediationInfo/forwarding`` and
  /// ``MediationInfo/eventDelegate`` exist only in the process that loaded a mediated ad.
  public convenience init(
    restoring id: String, creative: Creative, options: LoaderOptions,
    responseInfo: ResponseInfo, loadedAt: Double, expiresAt: Double, owner: OwnerID,
    adUnitID: String, mediation: MediationInfo?, state: AdState
  ) {
    self.init(
      id: id, creative: creative, options: options, responseInfo: responseInfo,
      loadedAt: loadedAt, expiresAt: expiresAt, owner: owner, adUnitID: adUnitID,
      mediation: mediation)
    self.state = state
  }

  /// Replaces the state with `state` as a shared store recorded it (another process may have
  /// changed it since this copy was made).
  public func adopt(_ state: AdState) {
    self.state = state
  }

  /// Marks the ad released (by this process, or found released by another).
  public func markReleased() {
    isReleased = true
  }
}

extension AdState {
  /// Every recorded field of a state, for a shared store to keep it elsewhere.
  public struct Fields: Sendable, Equatable {
    public var impressionRecorded: Bool
    public var clickCount: Int
    /// Sorted, so that equal states have equal fields.
    public var customClickHandlerOwners: [OwnerID]
    public var adView: AdViewRegistration?
    public var isMuted: Bool
    public var muteReason: String?
    public var isScreenPresented: Bool
    public var video: VideoPlayer.Fields?
    public var adapterToldOfImpression: Bool
    public var pendingAdapterClickAsset: String?

    public init(
      impressionRecorded: Bool = false, clickCount: Int = 0,
      customClickHandlerOwners: [OwnerID] = [], adView: AdViewRegistration? = nil,
      isMuted: Bool = false, muteReason: String? = nil, isScreenPresented: Bool = false,
      video: VideoPlayer.Fields? = nil, adapterToldOfImpression: Bool = false,
      pendingAdapterClickAsset: String? = nil
    ) {
      self.impressionRecorded = impressionRecorded
      self.clickCount = clickCount
      self.customClickHandlerOwners = customClickHandlerOwners
      self.adView = adView
      self.isMuted = isMuted
      self.muteReason = muteReason
      self.isScreenPresented = isScreenPresented
      self.video = video
      self.adapterToldOfImpression = adapterToldOfImpression
      self.pendingAdapterClickAsset = pendingAdapterClickAsset
    }
  }

  /// The state's fields.
  public var fields: Fields {
    Fields(
      impressionRecorded: impressionRecorded, clickCount: clickCount,
      customClickHandlerOwners: customClickHandlerOwners.sorted(), adView: adView,
      isMuted: isMuted, muteReason: muteReason, isScreenPresented: isScreenPresented,
      video: video?.fields, adapterToldOfImpression: adapterToldOfImpression,
      pendingAdapterClickAsset: pendingAdapterClickAsset)
  }

  /// The state with these fields.
  public init(fields f: Fields) {
    impressionRecorded = f.impressionRecorded
    clickCount = f.clickCount
    customClickHandlerOwners = Set(f.customClickHandlerOwners)
    adView = f.adView
    isMuted = f.isMuted
    muteReason = f.muteReason
    isScreenPresented = f.isScreenPresented
    video = f.video.map(VideoPlayer.init(fields:))
    adapterToldOfImpression = f.adapterToldOfImpression
    pendingAdapterClickAsset = f.pendingAdapterClickAsset
  }
}

extension VideoPlayer {
  /// A player's stored controller and the time it was taken.
  public struct Fields: Sendable, Equatable {
    public var stored: VideoControllerState
    public var anchor: Double

    public init(stored: VideoControllerState, anchor: Double) {
      self.stored = stored
      self.anchor = anchor
    }
  }

  public var fields: Fields { Fields(stored: stored, anchor: anchor) }

  public init(fields: Fields) {
    self.init(fields.stored, at: fields.anchor)
  }
}
