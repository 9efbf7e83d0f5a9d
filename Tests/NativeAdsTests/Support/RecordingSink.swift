import NativeAds

/// An event sink that remembers what it was told.
final class RecordingSink: AdEventSink {
  struct CustomClick: Equatable {
    var adId: String
    var assetID: String
    var owner: OwnerID
  }

  var events: [AdEvent] = []
  var customClicks: [CustomClick] = []

  func adManager(_ manager: AdManager, didRecord event: AdEvent) {
    events.append(event)
  }

  func adManager(
    _ manager: AdManager, customClickOn adId: String, assetID: String, for owner: OwnerID
  ) {
    customClicks.append(CustomClick(adId: adId, assetID: assetID, owner: owner))
  }
}
