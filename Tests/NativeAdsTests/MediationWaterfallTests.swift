import Testing

@testable import NativeAds

@Suite struct MediationWaterfallTests {
  typealias M = MediationFixtures

  @Test func theFirstSourceThatFillsServesTheAd() throws {
    let (manager, _, _) = M.manager(waterfall: [
      M.customEvent("NetworkA", eCPM: 3), .inventory(eCPM: 1, label: nil),
    ])
    let adapter = TestAdapter(.fill(TestAdapter.ad("From A")))
    M.register(adapter, as: "NetworkA", in: manager)
    let load = M.load(manager)
    let ad = try #require(load.ad)
    #expect(load.results.count == 1)
    #expect(ad.string(forKey: "headline") == "From A")
    #expect(ad.creative.id == "mediated-NetworkA-load-1")
    #expect(ad.mediation?.adapterClassName == "NetworkA")
    #expect(ad.mediation?.loadId == "load-1")
    #expect(ad.creative.content.nativeAssets?.extraAssets.first?.key == "Extra")
    #expect(ad.creative.eCPM == 3)
    #expect(ad.creative.isIndirect == false)
    let info = try #require(load.responseInfo)
    #expect(info.adNetworkInfoArray == [M.entry("NetworkA")])
    #expect(info.loadedAdNetworkResponseInfo == M.entry("NetworkA"))
    #expect(manager.ads.map(\.id) == [ad.id])
    #expect(manager.inFlightLoadCount == 0)
  }

  @Test func theAdapterIsGivenTheSourcesParameterAndTheRequestsOptions() throws {
    let (manager, _, _) = M.manager(waterfall: [M.customEvent("NetworkA", parameter: "unit-9")])
    let adapter = TestAdapter(.fail(TestAdapter.error))
    M.register(adapter, as: "NetworkA", in: manager)
    var request = AdRequest(adUnitID: M.unit, isTestRequest: true, seed: 1234)
    request.options.numberOfAds = 3
    request.options.mediaAspectRatio = .portrait
    request.options.disableImageLoading = true
    _ = M.load(manager, request)
    let configuration = try #require(adapter.configurations.first)
    #expect(configuration.credentials.settings == ["parameter": "unit-9"])
    #expect(configuration.credentials.parameter == "unit-9")
    #expect(configuration.options.numberOfAds == 1)
    #expect(configuration.options.mediaAspectRatio == .portrait)
    #expect(configuration.options.disableImageLoading)
    #expect(configuration.isTestRequest == true)
    #expect(configuration.seed == 1234)
    #expect(configuration.adapterClassName == "NetworkA")
    #expect(configuration.loadId == "load-1")
  }

  @Test func anAdapterErrorFallsThroughToTheNextSource() throws {
    let (manager, _, _) = M.manager(waterfall: [
      M.customEvent("NetworkA", eCPM: 3, label: "Network A"), .inventory(eCPM: 1, label: nil),
    ])
    M.register(TestAdapter(.fail(TestAdapter.error)), as: "NetworkA", in: manager)
    let load = M.load(manager)
    let ad = try #require(load.ad)
    #expect(ad.creative.id == "native-app-install-1")
    #expect(ad.mediation == nil)
    #expect(
      load.responseInfo?.adNetworkInfoArray == [
        M.entry("NetworkA", name: "Network A", error: TestAdapter.error), M.inventoryEntry(),
      ])
    #expect(load.responseInfo?.loadedAdNetworkResponseInfo == M.inventoryEntry())
  }

  @Test func aSourceThatDoesNotAnswerInTimeFallsThroughToTheNextSource() throws {
    let (manager, scheduler, _) = M.manager(waterfall: [
      M.customEvent("Slow", eCPM: 3, timeoutMs: 1500), .inventory(eCPM: 1, label: nil),
    ])
    let adapter = TestAdapter(.hold)
    M.register(adapter, as: "Slow", in: manager)
    let load = M.load(manager)
    #expect(!load.isComplete)
    #expect(manager.inFlightLoadCount == 1)
    scheduler.advance(by: 1499)
    #expect(!load.isComplete)
    scheduler.advance(by: 1)
    let ad = try #require(load.ad)
    #expect(ad.creative.id == "native-app-install-1")
    #expect(
      M.rounded(load.responseInfo?.adNetworkInfoArray) == [
        M.entry("Slow", latency: 1.5, error: .adapterTimeout(milliseconds: 1500)),
        M.inventoryEntry(),
      ])
    #expect(AdNetworkError.adapterTimeout(milliseconds: 1500).code == 5)
    #expect(adapter.abandoned == ["load-1"])
    #expect(adapter.held.first?.isFinished == true)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func aSourceWhoseAdapterIsNotRegisteredIsSkippedWithError8() throws {
    let (manager, _, _) = M.manager(waterfall: [
      M.customEvent("Missing", eCPM: 5, label: "Gone"), .inventory(eCPM: 1, label: nil),
    ])
    let load = M.load(manager)
    #expect(load.ad?.creative.id == "native-app-install-1")
    let missing = AdNetworkError(
      code: 8, domain: "com.google.admob",
      message: "No adapter is registered for the adapter class name \"Missing\".")
    #expect(
      load.responseInfo?.adNetworkInfoArray == [
        M.entry("Missing", name: "Gone", error: missing), M.inventoryEntry(),
      ])
  }

  @Test func sourcesAreAskedByECPMHighestFirstWithTiesInListedOrder() throws {
    let (manager, _, _) = M.manager(
      waterfall: [
        M.customEvent("A", eCPM: 1), M.customEvent("B", eCPM: 3), .inventory(eCPM: 2, label: nil),
        M.customEvent("C", eCPM: 3), M.customEvent("D", eCPM: 0.5),
      ],
      creativeIDs: [])
    for name in ["A", "B", "C", "D"] {
      M.register(TestAdapter(.fail(TestAdapter.error)), as: name, in: manager)
    }
    let load = M.load(manager)
    #expect(load.error?.code == .noFill)
    #expect(
      load.responseInfo?.adNetworkInfoArray.map(\.adNetworkClassName) == [
        "B", "C", "GADMAdapterGoogleAdMobAds", "A", "D",
      ])
    #expect(
      WaterfallSource.ordered([M.customEvent("X", eCPM: 1), M.customEvent("Y", eCPM: 1)])
        == [M.customEvent("X", eCPM: 1), M.customEvent("Y", eCPM: 1)])
  }

  @Test func aWaterfallUnitServesOneAdWhateverNumberOfAdsSays() throws {
    let (manager, _, _) = M.manager(
      waterfall: [.inventory(eCPM: 1, label: nil)],
      creativeIDs: ["native-app-install-1", "native-content-1"])
    var request = AdRequest(adUnitID: M.unit)
    request.options.numberOfAds = 5
    let load = M.load(manager, request)
    #expect(load.ads.count == 1)
    #expect(load.ad?.options.numberOfAds == 1)
    request.options.numberOfAds = 0
    #expect(M.load(manager, request).error?.code == .invalidRequest)
  }

  @Test func onlyTheFirstCallOfTheCompletionCounts() throws {
    let (manager, scheduler, _) = M.manager(waterfall: [
      M.customEvent("Held", eCPM: 3), .inventory(eCPM: 1, label: nil),
    ])
    let adapter = TestAdapter(.hold)
    M.register(adapter, as: "Held", in: manager)
    let load = M.load(manager)
    let completion = try #require(adapter.held.first)
    #expect(!completion.isFinished)
    let delegate = completion.succeed(with: TestAdapter.ad("First"))
    #expect(delegate != nil)
    #expect(completion.isFinished)
    #expect(completion.succeed(with: TestAdapter.ad("Second")) == nil)
    completion.fail(with: TestAdapter.error)
    #expect(load.results.count == 1)
    #expect(load.ad?.string(forKey: "headline") == "First")
    #expect(manager.ads.count == 1)
    #expect(load.responseInfo?.adNetworkInfoArray == [M.entry("Held")])
    #expect(scheduler.pendingCount == 0)
  }

  @Test func aFailureFirstMakesALaterSuccessCountForNothing() throws {
    let (manager, _, _) = M.manager(waterfall: [
      M.customEvent("Held", eCPM: 3), .inventory(eCPM: 1, label: nil),
    ])
    let adapter = TestAdapter(.hold)
    M.register(adapter, as: "Held", in: manager)
    let load = M.load(manager)
    let completion = try #require(adapter.held.first)
    completion.fail(with: TestAdapter.error)
    #expect(completion.succeed(with: TestAdapter.ad()) == nil)
    #expect(load.results.count == 1)
    #expect(load.ad?.creative.id == "native-app-install-1")
    #expect(manager.ads.count == 1)
  }

  @Test func anAnswerAfterTheTimeoutIsIgnoredAndNothingIsKeptAlive() throws {
    let (manager, scheduler, _) = M.manager(waterfall: [
      M.customEvent("Late", eCPM: 3, timeoutMs: 100), .inventory(eCPM: 1, label: nil),
    ])
    let adapter = TestAdapter(.hold)
    M.register(adapter, as: "Late", in: manager)
    let load = M.load(manager)
    weak let run = manager.engine.active.values.first
    #expect(run != nil)
    weak let weakCompletion = adapter.held.first
    #expect(weakCompletion != nil)
    scheduler.advance(by: 100)
    #expect(load.ad?.creative.id == "native-app-install-1")
    #expect(run == nil)
    #expect(adapter.held[0].succeed(with: TestAdapter.ad("Too late")) == nil)
    adapter.held[0].fail(with: TestAdapter.error)
    #expect(load.results.count == 1)
    #expect(manager.ads.count == 1)
    #expect(manager.inFlightLoadCount == 0)
    #expect(scheduler.pendingCount == 0)
    adapter.held.removeAll()
    #expect(weakCompletion == nil)
  }

  @Test func aFinishedLoadIsFreedEvenWhileTheAdapterKeepsItsCompletion() throws {
    let (manager, scheduler, _) = M.manager(waterfall: [M.customEvent("Held", eCPM: 3)])
    let adapter = TestAdapter(.hold)
    M.register(adapter, as: "Held", in: manager)
    let load = M.load(manager)
    weak let run = manager.engine.active.values.first
    _ = adapter.held[0].succeed(with: TestAdapter.ad())
    #expect(load.ad != nil)
    #expect(run == nil)
    #expect(scheduler.pendingCount == 0)
    #expect(adapter.held[0].isFinished)
  }

  @Test func theWholeLoadDeadlineFailsItWithTimeout() throws {
    let (manager, scheduler, _) = M.manager(
      waterfall: [
        M.customEvent("A", eCPM: 3, timeoutMs: 2000), M.customEvent("B", eCPM: 2, timeoutMs: 2000),
        .inventory(eCPM: 1, label: nil),
      ],
      deadlineMs: 3000)
    let a = TestAdapter(.hold)
    let b = TestAdapter(.hold)
    M.register(a, as: "A", in: manager)
    M.register(b, as: "B", in: manager)
    let load = M.load(manager)
    scheduler.advance(by: 2000)
    #expect(!load.isComplete)
    #expect(b.configurations.count == 1)
    scheduler.advance(by: 1000)
    let error = try #require(load.error)
    #expect(error.code == .timeout)
    #expect(error.code.rawValue + 1000 == 1005)
    #expect(
      M.rounded(error.responseInfo.adNetworkInfoArray) == [
        M.entry("A", latency: 2, error: .adapterTimeout(milliseconds: 2000)),
        M.entry("B", latency: 1, error: .deadlinePassed(milliseconds: 3000)),
      ])
    #expect(b.abandoned == ["load-2"])
    #expect(b.held[0].succeed(with: TestAdapter.ad()) == nil)
    #expect(load.results.count == 1)
    #expect(manager.ads.isEmpty)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func unitsWithoutTheirOwnDeadlineUseTheManagers() throws {
    let (manager, scheduler, _) = M.manager(waterfall: [M.customEvent("A", timeoutMs: 5000)])
    manager.mediationDeadlineMs = 400
    M.register(TestAdapter(.hold), as: "A", in: manager)
    let load = M.load(manager)
    scheduler.advance(by: 399)
    #expect(!load.isComplete)
    scheduler.advance(by: 1)
    #expect(load.error?.code == .timeout)
    #expect(manager.mediationDeadlineMs == 400)
    #expect(AdManager(inventory: Inventory()).mediationDeadlineMs == 10_000)
    #expect(WaterfallSource.defaultTimeoutMs == 5_000)
  }

  @Test func withoutASchedulerNothingTimesOut() throws {
    let (manager, _, _) = M.manager(waterfall: [M.customEvent("A", timeoutMs: 1)])
    manager.scheduler = nil
    let adapter = TestAdapter(.hold)
    M.register(adapter, as: "A", in: manager)
    let load = M.load(manager)
    #expect(!load.isComplete)
    _ = adapter.held[0].succeed(with: TestAdapter.ad())
    #expect(load.ad != nil)
  }

  @Test func whenNothingFillsANetworkErrorWins() throws {
    let (manager, _, _) = M.manager(
      waterfall: [
        M.customEvent("Missing", eCPM: 4), M.customEvent("Offline", eCPM: 3),
        M.customEvent("Empty", eCPM: 2), .inventory(eCPM: 1, label: nil),
      ],
      creativeIDs: [])
    M.register(TestAdapter(.fail(TestAdapter.networkError)), as: "Offline", in: manager)
    M.register(TestAdapter(.fail(TestAdapter.error)), as: "Empty", in: manager)
    let error = try #require(M.load(manager).error)
    #expect(error.code == .networkError)
    #expect(error.responseInfo.adNetworkInfoArray.count == 4)
    #expect(error.responseInfo.loadedAdNetworkResponseInfo == nil)
  }

  @Test func whenEverySourceMissesItsAdapterTheLoadFailsWithMediationAdapterError() throws {
    let (manager, _, _) = M.manager(waterfall: [
      M.customEvent("Missing1", eCPM: 2), M.customEvent("Missing2", eCPM: 1),
    ])
    let error = try #require(M.load(manager).error)
    #expect(error.code == .mediationAdapterError)
    #expect(error.code.rawValue == 8)
    #expect(error.responseInfo.adNetworkInfoArray.map(\.error?.code) == [8, 8])
  }

  @Test func otherwiseNothingFillingIsANoFill() throws {
    let missingAndEmptyInventory = M.manager(
      waterfall: [M.customEvent("Missing", eCPM: 2), .inventory(eCPM: 1, label: nil)],
      creativeIDs: [])
    let first = try #require(M.load(missingAndEmptyInventory.manager).error)
    #expect(first.code == .noFill)
    #expect(first.message == "Request Error: No ad to show.")
    #expect(
      first.responseInfo.adNetworkInfoArray.last
        == M.inventoryEntry(indirect: true, error: .noFill))

    let missingAndFailing = M.manager(waterfall: [
      M.customEvent("Missing", eCPM: 2), M.customEvent("Empty", eCPM: 1),
    ])
    M.register(TestAdapter(.fail(TestAdapter.error)), as: "Empty", in: missingAndFailing.manager)
    #expect(M.load(missingAndFailing.manager).error?.code == .noFill)
  }

  @Test func responseInfoListsEverySourceTriedWithItsLatency() throws {
    let (manager, scheduler, _) = M.manager(waterfall: [
      M.customEvent("A", eCPM: 3, label: "Network A"),
      M.customEvent("B", eCPM: 2, label: "Network B"), .inventory(eCPM: 1, label: "Backfill"),
    ])
    let a = TestAdapter(.hold)
    let b = TestAdapter(.hold)
    M.register(a, as: "A", in: manager)
    M.register(b, as: "B", in: manager)
    let load = M.load(manager, AdRequest(adUnitID: M.unit, isTestRequest: true))
    scheduler.advance(by: 250)
    a.held[0].fail(with: TestAdapter.error)
    scheduler.advance(by: 100)
    _ = b.held[0].succeed(with: TestAdapter.ad())
    let info = try #require(load.responseInfo)
    let loaded = M.entry("B", name: "Network B", latency: 0.1)
    #expect(
      M.rounded(info.adNetworkInfoArray) == [
        M.entry("A", name: "Network A", latency: 0.25, error: TestAdapter.error), loaded,
      ])
    #expect(info.loadedAdNetworkResponseInfo.map { M.rounded($0) } == loaded)
    #expect(info.isTestRequest == true)
    #expect(info.responseIdentifier.count == 24)
    #expect(load.ad?.responseInfo == info)
  }

  @Test func closingTheAdaptersConnectionFailsItsLoadsInFlight() throws {
    let (manager, scheduler, _) = M.manager(waterfall: [
      M.customEvent("Remote", eCPM: 3), .inventory(eCPM: 1, label: nil),
    ])
    let adapter = TestAdapter(.hold)
    let other = TestAdapter(.hold)
    M.register(adapter, as: "Remote", in: manager, owner: 7)
    M.register(other, as: "Other", in: manager, owner: 8)
    let load = M.load(manager)
    scheduler.advance(by: 20)
    #expect(manager.releaseAdapters(ownedBy: 7) == ["Remote"])
    #expect(manager.adapters.adapter(named: "Remote") == nil)
    #expect(manager.adapters.adapter(named: "Other") != nil)
    #expect(load.ad?.creative.id == "native-app-install-1")
    #expect(
      M.rounded(load.responseInfo?.adNetworkInfoArray) == [
        M.entry("Remote", latency: 0.02, error: .adapterConnectionClosed), M.inventoryEntry(),
      ])
    #expect(AdNetworkError.adapterConnectionClosed.code == 102)
    #expect(AdNetworkError.adapterConnectionClosed.message == "adapter connection closed")
    #expect(adapter.held[0].isFinished)
    #expect(adapter.held[0].succeed(with: TestAdapter.ad()) == nil)
    #expect(load.results.count == 1)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func cancelledLoadsNeverComplete() throws {
    let (manager, scheduler, _) = M.manager(waterfall: [
      M.customEvent("Held", eCPM: 3), .inventory(eCPM: 1, label: nil),
    ])
    let adapter = TestAdapter(.hold)
    M.register(adapter, as: "Held", in: manager)
    let mine = M.load(manager, owner: 1)
    let theirs = M.load(manager, owner: 2)
    #expect(manager.cancelLoads(ownedBy: 1) == 1)
    #expect(adapter.abandoned == ["load-1"])
    #expect(adapter.held[0].succeed(with: TestAdapter.ad()) == nil)
    scheduler.advance(by: 60_000)
    #expect(!mine.isComplete)
    #expect(theirs.ad?.creative.id == "native-app-install-1")
    #expect(manager.inFlightLoadCount == 0)
  }

  @Test func aCancelledLoadNeverCompletesStopsItsTimersAndTellsItsAdapter() throws {
    let (manager, scheduler, _) = M.manager(waterfall: [
      M.customEvent("Held", eCPM: 3), .inventory(eCPM: 1, label: nil),
    ])
    let adapter = TestAdapter(.hold)
    M.register(adapter, as: "Held", in: manager)
    let recorder = LoadRecorder()
    let ticket = try #require(
      manager.load(AdRequest(adUnitID: M.unit), owner: 1) { recorder.results.append($0) })
    let other = M.load(manager, owner: 1)
    #expect(scheduler.pendingCount > 0)
    #expect(manager.cancelLoad(ticket))
    #expect(!manager.cancelLoad(ticket))
    #expect(adapter.abandoned == ["load-1"])
    #expect(adapter.abandonReasons == [.cancelled])
    #expect(adapter.held[0].succeed(with: TestAdapter.ad()) == nil)
    #expect(manager.inFlightLoadCount == 1)
    // The other load of the same owner goes on, and times out to the inventory.
    scheduler.advance(by: 60_000)
    #expect(recorder.results.isEmpty)
    #expect(other.ad?.creative.id == "native-app-install-1")
    #expect(adapter.abandonReasons == [.cancelled, .timedOut])
    #expect(scheduler.pendingCount == 0)
    #expect(manager.inFlightLoadCount == 0)
  }

  @Test func aLoadThatAnsweredAtOnceHasNothingToCancel() throws {
    let (manager, _, _) = M.manager(waterfall: [.inventory(eCPM: 1, label: nil)])
    let recorder = LoadRecorder()
    let ticket = try #require(
      manager.load(AdRequest(adUnitID: M.unit), owner: 1) { recorder.results.append($0) })
    #expect(recorder.results.count == 1)
    #expect(!manager.cancelLoad(ticket))
    #expect(manager.load(AdRequest(adUnitID: "no/such/unit"), owner: 1) { _ in } == nil)
  }

  @Test func aMappedAdThatIsNotValidFailsItsSource() throws {
    let (manager, _, _) = M.manager(waterfall: [
      M.customEvent("Bad", eCPM: 3), .inventory(eCPM: 1, label: nil),
    ])
    var mapped = TestAdapter.ad()
    mapped.assets.starRating = 7
    let adapter = TestAdapter(.fill(mapped))
    M.register(adapter, as: "Bad", in: manager)
    let load = M.load(manager)
    #expect(adapter.delegates.count == 1)
    #expect(adapter.delegates[0] == nil)
    #expect(load.ad?.creative.id == "native-app-install-1")
    let error = try #require(load.responseInfo?.adNetworkInfoArray.first?.error)
    #expect(error == .invalidMappedAd("the star rating is not within 0.0 to 5.0"))
    #expect(error.code == 102)
    #expect(MediatedNativeAd(assets: NativeAssets(headline: "")).problem == .emptyHeadline)
  }

  @Test func customEventsAreSkippedWhenTheRequestDoesNotAcceptNativeAds() throws {
    let (manager, _, _) = M.manager(
      waterfall: [M.customEvent("A", eCPM: 3), .inventory(eCPM: 1, label: nil)],
      creativeIDs: ["custom-10063170-1"])
    let adapter = TestAdapter(.fill(TestAdapter.ad()))
    M.register(adapter, as: "A", in: manager)
    let request = AdRequest(
      adUnitID: M.unit, adTypes: [.customNative], customNativeAdFormatIDs: ["10063170"])
    let load = M.load(manager, request)
    #expect(adapter.configurations.isEmpty)
    #expect(load.ad?.kind == .customNative)
    #expect(
      load.responseInfo?.adNetworkInfoArray.first
        == M.entry("A", error: .customEventNeedsNativeAdType))
  }

  @Test func adaptersGetTheRequestSeedOrADeterministicOne() throws {
    func seeds(_ requestSeed: UInt64?, managerSeed: UInt64 = 42) -> [UInt64] {
      let (manager, _, _) = M.manager(
        waterfall: [M.customEvent("A", eCPM: 2), M.customEvent("B", eCPM: 1)], seed: managerSeed)
      let a = TestAdapter(.fail(TestAdapter.error))
      let b = TestAdapter(.fail(TestAdapter.error))
      M.register(a, as: "A", in: manager)
      M.register(b, as: "B", in: manager)
      for _ in 0..<2 { _ = M.load(manager, AdRequest(adUnitID: M.unit, seed: requestSeed)) }
      return zip(a.configurations, b.configurations).flatMap { [$0.seed, $1.seed] }
    }
    let given = seeds(99)
    #expect(given[0] == 99 && given[2] == 99)
    #expect(given[1] != 99 && given[1] == given[3])
    let derived = seeds(nil)
    #expect(derived == seeds(nil))
    #expect(Set(derived).count == 4)
    #expect(derived != seeds(nil, managerSeed: 43))
  }

  @Test func aWaterfallWhoseSourcesAnswerAtOnceCompletesAtOnce() throws {
    let manager = Fixtures.manager()
    let (ads, info) = try manager.load(
      AdRequest(adUnitID: Inventory.sampleWaterfallAdUnitID, seed: 0), owner: 1)
    #expect(ads.count == 1)
    #expect(info.adNetworkInfoArray.first?.adNetworkClassName == "SampleCustomEvent")
  }

  @Test func unitsWithoutAWaterfallCompleteAtOnceThroughTheCompletion() throws {
    let manager = Fixtures.manager()
    let load = M.load(manager, Fixtures.request(count: 2))
    #expect(load.ads.count == 2)
    let invalid = M.load(manager, Fixtures.request("nope"))
    #expect(invalid.error?.code == .invalidRequest)
    let noFill = M.load(
      manager, Fixtures.request(Fixtures.adMobUnit, types: [.customNative], formats: ["1"]))
    #expect(noFill.error?.code == .noFill)
  }
}
