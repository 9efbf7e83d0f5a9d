import NativeAds
import NativeAdsRPC
import RedisClient
import UVTransport

/// One process's membership of a fleet (`--redis URL --fleet NAME`): its Redis connections,
/// its number, and the fleet's live-ad store and event log for its ``AdManager``.
///
/// ``join(log:completion:)`` first (the loop must run), then make the manager with ``store``
/// and ``eventLog`` and ``attach(_:)`` it. Loop-thread only.
public final class Fleet {
  public let name: String
  public let address: RedisAddress
  public let options: FleetOptions
  let keys: FleetKeys
  let redis: FleetRedis
  private let inboxConnection: any RedisCommandSender
  private var inbox: FleetInbox?
  private var retryTimer: LoopTimer?
  private let eventLoop: EventLoop
  /// This process's number in the fleet, once joined (0 before).
  public private(set) var process: UInt64 = 0
  public private(set) var store: RedisLiveAdStore?
  public private(set) var eventLog: RedisAdEventLog?
  /// The fleet's store changes, once joined (for the service's ``StoreReplica``).
  public private(set) var storeLog: (any StoreChangeLog)?

  public init(
    address: RedisAddress, name: String, redisOptions: RedisOptions = RedisOptions(),
    options: FleetOptions = FleetOptions(), eventLoop: EventLoop
  ) {
    self.name = name
    self.address = address
    self.options = options
    self.eventLoop = eventLoop
    keys = FleetKeys(fleet: name)
    // A cluster or a single server, whichever the address is (``RedisCluster`` finds out).
    redis = FleetRedis(
      connection: RedisCluster(seed: address, options: redisOptions, eventLoop: eventLoop))
    inboxConnection = RedisCluster(seed: address, options: redisOptions, eventLoop: eventLoop)
  }

  /// The first owner ID of this process's connections (``FleetOwners``).
  public var ownerBase: UInt64 { FleetOwners.base(ofProcess: process) }

  /// Loads the scripts, takes a process number and offers `startStore` (this process's
  /// start-up inventory, as the executable encodes it) as the fleet's, trying again every half
  /// second while Redis cannot be reached (each failure goes to `log`); then makes the store and
  /// the logs and calls `completion`, once, with the fleet's start-up inventory when it is not
  /// `startStore` (another process's was there first).
  public func join(
    startStore: [UInt8], log: @escaping (String) -> Void,
    completion: @escaping ([UInt8]?) -> Void
  ) {
    let retry = { [self] (unavailable: StoreUnavailable) in
      self.retry(unavailable, log: log) {
        self.join(startStore: startStore, log: log, completion: completion)
      }
    }
    redis.loadScripts { [self] loaded in
      switch loaded {
      case .failure(let unavailable): retry(unavailable)
      case .success:
        redis.run(.claimStore, keys: [keys.storeBase], arguments: [startStore]) { [self] claimed in
          switch claimed {
          case .failure(let unavailable): retry(unavailable)
          case .success(let existing):
            redis.command(["INCR", keys.processes]) { [self] numbered in
              switch numbered {
              case .failure(let unavailable): retry(unavailable)
              case .success(let reply):
                guard let number = reply.integer, number > 0,
                  UInt64(number) < (1 << (64 - FleetOwners.processShift))
                else {
                  return retry(StoreUnavailable(reason: "the process counter answered \(reply)"))
                }
                process = UInt64(number)
                store = RedisLiveAdStore(
                  redis: redis, keys: keys, process: process, options: options)
                eventLog = RedisAdEventLog(redis: redis, keys: keys, maxEvents: options.maxEvents)
                storeLog = RedisStoreChangeLog(redis: redis, keys: keys)
                if case .string(let bytes) = existing, bytes != startStore {
                  completion(bytes)
                } else {
                  completion(nil)
                }
              }
            }
          }
        }
      }
    }
  }

  private func retry(
    _ unavailable: StoreUnavailable, log: @escaping (String) -> Void,
    again: @escaping () -> Void
  ) {
    log("fleet \(name) on \(address): cannot join yet: \(unavailable.reason)")
    let timer = retryTimer ?? LoopTimer(eventLoop: eventLoop)
    retryTimer = timer
    timer.start(after: 500, again)
  }

  /// Starts delivering to `manager` what other processes record for its connections.
  public func attach(_ manager: AdManager, log: @escaping (String) -> Void) {
    let inbox = FleetInbox(
      connection: inboxConnection, key: keys.inbox(process), blockMs: options.inboxBlockMs,
      eventLoop: eventLoop)
    inbox.log = log
    inbox.start(delivering: manager)
    self.inbox = inbox
  }

  /// Closes both connections (the loop can then end).
  public func close() {
    retryTimer?.close()
    retryTimer = nil
    inbox?.close()
    inboxConnection.close()
    redis.connection.close()
  }
}
