/// One recorded event, as kept in the ``AdManager`` event log and sent to the ``AdEventSink``.
public struct AdEvent: Sendable, Equatable {
  /// The event's place in the log: 1 for the first event, then increasing by one.
  public var sequence: Int
  /// The ad the event is about.
  public var adId: String
  /// Who loaded the ad (events always go to the loader).
  public var owner: OwnerID
  /// What happened.
  public var event: AdEventKind
  /// For clicks, the canonical asset key clicked (e.g. `headline`, never an alias); nil for
  /// every other event.
  public var assetKey: String?
  /// The reason given with a Mute This Ad mute (`didMute`), nil otherwise.
  public var reason: String?
  /// The tracker URL handed to the caller, for ``AdEventKind/impressionTracker`` and
  /// ``AdEventKind/clickTracker`` events.
  public var url: String?
  /// When, in seconds since the Unix epoch.
  public var time: Double

  /// Creates an event.
  public init(
    sequence: Int, adId: String, owner: OwnerID, event: AdEventKind, assetKey: String?,
    reason: String? = nil, url: String? = nil, time: Double
  ) {
    self.sequence = sequence
    self.adId = adId
    self.owner = owner
    self.event = event
    self.assetKey = assetKey
    self.reason = reason
    self.url = url
    self.time = time
  }
}
