import Testing

@testable import NativeAds

// The engine with test sources of its own, conforming to the public `AdSource` protocol: no
// AdManager, no inventory, no adapters.

/// An ask a test source has not answered; answering after `abandon()` is allowed on purpose,
/// to show that the engine ignores it.
private final class TestPendingAsk: PendingAsk {
  let answerer: OwnerID?
  private(set) var abandonCount = 0
  private(set) var abandonReasons: [AbandonReason] = []
  private let deliver: (SourceAnswer) -> Void

  init(answerer: OwnerID?, deliver: @escaping (SourceAnswer) -> Void) {
    self.answerer = answerer
    self.deliver = deliver
  }

  func abandon(_ reason: AbandonReason) {
    abandonCount += 1
    abandonReasons.append(reason)
  }

  func answer(_ reply: SourceAnswer) { deliver(reply) }
}

/// What the sources of a test were asked, in order.
private final class AskLog {
  var names: [String] = []
}

/// What a source was asked.
private struct AskRecord {
  let request: AdRequest
  let unit: AdUnit
  let options: LoaderOptions
  let count: Int

  init(_ ask: SourceAsk) {
    request = ask.request
    unit = ask.unit
    options = ask.options
    count = ask.count
  }
}

/// A source with a name; the answers the tests give name it too.
private class NamedSource: AdSource {
  let adNetworkClassName: String
  let adSourceName: String
  let timeoutMs: UInt64?
  let log: AskLog?
  /// What each ask asked for (not the asks: an ask holds its load's plan, which holds this
  /// source, and the source would keep itself alive).
  private(set) var asked: [AskRecord] = []

  init(_ name: String, timeoutMs: UInt64?, log: AskLog?) {
    self.adNetworkClassName = "Test." + name
    self.adSourceName = name + " network"
    self.timeoutMs = timeoutMs
    self.log = log
  }

  func ask(_ ask: SourceAsk, answer: @escaping (SourceAnswer) -> Void) -> (any PendingAsk)? {
    asked.append(AskRecord(ask))
    log?.names.append(adSourceName)
    return respond(to: ask, answer: answer)
  }

  func respond(to ask: SourceAsk, answer: @escaping (SourceAnswer) -> Void) -> (any PendingAsk)? {
    fatalError("subclass")
  }

  /// Declared here so that a subclass can answer at once (a protocol extension's default,
  /// bound to this class's conformance, could not be overridden).
  func answerNow(_ ask: SourceAsk) -> SourceAnswer? { nil }

  /// A fill with one creative `id`, named after this source.
  func fill(_ id: String) -> SourceAnswer {
    .filled(
      [
        SourceFill(
          creative: Creative(
            id: id, content: .native(NativeAssets(headline: id)),
            landingPageURL: "https://example.test/" + id))
      ], className: adNetworkClassName, sourceName: adSourceName)
  }

  /// A failure named after this source.
  func failure(_ failure: SourceAnswer.Failure) -> SourceAnswer {
    .failed(failure, className: adNetworkClassName, sourceName: adSourceName)
  }

  /// The response info entry of this source.
  func entry(latency: Double = 0, error: AdNetworkError? = nil) -> AdNetworkInfo {
    AdNetworkInfo(
      adNetworkClassName: adNetworkClassName, adSourceName: adSourceName, latency: latency,
      error: error)
  }
}

/// Answers inside `ask`, with what `reply` makes of it.
private final class ImmediateSource: NamedSource {
  private let reply: (ImmediateSource) -> SourceAnswer
  /// Runs inside `ask`, before the answer.
  var beforeAnswering: ((SourceAsk) -> Void)?
  /// Also returns an ask in flight after answering (a confused source).
  var returnsPendingAnyway = false
  private(set) var returned: [TestPendingAsk] = []

  init(_ name: String, log: AskLog? = nil, reply: @escaping (ImmediateSource) -> SourceAnswer) {
    self.reply = reply
    super.init(name, timeoutMs: 1000, log: log)
  }

  override func respond(to ask: SourceAsk, answer: @escaping (SourceAnswer) -> Void)
    -> (any PendingAsk)?
  {
    beforeAnswering?(ask)
    answer(reply(self))
    guard returnsPendingAnyway else { return nil }
    let pending = TestPendingAsk(answerer: nil, deliver: answer)
    returned.append(pending)
    return pending
  }
}

/// Answers later, when the test tells it.
private final class LaterSource: NamedSource {
  let answerer: OwnerID?
  private(set) var asks: [TestPendingAsk] = []

  init(_ name: String, timeoutMs: UInt64?, answerer: OwnerID? = nil, log: AskLog? = nil) {
    self.answerer = answerer
    super.init(name, timeoutMs: timeoutMs, log: log)
  }

  override func respond(to ask: SourceAsk, answer: @escaping (SourceAnswer) -> Void)
    -> (any PendingAsk)?
  {
    let pending = TestPendingAsk(answerer: answerer, deliver: answer)
    asks.append(pending)
    return pending
  }

  /// Answers the latest ask.
  func answer(_ reply: SourceAnswer) {
    guard let last = asks.last else { fatalError("\(adSourceName) was not asked") }
    last.answer(reply)
  }
}

/// Never answers: it drops the answer and only keeps the asks it returns.
private final class SilentSource: NamedSource {
  private(set) var asks: [TestPendingAsk] = []

  override func respond(to ask: SourceAsk, answer: @escaping (SourceAnswer) -> Void)
    -> (any PendingAsk)?
  {
    let pending = TestPendingAsk(answerer: nil, deliver: { _ in })
    asks.append(pending)
    return pending
  }
}

/// Answers at once through ``AdSource/answerNow(_:)`` (as the inventory does); counts how it
/// was asked.
private final class AtOnceSource: NamedSource {
  private let reply: (AtOnceSource) -> SourceAnswer
  private(set) var answeredNow = 0

  init(_ name: String, log: AskLog? = nil, reply: @escaping (AtOnceSource) -> SourceAnswer) {
    self.reply = reply
    super.init(name, timeoutMs: 1000, log: log)
  }

  override func answerNow(_ ask: SourceAsk) -> SourceAnswer? {
    answeredNow += 1
    log?.names.append(adSourceName)
    return reply(self)
  }

  override func respond(to ask: SourceAsk, answer: @escaping (SourceAnswer) -> Void)
    -> (any PendingAsk)?
  {
    answer(reply(self))
    return nil
  }
}

extension WaterfallEngine.Started {
  /// The load when it waits on a source.
  fileprivate var waitingLoad: WaterfallLoad? {
    if case .waiting(let run) = self { run } else { nil }
  }
}

/// What a load's completion got.
private final class Outcomes {
  var all: [Result<LoadFill, AdLoadError>] = []

  var fill: LoadFill? {
    guard case .success(let fill)? = all.first else { return nil }
    return fill
  }

  var error: AdLoadError? {
    guard case .failure(let error)? = all.first else { return nil }
    return error
  }
}

/// How a load in flight may end.
enum WaterfallEnding: String, CaseIterable, Sendable {
  case answered, timedOut, deadlinePassed, cancelled, answererLeft
}

@Suite struct WaterfallEngineTests {
  private let clock = ManualClock()
  private let scheduler: ManualScheduler
  private let engine: WaterfallEngine

  init() {
    scheduler = ManualScheduler(clock: clock)
    engine = WaterfallEngine(clock: clock)
    engine.scheduler = scheduler
  }

  private func plan(
    _ sources: [any AdSource], owner: OwnerID = 1, deadlineMs: UInt64? = nil,
    unit: String = "test/engine", numberOfAds: Int = 1
  ) -> LoadPlan {
    var options = LoaderOptions()
    options.numberOfAds = numberOfAds
    return LoadPlan(
      request: AdRequest(adUnitID: unit, isTestRequest: true),
      unit: AdUnit(id: unit, creativeIDs: []), owner: owner, sources: sources, options: options,
      seed: 7, deadlineMs: deadlineMs, responseIdentifier: ResponseIdentifier("response:" + unit))
  }

  private func start(
    _ sources: [any AdSource], owner: OwnerID = 1, deadlineMs: UInt64? = nil,
    unit: String = "test/engine"
  ) -> (load: WaterfallEngine.Started, outcomes: Outcomes) {
    let outcomes = Outcomes()
    let load = engine.start(plan(sources, owner: owner, deadlineMs: deadlineMs, unit: unit)) {
      outcomes.all.append($0)
    }
    return (load, outcomes)
  }

  /// The entries with latencies rounded to the millisecond.
  private func entries(_ info: ResponseInfo?) -> [AdNetworkInfo]? {
    MediationFixtures.rounded(info?.adNetworkInfoArray)
  }

  // MARK: Order

  @Test func sourcesAreAskedInOrderUntilOneFills() throws {
    let log = AskLog()
    let first = ImmediateSource("First", log: log) { $0.failure(.failed(TestAdapter.error)) }
    let second = LaterSource("Second", timeoutMs: 1000, log: log)
    let third = ImmediateSource("Third", log: log) { $0.fill("third-ad") }
    let fourth = ImmediateSource("Fourth", log: log) { $0.fill("fourth-ad") }
    let (load, outcomes) = start([first, second, third, fourth])
    #expect(log.names == ["First network", "Second network"])
    #expect(!load.isFinished)
    #expect(outcomes.all.isEmpty)
    #expect(engine.inFlightCount == 1)

    scheduler.advance(by: 250)
    second.answer(second.failure(.failed(TestAdapter.networkError)))
    #expect(log.names == ["First network", "Second network", "Third network"])
    #expect(outcomes.all.count == 1)
    let fill = try #require(outcomes.fill)
    #expect(fill.fills.map(\.creative.id) == ["third-ad"])
    #expect(
      entries(fill.responseInfo)
        == [
          first.entry(error: TestAdapter.error),
          second.entry(latency: 0.25, error: TestAdapter.networkError), third.entry(),
        ])
    #expect(fill.responseInfo.loadedAdNetworkResponseInfo == third.entry())
    #expect(fill.responseInfo.responseIdentifier == "response:test/engine")
    #expect(fill.responseInfo.isTestRequest == true)
    #expect(load.isFinished)
    #expect(engine.inFlightCount == 0)
    #expect(scheduler.pendingCount == 0)
    #expect(second.asks[0].abandonCount == 0)
  }

  @Test func everySourceIsAskedForTheLoadsAdsAndSharesItsSeeds() {
    var drawn: [UInt64] = []
    let sources = (1...3).map { index in
      let source = ImmediateSource("S\(index)") {
        index == 3 ? $0.fill("ad") : $0.failure(.failed(TestAdapter.error))
      }
      source.beforeAnswering = { drawn.append($0.nextSeed()) }
      return source
    }
    let outcomes = Outcomes()
    engine.start(plan(sources, unit: "test/asks", numberOfAds: 3)) { outcomes.all.append($0) }
    for source in sources {
      #expect(source.asked.count == 1)
      #expect(source.asked.first?.count == 3)
      #expect(source.asked.first?.options.numberOfAds == 3)
      #expect(source.asked.first?.request.adUnitID == "test/asks")
      #expect(source.asked.first?.unit.id == "test/asks")
    }
    #expect(drawn == [7, SeedSequence.mix(7, 1), SeedSequence.mix(7, 2)])
    #expect(outcomes.fill?.fills.count == 1)
  }

  @Test func anAnswersEntryNamesWhatTheAnswerSays() {
    let source = ImmediateSource("Named") { _ in
      .failed(.failed(TestAdapter.error), className: "Other.Class", sourceName: "Other name")
    }
    let (_, outcomes) = start([source])
    #expect(
      outcomes.error?.responseInfo.adNetworkInfoArray == [
        AdNetworkInfo(
          adNetworkClassName: "Other.Class", adSourceName: "Other name", latency: 0,
          error: TestAdapter.error)
      ])
  }

  // MARK: Timeouts and the deadline

  @Test func anAnswerWithinTheTimeoutIsWaitedFor() {
    let source = LaterSource("Slow", timeoutMs: 500)
    let (_, outcomes) = start([source])
    scheduler.advance(by: 499)
    #expect(outcomes.all.isEmpty)
    source.answer(source.fill("slow-ad"))
    #expect(outcomes.fill?.fills.map(\.creative.id) == ["slow-ad"])
    #expect(entries(outcomes.fill?.responseInfo) == [source.entry(latency: 0.499)])
    #expect(source.asks[0].abandonCount == 0)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func aLateAnswerIsIgnoredAndTheAskWasAbandoned() {
    let slow = LaterSource("Slow", timeoutMs: 100)
    let next = LaterSource("Next", timeoutMs: 1000)
    let (_, outcomes) = start([slow, next])
    scheduler.advance(by: 99)
    #expect(next.asks.isEmpty)
    #expect(slow.asks[0].abandonCount == 0)
    scheduler.advance(by: 1)
    #expect(slow.asks[0].abandonCount == 1)
    #expect(next.asks.count == 1)

    // The slow source answers after its timeout, while the load waits on the next one.
    slow.answer(slow.fill("late-ad"))
    #expect(outcomes.all.isEmpty)
    #expect(engine.inFlightCount == 1)

    scheduler.advance(by: 50)
    next.answer(next.fill("next-ad"))
    #expect(outcomes.all.count == 1)
    #expect(outcomes.fill?.fills.map(\.creative.id) == ["next-ad"])
    #expect(
      entries(outcomes.fill?.responseInfo) == [
        slow.entry(latency: 0.1, error: .adapterTimeout(milliseconds: 100)),
        next.entry(latency: 0.05),
      ])

    // Answers after the load finished change nothing either.
    slow.answer(slow.fill("later-still"))
    next.answer(next.failure(.failed(TestAdapter.error)))
    #expect(outcomes.all.count == 1)
    #expect(slow.asks[0].abandonCount == 1)
    #expect(next.asks[0].abandonCount == 0)
  }

  @Test func theDeadlineFailsTheSourceBeingAskedAndSkipsTheRest() {
    let slow = LaterSource("Slow", timeoutMs: 600)
    let silent = SilentSource("Silent", timeoutMs: nil, log: nil)
    let never = ImmediateSource("Never") { $0.fill("never") }
    let (load, outcomes) = start([slow, silent, never], deadlineMs: 1000)
    scheduler.advance(by: 600)
    #expect(silent.asks.count == 1)
    scheduler.advance(by: 399)
    #expect(outcomes.all.isEmpty)
    scheduler.advance(by: 1)

    let error = outcomes.error
    #expect(error?.code == .timeout)
    #expect(
      error?.message
        == "Request Error: The mediation waterfall did not fill within its deadline of 1000 ms.")
    #expect(
      entries(error?.responseInfo) == [
        slow.entry(latency: 0.6, error: .adapterTimeout(milliseconds: 600)),
        silent.entry(latency: 0.4, error: .deadlinePassed(milliseconds: 1000)),
      ])
    #expect(error?.responseInfo.loadedAdNetworkResponseInfo == nil)
    #expect(never.asked.isEmpty)
    #expect(slow.asks[0].abandonCount == 1)
    #expect(silent.asks[0].abandonCount == 1)
    #expect(load.isFinished)
    #expect(engine.inFlightCount == 0)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func aLoadThatFillsInTimeCancelsItsDeadline() {
    let source = LaterSource("Source", timeoutMs: 5000)
    let (_, outcomes) = start([source], deadlineMs: 1000)
    #expect(scheduler.pendingCount == 2)
    source.answer(source.fill("ad"))
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: 10_000)
    #expect(outcomes.all.count == 1)
    #expect(outcomes.fill != nil)
  }

  @Test func withoutASchedulerNothingTimesOut() {
    engine.scheduler = nil
    let source = LaterSource("Source", timeoutMs: 1)
    let (_, outcomes) = start([source], deadlineMs: 1)
    scheduler.advance(by: 60_000)
    #expect(scheduler.pendingCount == 0)
    #expect(outcomes.all.isEmpty)
    #expect(engine.inFlightCount == 1)
    source.answer(source.fill("ad"))
    #expect(entries(outcomes.fill?.responseInfo) == [source.entry(latency: 60)])
  }

  // MARK: Answerers leaving, cancellation

  @Test func failAsksMovesTheLoadsWaitingOnThatAnswererOnAtOnce() {
    let log = AskLog()
    let remote = LaterSource("Remote", timeoutMs: 1000, answerer: 9)
    let local = LaterSource("Local", timeoutMs: 1000)
    let backup = ImmediateSource("Backup", log: log) { $0.fill("backup-ad") }
    let (_, first) = start([remote, backup], unit: "first")
    let (_, second) = start([local, backup], unit: "second")
    let (_, third) = start([remote, backup], unit: "third")
    scheduler.advance(by: 300)

    engine.failAsks(answeredBy: 8)
    #expect(engine.inFlightCount == 3)
    #expect(remote.asks.map(\.abandonCount) == [0, 0])

    engine.failAsks(answeredBy: 9)
    #expect(remote.asks.map(\.abandonCount) == [1, 1])
    #expect(backup.asked.map(\.unit.id) == ["first", "third"])
    for outcomes in [first, third] {
      #expect(outcomes.fill?.fills.map(\.creative.id) == ["backup-ad"])
      #expect(
        entries(outcomes.fill?.responseInfo) == [
          remote.entry(latency: 0.3, error: .adapterConnectionClosed), backup.entry(),
        ])
    }
    #expect(second.all.isEmpty)
    #expect(local.asks[0].abandonCount == 0)
    #expect(engine.inFlightCount == 1)
    #expect(scheduler.pendingCount == 1)  // the local source's timeout

    // The departed answerer's late answers change nothing.
    remote.asks[0].answer(remote.fill("late"))
    #expect(first.all.count == 1)
    #expect(first.fill?.fills.map(\.creative.id) == ["backup-ad"])

    // The second load is still in flight: it holds the engine (through its source's answer),
    // which holds it. Ending it frees both when the test ends.
    engine.cancelLoads(ownedBy: 1)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func cancelledLoadsNeverCompleteAndAbandonTheirAsks() {
    let source = LaterSource("Held", timeoutMs: 500)
    let (a, fromA) = start([source], owner: 1, deadlineMs: 2000)
    let (b, fromB) = start([source], owner: 2)
    let (c, fromC) = start([source], owner: 1)
    #expect(scheduler.pendingCount == 4)

    #expect(engine.cancelLoads(ownedBy: 1) == 2)
    #expect(source.asks.map(\.abandonCount) == [1, 0, 1])
    #expect(a.isFinished && c.isFinished && !b.isFinished)
    #expect(engine.inFlightCount == 1)
    #expect(scheduler.pendingCount == 1)

    source.asks[0].answer(source.fill("a"))
    source.asks[2].answer(source.fill("c"))
    scheduler.advance(by: 5000)
    #expect(fromA.all.isEmpty)
    #expect(fromC.all.isEmpty)
    #expect(fromB.error?.code == .noFill)
    #expect(
      entries(fromB.error?.responseInfo) == [
        source.entry(latency: 0.5, error: .adapterTimeout(milliseconds: 500))
      ])
    #expect(engine.cancelLoads(ownedBy: 1) == 0)
    #expect(engine.cancelLoads(ownedBy: 2) == 0)
  }

  // MARK: Latencies and final errors

  @Test func latenciesRunFromTheAskAndAreZeroForSourcesNotAsked() {
    let failing = LaterSource("Failing", timeoutMs: 5000)
    let skipped = LaterSource("Skipped", timeoutMs: 5000)
    let missing = LaterSource("Missing", timeoutMs: 5000)
    let filling = LaterSource("Filling", timeoutMs: 5000)
    let (_, outcomes) = start([failing, skipped, missing, filling])
    scheduler.advance(by: 120)
    failing.answer(failing.failure(.failed(TestAdapter.error)))
    scheduler.advance(by: 30)
    skipped.answer(skipped.failure(.skipped(.customEventNeedsNativeAdType)))
    scheduler.advance(by: 40)
    missing.answer(missing.failure(.missingAdapter(.missingAdapter(className: "Missing"))))
    scheduler.advance(by: 250)
    filling.answer(filling.fill("ad"))
    #expect(
      entries(outcomes.fill?.responseInfo) == [
        failing.entry(latency: 0.12, error: TestAdapter.error),
        skipped.entry(latency: 0, error: .customEventNeedsNativeAdType),
        missing.entry(latency: 0, error: .missingAdapter(className: "Missing")),
        filling.entry(latency: 0.25),
      ])
    #expect(
      outcomes.fill?.responseInfo.loadedAdNetworkResponseInfo.map(MediationFixtures.rounded)
        == filling.entry(latency: 0.25))
  }

  @Test func nothingFillingIsANetworkErrorWhenAnySourceReportedOne() {
    let (_, outcomes) = start([
      ImmediateSource("Plain") { $0.failure(.failed(TestAdapter.error)) },
      ImmediateSource("Missing") {
        $0.failure(.missingAdapter(.missingAdapter(className: "Missing")))
      },
      ImmediateSource("Offline") { $0.failure(.failed(TestAdapter.networkError)) },
      ImmediateSource("Empty") { $0.failure(.failed(.noFill)) },
    ])
    #expect(outcomes.error?.code == .networkError)
    #expect(outcomes.error?.message == "Request Error: A network error occurred.")
    #expect(outcomes.error?.responseInfo.adNetworkInfoArray.count == 4)
    #expect(outcomes.error?.responseInfo.loadedAdNetworkResponseInfo == nil)
  }

  @Test func everySourceMissingItsAdapterIsAMediationAdapterError() {
    let (_, outcomes) = start([
      ImmediateSource("A") { $0.failure(.missingAdapter(.missingAdapter(className: "A"))) },
      ImmediateSource("B") { $0.failure(.missingAdapter(.missingAdapter(className: "B"))) },
    ])
    #expect(outcomes.error?.code == .mediationAdapterError)
    #expect(
      outcomes.error?.message
        == "Request Error: No adapter is registered for any source of the waterfall.")
  }

  @Test func otherwiseNothingFillingIsNoFill() {
    func code(_ sources: [any AdSource]) -> GADErrorCode? { start(sources).outcomes.error?.code }
    let missing = ImmediateSource("Missing") {
      $0.failure(.missingAdapter(.missingAdapter(className: "Missing")))
    }
    let skipped = ImmediateSource("Skipped") {
      $0.failure(.skipped(.customEventNeedsNativeAdType))
    }
    let plain = ImmediateSource("Plain") { $0.failure(.failed(TestAdapter.error)) }
    #expect(code([missing, skipped]) == .noFill)
    #expect(code([plain]) == .noFill)
    #expect(code([missing, plain]) == .noFill)
    let (_, none) = start([])
    #expect(none.error?.code == .noFill)
    #expect(none.error?.message == AdNetworkError.noFill.message)
    #expect(none.error?.responseInfo.adNetworkInfoArray == [])

    // A timeout is no network error.
    let slow = LaterSource("Slow", timeoutMs: 10)
    let (_, timedOut) = start([slow])
    scheduler.advance(by: 10)
    #expect(timedOut.error?.code == .noFill)
  }

  // MARK: Re-entrancy

  @Test func answersInsideAskAreTakenAtOnce() {
    let eager = ImmediateSource("Eager") { $0.failure(.failed(TestAdapter.error)) }
    eager.returnsPendingAnyway = true
    let filler = ImmediateSource("Filler") { $0.fill("ad") }
    let (load, outcomes) = start([eager, filler], deadlineMs: 1000)
    #expect(outcomes.all.count == 1)
    #expect(outcomes.fill?.fills.map(\.creative.id) == ["ad"])
    #expect(load.isFinished)
    #expect(engine.inFlightCount == 0)
    // No timeout was started for the answered ask, and it is not abandoned.
    #expect(scheduler.pendingCount == 0)
    #expect(eager.returned.map(\.abandonCount) == [0])
    #expect(
      entries(outcomes.fill?.responseInfo) == [
        eager.entry(error: TestAdapter.error), filler.entry(),
      ])
  }

  @Test func aLongRunOfSourcesFailingAtOnceIsAskedInOrderWithinStart() {
    let log = AskLog()
    let failing = (0..<300).map { index in
      ImmediateSource("S\(index)", log: log) { $0.failure(.failed(TestAdapter.error)) }
    }
    let filler = ImmediateSource("Filler", log: log) { $0.fill("ad") }
    let (_, outcomes) = start(failing + [filler])
    #expect(log.names == (0..<300).map { "S\($0) network" } + ["Filler network"])
    #expect(outcomes.fill?.responseInfo.adNetworkInfoArray.count == 301)
  }

  @Test func aSourceMayCancelItsOwnLoadWhileAsked() {
    let canceller = ImmediateSource("Canceller") { $0.failure(.failed(TestAdapter.error)) }
    let next = ImmediateSource("Next") { $0.fill("ad") }
    canceller.beforeAnswering = { [engine] _ in _ = engine.cancelLoads(ownedBy: 1) }
    let (load, outcomes) = start([canceller, next], deadlineMs: 1000)
    #expect(outcomes.all.isEmpty)
    #expect(next.asked.isEmpty)
    #expect(load.isFinished)
    #expect(engine.inFlightCount == 0)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func aCompletionMayStartTheNextLoad() {
    let held = LaterSource("Held", timeoutMs: 1000)
    let filler = ImmediateSource("Filler") { $0.fill("ad") }
    let nested = Outcomes()
    let outer = Outcomes()
    engine.start(plan([held])) { [engine] result in
      outer.all.append(result)
      engine.start(plan([filler], unit: "nested")) { nested.all.append($0) }
    }
    held.answer(held.failure(.failed(TestAdapter.error)))
    #expect(outer.error?.code == .noFill)
    #expect(nested.fill?.responseInfo.responseIdentifier == "response:nested")
    #expect(engine.inFlightCount == 0)
  }

  // MARK: Memory

  @Test func aLoadThatFinishesAtOnceIsNotKept() {
    let outcomes = Outcomes()
    let started = engine.start(
      plan([ImmediateSource("Filler") { $0.fill("ad") }], deadlineMs: 100)
    ) {
      outcomes.all.append($0)
    }
    guard case .finished = started else {
      Issue.record("a load answered inside start came back \(started)")
      return
    }
    #expect(outcomes.all.count == 1)
    #expect(engine.inFlightCount == 0)
    #expect(scheduler.pendingCount == 0)  // its deadline was cancelled
  }

  @Test(arguments: WaterfallEnding.allCases)
  func aLoadInFlightIsFreedHoweverItEnds(_ ending: WaterfallEnding) {
    let source = LaterSource("Held", timeoutMs: 500, answerer: 9)
    let outcomes = Outcomes()
    weak var load: WaterfallLoad?
    load =
      engine.start(plan([source], deadlineMs: ending == .deadlinePassed ? 200 : 5000)) {
        outcomes.all.append($0)
      }.waitingLoad
    #expect(load != nil)  // the engine holds it while in flight
    switch ending {
    case .answered: source.answer(source.fill("ad"))
    case .timedOut: scheduler.advance(by: 500)
    case .deadlinePassed: scheduler.advance(by: 200)
    case .cancelled: engine.cancelLoads(ownedBy: 1)
    case .answererLeft: engine.failAsks(answeredBy: 9)
    }
    #expect(load == nil)
    #expect(engine.inFlightCount == 0)
    #expect(scheduler.pendingCount == 0)
    #expect(outcomes.all.count == (ending == .cancelled ? 0 : 1))

    // The source still holds the answer closure: using it now does nothing.
    source.answer(source.fill("late"))
    #expect(outcomes.all.count == (ending == .cancelled ? 0 : 1))
  }

  // MARK: Answers at once

  @Test func aSourceThatAnswersNowIsNotAskedWithACompletionAndStartReturnsTheResult() throws {
    let log = AskLog()
    let first = AtOnceSource("First", log: log) { $0.failure(.failed(TestAdapter.error)) }
    let second = AtOnceSource("Second", log: log) { $0.fill("second-ad") }
    let load = engine.start(plan([first, second]))
    #expect(log.names == ["First network", "Second network"])
    #expect(first.answeredNow == 1 && second.answeredNow == 1)
    #expect(first.asked.isEmpty && second.asked.isEmpty)
    guard case .finished(_, .success(let fill)) = load else {
      Issue.record("no result at once: \(load)")
      return
    }
    #expect(fill.fills.map(\.creative.id) == ["second-ad"])
    #expect(entries(fill.responseInfo) == [first.entry(error: TestAdapter.error), second.entry()])
    #expect(fill.responseInfo.loadedAdNetworkResponseInfo == second.entry())
    #expect(engine.inFlightCount == 0)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func theCompletionFormHandsOverAResultThatCameAtOnceAndKeepsNone() throws {
    let source = AtOnceSource("Only") { $0.fill("ad") }
    let (load, outcomes) = start([source])
    #expect(outcomes.all.count == 1)
    #expect(outcomes.fill?.fills.map(\.creative.id) == ["ad"])
    #expect(load.isFinished)
  }

  @Test func aFirstSourceThatFillsAtOnceGivesTheLoadsWholeResponseInfo() throws {
    let source = AtOnceSource("Only") { $0.fill("ad") }
    let started = engine.start(plan([source, AtOnceSource("Unasked") { $0.fill("other") }]))
    guard case .finished(let number, .success(let fill)) = started else {
      Issue.record("no result at once: \(started)")
      return
    }
    #expect(number == started.number && number > 0)
    #expect(fill.fills.map(\.creative.id) == ["ad"])
    #expect(entries(fill.responseInfo) == [source.entry()])
    #expect(fill.responseInfo.loadedAdNetworkResponseInfo == source.entry())
    #expect(fill.responseInfo.responseIdentifier == "response:test/engine")
    #expect(fill.responseInfo.isTestRequest == true)
    #expect(engine.inFlightCount == 0)
    // The next load gets the next number.
    #expect(engine.start(plan([source])).number == number + 1)
  }

  @Test func aFirstSourceThatFailsAtOnceLeavesTheDeadlineToTheLoad() throws {
    let first = AtOnceSource("First") { $0.failure(.failed(TestAdapter.error)) }
    let later = LaterSource("Later", timeoutMs: 1000)
    let (load, outcomes) = start([first, later], deadlineMs: 200)
    #expect(!load.isFinished)
    #expect(later.asks.count == 1)
    scheduler.advance(by: 200)
    #expect(outcomes.error?.code == .timeout)
    #expect(
      entries(outcomes.error?.responseInfo)
        == [
          first.entry(error: TestAdapter.error),
          later.entry(latency: 0.2, error: .deadlinePassed(milliseconds: 200)),
        ])
    #expect(later.asks[0].abandonCount == 1)
    #expect(engine.inFlightCount == 0)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func aLoadThatWaitsAnswersTheCompletionSetAfterItStarted() throws {
    let first = AtOnceSource("First") { $0.failure(.failed(TestAdapter.error)) }
    let later = LaterSource("Later", timeoutMs: 1000)
    guard case .waiting(let load) = engine.start(plan([first, later])) else {
      Issue.record("a load that waits came back finished")
      return
    }
    #expect(!load.isFinished)
    #expect(engine.inFlightCount == 1)
    let outcomes = Outcomes()
    load.completion = { outcomes.all.append($0) }
    scheduler.advance(by: 100)
    later.answer(later.fill("later-ad"))
    #expect(outcomes.all.count == 1)
    #expect(outcomes.fill?.fills.map(\.creative.id) == ["later-ad"])
    #expect(
      entries(outcomes.fill?.responseInfo)
        == [first.entry(error: TestAdapter.error), later.entry(latency: 0.1)])
    #expect(engine.inFlightCount == 0)
  }
}
