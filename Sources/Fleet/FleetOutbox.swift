import JSONRPC
import NativeAds

/// Who is where in a fleet: each process has a number (from the fleet's counter, at join), and
/// its connections' owner IDs carry it above bit 40, so any process can tell where an owner's
/// connection is.
public enum FleetOwners {
  /// Owner IDs of a process are `number << 40 | connection`.
  public static let processShift: UInt64 = 40

  /// The process whose connection `owner` is.
  public static func process(of owner: OwnerID) -> UInt64 { owner >> processShift }

  /// The first owner ID of process `number`'s connections.
  public static func base(ofProcess number: UInt64) -> UInt64 { number << processShift }
}

/// What a change must publish once its state is stored: its events (for the log and the
/// loader's connection) and its notes (custom clicks, a mediated ad's adapter notices), each
/// with the process it goes to. Kept in the ad's hash (`ob`) until published, so that a
/// process that dies in between leaves it for the next one to publish.
struct FleetOutbox {
  struct Item {
    var to: UInt64
    var json: String
    var kind: String
  }

  var events: [Item] = []
  var notes: [Item] = []

  var isEmpty: Bool { events.isEmpty && notes.isEmpty }

  /// The processes it goes to, in a fixed order (the publish script's inbox keys).
  var targets: [UInt64] {
    var seen: [UInt64] = []
    for item in events + notes where !seen.contains(item.to) { seen.append(item.to) }
    return seen
  }

  init(_ effects: [AdEffect], of ad: NativeAd, at time: Double) {
    let loader = FleetOwners.process(of: ad.owner)
    for effect in effects {
      switch effect {
      case .event(let kind, let assetKey, let reason, let url):
        let event = AdEvent(
          sequence: 0, adId: ad.id, owner: ad.owner, event: kind, assetKey: assetKey,
          reason: reason, url: url, time: time)
        events.append(Item(to: loader, json: Self.encode(event).jsonText, kind: "event"))
      case .customClick(let assetID, let owner):
        let json: JSONValue = .object([
          ("adId", .string(ad.id)), ("assetID", .string(assetID)), ("owner", .uint64(owner)),
        ])
        notes.append(
          Item(to: FleetOwners.process(of: owner), json: json.jsonText, kind: "customClick"))
      case .adapter(let notice):
        guard ad.isMediated else { continue }
        let json: JSONValue = .object([
          ("adId", .string(ad.id)), ("notice", Self.encode(notice)),
        ])
        notes.append(Item(to: loader, json: json.jsonText, kind: "adapter"))
      }
    }
  }

  init(parsing bytes: [UInt8]) throws(SnapshotError) {
    let r = try SnapshotReader(parsing: bytes, path: "outbox")
    func items(_ name: String) throws(SnapshotError) -> [Item] {
      var out: [Item] = []
      for i in try r(name).elements {
        guard let to = UInt64(try i("to").string) else { throw i.fail("to must be a number") }
        out.append(Item(to: to, json: try i("json").string, kind: try i("k").string))
      }
      return out
    }
    events = try items("events")
    notes = try items("notes")
  }

  /// The outbox as the publish script reads it.
  var json: String {
    func items(_ list: [Item]) -> JSONValue {
      .array(
        list.map {
          .object([
            ("to", .string(String($0.to))), ("json", .string($0.json)), ("k", .string($0.kind)),
          ])
        })
    }
    let value: JSONValue = .object([
      ("targets", .array(targets.map { .string(String($0)) })), ("events", items(events)),
      ("notes", items(notes)),
    ])
    return value.jsonText
  }

  // MARK: Events and notices as JSON

  static func encode(_ e: AdEvent) -> JSONValue {
    .object([
      ("adId", .string(e.adId)), ("owner", .uint64(e.owner)), ("event", .string(e.event.rawValue)),
      ("assetKey", .optional(e.assetKey)), ("reason", .optional(e.reason)),
      ("url", .optional(e.url)), ("time", .double(e.time)),
    ])
  }

  static func event(_ r: SnapshotReader, sequence: Int) throws(SnapshotError) -> AdEvent {
    AdEvent(
      sequence: sequence, adId: try r("adId").string, owner: try r("owner").uint64,
      event: try r("event").enumeration(AdEventKind.self),
      assetKey: try r.optional("assetKey")?.string, reason: try r.optional("reason")?.string,
      url: try r.optional("url")?.string, time: try r("time").double)
  }

  static func encode(_ notice: AdapterNotice) -> JSONValue {
    switch notice {
    case .didRecordImpression: return .object([("name", .string("didRecordImpression"))])
    case .didRecordClick(let key):
      return .object([("name", .string("didRecordClick")), ("assetKey", .string(key))])
    case .handleImpression: return .object([("name", .string("handleImpression"))])
    case .handleClick(let key):
      return .object([("name", .string("handleClick")), ("assetKey", .string(key))])
    case .didRender(let clickable, let nonclickable):
      return .object([
        ("name", .string("didRender")), ("clickable", .strings(clickable)),
        ("nonclickable", .strings(nonclickable)),
      ])
    case .didUntrackView: return .object([("name", .string("didUntrackView"))])
    }
  }

  static func notice(_ r: SnapshotReader) throws(SnapshotError) -> AdapterNotice {
    switch try r("name").string {
    case "didRecordImpression": return .didRecordImpression
    case "didRecordClick": return .didRecordClick(assetKey: try r("assetKey").string)
    case "handleImpression": return .handleImpression
    case "handleClick": return .handleClick(assetKey: try r("assetKey").string)
    case "didRender":
      return .didRender(
        clickable: try r("clickable").strings, nonclickable: try r("nonclickable").strings)
    case "didUntrackView": return .didUntrackView
    default: throw r.fail("names no adapter notice")
    }
  }
}
