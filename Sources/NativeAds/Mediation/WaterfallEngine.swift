/// Runs loads: asks a plan's sources in turn until one fills, times each out, keeps the
/// deadline, and finishes each load exactly once (see `docs/mediation.md`).
///
/// - Each source is asked when the one before it failed; a source that answers later is
///   waited for, for at most its ``AdSource/timeoutMs``
///   (``AdNetworkError/adapterTimeout(milliseconds:)``; a later answer is ignored).
/// - The plan's deadline: when it passes, the source being asked gets a
///   ``AdNetworkError/deadlinePassed(milliseconds:)`` entry, the rest are not tried, and the
///   load fails with ``GADErrorCode/timeout``.
/// - When nothing fills, the load fails with ``GADErrorCode/receivedInvalidResponse`` if a
///   source answered what cannot be used, else ``GADErrorCode/networkError`` if a source
///   reported a network error, else ``GADErrorCode/mediationAdapterError`` if every source was
///   skipped for a missing adapter, else ``GADErrorCode/noFill``.
///
/// Timeouts and deadlines run on ``scheduler``; without one nothing times out. Latencies are
/// from when each source was asked, by ``clock``. Loop-bound.
final class WaterfallEngine {
  let clock: any AdClock
  var scheduler: (any MediationScheduler)?
  private var loadCounter: UInt64 = 0
  /// The loads in flight that wait on a source, by number.
  private(set) var active: [UInt64: WaterfallLoad] = [:]
  /// The loads being started, innermost last: asked at once, they enter ``active`` only if
  /// they then wait (a load whose sources answer at once never does).
  private var starting: [WaterfallLoad] = []

  init(clock: any AdClock) {
    self.clock = clock
  }

  /// How many loads are in flight (waiting for a source).
  var inFlightCount: Int { active.count + starting.count { !$0.isFinished } }

  /// The loads in flight, in the order they started.
  private var inFlight: [WaterfallLoad] {
    (Array(active.values) + starting.filter { !$0.isFinished }).sorted { $0.number < $1.number }
  }

  /// How ``start(_:)`` left a load.
  enum Started {
    /// Its sources answered inside the call: the load is over, and never waited.
    case finished(number: UInt64, Result<LoadFill, AdLoadError>)
    /// It waits on a source (or a source cancelled it while asked): the caller sets its
    /// ``WaterfallLoad/completion`` before returning to the loop, and it gets the result
    /// exactly once (unless the load is cancelled).
    case waiting(WaterfallLoad)

    /// The engine's number for the load (1, 2, ...).
    var number: UInt64 {
      switch self {
      case .finished(let number, _): number
      case .waiting(let run): run.number
      }
    }

    /// Whether the load is over (answered, failed or cancelled).
    var isFinished: Bool {
      switch self {
      case .finished: true
      case .waiting(let run): run.isFinished
      }
    }
  }

  /// Runs `plan`; `completion` gets the fills or the failure, exactly once (unless the load is
  /// cancelled), at once when every source asked answered at once.
  @discardableResult
  func start(_ plan: LoadPlan, completion: @escaping WaterfallLoad.Completion) -> Started {
    let started = start(plan)
    switch started {
    case .finished(_, let result): completion(result)
    case .waiting(let run): if !run.isFinished { run.completion = completion }
    }
    return started
  }

  /// Runs `plan` with no completion yet. A load whose sources answer at once comes back
  /// ``Started/finished(number:_:)`` with its result (no completion made or called); one that
  /// waits comes back ``Started/waiting(_:)``.
  ///
  /// The common load, whose first source answers at once and fills, keeps no state at all: it
  /// is asked and answered here, and the same ``filled(_:_:askedAt:after:)`` makes its fill.
  func start(_ plan: LoadPlan) -> Started {
    loadCounter += 1
    let number = loadCounter
    guard let source = plan.sources.first else { return run(plan, number, failedAtOnce: nil) }
    let askedAt = clock.now()
    guard let answer = source.answerNow(SourceAsk(plan: plan)) else {
      return run(plan, number, failedAtOnce: nil)
    }
    guard !answer.filled, let failure = answer.failure else {
      return .finished(number: number, .success(filled(plan, answer, askedAt: askedAt, after: [])))
    }
    return run(plan, number, failedAtOnce: (answer, failure, askedAt))
  }

  /// ``start(_:)`` of a load that did not fill at its first source at once: its state is
  /// made, the first source's failure at once (if it answered so) recorded, and the next
  /// sources asked. (Apart from ``start(_:)``, so that the common load, which fills at once,
  /// makes and destroys no optional of that failure.)
  private func run(
    _ plan: LoadPlan, _ number: UInt64,
    failedAtOnce: (answer: SourceAnswer, failure: SourceAnswer.Failure, askedAt: Double)?
  ) -> Started {
    let run = WaterfallLoad(number: number, plan: plan)
    if let scheduler, let deadlineMs = plan.deadlineMs {
      run.deadlineWork = scheduler.schedule(after: deadlineMs) { [self] in
        guard let run = load(numbered: number) else { return }
        deadlinePassed(run, deadlineMs: deadlineMs)
      }
    }
    starting.append(run)
    if let (answer, failure, askedAt) = failedAtOnce {
      // Recorded as the failure of a source that was waited on; the next source is asked.
      run.nextSource = 1
      sourceFailed(
        run, askedAt: askedAt, failure, className: answer.adNetworkClassName,
        sourceName: answer.adSourceName)
    }
    advance(run)
    starting.removeLast()
    if let result = run.resultAtOnce {
      return .finished(number: number, result)
    }
    if !run.isFinished {
      run.isListed = true
      active[run.number] = run
    }
    return .waiting(run)
  }

  /// The load in flight numbered `number`, if any.
  /// Whether load `number` is still running (asking its sources).
  func isRunning(loadNumbered number: UInt64) -> Bool {
    guard let run = load(numbered: number) else { return false }
    return !run.isFinished
  }

  private func load(numbered number: UInt64) -> WaterfallLoad? {
    if let run = starting.last(where: { $0.number == number }) { return run }
    return active[number]
  }

  /// Cancels `owner`'s loads in flight: their completions are never called and the sources
  /// they wait on are abandoned. Returns how many.
  @discardableResult
  func cancelLoads(ownedBy owner: OwnerID) -> Int {
    let runs = inFlight.filter { $0.plan.owner == owner }
    for run in runs { cancel(run) }
    return runs.count
  }

  /// Fails every ask that `answerer` was to answer (it went away) as
  /// ``AdNetworkError/adapterConnectionClosed``: those loads move on to their next source.
  func failAsks(answeredBy answerer: OwnerID) {
    let runs = inFlight.filter { $0.waiting?.ask?.answerer == answerer }
    for run in runs {
      guard let waiting = run.waiting, waiting.ask?.answerer == answerer, !run.isFinished else {
        continue
      }
      stopWaiting(run, abandoning: .answererLeft)
      sourceFailed(run, askedAt: waiting.askedAt, .failed(.adapterConnectionClosed))
      advance(run)
    }
  }

  /// Ends `run` without an answer (its completion is dropped); the source it waits on is told
  /// the load was cancelled.
  func cancel(_ run: WaterfallLoad) {
    guard !run.isFinished else { return }
    stopWaiting(run, abandoning: .cancelled)
    end(run)
  }

  /// Cancels the load numbered `number` if it is in flight; returns whether it was.
  @discardableResult
  func cancel(loadNumbered number: UInt64) -> Bool {
    guard let run = load(numbered: number), !run.isFinished else { return false }
    cancel(run)
    return true
  }

  // MARK: Running

  /// Asks the next sources of `run` while none is being waited for, until it finishes.
  /// Re-entrant calls (a source answering inside its ask) return at once: the outer loop goes
  /// on.
  private func advance(_ run: WaterfallLoad) {
    guard !run.isAdvancing else { return }
    run.isAdvancing = true
    defer { run.isAdvancing = false }
    while !run.isFinished, run.waiting == nil {
      guard run.nextSource < run.plan.sources.count else {
        finishWithoutAd(run)
        return
      }
      let source = run.plan.sources[run.nextSource]
      run.nextSource += 1
      ask(source, for: run)
    }
  }

  private func ask(_ source: any AdSource, for run: WaterfallLoad) {
    run.askCounter += 1
    let token = run.askCounter
    run.waiting = WaterfallLoad.Waiting(
      token: token, ask: nil, askedAt: clock.now(), timeoutMs: source.timeoutMs)
    let ask = SourceAsk(plan: run.plan)
    // A source that answers at once: no answer closure to make.
    if let answer = source.answerNow(ask) {
      return answered(run, token: token, answer)
    }
    // The answer and the timers name the load by number and hold the engine strongly (it
    // lives as long as its manager): a source that keeps the answer keeps no load alive, and
    // no weak reference (a side table, and slow retains from then on) is set up.
    let number = run.number
    let pending = source.ask(ask) { [self] answer in
      guard let run = load(numbered: number) else { return }
      answered(run, token: token, answer)
    }
    // Still waiting on this ask: it answers later, within its timeout.
    guard let pending, run.waiting?.token == token, !run.isFinished else { return }
    run.waiting?.ask = pending
    if let scheduler, let timeoutMs = source.timeoutMs {
      run.waiting?.timeoutWork = scheduler.schedule(after: timeoutMs) { [self] in
        guard let run = load(numbered: number) else { return }
        timedOut(run, token: token)
      }
    }
  }

  /// A source answered ask `token` of `run` (ignored unless that ask is still waited on).
  private func answered(_ run: WaterfallLoad, token: UInt64, _ answer: SourceAnswer) {
    guard !run.isFinished, let waiting = run.waiting, waiting.token == token else { return }
    stopWaiting(run, abandoning: nil)
    if let failure = answer.failure {
      sourceFailed(
        run, askedAt: waiting.askedAt, failure, className: answer.adNetworkClassName,
        sourceName: answer.adSourceName)
      advance(run)
      return
    }
    finish(run, .success(filled(run.plan, answer, askedAt: waiting.askedAt, after: run.tried)))
  }

  /// The fill of a load whose source, asked at `askedAt`, filled with `answer` after the
  /// sources `tried` failed: the response info shows it loaded, tried last.
  private func filled(
    _ plan: LoadPlan, _ answer: SourceAnswer, askedAt: Double, after tried: [AdNetworkInfo]
  ) -> LoadFill {
    let now = clock.now()
    let entry = AdNetworkInfo(
      adNetworkClassName: answer.adNetworkClassName, adSourceName: answer.adSourceName,
      latency: max(0, now - askedAt), error: nil)
    return LoadFill(
      fills: answer.fills,
      responseInfo: ResponseInfo(
        identifier: plan.responseIdentifier, isTestRequest: plan.request.isTestRequest,
        loaded: entry, after: tried),
      filledAt: now)
  }

  /// The source `run` waits on got no answer within its timeout.
  private func timedOut(_ run: WaterfallLoad, token: UInt64) {
    guard !run.isFinished, let waiting = run.waiting, waiting.token == token,
      let timeoutMs = waiting.timeoutMs
    else { return }
    stopWaiting(run, abandoning: .timedOut)
    sourceFailed(run, askedAt: waiting.askedAt, .failed(.adapterTimeout(milliseconds: timeoutMs)))
    advance(run)
  }

  /// The deadline of `run` passed: the source being asked times out and the load fails.
  private func deadlinePassed(_ run: WaterfallLoad, deadlineMs: UInt64) {
    guard !run.isFinished else { return }
    run.deadlineWork = nil
    if let waiting = run.waiting {
      stopWaiting(run, abandoning: .deadlinePassed)
      sourceFailed(
        run, askedAt: waiting.askedAt, .failed(.deadlinePassed(milliseconds: deadlineMs)))
    }
    finish(
      run,
      .failure(
        AdLoadError(
          code: .timeout,
          message:
            "Request Error: The mediation waterfall did not fill within its deadline of"
            + " \(deadlineMs) ms.",
          responseInfo: run.unfilledResponseInfo)))
  }

  /// Stops waiting on `run`'s current source: its timeout is cancelled and the ask is
  /// abandoned for `reason` (nil: it just answered).
  private func stopWaiting(_ run: WaterfallLoad, abandoning reason: AbandonReason?) {
    guard let waiting = run.waiting else { return }
    run.waiting = nil
    waiting.timeoutWork?.cancel()
    if let reason { waiting.ask?.abandon(reason) }
  }

  /// Records the failure of the source `run` waited on.
  private func sourceFailed(
    _ run: WaterfallLoad, askedAt: Double, _ failure: SourceAnswer.Failure,
    className: String? = nil, sourceName: String? = nil
  ) {
    let latency: Double
    switch failure {
    case .failed(let error):
      if error.isNetworkError { run.sawNetworkError = true }
      latency = max(0, clock.now() - askedAt)
    case .skipped: latency = 0
    case .invalidResponse(let error, let field):
      run.invalidResponse = (error, field)
      latency = max(0, clock.now() - askedAt)
    case .missingAdapter:
      run.missingAdapters += 1
      latency = 0
    }
    let source = run.plan.sources[run.nextSource - 1]
    run.tried.append(
      AdNetworkInfo(
        adNetworkClassName: className ?? source.adNetworkClassName,
        adSourceName: sourceName ?? source.adSourceName, latency: latency, error: failure.error))
  }

  /// Fails `run` after every source was tried.
  private func finishWithoutAd(_ run: WaterfallLoad) {
    let code: GADErrorCode
    let message: String
    var field: String?
    if let invalid = run.invalidResponse {
      code = .receivedInvalidResponse
      message = invalid.error.message
      field = invalid.field
    } else if run.sawNetworkError {
      code = .networkError
      message = "Request Error: A network error occurred."
    } else if run.missingAdapters > 0, run.missingAdapters == run.tried.count {
      code = .mediationAdapterError
      message = "Request Error: No adapter is registered for any source of the waterfall."
    } else {
      code = .noFill
      message = AdNetworkError.noFill.message
    }
    finish(
      run,
      .failure(
        AdLoadError(
          code: code, message: message, responseInfo: run.unfilledResponseInfo, field: field
        )))
  }

  /// Ends `run` and hands `result` to its completion, or keeps it in the load when it has none
  /// yet (it finished inside ``start(_:)``).
  private func finish(_ run: WaterfallLoad, _ result: Result<LoadFill, AdLoadError>) {
    guard !run.isFinished else { return }
    let completion = run.completion
    end(run)
    guard let completion else {
      run.resultAtOnce = result
      return
    }
    completion(result)
  }

  /// Forgets `run`: no completion, no deadline, not in flight.
  private func end(_ run: WaterfallLoad) {
    run.completion = nil
    run.isFinished = true
    run.deadlineWork?.cancel()
    run.deadlineWork = nil
    if run.isListed {
      run.isListed = false
      active.removeValue(forKey: run.number)
    }
  }
}
