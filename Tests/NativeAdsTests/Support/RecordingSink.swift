import NativeAds

/// Records what an ``AdEventStream`` publishes.
final class RecordingSink: AdEventObserver {
  struct CustomClick: Equatable {
    var adId: String
    var assetID: String
    var owner: OwnerID
  }

  var events: [AdEvent] = []
  var customClicks: [CustomClick] = []

  func adEventRecorded(_ event: AdEvent) {
    events.append(event)
  }

  func customClick(on adId: String, assetID: String, for owner: OwnerID) {
    customClicks.append(CustomClick(adId: adId, assetID: assetID, owner: owner))
  }
}
