import NativeAds

extension AdManager {
  /// The events the in-memory log keeps, oldest first.
  var events: [AdEvent] { (eventLog as? InMemoryAdEventLog)?.events ?? [] }

  /// The live ads, in no particular order.
  var ads: [NativeAd] { store.ads }
}
