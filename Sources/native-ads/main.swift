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
  let inventory: Inventory
  do {
    eventLoop = try EventLoop(limits: options.transport)
    inventory = try InventoryLoading.inventory(for: options)
  } catch {
    Log.line("native-ads: error: \(error)")
    return 1
  }
  let manager = AdManager(
    inventory: inventory, clock: SystemClock(), seed: options.seed,
    adLifetime: options.adLifetimeSeconds, maxEvents: options.maxEvents)
  manager.scheduler = LoopScheduler(eventLoop: eventLoop)
  manager.mediationDeadlineMs = options.mediationDeadlineMilliseconds
  let dispatcher = Dispatcher(limits: options.rpc)
  let service = NativeAdsService(manager: manager, dispatcher: dispatcher)
  let server = Server(
    eventLoop: eventLoop, dispatcher: dispatcher, service: service, options: options, log: log)
  do {
    try server.start()
  } catch {
    Log.line("native-ads: error: \(error)")
    eventLoop.closeAllHandles()
    return 1
  }
  eventLoop.run()
  eventLoop.closeAllHandles()
  return server.exitStatus
}
