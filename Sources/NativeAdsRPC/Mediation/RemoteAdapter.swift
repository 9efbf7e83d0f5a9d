import JSONRPC
import NativeAds

/// A mediation adapter written in any language: loads are sent to the connection that
/// registered the class as `adapter.loadNativeAd` requests, and its answer completes the
/// source (only the first answer counts; after the source's timeout the request is forgotten,
/// so a late answer changes nothing). Loop-thread only.
final class RemoteAdapter: MediationAdapter {
  let className: String
  private weak var session: RPCSession?
  /// Loads waiting for the client's answer: request id → completion.
  private var waiting: [String: MediationNativeLoadCompletion] = [:]

  init(className: String, session: RPCSession) {
    self.className = className
    self.session = session
  }

  /// The connection's adapter speaks for itself; the service reports 0.0.0.
  var adapterVersion: AdapterVersion { AdapterVersion(major: 0, minor: 0, patch: 0) }
  var adSDKVersion: AdapterVersion { AdapterVersion(major: 0, minor: 0, patch: 0) }

  /// The connection that answers for this adapter.
  var owner: UInt64? { session?.id }

  func loadNativeAd(
    for configuration: MediationNativeAdConfiguration, completion: MediationNativeLoadCompletion
  ) {
    forgetFinishedLoads()
    guard let session, !session.isClosed else {
      completion.fail(with: Self.connectionClosed)
      return
    }
    let loadId = configuration.loadId
    let id = session.sendRequest(
      "adapter.loadNativeAd",
      { w in Self.writeParams(configuration, into: &w) },
      onResponse: { [weak self, weak session] outcome in
        self?.answer(outcome, loadId: loadId, session: session)
      })
    waiting[id] = completion
    // Remember which request this load is, for the answer.
    requestOfLoad[loadId] = id
  }

  private var requestOfLoad: [String: String] = [:]

  private func answer(_ outcome: Result<JSONRef, RPCError>, loadId: String, session: RPCSession?) {
    guard let id = requestOfLoad.removeValue(forKey: loadId),
      let completion = waiting.removeValue(forKey: id), !completion.isFinished
    else { return }
    switch outcome {
    case .failure(let error) where error.code == .connectionClosed:
      completion.fail(with: Self.connectionClosed)
    case .failure(let error):
      var domain = "com.native-ads.external"
      var isNetworkError = false
      if case .object(let members)? = error.data {
        for (key, value) in members {
          if key == "domain", case .string(let d) = value { domain = d }
          if key == "networkError", case .bool(let b) = value { isNetworkError = b }
        }
      }
      var failure = AdNetworkError(
        code: error.code.rawValue, domain: domain, message: error.message)
      failure.isNetworkError = isNetworkError
      completion.fail(with: failure)
    case .success(let result):
      do throws(InvalidField) {
        let ad = try Params(result.kind == .object ? result : nil).requiredObject("ad")
        var mapped = try MappedAdDecoder.ad(ad, colorKey: loadId)
        if let session { mapped.forwarding = RemoteForwarding(session: session, loadId: loadId) }
        _ = completion.succeed(with: mapped)
      } catch {
        completion.fail(
          with: AdNetworkError(
            code: 102, domain: "com.native-ads.mediation",
            message: "The adapter's ad is not valid: \(error.rpcError.message)"))
      }
    }
  }

  /// The waterfall gave up on this load (timeout, deadline, the app left): forget its request,
  /// so that a late answer is ignored and nothing is kept for it. A cancelled load's request
  /// is cancelled on the adapter's connection too (`$/cancelRequest` with the server's id).
  func loadWasAbandoned(loadId: String, because reason: AbandonReason) {
    guard let id = requestOfLoad.removeValue(forKey: loadId) else { return }
    waiting.removeValue(forKey: id)
    session?.forgetRequest(id, notifyPeer: reason == .cancelled)
  }

  /// Drops the requests of loads that finished without an answer (a safety net behind
  /// ``loadWasAbandoned(loadId:)``).
  private func forgetFinishedLoads() {
    for (id, completion) in waiting where completion.isFinished {
      waiting.removeValue(forKey: id)
      session?.forgetRequest(id)
    }
    requestOfLoad = requestOfLoad.filter { waiting[$0.value] != nil }
  }

  /// Loads still waiting for this adapter (tests, diagnostics).
  var waitingCount: Int {
    forgetFinishedLoads()
    return waiting.count
  }

  static let connectionClosed = AdNetworkError(
    code: 102, domain: "com.native-ads.mediation", message: "adapter connection closed")

  private static func writeParams(
    _ configuration: MediationNativeAdConfiguration, into w: inout JSONWriter
  ) {
    w.beginObject()
    w.key("loadId")
    w.string(configuration.loadId)
    w.key("adapterClassName")
    w.string(configuration.adapterClassName)
    w.key("adConfiguration")
    w.beginObject()
    w.key("credentials")
    w.beginObject()
    w.key("settings")
    w.beginObject()
    for (key, value) in configuration.credentials.settings.sorted(by: { $0.key < $1.key }) {
      w.key(escaping: key)
      w.string(value)
    }
    w.endObject()
    w.endObject()
    w.key("options")
    AdJSON.writeOptions(configuration.options, into: &w)
    w.key("isTestRequest")
    if let test = configuration.isTestRequest { w.bool(test) } else { w.null() }
    w.endObject()
    w.endObject()
  }
}
