import NativeAds
import NativeAdsRPC
import RedisClient

/// The fleet's store changes: a Redis list (``FleetKeys/storeChanges``), appended to by
/// compare-and-set on its length (``FleetScript/storeAppend``), read by each load's check
/// (``FleetScript/storeEntries``: its length alone when nothing changed).
///
/// Loop-thread only.
final class RedisStoreChangeLog: StoreChangeLog {
  let redis: FleetRedis
  let keys: FleetKeys

  init(redis: FleetRedis, keys: FleetKeys) {
    self.redis = redis
    self.keys = keys
  }

  func entries(
    from: Int,
    completion: @escaping (Result<(count: Int, new: [[UInt8]]), StoreUnavailable>) -> Void
  ) {
    redis.run(.storeEntries, keys: [keys.storeChanges], arguments: [Array(String(from).utf8)]) {
      result in
      switch result {
      case .failure(let unavailable): completion(.failure(unavailable))
      case .success(let reply):
        guard let parts = reply.elements, let count = parts.first?.integer else {
          return completion(
            .failure(StoreUnavailable(reason: "script storeEntries answered \(reply)")))
        }
        let new = parts.dropFirst().compactMap { part -> [UInt8]? in
          if case .string(let bytes) = part { return bytes }
          return nil
        }
        completion(.success((Int(count), new)))
      }
    }
  }

  func append(
    _ entry: [UInt8], at index: Int, completion: @escaping (Result<Bool, StoreUnavailable>) -> Void
  ) {
    redis.run(
      .storeAppend, keys: [keys.storeChanges], arguments: [Array(String(index).utf8), entry]
    ) { result in
      completion(result.map { $0.integer == 1 })
    }
  }
}
