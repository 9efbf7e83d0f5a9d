/// A load's ads, best first, and its response info.
public typealias LoadedAds = (ads: [NativeAd], responseInfo: ResponseInfo)

/// What a load comes to: its ads, or why there are none.
public typealias LoadResult = Result<LoadedAds, AdLoadError>

/// How a load started (``AdManager/startLoad(_:response:owner:)``): answered inside the call,
/// or answering later.
public enum LoadStart {
  /// Every source and the store answered inside the call. The ticket is nil when the request
  /// was invalid (no load was started).
  case answered(LoadResult, LoadTicket?)
  /// The load waits on a source or on the store: ``PendingLoad/onAnswer`` gets its result.
  case pending(PendingLoad)
}

/// A load that answers later: set ``onAnswer`` before returning to the event loop; it is called
/// exactly once, unless the load is cancelled (``AdManager/cancelLoad(_:)``, or its owner's
/// loads cancelled), and then never. Loop-bound.
public final class PendingLoad {
  /// The load, for ``AdManager/cancelLoad(_:)`` and ``AdManager/isAskingSources(_:)``.
  public let ticket: LoadTicket
  /// Gets the result. Set it once; a result that came before it was set is handed over then.
  public var onAnswer: ((LoadResult) -> Void)? {
    didSet {
      guard let onAnswer, let early else { return }
      self.early = nil
      self.onAnswer = nil
      onAnswer(early)
    }
  }
  private var early: LoadResult?

  init(ticket: LoadTicket) {
    self.ticket = ticket
  }

  /// The load's result: to ``onAnswer``, or kept until it is set.
  func answer(_ result: LoadResult) {
    guard let onAnswer else {
      early = result
      return
    }
    self.onAnswer = nil
    onAnswer(result)
  }

  /// The result that came before ``onAnswer`` was set, taken (nil when none came).
  func takeEarlyAnswer() -> LoadResult? {
    defer { early = nil }
    return early
  }
}
