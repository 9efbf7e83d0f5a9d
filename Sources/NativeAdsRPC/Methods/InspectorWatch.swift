import JSONRPC
import NativeAds

/// `inspector.watch {}` → `{"ads": [InspectedAd], "events": [Event], "lastSequence"}`: what the
/// inspector page (`GET /` of `--http`) shows when it opens, the ads live in this process and
/// the last events of the log; from then on the connection is told of every load
/// (`inspector.adLoaded`, `inspector.loadFailed`), release (`inspector.adReleased`), event
/// (`inspector.event`) and store change (`inspector.storeChanged`), whoever made it, until it
/// closes. An InspectedAd is an Ad as `loadAd` answers it, with `loadedBy` (the connection
/// that loaded it) and `adUnitID`.
enum InspectorWatch: ServiceMethod {
  static let name = "inspector.watch"
  /// Events of the log the first answer carries.
  static let recentEvents = 500

  static var signature: MethodSignature {
    MethodSignature(
      summary:
        "Watches every load, release, event and store change of the process (the inspector page).",
      params: [],
      result: .shape(
        WireShape(
          nil,
          [
            WireMember(name: "ads", type: .array(.anyObject), required: true),
            WireMember(name: "events", type: .array(.component("Event")), required: true),
            Field.optionalInt("lastSequence", minimum: 0).orRequired().member,
          ])))
  }

  static func decode(_ params: Params) throws(RPCError) {}

  static func handle(_: Void, context: MethodContext, result w: inout JSONWriter) throws(RPCError) {
    let service = context.service
    let session = context.session
    guard service.receivesNotifications(session) else {
      throw .invalidRequest(
        "inspector.watch needs a connection that receives notifications (a WebSocket, TCP, a "
          + "Unix socket or stdio); a POST /rpc request has none")
    }
    let query = AdEventQuery(adId: nil, name: nil, since: nil, limit: GetEvents.maximumLimit)
    try context.answer(
      into: &w, error: { (unavailable: StoreUnavailable) in unavailable.rpcError() },
      { done in service.manager.eventLog.events(matching: query, completion: done) },
      write: { page, w in
        service.watch(session)
        w.beginObject()
        w.key("ads")
        w.beginArray()
        for ad in service.manager.store.ads.sorted(by: { $0.loadedAt < $1.loadedAt }) {
          w.element()
          service.writeInspected(ad, into: &w)
        }
        w.endArray()
        w.key("events")
        w.beginArray()
        for event in page.events.suffix(recentEvents) {
          w.element()
          GetEvents.writeEvent(event, into: &w)
        }
        w.endArray()
        w.key("lastSequence")
        w.int(page.lastSequence)
        w.endObject()
      })
  }
}

extension NativeAdsService {
  /// Tells the watchers (``InspectorWatch``) of what the service did.
  func watch(_ session: RPCSession) {
    // The answer may come after the connection closed (a fleet's event log answers later).
    guard receivesNotifications(session) else { return }
    inspectors[session.id] = session
  }

  /// The Ad as `loadAd` writes it, with the inspector's `loadedBy` and `adUnitID`.
  func writeInspected(_ ad: NativeAd, into w: inout JSONWriter) {
    w.beginObject()
    var responseInfo = JSONWriter.WrittenOnce()
    LoadAd.writeMembers(of: ad, responseInfo: &responseInfo, service: self, into: &w)
    w.key("loadedBy")
    w.string(sessionLabels[ad.owner] ?? "a connection now closed")
    w.key("adUnitID")
    w.string(ad.adUnitID)
    w.endObject()
  }

  /// A load ended: each watcher is told (`inspector.adLoaded` per ad, or `inspector.loadFailed`).
  func inspect(
    _ result: LoadResult, adUnitID: String, owner: UInt64
  ) {
    switch result {
    case .success(let loaded):
      for ad in loaded.ads {
        notifyInspectors("inspector.adLoaded") { w in
          w.beginObject()
          w.key("ad")
          writeInspected(ad, into: &w)
          w.endObject()
        }
      }
    case .failure(let error):
      let rpcError = error.rpcError
      notifyInspectors("inspector.loadFailed") { w in
        w.beginObject()
        w.key("adUnitID")
        w.string(adUnitID)
        w.key("loadedBy")
        w.string(sessionLabels[owner] ?? "a connection now closed")
        w.key("error")
        rpcError.write(to: &w)
        w.endObject()
      }
    }
  }

  /// Sends notification `method` to every watcher (nothing to do without one).
  func notifyInspectors(_ method: StaticString, _ writeParams: (inout JSONWriter) -> Void) {
    guard !inspectors.isEmpty else { return }
    var params = JSONWriter(capacity: 256)
    writeParams(&params)
    for session in inspectors.values.sorted(by: { $0.id < $1.id }) {
      session.notify(method) { $0.raw(params.bytes) }
    }
  }

  /// The inventory changed (`inspector.storeChanged`).
  func storeChanged() {
    notifyInspectors("inspector.storeChanged") { w in
      w.beginObject()
      w.endObject()
    }
  }
}
