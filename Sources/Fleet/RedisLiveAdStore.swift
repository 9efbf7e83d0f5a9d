import JSONRPC
import NativeAds
import RedisClient

/// The live ads of a fleet, in Redis: any process finds and changes any ad, and a change is
/// applied exactly once, atomically, however many processes race (see `docs/fleet.md`).
///
/// - An ad is one hash (``FleetKeys/ad(_:)``): its facts, its state and the state's version,
///   expiring ``FleetOptions/expiredAdTTLSeconds`` after the ad does.
/// - A change is computed here by the domain's rules (``AdState/apply(_:to:at:)``) on the state
///   as last read, and stored by compare-and-set on its version (``FleetScript/compareAndSet``):
///   when another process changed the ad first, the change is computed again on the state it
///   left. Nothing is read and then written without that check.
/// - What the change records goes out through the ad's outbox (``FleetOutbox``), stored with
///   the state and published by ``FleetScript/publish`` once (its events numbered in the
///   fleet's one order). A process that dies between the two leaves the outbox, which the next
///   process to read the ad publishes.
/// - The caller is answered only after Redis confirmed all of it.
///
/// Loop-thread only.
public final class RedisLiveAdStore: LiveAdStore {
  final class Entry {
    let ad: NativeAd
    var version: Int64

    init(_ ad: NativeAd, version: Int64) {
      self.ad = ad
      self.version = version
    }
  }

  let redis: FleetRedis
  let keys: FleetKeys
  /// This process's number in the fleet.
  let process: UInt64
  let options: FleetOptions
  /// Ads loaded by this process, not released as far as it knows.
  private var held: [String: Entry] = [:]
  /// Ads of other processes read lately.
  private var foreign: [String: Entry] = [:]

  init(redis: FleetRedis, keys: FleetKeys, process: UInt64, options: FleetOptions) {
    self.redis = redis
    self.keys = keys
    self.process = process
    self.options = options
  }

  public var isShared: Bool { true }

  public func ad(_ id: String) -> NativeAd? { held[id]?.ad }

  public var ads: [NativeAd] { held.values.map(\.ad) }

  private func entry(_ id: String) -> Entry? { held[id] ?? foreign[id] }

  private func forget(_ id: String) {
    held.removeValue(forKey: id)
    foreign.removeValue(forKey: id)
  }

  private static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

  // MARK: Finding

  public func find(
    _ id: String, completion: @escaping (Result<NativeAd?, StoreUnavailable>) -> Void
  ) {
    let known = entry(id)
    redis.run(
      .fetch, keys: [keys.ad(id)],
      arguments: [
        Self.text(known.map { String($0.version) } ?? ""), Self.text(known == nil ? "1" : "0"),
      ]
    ) { [self] result in
      switch result {
      case .failure(let unavailable): completion(.failure(unavailable))
      case .success(.null):
        forget(id)
        completion(.success(nil))
      case .success(let reply):
        do throws(SnapshotError) {
          let found = try read(id, reply, known: known)
          guard let outbox = found.outbox else { return completion(.success(found.entry.ad)) }
          // A change whose process stopped before publishing: publish it for that process.
          publish(outbox.box, version: outbox.version, of: found.entry.ad) { published in
            completion(published.map { _ in found.entry.ad })
          }
        } catch {
          completion(.failure(StoreUnavailable(reason: "ad \(id) in Redis: \(error)")))
        }
      }
    }
  }

  /// The entry a fetch answered, made or brought up to date, and its unpublished outbox.
  private func read(_ id: String, _ reply: RedisReply, known: Entry?) throws(SnapshotError)
    -> (entry: Entry, outbox: (box: FleetOutbox, version: Int64)?)
  {
    guard let parts = reply.elements, parts.count == 5, let version = parts[0].integer else {
      throw SnapshotError(path: "fetch", problem: "answered \(reply)")
    }
    let state = try Self.bytes(parts[1]).map { s throws(SnapshotError) in
      try AdRecordCodec.state(try SnapshotReader(parsing: s, path: "state"))
    }
    let entry: Entry
    if let known {
      if let state { known.ad.adopt(state) }
      known.version = version
      entry = known
    } else {
      guard let record = Self.bytes(parts[2]), let state else {
        throw SnapshotError(path: "fetch", problem: "answered no record")
      }
      let ad = try AdRecordCodec.ad(
        record: try SnapshotReader(parsing: record, path: "record"), state: state)
      entry = Entry(ad, version: version)
      if FleetOwners.process(of: ad.owner) == process {
        held[id] = entry
      } else {
        if foreign.count >= options.maxForeignAds { foreign.removeAll(keepingCapacity: true) }
        foreign[id] = entry
      }
    }
    return (entry, try Self.outbox(parts[3], parts[4]))
  }

  private static func bytes(_ reply: RedisReply) -> [UInt8]? {
    if case .string(let bytes) = reply { return bytes }
    return nil
  }

  private static func outbox(_ box: RedisReply, _ version: RedisReply) throws(SnapshotError)
    -> (box: FleetOutbox, version: Int64)?
  {
    guard let bytes = bytes(box), let version = version.integer else { return nil }
    return (try FleetOutbox(parsing: bytes), version)
  }

  // MARK: Loading

  public func insert(
    _ ads: [NativeAd], completion: @escaping (Result<Void, StoreUnavailable>) -> Void
  ) {
    var left = ads.count
    var failure: StoreUnavailable?
    guard left > 0 else { return completion(.success(())) }
    for ad in ads {
      let expireAt = Int64(((ad.expiresAt + options.expiredAdTTLSeconds) * 1000).rounded(.up))
      redis.run(
        .insert, keys: [keys.ad(ad.id)],
        arguments: [
          Self.text(AdRecordCodec.record(ad).jsonText),
          Self.text(AdRecordCodec.state(ad.state).jsonText), Self.text(String(expireAt)),
        ]
      ) { [self] result in
        if case .failure(let unavailable) = result { failure = failure ?? unavailable }
        left -= 1
        guard left == 0 else { return }
        if let failure { return completion(.failure(failure)) }
        for ad in ads { held[ad.id] = Entry(ad, version: 1) }
        completion(.success(()))
      }
    }
  }

  // MARK: Changing

  public func apply(
    _ change: AdChange, to ad: NativeAd, at now: Double,
    completion: @escaping (Result<AdTransition, StoreUnavailable>) -> Void
  ) {
    let entry = self.entry(ad.id).flatMap { $0.ad === ad ? $0 : nil } ?? Entry(ad, version: 1)
    store(change, entry, at: now, attempt: 1, completion: completion)
  }

  public func release(
    _ ad: NativeAd, at now: Double,
    completion: @escaping (Result<AdTransition, StoreUnavailable>) -> Void
  ) {
    let entry = self.entry(ad.id).flatMap { $0.ad === ad ? $0 : nil } ?? Entry(ad, version: 1)
    store(.release, entry, at: now, attempt: 1, completion: completion)
  }

  /// Computes `change` on the state as last read and stores it if the version has not moved;
  /// else reads what moved it, and tries again.
  private func store(
    _ change: AdChange, _ entry: Entry, at now: Double, attempt: Int,
    completion: @escaping (Result<AdTransition, StoreUnavailable>) -> Void
  ) {
    let ad = entry.ad
    var next = ad.state
    var transition = next.apply(change, to: ad, at: now)
    let releasing = change == .release
    if !releasing, next == ad.state, transition.effects.isEmpty {
      return completion(.success(transition))
    }
    let outbox = FleetOutbox(transition.effects, of: ad, at: now)
    redis.run(
      .compareAndSet, keys: [keys.ad(ad.id)],
      arguments: [
        Self.text(String(entry.version)), Self.text(AdRecordCodec.state(next).jsonText),
        outbox.isEmpty ? [] : Self.text(outbox.json), Self.text(releasing ? "1" : "0"),
      ]
    ) { [self] result in
      let parts: [RedisReply]
      switch result {
      case .failure(let unavailable): return completion(.failure(unavailable))
      case .success(let reply):
        guard let elements = reply.elements, let status = elements.first?.integer else {
          return completion(
            .failure(StoreUnavailable(reason: "script compareAndSet answered \(reply)")))
        }
        parts = elements
        switch status {
        case 1:
          break
        case -1:
          forget(ad.id)
          ad.markReleased()
          return completion(.failure(.adGone))
        default:
          // Another process changed the ad first: take its state, publish what it left, retry.
          guard attempt < options.maxChangeAttempts else {
            return completion(
              .failure(
                StoreUnavailable(
                  reason: "ad \(ad.id) changed \(attempt) times while this change was made")))
          }
          do throws(SnapshotError) {
            guard parts.count == 5, let version = parts[1].integer,
              let stateBytes = Self.bytes(parts[2])
            else { throw SnapshotError(path: "compareAndSet", problem: "answered \(reply)") }
            ad.adopt(
              try AdRecordCodec.state(try SnapshotReader(parsing: stateBytes, path: "state")))
            entry.version = version
            let retry = {
              self.store(change, entry, at: now, attempt: attempt + 1, completion: completion)
            }
            guard let left = try Self.outbox(parts[3], parts[4]) else { return retry() }
            publish(left.box, version: left.version, of: ad) { published in
              if case .failure(let unavailable) = published {
                return completion(.failure(unavailable))
              }
              retry()
            }
          } catch {
            completion(.failure(StoreUnavailable(reason: "ad \(ad.id) in Redis: \(error)")))
          }
          return
        }
      }
      let version = parts.count > 1 ? parts[1].integer ?? entry.version + 1 : entry.version + 1
      if releasing {
        forget(ad.id)
        ad.markReleased()
      } else {
        ad.adopt(next)
        entry.version = version
      }
      guard !outbox.isEmpty else { return completion(.success(transition)) }
      publish(outbox, version: version, of: ad) { [self] published in
        switch published {
        case .failure(let unavailable): completion(.failure(unavailable))
        case .success(let sequences):
          if let sequences {
            transition.eventSequences = sequences
          } else {
            transition.effectsDelivered = true
          }
          if !releasing {
            redis.run(.clearOutbox, keys: [keys.ad(ad.id)], arguments: [Self.text(String(version))])
            { _ in }
          }
          completion(.success(transition))
        }
      }
    }
  }

  /// Publishes `outbox` of `ad`'s change to `version` (once for the fleet): its events'
  /// sequence numbers, or nil when it had been published already.
  private func publish(
    _ outbox: FleetOutbox, version: Int64, of ad: NativeAd,
    completion: @escaping (Result<[Int]?, StoreUnavailable>) -> Void
  ) {
    let targets = outbox.targets
    let lifetimeMs = max(
      60_000, Int64((ad.expiresAt + options.expiredAdTTLSeconds - ad.loadedAt) * 1000))
    redis.run(
      .publish,
      keys: [keys.sequence, keys.events, keys.published(ad.id), keys.eventTime]
        + targets.map(keys.inbox),
      arguments: [
        Self.text(String(version)), Self.text(String(options.maxEvents)),
        Self.text(String(process)), Self.text(String(lifetimeMs)), Self.text(outbox.json),
      ]
    ) { result in
      switch result {
      case .failure(let unavailable): completion(.failure(unavailable))
      case .success(.null): completion(.success(nil))
      case .success(let reply):
        let sequences = (reply.elements ?? []).compactMap { $0.integer.map(Int.init) }
        completion(.success(sequences))
      }
    }
  }
}
