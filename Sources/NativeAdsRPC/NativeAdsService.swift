import JSONRPC
import NativeAds

/// The native-ads service on top of a ``Dispatcher``: registers every method, routes
/// `adEvent` / `customClick` notifications to the right connection, and releases a
/// connection's ads when it closes.
///
/// Loop-thread only.
public final class NativeAdsService: AdEventObserver {
  public let manager: AdManager
  public let dispatcher: Dispatcher
  /// The most assets an ad response string may hold, every bid's together
  /// (`--max-response-assets`): each is decoded, and its image drawn, on the loop.
  public var maxResponseAssets = NativeAdsService.defaultMaxResponseAssets
  /// The most trackers one OpenRTB ad (a response string's bid, a store creative written in
  /// `openrtb`) may carry (`--max-ad-trackers`): each is a `tracker` event when it fires.
  public var maxAdTrackers = NativeAdsService.defaultMaxAdTrackers
  /// The most pixels the images of one ad response string may have together
  /// (`--max-response-pixels`): each is drawn at its size when the ad is served.
  public var maxResponsePixels = NativeAdsService.defaultMaxResponsePixels
  public static let defaultMaxResponseAssets = OpenRTBDecoder.defaultMaximumAssets
  public static let defaultMaxAdTrackers = OpenRTBDecoder.defaultMaximumTrackers
  public static let defaultMaxResponsePixels = OpenRTBDecoder.defaultMaximumPixels
  let creativeJSON = CreativeJSONCache()
  /// The encoded names of the source of the last response info entry written.
  let sourceNamesJSON = SourceNamesJSON()
  private var sessions: [UInt64: RPCSession] = [:]
  /// Connections that called `inspector.watch`, told of everything the service does. While
  /// there is none, the manager is not even asked to tell of releases.
  var inspectors: [UInt64: RPCSession] = [:] {
    didSet {
      guard inspectors.isEmpty != oldValue.isEmpty else { return }
      manager.onReleased = inspectors.isEmpty ? nil : { [unowned self] adId in adReleased(adId) }
    }
  }
  /// What each open session is (``RPCSession/label``), for the inspector's `loadedBy`.
  private(set) var sessionLabels: [UInt64: String] = [:]
  /// `rpc.discover`'s result, encoded on first use.
  lazy var openRPCBytes: ByteBuffer = {
    var w = JSONWriter(capacity: 64 * 1024)
    w.value(OpenRPCDocument.document(examples: OpenRPCExamples.byMethod))
    return w.bytes
  }()
  /// A fleet's shared store: set, every load first catches up with the fleet's store changes,
  /// and every store change goes through the fleet's log (``StoreReplica``).
  public var replica: StoreReplica? {
    didSet { replica?.apply = { [unowned self] request in replay(request) } }
  }
  /// True while a store change from the fleet's log is applied (the methods then apply it
  /// here instead of sending it to the log).
  private(set) var isReplaying = false
  /// The session replayed changes are dispatched on; its replies are read back, never sent.
  private lazy var replaySession = RPCSession(id: 0, dispatcher: dispatcher)
  /// The last whole second written by ``writeTimestamp(_:into:)``, as a JSON string (loads
  /// in one second share it).
  private var lastTimestamp: (second: Double, json: ByteBuffer) = (-1, ByteBuffer())

  /// What the event stream holds for the service (``AdEventRelay``): every request retains
  /// the service, which a weak reference would put on the runtime's slow path.
  private var eventRelay: AdEventRelay?

  public init(manager: AdManager, dispatcher: Dispatcher) {
    self.manager = manager
    self.dispatcher = dispatcher
    let relay = AdEventRelay(to: self)
    eventRelay = relay
    manager.eventStream.subscribe(relay)
    for method in allMethods {
      dispatcher.register(
        method.name, method.handler(for: self), direct: method.directHandler(for: self))
    }
  }

  /// Starts serving a connection: its events are routed to it, and its ads are released when
  /// it closes.
  public func attach(_ session: RPCSession) {
    sessions[session.id] = session
    sessionLabels[session.id] = session.label
    // A strong capture (no side table for the service): the session, which the service keeps
    // until it closes, keeps the service.
    session.onClose = { [self] s in
      sessions.removeValue(forKey: s.id)
      inspectors.removeValue(forKey: s.id)
      manager.cancelLoads(ownedBy: s.id)
      manager.releaseAdapters(ownedBy: s.id)
      _ = manager.releaseAll(ownedBy: s.id)
      sessionLabels.removeValue(forKey: s.id)
    }
  }

  /// Starts serving one HTTP request (`POST /rpc`): no connection waits for its ads' events
  /// (they go to the event log only), and the ads it loads live on after it, until
  /// `releaseAd` or expiry. Its loads still waiting are stopped, and the adapters registered
  /// through it unregistered, when it closes.
  public func attachRequest(_ session: RPCSession) {
    sessionLabels[session.id] = session.label
    session.onClose = { [self] s in
      manager.cancelLoads(ownedBy: s.id)
      manager.releaseAdapters(ownedBy: s.id)
      sessionLabels.removeValue(forKey: s.id)
    }
  }

  /// Whether `session` is an open connection that notifications reach (not one HTTP request's,
  /// not closed).
  func receivesNotifications(_ session: RPCSession) -> Bool {
    !session.isClosed && sessions[session.id] === session
  }

  /// Tells the watchers an ad was released (`inspector.adReleased`).
  private func adReleased(_ adId: String) {
    notifyInspectors("inspector.adReleased") { w in
      w.beginObject()
      w.key("adId")
      w.string(adId)
      w.endObject()
    }
  }

  /// Writes RFC 3339 UTC time in whole seconds as a JSON string, its bytes memoised for the
  /// current second.
  func writeTimestamp(_ seconds: Double, into w: inout JSONWriter) {
    let second = seconds.rounded(.down)
    if second != lastTimestamp.second {
      var text = JSONWriter(capacity: 32)
      text.string(formatRFC3339(second))
      lastTimestamp = (second, text.bytes)
    }
    w.raw(lastTimestamp.json)
  }

  /// Applies one store request of the fleet's log by dispatching it here; answers its reply
  /// object (`{"result"...}` or `{"error"...}`).
  func replay(_ request: [UInt8]) -> JSONValue {
    isReplaying = true
    defer { isReplaying = false }
    request.withUnsafeBytes { dispatcher.handle(message: $0, session: replaySession) }
    var out = replaySession.takeOutput()
    defer { replaySession.recycleOutput(&out) }
    let text = out.withUnsafeBytes { raw in
      String(decoding: raw.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
    return (try? JSONParser().parseValue(text)) ?? .null
  }

  // MARK: AdEventObserver

  public func adEventRecorded(_ event: AdEvent) {
    if !inspectors.isEmpty {
      notifyInspectors("inspector.event") { w in GetEvents.writeEvent(event, into: &w) }
    }
    // Trackers are handed out in replies and logged; they are not the ad's delegate events.
    guard !event.event.isTracker, let session = sessions[event.owner] else { return }
    if event.event.isVideoEvent {
      session.notify("videoEvent") { w in
        w.beginObject()
        w.key("adId")
        w.string(event.adId)
        w.key("event")
        w.string(event.event.wireName)
        w.endObject()
      }
      return
    }
    session.notify("adEvent") { w in
      w.beginObject()
      w.key("adId")
      w.string(event.adId)
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
  }

  public func customClick(on adId: String, assetID: String, for owner: OwnerID) {
    sessions[owner]?.notify("customClick") { w in
      w.beginObject()
      w.key("adId")
      w.string(adId)
      w.key("assetID")
      w.string(assetID)
      w.endObject()
    }
  }
}
