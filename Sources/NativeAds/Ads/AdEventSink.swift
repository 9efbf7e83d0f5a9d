/// Receives what an ``AdManager`` wants told to its clients; the RPC layer implements it by
/// sending notifications. Called synchronously on the event loop, after the manager's state is
/// updated (so a sink may call back into the manager).
public protocol AdEventSink: AnyObject {
  /// An event was recorded (and appended to the log); send it to `event.owner` (the ad's
  /// loader): as a `videoEvent` notification when `event.event.isVideoEvent`, else as an
  /// `adEvent`, with `event.event.wireName` as its name.
  func adManager(_ manager: AdManager, didRecord event: AdEvent)

  /// A click was handed to the custom click handler that `owner` enabled; send `owner` the
  /// `customClick {"adId", "assetID"}` notification. Called after the click's
  /// `didRecordClick` event.
  func adManager(
    _ manager: AdManager, customClickOn adId: String, assetID: String, for owner: OwnerID)
}
