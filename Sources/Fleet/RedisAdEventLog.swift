import NativeAds
import RedisClient

/// The fleet's event log: one Redis stream (``FleetKeys/events``) in the one order its
/// sequence numbers give, written by ``FleetScript/publish`` as each change is stored, read by
/// `getEvents` on any process.
///
/// Loop-thread only.
public final class RedisAdEventLog: AdEventLog {
  let redis: FleetRedis
  let keys: FleetKeys
  /// The log keeps the last this many events (`--max-events`): the stream is trimmed to about
  /// as many (`MAXLEN ~`, whole nodes at a time), and queries see exactly the last ones.
  let maxEvents: Int
  /// Entries read per `XRANGE` while a query looks for matches.
  let batch = 1_000

  init(redis: FleetRedis, keys: FleetKeys, maxEvents: Int) {
    self.redis = redis
    self.keys = keys
    self.maxEvents = maxEvents
  }

  /// Nothing to do: the store published the event before the domain heard of it.
  public func adEventRecorded(_ event: AdEvent) {}

  public func events(
    matching query: AdEventQuery,
    completion: @escaping (Result<AdEventPage, StoreUnavailable>) -> Void
  ) {
    redis.command(["GET", keys.sequence]) { [self] result in
      switch result {
      case .failure(let unavailable): completion(.failure(unavailable))
      case .success(let reply):
        let last = Int(reply.integer ?? 0)
        guard query.limit > 0 else {
          return completion(.success(AdEventPage(events: [], lastSequence: last)))
        }
        let from = max(max(0, query.since ?? 0) + 1, last - maxEvents + 1)
        scan(from: from, upTo: last, query: query, found: []) { scanned in
          completion(scanned.map { AdEventPage(events: $0, lastSequence: last) })
        }
      }
    }
  }

  /// Reads the log from sequence `from` on, batch by batch, until `query.limit` events match
  /// or the entries up to `last` are read.
  private func scan(
    from: Int, upTo last: Int, query: AdEventQuery, found: [AdEvent],
    completion: @escaping (Result<[AdEvent], StoreUnavailable>) -> Void
  ) {
    guard from <= last else { return completion(.success(found)) }
    redis.command(["XRANGE", keys.events, "\(from)-0", "\(last)-1", "COUNT", String(batch)]) {
      [self] result in
      switch result {
      case .failure(let unavailable): return completion(.failure(unavailable))
      case .success(let reply):
        var found = found
        var next = last + 1
        let entries = reply.elements ?? []
        do throws(SnapshotError) {
          for entry in entries {
            guard let event = try Self.event(entry) else { continue }
            next = event.sequence + 1
            if query.matches(event) {
              found.append(event)
              if found.count == query.limit { return completion(.success(found)) }
            }
          }
        } catch {
          return completion(.failure(StoreUnavailable(reason: "the event log: \(error)")))
        }
        if entries.count < batch { return completion(.success(found)) }
        scan(from: next, upTo: last, query: query, found: found, completion: completion)
      }
    }
  }

  /// An `XRANGE` entry `[id, [field, value...]]` as an event (its sequence is the ID's first
  /// part).
  static func event(_ entry: RedisReply) throws(SnapshotError) -> AdEvent? {
    guard let parts = entry.elements, parts.count == 2, let id = parts[0].text,
      let sequence = Int(id.prefix { $0 != "-" }), let fields = parts[1].elements
    else { return nil }
    var body: [UInt8]?
    var time: Double?
    var index = 0
    while index + 1 < fields.count {
      switch fields[index].text {
      case "e": if case .string(let bytes) = fields[index + 1] { body = bytes }
      case "t": time = fields[index + 1].text.flatMap(Double.init)
      default: break
      }
      index += 2
    }
    guard let body else { return nil }
    var event = try FleetOutbox.event(
      try SnapshotReader(parsing: body, path: "event \(id)"), sequence: sequence)
    if let time { event.time = time }
    return event
  }
}
