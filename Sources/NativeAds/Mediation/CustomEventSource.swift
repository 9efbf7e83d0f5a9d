/// A `customEvent` waterfall source: the adapter registered under a class name is asked for a
/// native ad (``MediationAdapter/loadNativeAd(for:completion:)``) and maps it. Its response
/// info entry names the class, and the label (default: the class name) as the source name.
///
/// Not asked (latency 0) when the class is not registered
/// (``AdNetworkError/missingAdapter(className:)``) or the request does not accept `native` ads
/// (``AdNetworkError/customEventNeedsNativeAdType``). A mapped ad that breaks an asset rule
/// fails the source (``AdNetworkError/invalidMappedAd(_:)``, code 102).
final class CustomEventSource: AdSource {
  let className: String
  let parameter: String
  let eCPM: Double
  let timeoutMs: UInt64?
  let sourceName: String
  var adNetworkClassName: String { className }
  var adSourceName: String { sourceName }
  private let adapters: AdapterRegistry
  private let nextLoadId: () -> String
  private let makeDelegate: () -> MediatedAdEventDelegate

  init(
    className: String, parameter: String, eCPM: Double, timeoutMs: UInt64, label: String?,
    adapters: AdapterRegistry, nextLoadId: @escaping () -> String,
    makeDelegate: @escaping () -> MediatedAdEventDelegate
  ) {
    self.className = className
    self.parameter = parameter
    self.eCPM = eCPM
    self.timeoutMs = timeoutMs
    self.sourceName = label ?? className
    self.adapters = adapters
    self.nextLoadId = nextLoadId
    self.makeDelegate = makeDelegate
  }

  /// The adapter load in flight.
  private final class Pending: PendingAsk {
    let answerer: OwnerID?
    let loadId: String
    let adapter: any MediationAdapter
    let completion: MediationNativeLoadCompletion

    init(
      answerer: OwnerID?, loadId: String, adapter: any MediationAdapter,
      completion: MediationNativeLoadCompletion
    ) {
      self.answerer = answerer
      self.loadId = loadId
      self.adapter = adapter
      self.completion = completion
    }

    func abandon(_ reason: AbandonReason) {
      guard !completion.isFinished else { return }
      completion.invalidate()
      adapter.loadWasAbandoned(loadId: loadId, because: reason)
    }
  }

  func ask(_ ask: SourceAsk, answer: @escaping (SourceAnswer) -> Void) -> (any PendingAsk)? {
    func failed(_ failure: SourceAnswer.Failure) -> SourceAnswer {
      .failed(failure, className: className, sourceName: sourceName)
    }
    guard ask.request.adTypes.contains(.native) else {
      answer(failed(.skipped(.customEventNeedsNativeAdType)))
      return nil
    }
    guard let adapter = adapters.adapter(named: className) else {
      answer(failed(.missingAdapter(.missingAdapter(className: className))))
      return nil
    }
    let loadId = nextLoadId()
    let owner = adapters.owner(of: className)
    let completion = MediationNativeLoadCompletion { [self] result in
      switch result {
      case .failure(let error):
        answer(failed(.failed(error)))
        return nil
      case .success(let mapped):
        if let problem = mapped.problem {
          answer(failed(.failed(.invalidMappedAd(problem.description))))
          return nil
        }
        let delegate = makeDelegate()
        let mediation = MediationInfo(
          adapterClassName: className, loadId: loadId, adapterOwner: owner,
          handlesUserClicks: mapped.handlesUserClicks,
          handlesUserImpressions: mapped.handlesUserImpressions, forwarding: mapped.forwarding,
          eventDelegate: delegate)
        let fill = SourceFill(
          creative: mapped.creative(id: "mediated-\(className)-\(loadId)", eCPM: eCPM),
          mediation: mediation, bind: { delegate.ad = $0 })
        answer(.filled([fill], className: className, sourceName: sourceName))
        return delegate
      }
    }
    let pending = Pending(
      answerer: owner, loadId: loadId, adapter: adapter, completion: completion)
    let configuration = MediationNativeAdConfiguration(
      credentials: MediationCredentials(settings: [MediationCredentials.parameterKey: parameter]),
      options: ask.options, isTestRequest: ask.request.isTestRequest, seed: ask.nextSeed(),
      adapterClassName: className, loadId: loadId)
    adapter.loadNativeAd(for: configuration, completion: completion)
    return completion.isFinished ? nil : pending
  }
}
