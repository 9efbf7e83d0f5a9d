/// Where ads come from: the inventory's creatives, a custom event adapter, and any other
/// source a load can ask (an ad response string, a bidder). A load asks its sources in turn
/// through the ``WaterfallEngine``, which times them out, keeps their response info entries
/// and finishes the load once. A new kind of source is a type conforming to this protocol and
/// a case in ``AdSourceCatalog``; the ``AdManager`` does not change.
///
/// Loop-bound: asked and answering on the event loop thread.
public protocol AdSource: AnyObject {
  /// The `adNetworkClassName` of the source's response info entry when it fails while waited
  /// on (timeout, deadline, its answerer gone).
  var adNetworkClassName: String { get }
  /// The `adSourceName` of that entry.
  var adSourceName: String { get }
  /// How long the engine waits for an answer, in milliseconds; nil: no limit of its own (the
  /// load's deadline still applies).
  var timeoutMs: UInt64? { get }
  /// Asks for up to `ask.count` ads. Answers through `answer` exactly once, now or later,
  /// unless abandoned first; returns the ask in flight when it will answer later (nil when it
  /// already answered).
  func ask(_ ask: SourceAsk, answer: @escaping (SourceAnswer) -> Void) -> (any PendingAsk)?
  /// The answer to `ask` now, for a source that always answers at once (the inventory, an ad
  /// response string): the engine asks this first and makes no completion for such a source.
  /// Nil (the default): ask through ``ask(_:answer:)``. A source that implements it answers
  /// the same through both, and starts or cancels no load while it answers: a load's first
  /// source is asked before the engine keeps any state for the load (see
  /// ``WaterfallEngine/start(_:)``).
  func answerNow(_ ask: SourceAsk) -> SourceAnswer?
}

extension AdSource {
  /// Nil: the source answers through ``ask(_:answer:)``.
  public func answerNow(_ ask: SourceAsk) -> SourceAnswer? { nil }
}

/// An ask a source has not answered yet.
public protocol PendingAsk: AnyObject {
  /// Who will answer: the owner of the adapter that was asked (a connection), nil for
  /// in-process sources. When that owner goes away, the ask fails at once.
  var answerer: OwnerID? { get }
  /// The engine no longer waits, for `reason`: answers after this do nothing.
  func abandon(_ reason: AbandonReason)
}

/// Why a load stopped waiting on a source.
public enum AbandonReason: Sendable, Equatable {
  /// The source did not answer within its timeout.
  case timedOut
  /// The load's deadline passed.
  case deadlinePassed
  /// The load was cancelled: the app cancelled its request, or its connection closed. Whoever
  /// was asked should stop working on it (a remote adapter is told so).
  case cancelled
  /// Whoever was to answer went away (its connection closed).
  case answererLeft
}

/// One ask of a source during a load (a view of the load's plan: nothing is copied).
public struct SourceAsk {
  let plan: LoadPlan

  /// The app's request.
  public var request: AdRequest { plan.request }
  /// The ad unit loaded.
  public var unit: AdUnit { plan.unit }
  /// The options ads are served with (`numberOfAds` as many as the load serves).
  public var options: LoaderOptions { plan.options }
  /// How many ads the load wants from this source.
  public var count: Int { plan.options.numberOfAds }
  /// The next of the load's seeds (``SeedSequence``): a source that draws at random takes one.
  public func nextSeed() -> UInt64 { plan.seeds.next() }
}

/// The seeds of one load's random sources: the first source to draw gets the load's seed, the
/// k-th after it that seed mixed with k, so a load with the same seed draws the same.
public struct SeedSequence: Sendable {
  private let base: UInt64
  private var drawn: UInt64 = 0

  /// A sequence starting at `base`.
  public init(base: UInt64) {
    self.base = base
  }

  /// The next seed.
  public mutating func next() -> UInt64 {
    defer { drawn += 1 }
    return drawn == 0 ? base : Self.mix(base, drawn)
  }

  /// Mixes two values into a well-spread seed.
  public static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var generator = SplitMix64(seed: a ^ (b &* 0xD1B5_4A32_D192_ED03))
    return generator.next()
  }
}

/// A creative a source filled with, and how it was mediated.
public struct SourceFill {
  /// The creative to serve.
  public var creative: Creative
  /// How the ad was mediated; nil for inventory creatives.
  public var mediation: MediationInfo? {
    get { mediationBox?.info }
    set { mediationBox = newValue.map(MediationBox.init) }
  }
  /// ``mediation``, boxed (a fill is copied on its way to its ad).
  var mediationBox: MediationBox?
  /// Called with the live ad made from the fill, before anybody hears of it.
  public var bind: ((NativeAd) -> Void)?

  /// Creates a fill.
  public init(
    creative: Creative, mediation: MediationInfo? = nil, bind: ((NativeAd) -> Void)? = nil
  ) {
    self.creative = creative
    self.mediationBox = mediation.map(MediationBox.init)
    self.bind = bind
  }
}

/// What a source answered: ads, or why not, and the names its response info entry shows.
public struct SourceAnswer {
  /// How the source failed.
  public enum Failure: Sendable, Equatable {
    /// It was asked and reported `error`.
    case failed(AdNetworkError)
    /// It was not asked (latency 0): `error` says why.
    case skipped(AdNetworkError)
    /// It was not asked because its adapter class is not registered.
    case missingAdapter(AdNetworkError)
    /// What it answered cannot be used (an ad response string that cannot be mapped): the
    /// load fails with ``GADErrorCode/receivedInvalidResponse``. `field` names the place.
    case invalidResponse(AdNetworkError, field: String?)

    /// The error shown in the response info entry.
    public var error: AdNetworkError {
      switch self {
      case .failed(let error), .skipped(let error), .missingAdapter(let error),
        .invalidResponse(let error, _):
        error
      }
    }
  }

  /// The entry's `adNetworkClassName`.
  public var adNetworkClassName: String
  /// The entry's `adSourceName`.
  public var adSourceName: String
  /// The ads, best first; empty on failure.
  public var fills: [SourceFill]
  /// Why there are no ads; nil when it filled.
  public var failure: Failure? {
    get { failureBox?.failure }
    set { failureBox = newValue.map(FailureBox.init) }
  }
  /// Whether the source filled (``failure`` is nil), read without copying the failure.
  public var filled: Bool { failureBox == nil }
  /// ``failure``, boxed: an answer that filled holds one nil reference, which costs nothing
  /// to copy or destroy (an optional `Failure`, an enum of errors and strings, is copied and
  /// destroyed through Optional's generic witnesses).
  private var failureBox: FailureBox?

  private final class FailureBox {
    let failure: Failure
    init(_ failure: Failure) { self.failure = failure }
  }

  public init(
    adNetworkClassName: String, adSourceName: String, fills: [SourceFill],
    failure: Failure? = nil
  ) {
    self.adNetworkClassName = adNetworkClassName
    self.adSourceName = adSourceName
    self.fills = fills
    self.failureBox = failure.map(FailureBox.init)
  }

  /// The source filled with `fills` (at least one).
  public static func filled(_ fills: [SourceFill], className: String, sourceName: String)
    -> SourceAnswer
  {
    SourceAnswer(adNetworkClassName: className, adSourceName: sourceName, fills: fills)
  }

  /// The source did not fill.
  public static func failed(_ failure: Failure, className: String, sourceName: String)
    -> SourceAnswer
  {
    SourceAnswer(
      adNetworkClassName: className, adSourceName: sourceName, fills: [], failure: failure)
  }
}
