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
do {
  let eventLoop = try EventLoop(limits: options.transport)
  let inventory: Inventory
  do {
    inventory = try InventoryLoading.inventory(for: options)
  } catch {
    Log.line("native-ads: error: \(error)")
    exit(1)
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
  try server.start()
  eventLoop.run()
  eventLoop.closeAllHandles()
  exit(server.exitStatus)
} catch {
  Log.line("native-ads: error: \(error)")
  exit(1)
}
