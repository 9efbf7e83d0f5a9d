import JSONRPC
import NativeAds
import NativeAdsRPC

#if canImport(Glibc)
  import Glibc
#endif

/// libFuzzer target: whole sessions. Bytes go into `RPCSession`s wired, as
/// `Sources/native-ads/Server.swift` wires them, to the real `NativeAdsService` and
/// `Dispatcher` over the built-in store, with a manual clock and mediation scheduler instead
/// of libuv; replies come out.
///
/// The input is the bytes three connections send, with control bytes between them (they cannot
/// occur in valid JSON text, so they never hide a valid request):
/// - `0x1E c`: what follows goes to connection `c % 3` (connection 0 at first); a run of bytes
///   between control bytes is one read;
/// - `0x1F t`: time passes, `t * 50` ms (mediation timeouts and deadlines fire);
/// - `0x1D c`: connection `c % 3` closes (the peer went away); later bytes for it are dropped;
/// - `0x1C`: the current connection's backpressure toggles: while on, the session is told to
///   stop after each message (it sets the rest aside) and reads wait; when it goes off, the
///   session resumes its set-aside input, then the waiting reads arrive.
/// At the end two minutes pass, every connection closes, and two more minutes pass.
///
/// Checks, per connection:
/// - nothing is written to a connection before it has sent a non-whitespace byte;
/// - the output is a sequence of well-formed frames in the connection's framing (NDJSON lines,
///   or `Content-Length: N` headers with exactly N bytes);
/// - every message is valid JSON (read by ``ReferenceJSON``) and valid JSON-RPC 2.0 from a
///   server: a response (`jsonrpc`, `id`, exactly one of `result` and `error`; an error has an
///   integer `code` and a string `message`), a batch of responses (non-empty), a notification
///   (`jsonrpc`, `method`, object `params`) or a request of the server's (id `"native-ads:N"`);
///   no member twice;
/// - a response's id is `null` or, byte for byte, the id of a request the connection sent;
/// and for the whole run:
/// - when every connection has closed no ad is live, no adapter but the built-in ones is
///   registered, and no mediation timer is pending;
/// - the same input fed one byte per read produces the same output on every connection;
/// - the same input with the dispatcher's fast layer off (``CanonicalEnvelope``: every message
///   parsed whole) produces the same output on every connection.
@_cdecl("LLVMFuzzerTestOneInput")
public func sessionFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let script = SessionScript(bytes)
  let inventory = SessionWorld.inventory(for: bytes)
  let first = SessionWorld(inventory: inventory()).play(script, byteByByte: false)
  if getenv("FUZZ_SESSION_DUMP") != nil {
    // For reading what an input does: `FUZZ_SESSION_DUMP=1 session INPUT`.
    for (n, connection) in first.enumerated() where !connection.output.isEmpty {
      print("--- connection \(n) (\(connection.framing.map { "\($0)" } ?? "no framing")):")
      print(String(decoding: connection.output, as: UTF8.self))
    }
  }
  for (n, connection) in first.enumerated() { checkOutput(connection, connection: n) }
  let second = SessionWorld(inventory: inventory()).play(script, byteByByte: true)
  for n in first.indices {
    fuzzCheck(
      first[n].output == second[n].output,
      "connection \(n): fed byte by byte it got \(second[n].output.debugText), whole reads \(first[n].output.debugText)"
    )
  }
  let general = SessionWorld(inventory: inventory())
  general.dispatcher.readsCanonicalEnvelopes = false
  let third = general.play(script, byteByByte: false)
  for n in first.indices {
    fuzzCheck(
      first[n].output == third[n].output,
      "connection \(n): with every message parsed whole it got \(third[n].output.debugText), with the fast layer \(first[n].output.debugText)"
    )
  }
  return 0
}

/// The fuzz input decoded into steps.
struct SessionScript {
  enum Step {
    case send(connection: Int, bytes: [UInt8])
    case advance(milliseconds: UInt64)
    case close(connection: Int)
    case toggleBackpressure(connection: Int)
  }

  var steps: [Step] = []

  init(_ bytes: [UInt8]) {
    var current = 0
    var run: [UInt8] = []
    func flush(_ steps: inout [Step]) {
      if !run.isEmpty { steps.append(.send(connection: current, bytes: run)) }
      run = []
    }
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      let argument = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0
      switch b {
      case 0x1E:
        flush(&steps)
        current = argument % 3
        i += 2
      case 0x1F:
        flush(&steps)
        steps.append(.advance(milliseconds: UInt64(argument) * 50))
        i += 2
      case 0x1D:
        flush(&steps)
        steps.append(.close(connection: argument % 3))
        i += 2
      case 0x1C:
        flush(&steps)
        steps.append(.toggleBackpressure(connection: current))
        i += 1
      default:
        run.append(b)
        i += 1
      }
    }
    flush(&steps)
  }
}

/// What one connection sent and received.
struct ConnectionRecord {
  var input: [UInt8] = []
  var output: [UInt8] = []
  var framing: Framing?
  /// Output written before the connection had sent a non-whitespace byte.
  var outputBeforeInput = false
}

/// The service with three connections, as the server wires them, minus the sockets.
final class SessionWorld {
  static let limits = RPCLimits(maxMessageBytes: 8192, maxDepth: 32, maxBatch: 20)

  let clock = ManualClock()
  let scheduler: ManualScheduler
  let manager: AdManager
  let dispatcher = Dispatcher(limits: SessionWorld.limits)
  let service: NativeAdsService
  var sessions: [RPCSession] = []
  var records = [ConnectionRecord](repeating: ConnectionRecord(), count: 3)
  var paused = [Bool](repeating: false, count: 3)
  /// Reads held while a connection is paused, delivered when it resumes.
  var heldReads = [[[UInt8]]](repeating: [], count: 3)

  /// The built-in inventory, read once: an input that cannot change the store shares it. (A
  /// global initialised once, by `swift_once`: the leak checker's suppressions name those.)
  /// The store's creatives are unpacked here, in the global's initializer, rather than by the
  /// first input that loads each: what is unpacked lives as long as the process (like the
  /// global), and LeakSanitizer, which cannot follow Swift's tagged enum payload pointers,
  /// would report it as leaked by that input unless it is made under `swift_once` (see
  /// Fuzz/sanitizers/lsan.supp).
  nonisolated(unsafe) private static let sharedInventory: Inventory = {
    let inventory = StoreLoader.builtInInventory()
    for creative in inventory.creatives.values { _ = creative.allImages }
    return inventory
  }()

  /// Where each world of one input gets its inventory. Reading the built-in store costs more
  /// than most inputs, so inputs share one unless they might call a `store.*` method: only
  /// those can change it, and their method name holds `store` or is escaped (`\`).
  static func inventory(for input: [UInt8]) -> () -> Inventory {
    let mightChangeStore =
      input.contains(UInt8(ascii: "\\"))
      || input.indices.contains { input[$0...].starts(with: "store".utf8) }
    if mightChangeStore { return { StoreLoader.builtInInventory() } }
    let shared = sharedInventory
    return { shared }
  }

  init(inventory: Inventory) {
    scheduler = ManualScheduler(clock: clock)
    manager = AdManager(inventory: inventory, clock: clock, seed: 1, maxEvents: 1000)
    manager.scheduler = scheduler
    service = NativeAdsService(manager: manager, dispatcher: dispatcher)
    for n in 0..<3 {
      let session = RPCSession(id: UInt64(n + 1), dispatcher: dispatcher)
      session.outputFlushThreshold = 512
      session.onOutput = { [unowned self] s in collect(n, s) }
      session.canContinue = { [unowned self] in !paused[n] }
      service.attach(session)
      sessions.append(session)
    }
  }

  /// Runs `script`; returns each connection's record.
  func play(_ script: SessionScript, byteByByte: Bool) -> [ConnectionRecord] {
    for step in script.steps {
      switch step {
      case .send(let n, let bytes):
        guard !sessions[n].isClosed else { continue }
        records[n].input += bytes
        if paused[n] {
          heldReads[n].append(bytes)
        } else if byteByByte {
          for b in bytes { read(n, [b]) }
        } else {
          read(n, bytes)
        }
      case .advance(let ms):
        scheduler.advance(by: ms)
      case .close(let n):
        sessions[n].close()
      case .toggleBackpressure(let n):
        paused[n].toggle()
        if !paused[n] { resume(n) }
      }
    }
    scheduler.advance(by: 120_000)
    for n in 0..<3 {
      paused[n] = false
      resume(n)
    }
    for session in sessions { session.close() }
    scheduler.advance(by: 120_000)
    for n in 0..<3 { collect(n, sessions[n]) }
    fuzzCheck(manager.store.ads.isEmpty, "\(manager.store.ads.count) ads outlive every connection")
    fuzzCheck(
      manager.adapters.classNames.allSatisfy(manager.adapters.isBuiltIn),
      "adapters outlive their connections: \(manager.adapters.classNames)")
    fuzzCheck(scheduler.pendingCount == 0, "\(scheduler.pendingCount) timers outlive every load")
    for n in 0..<3 { records[n].framing = sessions[n].framing }
    return records
  }

  private func read(_ n: Int, _ bytes: [UInt8]) {
    let session = sessions[n]
    guard !session.isClosed else { return }
    bytes.withUnsafeBytes { session.receive($0) }
    afterRead(n)
  }

  /// What the server does when a connection drains: resume set-aside input, flush, then the
  /// reads that waited.
  private func resume(_ n: Int) {
    let session = sessions[n]
    guard !session.isClosed else { return }
    session.resumeInput()
    afterRead(n)
    let held = heldReads[n]
    heldReads[n] = []
    for bytes in held { read(n, bytes) }
  }

  /// The server's flush: take the output; a session that should close (a broken stream, or
  /// `exit` on a socket connection, which these three play) closes once it is out.
  private func afterRead(_ n: Int) {
    let session = sessions[n]
    collect(n, session)
    if session.shouldClose || session.exitRequested { session.close() }
  }

  private func collect(_ n: Int, _ session: RPCSession) {
    let out = session.takeOutput()
    guard !out.isEmpty else { return }
    if !records[n].input.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
      records[n].outputBeforeInput = true
    }
    records[n].output += out
  }
}
