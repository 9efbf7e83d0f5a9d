import Fleet
import JSONRPC
import NativeAdsRPC
import RedisClient
import UVTransport

/// The command line. Every limit of the service is a flag.
struct Options {
  var stdio = false
  var tcp: (host: String, port: Int)?
  /// `--http HOST:PORT`: HTTP/1.1 (`POST /rpc`, a WebSocket at `GET /rpc`, the inspector).
  var http: (host: String, port: Int)?
  /// `--allow-origin ORIGIN` (repeatable): origins besides the server's own allowed over HTTP.
  var allowedOrigins: [String] = []
  /// `--max-header-bytes N`: an HTTP request's line and headers.
  var maxHeaderBytes = 16 * 1024
  /// `--unix PATH`: a Unix domain socket to listen on.
  var unix: String?
  /// `--parent-pid PID`: exit when that process ends.
  var parentPID: Int32?
  var logLevel: LogLevel = .info
  var rpc = RPCLimits()
  var transport = TransportLimits()
  var maxConnections = 1024
  var maxPendingRefusals = 256
  var seed: UInt64?
  var adLifetimeSeconds: Double = 3600
  var shutdownTimeoutMilliseconds: UInt64 = 5000
  var storeFile: String?
  var withBuiltIn = false
  /// `--max-store-item-bytes N`: the largest item of a store file.
  var maxStoreItemBytes = StoreLoadOptions.defaultMaximumItemBytes
  var maxEvents = 100_000
  /// `--max-response-assets N`: the most assets an ad response string may hold.
  var maxResponseAssets = NativeAdsService.defaultMaxResponseAssets
  /// `--max-ad-trackers N`: the most trackers one OpenRTB ad may carry.
  var maxAdTrackers = NativeAdsService.defaultMaxAdTrackers
  /// `--max-response-pixels N`: the most pixels an ad response string's images may have.
  var maxResponsePixels = NativeAdsService.defaultMaxResponsePixels
  /// `--max-auction-imps N`: the most impressions a bid request to the mock bidder may hold.
  var maxAuctionImps = OpenRTBBidder.Limits.defaultMaximumImpressions
  var mediationDeadlineMilliseconds: UInt64 = 10_000
  /// `--write-schemas DIR`: write the generated `schemas/` files and exit.
  var writeSchemasTo: String?
  /// `--redis URL`: join a fleet on that Redis.
  var redis: RedisAddress?
  /// `--fleet NAME`.
  var fleet = "default"
  var redisOptions = RedisOptions()
  var fleetOptions = FleetOptions()

  static let version = "native-ads 0.1.0 (wire contract 1)"

  static let usage = """
    native-ads: Google Mobile Ads native ads as a JSON-RPC 2.0 service.

    USAGE: native-ads [--stdio] [--tcp HOST:PORT] [--unix PATH] [--http HOST:PORT] [options]

    With none of --stdio, --tcp, --unix and --http, serves stdio. Several together serve each.

    TRANSPORTS:
      --stdio                    Serve JSON-RPC on stdin/stdout. EOF on stdin: flush, exit 0
                                 (or just close stdio when TCP is also served).
      --tcp HOST:PORT            Listen on HOST:PORT (IPv4, or IPv6 as [::1]:PORT; a bare
                                 PORT binds 127.0.0.1). Port 0 picks a free port; the server
                                 prints `listening on HOST:PORT` on stderr.
      --unix PATH                Listen on the Unix domain socket PATH, as TCP (both framings,
                                 many clients). The socket file is created with mode 0600 and
                                 removed at exit; stderr says `listening on unix:PATH`.
      --http HOST:PORT           Serve HTTP/1.1 on HOST:PORT (loopback unless told otherwise;
                                 stderr says `listening on http://HOST:PORT`): `POST /rpc`
                                 (one message or batch a body), a WebSocket at `GET /rpc`, and
                                 the inspector page at `GET /`.
      --allow-origin ORIGIN      Also accept requests from web pages of ORIGIN (for example
                                 http://localhost:3000); the server's own is always accepted.
                                 Repeatable.

    LIMITS:
      --max-message-bytes N      Largest message accepted (default 16777216).
      --max-depth N              Deepest JSON nesting accepted (default 128, at most 4096).
      --max-batch N              Most requests in one batch (default 1000).
      --max-unanswered N         Most requests of one connection waiting for their replies
                                 at once (on Redis, a waterfall; default 128): past it the
                                 connection is not read until some are answered.
      --max-connections N        Most TCP, Unix socket and HTTP connections at once (default
                                 1024).
      --max-header-bytes N       Largest HTTP request line and headers (default 16384, at most
                                 81920).
      --max-pending-refusals N   Connections over --max-connections kept until they send
                                 something, to be answered -32002 (default 256); beyond
                                 this many, further ones are closed at once without a reply.
      --write-high-water BYTES   Stop reading a connection with this many unsent bytes
                                 (default 1048576).
      --write-low-water BYTES    Resume reading below this (default 262144).
      --max-queued-bytes BYTES   Close a connection with this many unsent bytes
                                 (default 67108864).
      --shutdown-timeout-ms N    On SIGINT/SIGTERM, wait this long for replies to drain
                                 before closing connections anyway (default 5000).

    INVENTORY:
      --store FILE               Serve the inventory in FILE (schemas/store.schema.json)
                                 instead of the built-in test ad units.
      --with-builtin             With --store: serve the built-in units too.
      --max-store-item-bytes N   Largest item (format, creative, ad unit) of a store file
                                 (default 16777216); the file is read in chunks, one item
                                 at a time.
      --max-events N             Events kept in the log for getEvents (default 100000).
      --max-response-assets N    Most assets an ad response string (loadAd adResponseString)
                                 may hold, every bid's together, and a native request
                                 may ask for (default 32); ext.extraAssets entries count.
      --max-ad-trackers N        Most trackers (imptrackers, eventtrackers and clicktrackers
                                 together) one OpenRTB ad may carry: a response string's
                                 bid, or a store creative written in openrtb (default 64).
      --max-response-pixels N    Most pixels (width x height, summed) the drawn images of an
                                 ad response string may have (default 16777216).
      --max-auction-imps N       Most impressions of a bid request to POST /openrtb2/auction
                                 (default 64).
      --mediation-deadline-ms N  Longest a waterfall load may take (default 10000); units
                                 may set their own (deadlineMs).

    FLEET (docs/fleet.md):
      --redis URL                Share the live ads and the event log with every process
                                 started with the same Redis and --fleet: URL is
                                 redis://[[USER]:PASSWORD@]HOST:PORT[/DB] or unix:PATH.
                                 Serving starts once the fleet is joined.
      --fleet NAME               The fleet to join (default "default").
      --redis-timeout-ms N       Longest wait for a Redis reply, or to connect (default 2000):
                                 past it, calls that need Redis answer -32003 and the
                                 connection is made again.
      --fleet-expired-ad-ttl-s N How long an expired ad stays in Redis, answering reads and
                                 saying expired (default 3600).

    LIFECYCLE:
      --parent-pid PID           Exit (status 0, replies in flight flushed) within a second of
                                 process PID ending, so that an editor that dies leaves no
                                 server behind.
      The shutdown request and the exit notification work as in LSP: exit on stdio ends the
      process (status 0 after shutdown, 1 without); elsewhere it closes that connection.

    BEHAVIOUR:
      --seed N                   Seed for response identifiers and ad IDs (default: time).
      --ad-lifetime SECONDS      How long a loaded ad stays valid (default 3600).
      --log-level LEVEL          error, warn, info (default) or debug. Logs go to stderr.

      --write-schemas DIR        Write the generated schemas (OpenRPC document, ad formats,
                                 store) into DIR and exit.
      --help                     Show this help.
      --version                  Show the version.
    """

  enum Outcome {
    case run(Options)
    case exit(String)
  }

  struct UsageError: Error { var message: String }

  static func parse(_ args: [String]) throws(UsageError) -> Outcome {
    var o = Options()
    var i = 0
    func value(_ flag: String) throws(UsageError) -> String {
      i += 1
      guard i < args.count else { throw UsageError(message: "\(flag) needs a value") }
      return args[i]
    }
    func positive(_ flag: String) throws(UsageError) -> Int {
      let text = try value(flag)
      guard let n = Int(text), n > 0 else {
        throw UsageError(message: "\(flag) must be a positive integer, got \"\(text)\"")
      }
      return n
    }
    while i < args.count {
      var arg = args[i]
      // Accept --flag=value as well as --flag value.
      if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
        var rest = args
        rest.replaceSubrange(
          i...i, with: [String(arg[..<eq]), String(arg[arg.index(after: eq)...])])
        return try parse(rest)
      }
      switch arg {
      case "--help", "-h": return .exit(usage)
      case "--version", "-V": return .exit(version)
      case "--stdio": o.stdio = true
      case "--tcp": o.tcp = try parseAddress(try value(arg), flag: arg)
      case "--http": o.http = try parseAddress(try value(arg), flag: arg)
      case "--allow-origin":
        let origin = try value(arg)
        guard origin.hasPrefix("http://") || origin.hasPrefix("https://"), origin.count > 8 else {
          throw UsageError(
            message:
              "--allow-origin expects an origin like http://localhost:3000, got \"\(origin)\"")
        }
        o.allowedOrigins.append(origin)
      case "--max-header-bytes":
        let n = try positive(arg)
        guard n <= 80 * 1024 else {
          throw UsageError(
            message: "--max-header-bytes is at most 81920 (the HTTP parser's own cap)")
        }
        o.maxHeaderBytes = n
      case "--unix":
        let path = try value(arg)
        guard !path.isEmpty else { throw UsageError(message: "--unix needs a socket path") }
        // sockaddr_un.sun_path holds 108 bytes with the terminating NUL.
        guard path.utf8.count < 108 else {
          throw UsageError(
            message: "--unix \"\(path)\": the path is \(path.utf8.count) bytes, at most 107 fit")
        }
        o.unix = path
      case "--parent-pid":
        let text = try value(arg)
        guard let pid = Int32(text), pid > 0 else {
          throw UsageError(
            message: "--parent-pid must be a process ID (a positive integer), got \"\(text)\"")
        }
        o.parentPID = pid
      case "--log-level":
        let text = try value(arg)
        guard let level = LogLevel(name: text) else {
          throw UsageError(
            message: "--log-level must be error, warn, info or debug, got \"\(text)\"")
        }
        o.logLevel = level
      case "--max-message-bytes": o.rpc.maxMessageBytes = try positive(arg)
      case "--max-depth":
        o.rpc.maxDepth = try positive(arg)
        guard o.rpc.maxDepth <= RPCLimits.maximumDepth else {
          throw UsageError(
            message: "--max-depth must be at most \(RPCLimits.maximumDepth), got \(o.rpc.maxDepth)")
        }
      case "--max-batch": o.rpc.maxBatch = try positive(arg)
      case "--max-unanswered": o.rpc.maxUnanswered = try positive(arg)
      case "--max-connections": o.maxConnections = try positive(arg)
      case "--max-pending-refusals": o.maxPendingRefusals = try positive(arg)
      case "--write-high-water": o.transport.writeHighWater = try positive(arg)
      case "--write-low-water": o.transport.writeLowWater = try positive(arg)
      case "--max-queued-bytes": o.transport.maxQueuedBytes = try positive(arg)
      case "--shutdown-timeout-ms": o.shutdownTimeoutMilliseconds = UInt64(try positive(arg))
      case "--ad-lifetime": o.adLifetimeSeconds = Double(try positive(arg))
      case "--store": o.storeFile = try value(arg)
      case "--with-builtin": o.withBuiltIn = true
      case "--max-store-item-bytes": o.maxStoreItemBytes = try positive(arg)
      case "--max-response-assets": o.maxResponseAssets = try positive(arg)
      case "--max-ad-trackers": o.maxAdTrackers = try positive(arg)
      case "--max-response-pixels": o.maxResponsePixels = try positive(arg)
      case "--max-auction-imps": o.maxAuctionImps = try positive(arg)
      case "--write-schemas": o.writeSchemasTo = try value(arg)
      case "--max-events":
        o.maxEvents = try positive(arg)
        o.fleetOptions.maxEvents = o.maxEvents
      case "--redis":
        let text = try value(arg)
        do {
          o.redis = try RedisAddress(parsing: text)
        } catch {
          throw UsageError(message: "--redis: \(error)")
        }
      case "--fleet":
        let name = try value(arg)
        guard !name.isEmpty, !name.contains(where: { "{}: ".contains($0) || $0.isNewline }) else {
          throw UsageError(
            message: "--fleet must be a non-empty name without {, }, : or spaces, got \"\(name)\"")
        }
        o.fleet = name
      case "--redis-timeout-ms":
        let ms = UInt64(try positive(arg))
        o.redisOptions.commandTimeoutMs = ms
        o.redisOptions.connectTimeoutMs = ms
      case "--fleet-expired-ad-ttl-s":
        o.fleetOptions.expiredAdTTLSeconds = Double(try positive(arg))
      case "--mediation-deadline-ms": o.mediationDeadlineMilliseconds = UInt64(try positive(arg))
      case "--seed":
        let text = try value(arg)
        guard let s = UInt64(text) else {
          throw UsageError(message: "--seed must be a non-negative integer, got \"\(text)\"")
        }
        o.seed = s
      default:
        arg = arg.isEmpty ? "\"\"" : arg
        throw UsageError(message: "unknown option \(arg) (see --help)")
      }
      i += 1
    }
    if !o.stdio && o.tcp == nil && o.unix == nil && o.http == nil { o.stdio = true }
    if o.withBuiltIn && o.storeFile == nil {
      throw UsageError(message: "--with-builtin needs --store FILE")
    }
    guard o.transport.writeLowWater < o.transport.writeHighWater else {
      throw UsageError(message: "--write-low-water must be below --write-high-water")
    }
    guard o.transport.writeHighWater < o.transport.maxQueuedBytes else {
      throw UsageError(message: "--write-high-water must be below --max-queued-bytes")
    }
    return .run(o)
  }

  /// `HOST:PORT`, `[IPv6]:PORT`, `:PORT` or `PORT`; `localhost` and an empty host mean
  /// 127.0.0.1 (the server binds loopback unless told otherwise).
  static func parseAddress(_ text: String, flag: String = "--tcp") throws(UsageError) -> (
    host: String, port: Int
  ) {
    var host: Substring
    var portText: Substring
    if !text.isEmpty, text.allSatisfy(\.isNumber) {
      host = ""
      portText = Substring(text)
    } else if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
      host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.hasPrefix(":") else {
        throw UsageError(message: "\(flag) expects HOST:PORT or [IPv6]:PORT, got \"\(text)\"")
      }
      portText = rest.dropFirst()
    } else if let colon = text.lastIndex(of: ":") {
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
    } else {
      throw UsageError(message: "\(flag) expects HOST:PORT, got \"\(text)\"")
    }
    if host.isEmpty || host == "localhost" { host = "127.0.0.1" }
    guard let port = Int(portText), (0...65535).contains(port) else {
      throw UsageError(message: "\(flag) \"\(text)\": the port must be 0 to 65535")
    }
    return (String(host), port)
  }
}
