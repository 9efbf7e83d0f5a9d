/// The state of one waterfall load in flight (see ``AdManager/load(_:owner:completion:)``).
///
/// Owned by the manager's table of loads in flight until it finishes; completions, timers and
/// the deadline refer to it weakly, so a finished load is freed at once.
final class WaterfallLoad {
  /// The custom event source being waited on.
  struct PendingSource {
    var loadId: String
    var className: String
    var sourceName: String
    var eCPM: Double
    var timeoutMs: UInt64
    var adapter: any MediationAdapter
    var adapterOwner: OwnerID?
    var completion: MediationNativeLoadCompletion
    var askedAt: Double
    var timeoutWork: (any ScheduledWork)?
  }

  /// The result handed to the caller of the load.
  typealias Completion = (Result<(ads: [NativeAd], responseInfo: ResponseInfo), AdLoadError>) ->
    Void

  /// The manager's number for this load (1, 2, ...).
  let number: UInt64
  let request: AdRequest
  let owner: OwnerID
  let unit: AdUnit
  /// The sources in the order they are asked.
  let sources: [WaterfallSource]
  /// The options ads are served with (one ad).
  let options: LoaderOptions
  /// The seed of the load's first custom event.
  let seed: UInt64
  let deadlineMs: UInt64
  let responseIdentifier: String

  /// The caller's completion; nil once the load finished (or was cancelled).
  var completion: Completion?
  /// The index of the next source to ask.
  var nextSource = 0
  /// How many custom events were asked so far (each gets its own seed).
  var customEventsAsked: UInt64 = 0
  /// The response info entries of the sources tried, in order.
  var tried: [AdNetworkInfo] = []
  /// How many sources were skipped for a missing adapter.
  var missingAdapters = 0
  /// Whether a source reported a network error.
  var sawNetworkError = false
  var deadlineWork: (any ScheduledWork)?
  var waiting: PendingSource?
  /// Whether the manager is inside its loop asking this load's sources.
  var isAdvancing = false

  init(
    number: UInt64, request: AdRequest, owner: OwnerID, unit: AdUnit, sources: [WaterfallSource],
    options: LoaderOptions, seed: UInt64, deadlineMs: UInt64, responseIdentifier: String,
    completion: @escaping Completion
  ) {
    self.number = number
    self.request = request
    self.owner = owner
    self.unit = unit
    self.sources = sources
    self.options = options
    self.seed = seed
    self.deadlineMs = deadlineMs
    self.responseIdentifier = responseIdentifier
    self.completion = completion
  }

  /// Whether the load has finished (or was cancelled).
  var isFinished: Bool { completion == nil }
}
