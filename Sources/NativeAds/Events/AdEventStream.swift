/// Everything recorded about live ads, as it happens, to every subscriber: the event log, the
/// RPC layer (which sends each event to the connection that loaded the ad), and whatever else
/// watches (an inspector, a fleet).
///
/// Numbers each event (1, 2, ...) before handing it on. Observers are held weakly and told in
/// the order they subscribed, synchronously on the event loop thread, after the ad's state
/// changed (so an observer may call back into the manager).
public final class AdEventStream {
  private struct Subscriber {
    weak var observer: (any AdEventObserver)?
  }

  private var subscribers: [Subscriber] = []
  /// The sequence number of the latest event (0 before the first).
  public private(set) var lastSequence = 0

  /// A stream nobody listens to yet.
  public init() {}

  /// Adds `observer` (held weakly) after the current ones.
  public func subscribe(_ observer: any AdEventObserver) {
    subscribers.removeAll { $0.observer == nil }
    subscribers.append(Subscriber(observer: observer))
  }

  /// Removes `observer`.
  public func unsubscribe(_ observer: any AdEventObserver) {
    subscribers.removeAll { $0.observer == nil || $0.observer === observer }
  }

  /// Numbers and publishes an event about `ad`; `sequence` is the number a shared store gave
  /// it (a fleet's), else the next one here.
  @discardableResult
  func publish(
    _ kind: AdEventKind, on ad: NativeAd, assetKey: String?, reason: String?, url: String? = nil,
    at time: Double,
    sequence: Int? = nil
  ) -> AdEvent {
    let event = AdEvent(
      sequence: sequence ?? lastSequence + 1, adId: ad.id, owner: ad.owner, event: kind,
      assetKey: assetKey, reason: reason, url: url, time: time)
    deliver(event)
    return event
  }

  /// Publishes an event already numbered and recorded elsewhere: by another process of a
  /// fleet, for a connection of this one.
  public func deliver(_ event: AdEvent) {
    lastSequence = max(lastSequence, event.sequence)
    for subscriber in subscribers { subscriber.observer?.adEventRecorded(event) }
  }

  /// Publishes a click handed to the custom click handler `owner` enabled (after the click's
  /// `didRecordClick`).
  public func publishCustomClick(on adId: String, assetID: String, for owner: OwnerID) {
    for subscriber in subscribers {
      subscriber.observer?.customClick(on: adId, assetID: assetID, for: owner)
    }
  }
}

/// Stands in an ``AdEventStream`` for an observer that is used on every request: its owner
/// keeps the relay (strongly) and subscribes it in its own place, and the relay hands every
/// call on to it.
///
/// A weak reference to an object moves its reference count to a side table for good, and every
/// retain and release of it then takes the runtime's slow path (about 130 instructions a pair
/// instead of 10). The stream's weak reference falls on the relay instead, and still clears
/// when the owner goes (the relay goes with it).
public final class AdEventRelay: AdEventObserver {
  /// Unowned and unchecked: the owner keeps the relay, so it outlives every call.
  private unowned(unsafe) let target: any AdEventObserver

  /// A relay for `target`, which must keep it.
  public init(to target: any AdEventObserver) {
    self.target = target
  }

  public func adEventRecorded(_ event: AdEvent) { target.adEventRecorded(event) }

  public func customClick(on adId: String, assetID: String, for owner: OwnerID) {
    target.customClick(on: adId, assetID: assetID, for: owner)
  }
}

/// Watches an ``AdEventStream``.
public protocol AdEventObserver: AnyObject {
  /// An event was recorded; `event.owner` is the connection that loaded the ad.
  func adEventRecorded(_ event: AdEvent)
  /// A click was handed to the custom click handler `owner` enabled. Default: nothing.
  func customClick(on adId: String, assetID: String, for owner: OwnerID)
}

extension AdEventObserver {
  /// Does nothing.
  public func customClick(on adId: String, assetID: String, for owner: OwnerID) {}
}
