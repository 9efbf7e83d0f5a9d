import JSONRPC
import NativeAds

/// `getEvents {"adId"?, "event"?, "since"?, "limit"?}` → `{"events": [Event], "lastSequence"}`:
/// the event log, oldest first, for test suites.
enum GetEvents: ServiceMethod {
  static let name = "getEvents"

  struct Request {
    var adId: String?
    var event: String?
    var since: Int?
    var limit: Int
  }

  static let defaultLimit = 1000
  static let maximumLimit = 10_000

  static func decode(_ params: Params) throws(RPCError) -> Request {
    let limit = try params.optionalInt("limit") ?? defaultLimit
    guard (1...maximumLimit).contains(limit) else {
      throw .invalidParams(field: "limit", "must be between 1 and \(maximumLimit)")
    }
    let since = try params.optionalInt("since")
    if let since, since < 0 { throw .invalidParams(field: "since", "must be at least 0") }
    return Request(
      adId: try params.optionalString("adId"), event: try params.optionalString("event"),
      since: since, limit: limit)
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let manager = context.service.manager
    let query = AdEventQuery(
      adId: request.adId, name: request.event, since: request.since, limit: request.limit)
    try context.answer(
      into: &w, error: { (_: Never) -> RPCError in },
      { done in manager.eventLog.events(matching: query) { done(.success($0)) } },
      write: { events, w in write(events, lastSequence: manager.eventStream.lastSequence, into: &w)
      })
  }

  static func write(_ events: [AdEvent], lastSequence: Int, into w: inout JSONWriter) {
    w.beginObject()
    w.key("events")
    w.beginArray()
    for event in events {
      w.element()
      w.beginObject()
      w.key("sequence")
      w.int(event.sequence)
      w.key("time")
      w.string(AdJSON.timestampWithMilliseconds(event.time))
      w.key("adId")
      w.string(event.adId)
      w.key("type")
      w.string(event.event.isVideoEvent ? "videoEvent" : "adEvent")
      w.key("event")
      w.string(event.event.wireName)
      w.key("assetKey")
      w.string(event.assetKey)
      if let reason = event.reason {
        w.key("reason")
        w.string(reason)
      }
      w.endObject()
    }
    w.endArray()
    w.key("lastSequence")
    w.int(lastSequence)
    w.endObject()
  }
}
