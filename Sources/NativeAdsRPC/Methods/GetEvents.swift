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

  static let adId = Field.optionalString("adId")
  static let event = Field.optionalString("event")
  static let since = Field.optionalInt("since", minimum: 0)
  static let limit = Field.optionalInt(
    "limit", minimum: 1, maximum: maximumLimit, wordedAsRange: true)
  static var signature: MethodSignature {
    MethodSignature(
      summary: "The event log, oldest first.",
      params: [adId.member, event.member, since.member, limit.member],
      result: .shape(
        WireShape(
          nil,
          [
            WireMember(name: "events", type: .array(.component("Event")), required: true),
            Field.optionalInt("lastSequence", minimum: 0).orRequired().member,
          ])))
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    try decoding { () throws(InvalidField) in
      let limit = try params(limit) ?? defaultLimit
      let since = try params(since)
      return Request(adId: try params(adId), event: try params(event), since: since, limit: limit)
    }
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let manager = context.service.manager
    let query = AdEventQuery(
      adId: request.adId, name: request.event, since: request.since, limit: request.limit)
    try context.answer(
      into: &w, error: { (unavailable: StoreUnavailable) in unavailable.rpcError() },
      { done in manager.eventLog.events(matching: query, completion: done) },
      write: { page, w in write(page.events, lastSequence: page.lastSequence, into: &w) })
  }

  /// One event of the log, as `getEvents` lists it.
  static func writeEvent(_ event: AdEvent, into w: inout JSONWriter) {
    w.beginObject()
    w.key("sequence")
    w.int(event.sequence)
    w.key("time")
    w.string(AdJSON.timestampWithMilliseconds(event.time))
    w.key("adId")
    w.string(event.adId)
    w.key("type")
    w.string(
      event.event.isVideoEvent ? "videoEvent" : event.event.isTracker ? "tracker" : "adEvent")
    w.key("event")
    w.string(event.event.wireName)
    if event.event.isTracker {
      w.key("trigger")
      w.string(event.event == .impressionTracker ? "impression" : "click")
      w.key("url")
      w.string(event.url)
    }
    w.key("assetKey")
    w.string(event.assetKey)
    if let reason = event.reason {
      w.key("reason")
      w.string(reason)
    }
    w.endObject()
  }

  static func write(_ events: [AdEvent], lastSequence: Int, into w: inout JSONWriter) {
    w.beginObject()
    w.key("events")
    w.beginArray()
    for event in events {
      w.element()
      writeEvent(event, into: &w)
    }
    w.endArray()
    w.key("lastSequence")
    w.int(lastSequence)
    w.endObject()
  }
}
