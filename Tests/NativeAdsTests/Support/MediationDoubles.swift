import NativeAds

/// Collects what a completion-based load hands back.
final class LoadRecorder {
  var results: [LoadResult] = []

  /// Whether the load has completed (once or more).
  var isComplete: Bool { !results.isEmpty }

  /// The ad of the first result, if it succeeded.
  var ad: NativeAd? {
    guard case .success(let loaded)? = results.first else { return nil }
    return loaded.ads.first
  }

  /// The ads of the first result, if it succeeded.
  var ads: [NativeAd] {
    guard case .success(let loaded)? = results.first else { return [] }
    return loaded.ads
  }

  /// The error of the first result, if it failed.
  var error: AdLoadError? {
    guard case .failure(let error)? = results.first else { return nil }
    return error
  }

  /// The response info of the first result, either way.
  var responseInfo: ResponseInfo? {
    switch results.first {
    case .success(let loaded)?: loaded.responseInfo
    case .failure(let error)?: error.responseInfo
    case nil: nil
    }
  }
}

/// An adapter the test scripts: fills, fails or holds each load.
final class TestAdapter: MediationAdapter {
  enum Behaviour {
    case fill(MediatedNativeAd)
    case fail(AdNetworkError)
    case hold
  }

  let adapterVersion = AdapterVersion(major: 2, minor: 1, patch: 0)
  let adSDKVersion = AdapterVersion(major: 9, minor: 0, patch: 3)
  var behaviour: Behaviour
  var setUpCount = 0
  var configurations: [MediationNativeAdConfiguration] = []
  /// The completions of held loads, kept strongly as a real adapter would.
  var held: [MediationNativeLoadCompletion] = []
  /// The delegates returned to the loads this adapter filled.
  var delegates: [(any MediationNativeAdEventDelegate)?] = []
  var abandoned: [String] = []

  init(_ behaviour: Behaviour) {
    self.behaviour = behaviour
  }

  func setUp() {
    setUpCount += 1
  }

  func loadNativeAd(
    for configuration: MediationNativeAdConfiguration, completion: MediationNativeLoadCompletion
  ) {
    configurations.append(configuration)
    switch behaviour {
    case .fill(let ad): delegates.append(completion.succeed(with: ad))
    case .fail(let error): completion.fail(with: error)
    case .hold: held.append(completion)
    }
  }

  /// Why each abandoned load was abandoned, in order.
  private(set) var abandonReasons: [AbandonReason] = []

  func loadWasAbandoned(loadId: String, because reason: AbandonReason) {
    abandoned.append(loadId)
    abandonReasons.append(reason)
  }

  /// A mapped ad with a headline and a landing page.
  static func ad(
    _ headline: String = "Mapped headline", clicks: Bool = false, impressions: Bool = false,
    forwarding: (any MediatedNativeAdForwarding)? = nil
  ) -> MediatedNativeAd {
    MediatedNativeAd(
      assets: NativeAssets(
        headline: headline, body: "Mapped body", callToAction: "Go",
        icon: AdImage(
          url: "https://example.test/icon.png",
          picture: .placeholder(width: 64, height: 64, colorKey: "test", shapeKey: "icon")),
        images: [
          AdImage(
            url: "https://example.test/image.png",
            picture: .placeholder(width: 400, height: 200, colorKey: "test", shapeKey: "image"))
        ],
        extraAssets: [(key: "Extra", value: "Value")]),
      handlesUserClicks: clicks, handlesUserImpressions: impressions,
      landingPageURL: "https://example.test/landing", deepLinks: ["testapp://open"],
      forwarding: forwarding)
  }

  /// A plain adapter error.
  static let error = AdNetworkError(code: 3, domain: "com.example.network", message: "No ad")
  /// An adapter network error.
  static let networkError = AdNetworkError(
    code: 2, domain: "com.example.network", message: "Offline", isNetworkError: true)
}

/// Records what the service tells an adapter about its ad; optionally reports back at once.
final class RecordingForwarding: MediatedNativeAdForwarding {
  var calls: [String] = []
  /// Called with the delegate when the service says `handleImpression` / `handleClick`.
  var delegate: (any MediationNativeAdEventDelegate)?
  var reportsAtOnce = false

  func didRecordImpression(adId: String) {
    calls.append("didRecordImpression")
  }

  func didRecordClickOnAsset(named: String, adId: String) {
    calls.append("didRecordClickOnAsset:" + named)
  }

  func handleImpression(adId: String) {
    calls.append("handleImpression")
    if reportsAtOnce { _ = delegate?.reportImpression() }
  }

  func handleClick(assetKey: String, adId: String) {
    calls.append("handleClick:" + assetKey)
    if reportsAtOnce { _ = delegate?.reportClick() }
  }

  func didRender(adId: String, clickable: [String], nonclickable: [String]) {
    calls.append(
      "didRender:" + clickable.joined(separator: ",") + "|" + nonclickable.joined(separator: ","))
  }

  func didUntrackView(adId: String) {
    calls.append("didUntrackView")
  }
}

/// Set-up for the mediation tests.
enum MediationFixtures {
  static let unit = "test/waterfall"

  /// A manager over the built-in inventory plus the unit ``unit`` with `waterfall` (serving
  /// `creativeIDs` through its inventory source), a manual clock and a manual scheduler that
  /// moves it.
  static func manager(
    waterfall: [WaterfallSource], creativeIDs: [String] = ["native-app-install-1"],
    deadlineMs: UInt64? = nil, seed: UInt64 = 42
  ) -> (manager: AdManager, scheduler: ManualScheduler, clock: ManualClock) {
    let inventory = Inventory.fixture()
    inventory.add(
      AdUnit(id: unit, creativeIDs: creativeIDs, waterfall: waterfall, deadlineMs: deadlineMs))
    let clock = ManualClock()
    let scheduler = ManualScheduler(clock: clock)
    let manager = AdManager(inventory: inventory, clock: clock, seed: seed)
    manager.scheduler = scheduler
    return (manager, scheduler, clock)
  }

  /// A custom event source.
  static func customEvent(
    _ className: String, eCPM: Double = 1, timeoutMs: UInt64 = 1000, parameter: String = "p",
    label: String? = nil
  ) -> WaterfallSource {
    .customEvent(
      adapterClassName: className, parameter: parameter, eCPM: eCPM, timeoutMs: timeoutMs,
      label: label)
  }

  /// Registers `adapter` under `className` (no owner unless given).
  static func register(
    _ adapter: any MediationAdapter, as className: String, in manager: AdManager,
    owner: OwnerID? = nil
  ) {
    guard manager.adapters.register(className: className, adapter: adapter, owner: owner) else {
      fatalError("could not register \(className)")
    }
  }

  /// Starts a completion-based load of `request` (default: the waterfall unit).
  static func load(
    _ manager: AdManager, _ request: AdRequest = AdRequest(adUnitID: unit), owner: OwnerID = 1
  ) -> LoadRecorder {
    let recorder = LoadRecorder()
    manager.load(request, owner: owner) { recorder.results.append($0) }
    return recorder
  }

  /// The response info entry of a custom event.
  static func entry(
    _ className: String, name: String? = nil, latency: Double = 0, error: AdNetworkError? = nil
  ) -> AdNetworkInfo {
    AdNetworkInfo(
      adNetworkClassName: className, adSourceName: name ?? className, latency: latency,
      error: error)
  }

  /// `infos` with latencies rounded to the millisecond (clock times near 1.8e9 s carry
  /// sub-microsecond noise).
  static func rounded(_ infos: [AdNetworkInfo]?) -> [AdNetworkInfo]? {
    infos?.map { rounded($0) }
  }

  /// `info` with its latency rounded to the millisecond.
  static func rounded(_ info: AdNetworkInfo) -> AdNetworkInfo {
    var info = info
    info.latency = (info.latency * 1000).rounded() / 1000
    return info
  }

  /// The response info entry of the inventory (direct-sold unless `indirect`).
  static func inventoryEntry(indirect: Bool = false, error: AdNetworkError? = nil) -> AdNetworkInfo
  {
    AdNetworkInfo(
      adNetworkClassName: "GADMAdapterGoogleAdMobAds",
      adSourceName: indirect ? "AdMob Network" : "Reservation", latency: 0, error: error)
  }

  /// Loads a mediated ad from an adapter that fills with `mapped`; returns the manager, the ad
  /// and the delegate the adapter got.
  static func mediatedAd(_ mapped: MediatedNativeAd, clock: ManualClock = ManualClock()) -> (
    manager: AdManager, ad: NativeAd, delegate: any MediationNativeAdEventDelegate
  ) {
    let inventory = Inventory.fixture()
    inventory.add(AdUnit(id: unit, creativeIDs: [], waterfall: [customEvent("Mapped")]))
    let manager = AdManager(inventory: inventory, clock: clock, seed: 7)
    let adapter = TestAdapter(.fill(mapped))
    register(adapter, as: "Mapped", in: manager)
    guard let ad = load(manager).ad, let delegate = adapter.delegates.first ?? nil else {
      fatalError("the mediated load did not fill")
    }
    return (manager, ad, delegate)
  }
}
