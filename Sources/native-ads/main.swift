import Fleet
import Glibc
import JSONRPC
import NativeAds
import NativeAdsRPC
import UVTransport

let options: Options
do {
  switch try Options.parse(Array(CommandLine.arguments.dropFirst())) {
  case .exit(let text):
    print(text)
    exit(0)
  case .run(let parsed):
    options = parsed
  }
} catch {
  Log.line("native-ads: error: \(error.message)")
  exit(2)
}

let log = Log(level: options.logLevel)
if let directory = options.writeSchemasTo {
  exit(SchemaWriter.write(to: directory) ? 0 : 1)
}
exit(serve(options, log: log))

/// Builds the service, serves until the loop ends, and returns the exit status. Everything it
/// builds is released before it returns (the loop's handles closed, then the objects freed), so
/// that the process exits with nothing of the service alive and a leak checker at exit sees only
/// what was really lost.
func serve(_ options: Options, log: Log) -> Int32 {
  let eventLoop: EventLoop
  var inventory: Inventory
  do {
    eventLoop = try EventLoop(limits: options.transport)
    inventory = try InventoryLoading.inventory(for: options)
  } catch {
    Log.line("native-ads: error: \(error)")
    return 1
  }
  var status: Int32 = 0
  var server: Server?
  /// This process's `--max-ad-trackers`, or the fleet's when it joins one started otherwise.
  var maxAdTrackers = options.maxAdTrackers
  /// Builds the service on `store` and `eventLog` (the fleet's, or this process's) and starts
  /// the transports; nil (and `status` 1) when they cannot start.
  func start(
    store: (any LiveAdStore)?, eventLog: (any AdEventLog)?, sessionIDBase: UInt64,
    adIDScope: String = "", replica: StoreReplica? = nil
  ) -> (Server, AdManager)? {
    let manager = AdManager(
      inventory: inventory, clock: SystemClock(), seed: options.seed,
      adLifetime: options.adLifetimeSeconds, maxEvents: options.maxEvents,
      store: store ?? InMemoryLiveAdStore(), eventLog: eventLog, adIDScope: adIDScope)
    manager.scheduler = LoopScheduler(eventLoop: eventLoop)
    manager.mediationDeadlineMs = options.mediationDeadlineMilliseconds
    let dispatcher = Dispatcher(limits: options.rpc)
    let service = NativeAdsService(manager: manager, dispatcher: dispatcher)
    service.replica = replica
    service.maxResponseAssets = options.maxResponseAssets
    service.maxAdTrackers = maxAdTrackers
    service.maxResponsePixels = options.maxResponsePixels
    let started = Server(
      eventLoop: eventLoop, dispatcher: dispatcher, service: service, options: options, log: log,
      sessionIDBase: sessionIDBase)
    do {
      try started.start()
    } catch {
      Log.line("native-ads: error: \(error)")
      status = 1
      return nil
    }
    server = started
    return (started, manager)
  }

  if let address = options.redis {
    let startStore: [UInt8]
    do {
      startStore = try InventoryLoading.fleetStartStore(for: options)
    } catch {
      Log.line("native-ads: error: \(error)")
      return 1
    }
    let fleet = Fleet(
      address: address, name: options.fleet, redisOptions: options.redisOptions,
      options: options.fleetOptions, eventLoop: eventLoop)
    log.info("fleet \(options.fleet): joining on \(address)")
    // Until the fleet is joined (Redis may be down), a signal stops the wait.
    var waiting: [SignalWatcher] = []
    func stopWaiting() {
      for watcher in waiting { watcher.close() }
      waiting.removeAll()
    }
    for signum in [SIGINT, SIGTERM] {
      if let watcher = try? SignalWatcher(
        eventLoop: eventLoop, signal: signum,
        { s in
          log.info("signal \(s) before the fleet was joined: stopping")
          stopWaiting()
          fleet.close()
        })
      {
        waiting.append(watcher)
      }
    }
    fleet.join(startStore: startStore, log: { log.warn($0) }) { fleetStore in
      stopWaiting()
      log.info("fleet \(options.fleet): joined as process \(fleet.process)")
      if let fleetStore {
        // Another process started the fleet with another inventory: serve the fleet's.
        do {
          let fleets = try InventoryLoading.inventory(fromFleet: fleetStore, options: options)
          inventory = fleets.inventory
          if fleets.maxAdTrackers != maxAdTrackers {
            log.warn(
              "fleet \(options.fleet): --max-ad-trackers \(fleets.maxAdTrackers), the fleet's"
                + " (this process was given \(maxAdTrackers))")
            maxAdTrackers = fleets.maxAdTrackers
          }
          log.info("fleet \(options.fleet): serving the fleet's start-up inventory")
        } catch {
          Log.line("native-ads: error: \(error)")
          status = 1
          return fleet.close()
        }
      }
      guard let storeLog = fleet.storeLog,
        let (started, manager) = start(
          store: fleet.store, eventLog: fleet.eventLog, sessionIDBase: fleet.ownerBase,
          adIDScope: "p\(fleet.process)-", replica: StoreReplica(log: storeLog))
      else { return fleet.close() }
      fleet.attach(manager) { log.warn($0) }
      started.onFinish = { fleet.close() }
    }
  } else if start(store: nil, eventLog: nil, sessionIDBase: 0) == nil {
    eventLoop.closeAllHandles()
    return status
  }
  eventLoop.run()
  eventLoop.closeAllHandles()
  return server?.exitStatus ?? status
}
