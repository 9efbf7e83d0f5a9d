/// Which events a query of the log wants.
public struct AdEventQuery: Sendable, Equatable {
  /// Only events about this ad (any when nil).
  public var adId: String?
  /// Only events of this name (``AdEventKind/wireName``; so `didMute` matches both Mute This Ad
  /// and video mutes); any when nil.
  public var name: String?
  /// Only events numbered after this (all when nil).
  public var since: Int?
  /// At most this many, oldest first.
  public var limit: Int

  /// Creates a query.
  public init(adId: String? = nil, name: String? = nil, since: Int? = nil, limit: Int) {
    self.adId = adId
    self.name = name
    self.since = since
    self.limit = limit
  }

  /// Whether `event` is one the query wants (apart from `since` and `limit`).
  public func matches(_ event: AdEvent) -> Bool {
    (adId == nil || event.adId == adId) && (name == nil || event.event.wireName == name)
  }
}

/// The log of recorded events, for test suites to assert on: kept in this
/// process (``InMemoryAdEventLog``) or, for a fleet, where every process writes. It subscribes
/// to the ``AdEventStream``; queries answer through a completion, now or later.
public protocol AdEventLog: AdEventObserver {
  /// The kept events matching `query`, oldest first, and the sequence number of the latest
  /// event recorded (matching or not); fails when a shared log cannot be reached.
  func events(
    matching query: AdEventQuery,
    completion: @escaping (Result<AdEventPage, StoreUnavailable>) -> Void)
}

/// What a query of the log finds.
public struct AdEventPage: Sendable, Equatable {
  /// The matching events, oldest first.
  public var events: [AdEvent]
  /// The sequence number of the latest event recorded, 0 before the first.
  public var lastSequence: Int

  public init(events: [AdEvent], lastSequence: Int) {
    self.events = events
    self.lastSequence = lastSequence
  }
}

/// The last ``capacity`` events, in memory. Queries answer before the call returns.
public final class InMemoryAdEventLog: AdEventLog {
  /// How many events the log keeps; older ones are dropped (sequence numbers keep increasing).
  public let capacity: Int
  /// The kept events are `storage[start...]`; a dropped prefix is compacted away once it is as
  /// long as the kept part, so dropping is amortised O(1).
  private var storage: [AdEvent] = []
  private var start = 0
  /// The sequence number of the latest event recorded.
  public private(set) var lastSequence = 0

  /// A log keeping the last `capacity` events (at least 0).
  public init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  /// The kept events, oldest first.
  public var events: [AdEvent] { Array(storage[start...]) }

  public func adEventRecorded(_ event: AdEvent) {
    lastSequence = max(lastSequence, event.sequence)
    storage.append(event)
    guard storage.count - start > capacity else { return }
    start += 1
    if start >= storage.count - start {
      storage.removeFirst(start)
      start = 0
    }
  }

  public func events(
    matching query: AdEventQuery,
    completion: @escaping (Result<AdEventPage, StoreUnavailable>) -> Void
  ) {
    completion(.success(AdEventPage(events: events(matching: query), lastSequence: lastSequence)))
  }

  /// The kept events matching `query`, oldest first.
  public func events(matching query: AdEventQuery) -> [AdEvent] {
    guard query.limit > 0, start < storage.count else { return [] }
    var index = start
    if let since = query.since, since >= storage[start].sequence {
      // Sequence numbers are consecutive, so the first one after `since` is found directly.
      let skip = since - storage[start].sequence + 1
      guard skip < storage.count - start else { return [] }
      index += skip
    }
    var found: [AdEvent] = []
    while index < storage.count, found.count < query.limit {
      let candidate = storage[index]
      index += 1
      if query.matches(candidate) { found.append(candidate) }
    }
    return found
  }
}
