/// What adapters report about the ads they mapped (through ``MediatedAdEventDelegate``).
extension AdManager {
  /// The adapter of `ad` reported its impression: recorded once, unless the ad is muted or
  /// expired. Returns whether this report recorded it.
  func adapterReportedImpression(on ad: NativeAd) -> Bool {
    settleVideo(of: ad)
    guard !ad.isMuted, !isExpired(ad), !ad.impressionRecorded else { return false }
    ad.impressionRecorded = true
    emit(.didRecordImpression, on: ad)
    return true
  }

  /// The adapter of `ad` reported a click: recorded (on the asset of the last click handed to
  /// it, if any) unless the ad is muted or expired. Returns whether it was recorded.
  func adapterReportedClick(on ad: NativeAd) -> Bool {
    settleVideo(of: ad)
    guard !ad.isMuted, !isExpired(ad) else { return false }
    let assetKey = ad.pendingAdapterClickAsset
    ad.pendingAdapterClickAsset = nil
    ad.clickCount += 1
    emit(.didRecordClick, on: ad, assetKey: assetKey)
    return true
  }

  /// The adapter of `ad` reported a full-screen or video event `kind`: recorded as the ad's
  /// event. Full-screen events keep ``NativeAd/isScreenPresented`` in step; video events move
  /// the ad's video controller (when it has one) as the network's player moved.
  func adapterReported(_ kind: AdEventKind, on ad: NativeAd) {
    settleVideo(of: ad)
    switch kind {
    case .willPresentScreen: ad.isScreenPresented = true
    case .didDismissScreen: ad.isScreenPresented = false
    default: break
    }
    let now = clock.now()
    if kind.isVideoEvent, var state = ad.videoSnapshot(at: now) {
      switch kind {
      case .videoDidPlay:
        if state.playbackState == .ended { state.currentTime = 0 }
        state.playbackState = .playing
      case .videoDidPause: state.playbackState = .paused
      case .videoDidEnd:
        state.playbackState = .ended
        state.currentTime = state.duration
      case .videoDidMute: state.isMuted = true
      case .videoDidUnmute: state.isMuted = false
      default: break
      }
      ad.videoStorage = state
      ad.videoAnchor = now
    }
    emit(kind, on: ad)
  }
}
