import NativeAds
import RedisClient
import UVTransport

/// This process's inbox: what other processes recorded for its connections (events on the
/// ads they loaded, clicks for the custom click handlers they set, notices for the adapters of
/// mediated ads they loaded), read with blocking `XREAD`s on a connection of its own and
/// handed to the domain as if recorded here.
///
/// Loop-thread only.
final class FleetInbox {
  private let connection: any RedisCommandSender
  private let key: String
  private let blockMs: UInt64
  private weak var manager: AdManager?
  /// The ID of the last entry handed on.
  private var lastID = "0-0"
  private var reading = false
  private var closed = false
  /// Entries that did not read (written by another version of the service), for the logs.
  private(set) var unreadable = 0
  var log: ((String) -> Void)?

  private let retryTimer: LoopTimer

  init(
    connection: any RedisCommandSender, key: String, blockMs: UInt64, eventLoop: EventLoop
  ) {
    self.connection = connection
    retryTimer = LoopTimer(eventLoop: eventLoop, keepsLoopAlive: false)
    self.key = key
    self.blockMs = blockMs
    connection.onConnected = { [unowned self] in if !reading { read() } }
  }

  func start(delivering manager: AdManager) {
    self.manager = manager
    read()
  }

  func close() {
    closed = true
    retryTimer.close()
    connection.close()
  }

  private func read() {
    guard !closed, connection.isUsable else { return }
    reading = true
    connection.send(
      "XREAD", "COUNT", "512", "BLOCK", String(blockMs), "STREAMS", key, lastID,
      timeoutMs: blockMs + connection.options.commandTimeoutMs
    ) { [self] result in
      reading = false
      guard !closed else { return }
      switch result {
      case .success(.null):
        read()
      case .success(let reply):
        deliver(reply)
        read()
      case .failure:
        // The connection is being made again, and onConnected reads on; if it is up already,
        // the next read goes a moment later (never from inside this completion).
        if connection.isUsable { retryTimer.start(after: 100) { [self] in read() } }
      }
    }
  }

  /// `[[key, [[id, [field, value...]]...]]]`.
  private func deliver(_ reply: RedisReply) {
    for stream in reply.elements ?? [] {
      guard let parts = stream.elements, parts.count == 2 else { continue }
      for entry in parts[1].elements ?? [] {
        guard let item = entry.elements, item.count == 2, let id = item[0].text else { continue }
        lastID = id
        do throws(SnapshotError) {
          try handle(fields(item[1]))
        } catch {
          unreadable += 1
          log?("fleet inbox entry \(id) does not read: \(error)")
        }
      }
    }
  }

  private func fields(_ reply: RedisReply) -> [String: [UInt8]] {
    var out: [String: [UInt8]] = [:]
    let list = reply.elements ?? []
    var i = 0
    while i + 1 < list.count {
      if let name = list[i].text, case .string(let value) = list[i + 1] { out[name] = value }
      i += 2
    }
    return out
  }

  private func handle(_ fields: [String: [UInt8]]) throws(SnapshotError) {
    guard let manager, let kind = fields["k"].map({ String(decoding: $0, as: UTF8.self) }),
      let body = fields["e"]
    else { return }
    let r = try SnapshotReader(parsing: body, path: "inbox \(kind)")
    switch kind {
    case "event":
      guard let text = fields["s"], let sequence = Int(String(decoding: text, as: UTF8.self))
      else { throw r.fail("has no sequence") }
      var event = try FleetOutbox.event(r, sequence: sequence)
      if let stamp = fields["t"].flatMap({ Double(String(decoding: $0, as: UTF8.self)) }) {
        event.time = stamp
      }
      manager.eventStream.deliver(event)
    case "customClick":
      manager.eventStream.publishCustomClick(
        on: try r("adId").string, assetID: try r("assetID").string, for: try r("owner").uint64)
    case "adapter":
      manager.deliver(try FleetOutbox.notice(try r("notice")), toAdapterOf: try r("adId").string)
    default:
      throw r.fail("is of an unknown kind")
    }
  }
}
