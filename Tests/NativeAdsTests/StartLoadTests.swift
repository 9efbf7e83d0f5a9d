import Testing

@testable import NativeAds

/// `startLoad`: a load answered inside the call when its sources and store answer at once, a
/// pending load otherwise; the same results as the completion form either way.
@Suite struct StartLoadTests {
  typealias M = MediationFixtures

  @Test func aLoadOfTheUnitsOwnCreativesAnswersAtOnceAsTheCompletionFormDoes() throws {
    let now = Fixtures.manager(seed: 9)
    let completed = Fixtures.manager(seed: 9)
    let request = Fixtures.request(count: 2)
    guard case .answered(.success(let loaded), let ticket?) = now.startLoad(request, owner: 1)
    else {
      Issue.record("the load did not answer at once")
      return
    }
    let recorder = LoadRecorder()
    let completedTicket = completed.load(request, owner: 1) { recorder.results.append($0) }
    #expect(recorder.results.count == 1)
    #expect(loaded.ads.map(\.id) == recorder.ads.map(\.id))
    #expect(loaded.ads.map(\.creative.id) == recorder.ads.map(\.creative.id))
    #expect(loaded.responseInfo.responseIdentifier == recorder.responseInfo?.responseIdentifier)
    #expect(ticket == completedTicket)
    #expect(now.ads.map(\.id).sorted() == loaded.ads.map(\.id).sorted())
    #expect(!now.isAskingSources(ticket))
    #expect(!now.cancelLoad(ticket))
  }

  @Test func anInvalidRequestAnswersAtOnceWithoutATicket() {
    let manager = Fixtures.manager()
    guard
      case .answered(.failure(let error), nil) = manager.startLoad(
        AdRequest(adUnitID: "no/such/unit"), owner: 1)
    else {
      Issue.record("an invalid request did not fail at once")
      return
    }
    #expect(error.code == .invalidRequest)
    #expect(manager.ads.isEmpty)
  }

  /// A load of a waterfall unit whose only adapter holds it: pending.
  private static func heldLoad() throws -> (AdManager, TestAdapter, PendingLoad) {
    let (manager, _, _) = M.manager(waterfall: [M.customEvent("NetworkA")])
    let adapter = TestAdapter(.hold)
    M.register(adapter, as: "NetworkA", in: manager)
    guard case .pending(let pending) = manager.startLoad(AdRequest(adUnitID: M.unit), owner: 1)
    else { throw HeldLoadAnswered() }
    return (manager, adapter, pending)
  }

  private struct HeldLoadAnswered: Error {}

  @Test func aLoadThatWaitsOnAnAdapterIsPendingAndAnswersOnce() throws {
    let (manager, adapter, pending) = try Self.heldLoad()
    #expect(manager.isAskingSources(pending.ticket))
    var results: [LoadResult] = []
    pending.onAnswer = { results.append($0) }
    #expect(results.isEmpty)
    _ = try #require(adapter.held.first).succeed(with: TestAdapter.ad("Later"))
    #expect(results.count == 1)
    guard case .success(let loaded)? = results.first else {
      Issue.record("the held load failed")
      return
    }
    #expect(loaded.ads.first?.string(forKey: "headline") == "Later")
    #expect(manager.ads.map(\.id) == loaded.ads.map(\.id))
    #expect(!manager.isAskingSources(pending.ticket))
  }

  @Test func aCancelledPendingLoadNeverAnswers() throws {
    let (manager, adapter, pending) = try Self.heldLoad()
    var answered = 0
    pending.onAnswer = { _ in answered += 1 }
    #expect(manager.cancelLoad(pending.ticket))
    _ = try #require(adapter.held.first).succeed(with: TestAdapter.ad("Too late"))
    #expect(answered == 0)
    #expect(manager.ads.isEmpty)
  }

  @Test func aResultThatCameBeforeItsHandlerIsHandedOverOnceWhenItIsSet() {
    let pending = PendingLoad(ticket: LoadTicket(number: 1, owner: 1))
    let error = AdLoadError(
      code: .noFill, message: "none",
      responseInfo: ResponseInfo(
        responseIdentifier: "r", loadedAdNetworkResponseInfo: nil, adNetworkInfoArray: []))
    pending.answer(.failure(error))
    var got: [GADErrorCode] = []
    pending.onAnswer = { result in
      if case .failure(let e) = result { got.append(e.code) }
    }
    #expect(got == [.noFill])
    #expect(pending.onAnswer == nil)
    #expect(pending.takeEarlyAnswer() == nil)
  }
}
