/// Loading through mediation waterfalls (see `docs/mediation.md`).
extension AdManager {
  /// Loads ads for `owner` and hands the result to `completion`, exactly once (unless the load
  /// is cancelled with ``cancelLoads(ownedBy:)``).
  ///
  /// Invalid requests and units without a ``AdUnit/waterfall`` complete synchronously, exactly
  /// as ``load(_:owner:)`` answers. A waterfall unit serves one ad whatever `numberOfAds` says:
  /// - its sources are asked by eCPM, highest first (ties in listed order), until one fills;
  /// - `inventory`: the unit's creatives, decided as for any unit; nothing eligible is a
  ///   no-fill entry;
  /// - `customEvent`: the adapter registered under its class name (``adapters``) is asked
  ///   for a native ad (``MediationNativeAdConfiguration``), and the source fails when it
  ///   answers with an error, maps an ad that is not valid
  ///   (``MediatedNativeAd/problem``; code 102), or does not answer within
  ///   `timeoutMs` (``AdNetworkError/adapterTimeout(milliseconds:)``; a later answer is
  ///   ignored). A class that is not registered is skipped
  ///   (``AdNetworkError/missingAdapter(className:)``, latency 0), and so is every custom
  ///   event when the request does not accept `native` ads
  ///   (``AdNetworkError/customEventNeedsNativeAdType``);
  /// - the whole load has a deadline (``AdUnit/deadlineMs``, else ``mediationDeadlineMs``):
  ///   when it passes, the source being asked gets a
  ///   ``AdNetworkError/deadlinePassed(milliseconds:)`` entry, the rest are not tried, and
  ///   the load fails with ``GADErrorCode/timeout``;
  /// - when nothing fills it fails with ``GADErrorCode/networkError`` if a source reported a
  ///   network error (``AdNetworkError/isNetworkError``), else
  ///   ``GADErrorCode/mediationAdapterError`` if every source was skipped for a missing
  ///   adapter, else ``GADErrorCode/noFill``.
  ///
  /// Timeouts and deadlines run on ``scheduler``; without one nothing times out. Response
  /// info lists every source tried, in order, with its latency (from when it was asked, by
  /// ``clock``) and error; a custom event's entry names the adapter class and its label
  /// (default: the class name), an inventory entry is Google's as for units without a
  /// waterfall. An ad a custom event filled is a system-defined native ad (creative ID
  /// `mediated-<class>-<loadId>`) with ``NativeAd/mediation`` set; the adapter's
  /// ``MediationNativeAdEventDelegate`` reports on it.
  ///
  /// Adapters' seeds (``MediationNativeAdConfiguration/seed``): `request.seed`, else one mixed
  /// from the manager's seed and its count of waterfall loads, for the first custom event a
  /// load asks; the k-th after it gets that seed mixed with k.
  public func load(
    _ request: AdRequest, owner: OwnerID,
    completion:
      @escaping (Result<(ads: [NativeAd], responseInfo: ResponseInfo), AdLoadError>) ->
      Void
  ) {
    let prepared: PreparedLoad
    do {
      prepared = try prepareLoad(request)
    } catch {
      completion(.failure(error))
      return
    }
    guard prepared.unit.waterfall != nil else {
      do {
        completion(
          .success(
            try loadFromInventory(request, unit: prepared.unit, owner: owner, prepared: prepared)))
      } catch {
        completion(.failure(error))
      }
      return
    }
    startWaterfall(request, owner: owner, prepared: prepared, completion: completion)
  }

  /// How many waterfall loads are in flight (waiting for an adapter).
  public var inFlightLoadCount: Int { activeLoads.count }

  /// Cancels `owner`'s waterfall loads in flight (e.g. when its connection closes): their
  /// completions are never called, their adapters' answers are ignored and the adapters are
  /// told (``MediationAdapter/loadWasAbandoned(loadId:)``). Returns how many were cancelled.
  @discardableResult
  public func cancelLoads(ownedBy owner: OwnerID) -> Int {
    let runs = activeLoads.values.filter { $0.owner == owner }.sorted { $0.number < $1.number }
    for run in runs { cancel(run) }
    return runs.count
  }

  /// Unregisters the adapters `owner` registered (its connection closed) and fails every
  /// source waiting on one of them, as that source failing with
  /// ``AdNetworkError/adapterConnectionClosed`` (code 102): those waterfalls move on to their
  /// next source. Returns the class names unregistered, sorted.
  @discardableResult
  public func releaseAdapters(ownedBy owner: OwnerID) -> [String] {
    let names = adapters.unregisterAll(ownedBy: owner)
    let runs = activeLoads.values
      .filter { $0.waiting?.adapterOwner == owner }
      .sorted { $0.number < $1.number }
    for run in runs {
      guard let pending = run.waiting, pending.adapterOwner == owner, !run.isFinished else {
        continue
      }
      stopWaiting(run)
      sourceFailed(run, pending, .adapterConnectionClosed)
      pending.adapter.loadWasAbandoned(loadId: pending.loadId)
      advance(run)
    }
    return names
  }

  // MARK: Running a waterfall

  /// Starts the waterfall of `prepared.unit` and asks sources until one fills or one must be
  /// waited for.
  @discardableResult
  func startWaterfall(
    _ request: AdRequest, owner: OwnerID, prepared: PreparedLoad,
    completion: @escaping WaterfallLoad.Completion
  ) -> WaterfallLoad {
    let unit = prepared.unit
    waterfallLoadCounter += 1
    var options = request.options
    options.numberOfAds = 1
    let deadlineMs = unit.deadlineMs ?? mediationDeadlineMs
    let run = WaterfallLoad(
      number: waterfallLoadCounter, request: request, owner: owner, unit: unit,
      sources: WaterfallSource.ordered(unit.waterfall ?? []), options: options,
      seed: request.seed ?? Self.mix(seed, waterfallLoadCounter), deadlineMs: deadlineMs,
      responseIdentifier: prepared.responseIdentifier, completion: completion)
    activeLoads[run.number] = run
    if let scheduler {
      run.deadlineWork = scheduler.schedule(after: deadlineMs) { [weak self, weak run] in
        guard let self, let run else { return }
        self.deadlinePassed(run)
      }
    }
    advance(run)
    return run
  }

  /// Asks the next sources of `run` while none is being waited for, until it finishes.
  /// Re-entrant calls (an adapter answering inside its load call) return at once: the outer
  /// loop goes on.
  func advance(_ run: WaterfallLoad) {
    guard !run.isAdvancing else { return }
    run.isAdvancing = true
    defer { run.isAdvancing = false }
    while !run.isFinished, run.waiting == nil {
      guard run.nextSource < run.sources.count else {
        finishWithoutAd(run)
        return
      }
      let source = run.sources[run.nextSource]
      run.nextSource += 1
      switch source {
      case .inventory:
        askInventory(run)
      case .customEvent(let className, let parameter, let eCPM, let timeoutMs, let label):
        askCustomEvent(
          run, className: className, parameter: parameter, eCPM: eCPM, timeoutMs: timeoutMs,
          sourceName: label ?? className)
      }
    }
  }

  private func askInventory(_ run: WaterfallLoad) {
    let askedAt = clock.now()
    let best = CreativeSelector.rankedCreatives(
      of: run.unit, for: run.request, in: inventory, rotation: &rotation
    ).first
    let latency = max(0, clock.now() - askedAt)
    guard let best else {
      run.tried.append(
        AdNetworkInfo(
          adNetworkClassName: AdNetworkInfo.googleAdapterClassName,
          adSourceName: sourceName(ofUnit: run.unit), latency: latency, error: .noFill))
      return
    }
    let entry = AdNetworkInfo(
      adNetworkClassName: AdNetworkInfo.googleAdapterClassName,
      adSourceName: sourceName(of: best), latency: latency, error: nil)
    run.tried.append(entry)
    _ = finishWithAd(run, creative: best, loaded: entry)
  }

  private func askCustomEvent(
    _ run: WaterfallLoad, className: String, parameter: String, eCPM: Double,
    timeoutMs: UInt64, sourceName: String
  ) {
    func skipped(_ error: AdNetworkError) {
      run.tried.append(
        AdNetworkInfo(
          adNetworkClassName: className, adSourceName: sourceName, latency: 0, error: error))
    }
    guard run.request.adTypes.contains(.native) else {
      skipped(.customEventNeedsNativeAdType)
      return
    }
    guard let adapter = adapters.adapter(named: className) else {
      run.missingAdapters += 1
      skipped(.missingAdapter(className: className))
      return
    }
    adapterLoadCounter += 1
    let loadId = "load-" + String(adapterLoadCounter)
    let seed =
      run.customEventsAsked == 0 ? run.seed : Self.mix(run.seed, run.customEventsAsked)
    run.customEventsAsked += 1

    let completion = MediationNativeLoadCompletion { [weak self, weak run] result in
      guard let self, let run else { return nil }
      return self.sourceAnswered(run, loadId: loadId, result: result)
    }
    var pending = WaterfallLoad.PendingSource(
      loadId: loadId, className: className, sourceName: sourceName, eCPM: eCPM,
      timeoutMs: timeoutMs, adapter: adapter, adapterOwner: adapters.owner(of: className),
      completion: completion, askedAt: clock.now())
    if let scheduler {
      pending.timeoutWork = scheduler.schedule(after: timeoutMs) { [weak self, weak run] in
        guard let self, let run else { return }
        self.sourceTimedOut(run, loadId: loadId)
      }
    }
    run.waiting = pending
    let configuration = MediationNativeAdConfiguration(
      credentials: MediationCredentials(settings: [MediationCredentials.parameterKey: parameter]),
      options: run.options, isTestRequest: run.request.isTestRequest, seed: seed,
      adapterClassName: className, loadId: loadId)
    adapter.loadNativeAd(for: configuration, completion: completion)
  }

  /// An adapter answered load `loadId` of `run` (the completion makes sure it is the first
  /// answer). Returns the event delegate of the ad, when it is served.
  private func sourceAnswered(
    _ run: WaterfallLoad, loadId: String, result: Result<MediatedNativeAd, AdNetworkError>
  ) -> (any MediationNativeAdEventDelegate)? {
    guard !run.isFinished, let pending = run.waiting, pending.loadId == loadId else {
      return nil
    }
    stopWaiting(run)
    let mapped: MediatedNativeAd
    switch result {
    case .failure(let error):
      sourceFailed(run, pending, error)
      advance(run)
      return nil
    case .success(let ad):
      if let problem = ad.problem {
        sourceFailed(run, pending, .invalidMappedAd(problem.description))
        advance(run)
        return nil
      }
      mapped = ad
    }
    let entry = AdNetworkInfo(
      adNetworkClassName: pending.className, adSourceName: pending.sourceName,
      latency: max(0, clock.now() - pending.askedAt), error: nil)
    run.tried.append(entry)
    let delegate = MediatedAdEventDelegate(manager: self)
    let mediation = MediationInfo(
      adapterClassName: pending.className, loadId: loadId, adapterOwner: pending.adapterOwner,
      handlesUserClicks: mapped.handlesUserClicks,
      handlesUserImpressions: mapped.handlesUserImpressions, forwarding: mapped.forwarding,
      eventDelegate: delegate)
    _ = finishWithAd(
      run,
      creative: mapped.creative(id: "mediated-\(pending.className)-\(loadId)", eCPM: pending.eCPM),
      loaded: entry, mediation: mediation, delegate: delegate)
    return delegate
  }

  /// The source `run` waits on got no answer within its timeout.
  private func sourceTimedOut(_ run: WaterfallLoad, loadId: String) {
    guard !run.isFinished, let pending = run.waiting, pending.loadId == loadId else { return }
    stopWaiting(run)
    sourceFailed(run, pending, .adapterTimeout(milliseconds: pending.timeoutMs))
    pending.adapter.loadWasAbandoned(loadId: pending.loadId)
    advance(run)
  }

  /// The deadline of `run` passed: the source being asked times out and the load fails.
  private func deadlinePassed(_ run: WaterfallLoad) {
    guard !run.isFinished else { return }
    run.deadlineWork = nil
    let pending = run.waiting
    if let pending {
      stopWaiting(run)
      sourceFailed(run, pending, .deadlinePassed(milliseconds: run.deadlineMs))
    }
    finish(
      run,
      .failure(
        AdLoadError(
          code: .timeout,
          message:
            "Request Error: The mediation waterfall did not fill within its deadline of"
            + " \(run.deadlineMs) ms.",
          responseInfo: responseInfo(
            run.responseIdentifier, run.request, loaded: nil, tried: run.tried))))
    if let pending { pending.adapter.loadWasAbandoned(loadId: pending.loadId) }
  }

  /// Stops waiting on `run`'s current source: its completion accepts no more answers and its
  /// timeout is cancelled.
  private func stopWaiting(_ run: WaterfallLoad) {
    guard let pending = run.waiting else { return }
    run.waiting = nil
    pending.completion.invalidate()
    pending.timeoutWork?.cancel()
  }

  /// Records the failure of the custom event `pending` with `error`.
  private func sourceFailed(
    _ run: WaterfallLoad, _ pending: WaterfallLoad.PendingSource, _ error: AdNetworkError
  ) {
    if error.isNetworkError { run.sawNetworkError = true }
    run.tried.append(
      AdNetworkInfo(
        adNetworkClassName: pending.className, adSourceName: pending.sourceName,
        latency: max(0, clock.now() - pending.askedAt), error: error))
  }

  /// Serves `creative` as `run`'s one ad (bound to `delegate` before anyone hears of it).
  private func finishWithAd(
    _ run: WaterfallLoad, creative: Creative, loaded: AdNetworkInfo,
    mediation: MediationInfo? = nil, delegate: MediatedAdEventDelegate? = nil
  ) -> NativeAd {
    let info = responseInfo(run.responseIdentifier, run.request, loaded: loaded, tried: run.tried)
    let ad = makeAd(
      creative: creative, options: run.options, responseInfo: info, owner: run.owner,
      at: clock.now())
    ad.mediation = mediation
    delegate?.ad = ad
    finish(run, .success((ads: [ad], responseInfo: info)))
    return ad
  }

  /// Fails `run` after every source was tried (see ``load(_:owner:completion:)``).
  private func finishWithoutAd(_ run: WaterfallLoad) {
    let code: GADErrorCode
    let message: String
    if run.sawNetworkError {
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
          code: code, message: message,
          responseInfo: responseInfo(
            run.responseIdentifier, run.request, loaded: nil, tried: run.tried))))
  }

  /// Ends `run` and hands `result` to its completion.
  private func finish(
    _ run: WaterfallLoad,
    _ result: Result<(ads: [NativeAd], responseInfo: ResponseInfo), AdLoadError>
  ) {
    guard let completion = run.completion else { return }
    end(run)
    completion(result)
  }

  /// Ends `run` without an answer (its completion is dropped).
  func cancel(_ run: WaterfallLoad) {
    guard !run.isFinished else { return }
    let pending = run.waiting
    stopWaiting(run)
    end(run)
    if let pending { pending.adapter.loadWasAbandoned(loadId: pending.loadId) }
  }

  /// Forgets `run`: no completion, no deadline, not in flight.
  private func end(_ run: WaterfallLoad) {
    run.completion = nil
    run.deadlineWork?.cancel()
    run.deadlineWork = nil
    activeLoads.removeValue(forKey: run.number)
  }

  /// Mixes two values into a well-spread seed.
  static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var generator = SplitMix64(seed: a ^ (b &* 0xD1B5_4A32_D192_ED03))
    return generator.next()
  }
}
