import JSONRPC
import NativeAds

/// Tells an external adapter, over its connection, what happened to the ad it mapped
/// (`adapter.didRecordImpression`, `adapter.handleClick`...). Loop-thread only.
final class RemoteForwarding: MediatedNativeAdForwarding {
  private weak var session: RPCSession?
  let loadId: String
  /// The connection that mapped the ad: the only one that may report on it.
  let sessionID: UInt64

  init(session: RPCSession, loadId: String) {
    self.session = session
    self.loadId = loadId
    self.sessionID = session.id
  }

  private func send(
    _ method: StaticString, adId: String, _ extra: (inout JSONWriter) -> Void = { _ in }
  ) {
    let loadId = loadId
    session?.notify(method) { w in
      w.beginObject()
      w.key("loadId")
      w.string(loadId)
      w.key("adId")
      w.string(adId)
      extra(&w)
      w.endObject()
    }
  }

  func didRecordImpression(adId: String) { send("adapter.didRecordImpression", adId: adId) }

  func didRecordClickOnAsset(named name: String, adId: String) {
    send("adapter.didRecordClickOnAsset", adId: adId) { w in
      w.key("assetKey")
      w.string(name)
    }
  }

  func handleImpression(adId: String) { send("adapter.handleImpression", adId: adId) }

  func handleClick(assetKey: String, adId: String) {
    send("adapter.handleClick", adId: adId) { w in
      w.key("assetKey")
      w.string(assetKey)
    }
  }

  func didRender(adId: String, clickable: [String], nonclickable: [String]) {
    send("adapter.didRender", adId: adId) { w in
      w.key("clickableAssets")
      w.beginArray()
      for key in clickable {
        w.element()
        w.string(key)
      }
      w.endArray()
      w.key("nonclickableAssets")
      w.beginArray()
      for key in nonclickable {
        w.element()
        w.string(key)
      }
      w.endArray()
    }
  }

  func didUntrackView(adId: String) { send("adapter.didUntrackView", adId: adId) }
}
