/// What one load asks, and of whom: the sources in order, how many ads, and its deadline.
/// A reference, so that the engine, its asks and the answer share it without copying the
/// request; immutable but for the seeds its sources draw in turn. An ask refers to the plan,
/// not to the load, so a source that keeps an ask keeps no load alive.
final class LoadPlan {
  /// The app's request.
  let request: AdRequest
  /// The unit loaded.
  let unit: AdUnit
  /// Who loads; the ads are theirs.
  let owner: OwnerID
  /// The sources, in the order they are asked.
  let sources: [any AdSource]
  /// The options ads are served with (`numberOfAds` as many as the load serves).
  let options: LoaderOptions
  /// The seeds the load's random sources draw.
  var seeds: SeedSequence
  /// The whole load's deadline in milliseconds; nil for none.
  let deadlineMs: UInt64?
  /// The response identifier of the load.
  let responseIdentifier: ResponseIdentifier

  init(
    request: AdRequest, unit: AdUnit, owner: OwnerID, sources: [any AdSource],
    options: LoaderOptions, seed: UInt64, deadlineMs: UInt64?,
    responseIdentifier: ResponseIdentifier
  ) {
    self.request = request
    self.unit = unit
    self.owner = owner
    self.sources = sources
    self.options = options
    self.seeds = SeedSequence(base: seed)
    self.deadlineMs = deadlineMs
    self.responseIdentifier = responseIdentifier
  }
}

/// What a finished load filled with.
struct LoadFill {
  /// The fills, best first.
  var fills: [SourceFill]
  /// The response info: the source that filled, and every source tried.
  var responseInfo: ResponseInfo
  /// When the source that filled answered: the ads made of the fills are loaded then (one
  /// clock read for both).
  var filledAt: Double
}

/// The state of one load in flight (see ``WaterfallEngine``).
///
/// Owned by the engine's table of loads in flight while it waits on a source (a load whose
/// sources answer at once never enters it); answers, timers and the deadline name it by
/// number, so a finished load is freed at once.
final class WaterfallLoad {
  /// The source being waited on.
  struct Waiting {
    var token: UInt64
    var ask: (any PendingAsk)?
    var askedAt: Double
    var timeoutMs: UInt64?
    var timeoutWork: (any ScheduledWork)?
  }

  typealias Completion = (Result<LoadFill, AdLoadError>) -> Void

  /// The engine's number for this load (1, 2, ...).
  let number: UInt64
  let plan: LoadPlan
  /// The caller's completion; nil once the load finished (or was cancelled), and until the
  /// caller of ``WaterfallEngine/start(_:)`` sets it.
  var completion: Completion?
  /// The result of a load that finished before it had a completion (its sources answered
  /// inside ``WaterfallEngine/start(_:)``), until `start` hands it over.
  var resultAtOnce: Result<LoadFill, AdLoadError>?
  /// Whether the load has finished (or was cancelled).
  var isFinished = false
  /// The index of the next source to ask.
  var nextSource = 0
  /// Numbers the asks, so that an answer to an ask no longer waited on changes nothing.
  var askCounter: UInt64 = 0
  /// The response info entries of the sources tried, in order.
  var tried: [AdNetworkInfo] = []
  /// How many sources were skipped for a missing adapter.
  var missingAdapters = 0
  /// The last source's answer that could not be used, and the place it names.
  var invalidResponse: (error: AdNetworkError, field: String?)?
  /// Whether a source reported a network error.
  var sawNetworkError = false
  var deadlineWork: (any ScheduledWork)?
  var waiting: Waiting?
  /// Whether the engine is inside its loop asking this load's sources.
  var isAdvancing = false
  /// Whether the load is in the engine's table of loads waiting on a source.
  var isListed = false

  init(number: UInt64, plan: LoadPlan) {
    self.number = number
    self.plan = plan
    tried.reserveCapacity(plan.sources.count)
  }

  /// Response info for a load that did not fill: every source it tried. (A fill's is made by
  /// the engine, with the entry of the source that filled.)
  var unfilledResponseInfo: ResponseInfo {
    ResponseInfo(
      identifier: plan.responseIdentifier, isTestRequest: plan.request.isTestRequest,
      loaded: nil, tried: tried)
  }
}

/// Names one load of an ``AdManager``, to cancel it (``AdManager/cancelLoad(_:)``).
public struct LoadTicket: Hashable, Sendable {
  /// The engine's number for the load.
  let number: UInt64
  /// Who loads.
  let owner: OwnerID
}
