import JSONRPC
import NativeAds
import NativeAdsRPC
import Testing

/// The built-in ad units and format.
enum Units {
  static let direct = "/21775744923/example/native"
  static let backfill = "/21775744923/example/native-backfill"
  static let adMob = "ca-app-pub-3940256099942544/3986624511"
  static let customFormat = "10063170"
  static let video = "/21775744923/example/native-video"
  static let videoFormat = "12406343"
}

/// A service over the built-in inventory with a manual clock, and clients (sessions) on it.
final class ServiceHarness {
  let clock = ManualClock()
  let manager: AdManager
  let dispatcher = Dispatcher()
  let service: NativeAdsService
  private var nextSessionID: UInt64 = 1
  /// The connections made, closed when the harness goes (a session and the service hold each
  /// other until the session closes, as the server closes it when its connection closes).
  private var sessions: [RPCSession] = []

  /// `adLifetime` and `maxEvents` are `--ad-lifetime` and `--max-events` (defaults 3600 and
  /// 100000, as in the service).
  init(adLifetime: Double = 3600, maxEvents: Int = 100_000) {
    manager = AdManager(
      inventory: StoreLoader.builtInInventory(), clock: clock, seed: 42, adLifetime: adLifetime,
      maxEvents: maxEvents)
    service = NativeAdsService(manager: manager, dispatcher: dispatcher)
  }

  /// A new connection, attached to the service.
  func connect() -> Client {
    let session = RPCSession(id: nextSessionID, dispatcher: dispatcher)
    nextSessionID += 1
    service.attach(session)
    sessions.append(session)
    return Client(session)
  }

  deinit {
    for session in sessions { session.close() }
  }
}

/// One connection speaking NDJSON.
final class Client {
  let session: RPCSession
  /// Notifications received and not yet taken with ``takeNotifications()``.
  private var notifications: [JSONValue] = []
  private var nextID = 1

  init(_ session: RPCSession) {
    self.session = session
  }

  /// Sends `line` and returns every message written back (replies and notifications).
  func send(_ line: String) throws -> [JSONValue] {
    session.receive(line + "\n")
    return try drain()
  }

  /// Sends a request and returns its reply; notifications that arrive meanwhile are kept for
  /// ``takeNotifications()``.
  func call(_ method: String, _ params: String? = nil) throws -> JSONValue {
    let id = nextID
    nextID += 1
    let paramsMember = params.map { #","params":\#($0)"# } ?? ""
    let messages = try send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"\#(paramsMember)}"#)
    let replies = messages.filter { $0["id"] != nil }
    notifications += messages.filter { $0["id"] == nil }
    try #require(replies.count == 1, "expected one reply to \(method), got \(messages)")
    #expect(replies[0]["id"] == .number(String(id)))
    #expect(replies[0]["jsonrpc"] == .string("2.0"))
    return replies[0]
  }

  /// The `result` of a call that must succeed.
  func result(_ method: String, _ params: String? = nil) throws -> JSONValue {
    let reply = try call(method, params)
    #expect(reply["error"] == nil, "\(method) failed: \(reply["error"].map(\.jsonText) ?? "")")
    return try #require(reply["result"])
  }

  /// The `error` of a call that must fail.
  func error(_ method: String, _ params: String? = nil) throws -> JSONValue {
    let reply = try call(method, params)
    #expect(reply["result"] == nil)
    return try #require(reply["error"])
  }

  /// Notifications received so far (including ones caused by other connections), oldest first.
  func takeNotifications() throws -> [JSONValue] {
    notifications += try drain()
    defer { notifications = [] }
    return notifications
  }

  /// Loads ads and returns the result.
  func load(_ params: String) throws -> JSONValue {
    try result("loadAd", params)
  }

  /// Loads one ad from `unit` and returns its ID.
  func loadAdID(
    unit: String = Units.direct, extra: String = ""
  ) throws -> String {
    let result = try load(#"{"adUnitID":"\#(unit)"\#(extra)}"#)
    return try #require(result["ads"]?[0]?["adId"]?.text)
  }

  /// Loads the custom native ad of the direct unit and returns its ID.
  func loadCustomAdID() throws -> String {
    try loadAdID(
      extra: #","adTypes":["customNative"],"customNativeAdFormatIDs":["\#(Units.customFormat)"]"#)
  }

  private func drain() throws -> [JSONValue] {
    let text = String(decoding: session.takeOutput(), as: UTF8.self)
    #expect(text.isEmpty || text.hasSuffix("\n"))
    let parser = JSONParser()
    return try text.split(separator: "\n").map { try parser.parseValue(String($0)) }
  }
}

extension RPCSession {
  /// Feeds `text` as one chunk.
  func receive(_ text: String) {
    Array(text.utf8).withUnsafeBytes { receive($0) }
  }
}

extension JSONValue {
  /// The element at `index` of an array value.
  subscript(index: Int) -> JSONValue? {
    guard case .array(let items) = self, items.indices.contains(index) else { return nil }
    return items[index]
  }

  /// The elements of an array value.
  var items: [JSONValue]? {
    if case .array(let items) = self { return items }
    return nil
  }

  /// The member names of an object value, in order.
  var keys: [String]? {
    if case .object(let members) = self { return members.map(\.0) }
    return nil
  }

  /// The text of a string value.
  var text: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// A number value as an `Int` (only when written as an integer).
  var integer: Int? {
    if case .number(let n) = self { return Int(n) }
    return nil
  }

  /// A number value as a `Double`.
  var number: Double? {
    if case .number(let n) = self { return Double(n) }
    return nil
  }

  /// A boolean value.
  var flag: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// Every object member named `key` anywhere inside this value.
  func allMembers(named key: String) -> [JSONValue] {
    switch self {
    case .object(let members):
      return members.flatMap { ($0.0 == key ? [$0.1] : []) + $0.1.allMembers(named: key) }
    case .array(let items):
      return items.flatMap { $0.allMembers(named: key) }
    default:
      return []
    }
  }
}
