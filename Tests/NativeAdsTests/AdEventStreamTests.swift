import Glibc
import Testing

@testable import NativeAds

/// Who was told what, across observers, in order.
private final class CallLog {
  var entries: [String] = []
}

/// An observer that writes `name:sequence` (and `name:click:asset`) into a shared log.
private final class NamedObserver: AdEventObserver {
  let name: String
  let log: CallLog
  /// Something only the observer holds, to see that it is freed with it.
  let payload = Payload()
  var onEvent: ((AdEvent) -> Void)?

  init(_ name: String, _ log: CallLog) {
    self.name = name
    self.log = log
  }

  func adEventRecorded(_ event: AdEvent) {
    log.entries.append("\(name):\(event.sequence)")
    onEvent?(event)
  }

  func customClick(on adId: String, assetID: String, for owner: OwnerID) {
    log.entries.append("\(name):click:\(assetID)")
  }
}

private final class Payload {}

/// An observer that keeps the default `customClick` (which does nothing).
private final class EventsOnlyObserver: AdEventObserver {
  var events: [AdEvent] = []
  func adEventRecorded(_ event: AdEvent) { events.append(event) }
}

@Suite struct AdEventStreamTests {
  private let ad = Fixtures.loadOne(Fixtures.manager())

  private func publish(
    _ stream: AdEventStream, _ kind: AdEventKind = .didRecordImpression, assetKey: String? = nil,
    reason: String? = nil, at time: Double = 100
  ) -> AdEvent {
    stream.publish(kind, on: ad, assetKey: assetKey, reason: reason, at: time)
  }

  @Test func eventsAreNumberedFromOneInPublishingOrder() {
    let stream = AdEventStream()
    #expect(stream.lastSequence == 0)
    let first = publish(stream, .didRecordClick, assetKey: "headline", at: 10)
    let second = publish(stream, .didMute, reason: "Irrelevant", at: 11)
    let third = publish(stream, .videoDidPlay, at: 12)
    #expect(
      first
        == AdEvent(
          sequence: 1, adId: ad.id, owner: ad.owner, event: .didRecordClick, assetKey: "headline",
          time: 10))
    #expect(
      second
        == AdEvent(
          sequence: 2, adId: ad.id, owner: ad.owner, event: .didMute, assetKey: nil,
          reason: "Irrelevant", time: 11))
    #expect(third.sequence == 3)
    #expect(stream.lastSequence == 3)
  }

  @Test func numberingDoesNotDependOnObservers() {
    let stream = AdEventStream()
    _ = publish(stream)
    _ = publish(stream)
    let sink = RecordingSink()
    stream.subscribe(sink)
    _ = publish(stream)
    #expect(sink.events.map(\.sequence) == [3])
    stream.publishCustomClick(on: ad.id, assetID: "Headline", for: 1)
    #expect(stream.lastSequence == 3)
  }

  @Test func observersAreToldInSubscriptionOrder() {
    let stream = AdEventStream()
    let log = CallLog()
    let a = NamedObserver("a", log)
    let b = NamedObserver("b", log)
    let c = NamedObserver("c", log)
    stream.subscribe(b)
    stream.subscribe(a)
    stream.subscribe(c)
    _ = publish(stream)
    stream.publishCustomClick(on: ad.id, assetID: "Caption", for: 2)
    _ = publish(stream)
    #expect(
      log.entries == [
        "b:1", "a:1", "c:1", "b:click:Caption", "a:click:Caption", "c:click:Caption", "b:2", "a:2",
        "c:2",
      ])
  }

  @Test func customClicksReachObserversThatIgnoreThem() {
    let stream = AdEventStream()
    let quiet = EventsOnlyObserver()
    let sink = RecordingSink()
    stream.subscribe(quiet)
    stream.subscribe(sink)
    stream.publishCustomClick(on: ad.id, assetID: "MainImage", for: 5)
    #expect(quiet.events.isEmpty)
    #expect(sink.customClicks == [.init(adId: ad.id, assetID: "MainImage", owner: 5)])
    #expect(sink.events.isEmpty)
  }

  /// An owner that subscribes through a relay it keeps, as the service and the manager do.
  private final class RelayOwner {
    let sink = RecordingSink()
    private(set) var relay: AdEventRelay!
    init(_ stream: AdEventStream) {
      relay = AdEventRelay(to: sink)
      stream.subscribe(relay)
    }
  }

  @Test func aRelayHandsEverythingOnAndGoesWithItsOwner() {
    let stream = AdEventStream()
    let log = CallLog()
    let after = NamedObserver("after", log)
    weak var goneRelay: AdEventRelay?
    weak var goneSink: RecordingSink?
    do {
      let owner = RelayOwner(stream)
      stream.subscribe(after)
      goneRelay = owner.relay
      goneSink = owner.sink
      _ = publish(stream)
      stream.publishCustomClick(on: ad.id, assetID: "Headline", for: 3)
      #expect(owner.sink.events.map(\.sequence) == [1])
      #expect(owner.sink.customClicks == [.init(adId: ad.id, assetID: "Headline", owner: 3)])
    }
    // The stream held the relay weakly: it went with its owner, and is told nothing more.
    #expect(goneRelay == nil)
    #expect(goneSink == nil)
    _ = publish(stream)
    #expect(log.entries == ["after:1", "after:click:Headline", "after:2"])
  }

  @Test func observersAreHeldWeakly() {
    let stream = AdEventStream()
    let log = CallLog()
    let kept = NamedObserver("kept", log)
    weak var released: NamedObserver?
    weak var releasedPayload: Payload?
    do {
      let observer = NamedObserver("released", log)
      released = observer
      releasedPayload = observer.payload
      stream.subscribe(observer)
      stream.subscribe(kept)
      _ = publish(stream)
    }
    #expect(released == nil)
    #expect(releasedPayload == nil)
    _ = publish(stream)
    #expect(log.entries == ["released:1", "kept:1", "kept:2"])

    // A subscription after it was freed is still told in order.
    let later = NamedObserver("later", log)
    stream.subscribe(later)
    _ = publish(stream)
    #expect(log.entries.suffix(2) == ["kept:3", "later:3"])
  }

  @Test func theManagersStreamDoesNotKeepASinkAlive() throws {
    let manager = Fixtures.manager()
    weak var weakSink: RecordingSink?
    do {
      let sink = RecordingSink()
      weakSink = sink
      manager.sink = sink
      let ad = Fixtures.loadOne(manager)
      _ = try? manager.recordImpression(adId: ad.id)
      #expect(sink.events.map(\.event) == [.didRecordImpression])
    }
    #expect(weakSink == nil)
    let other = Fixtures.loadOne(manager)
    #expect(try manager.recordImpression(adId: other.id) == .recorded)
    #expect(manager.events.count == 2)
  }

  @Test func neitherTheStreamNorItsObserversKeepTheManagerAlive() throws {
    weak var weakManager: AdManager?
    weak var weakStream: AdEventStream?
    let sink = RecordingSink()
    do {
      let manager = Fixtures.manager()
      weakManager = manager
      weakStream = manager.eventStream
      manager.sink = sink
      let ad = Fixtures.loadOne(manager)
      _ = try manager.recordImpression(adId: ad.id)
    }
    #expect(weakManager == nil)
    #expect(weakStream == nil)
    #expect(sink.events.map(\.event) == [.didRecordImpression])
  }

  @Test func aMediatedAdsDelegateOutlivingItsManagerRecordsNothing() {
    weak var weakManager: AdManager?
    let sink = RecordingSink()
    let delegate: any MediationNativeAdEventDelegate
    do {
      let (manager, _, adDelegate) = MediationFixtures.mediatedAd(TestAdapter.ad(impressions: true))
      weakManager = manager
      manager.sink = sink
      delegate = adDelegate
    }
    #expect(weakManager == nil)
    #expect(!delegate.reportImpression())
    delegate.didPlayVideo()
    #expect(sink.events.isEmpty)
  }

  @Test func anUnsubscribedObserverIsNoLongerTold() {
    let stream = AdEventStream()
    let log = CallLog()
    let a = NamedObserver("a", log)
    let b = NamedObserver("b", log)
    let stranger = NamedObserver("stranger", log)
    stream.subscribe(a)
    stream.subscribe(b)
    _ = publish(stream)
    stream.unsubscribe(a)
    stream.unsubscribe(stranger)  // never subscribed: nothing happens
    _ = publish(stream)
    stream.publishCustomClick(on: ad.id, assetID: "Headline", for: 1)
    #expect(log.entries == ["a:1", "b:1", "b:2", "b:click:Headline"])

    // Subscribing again puts it after the others.
    stream.subscribe(a)
    _ = publish(stream)
    #expect(log.entries.suffix(2) == ["b:3", "a:3"])
    stream.unsubscribe(a)
    stream.unsubscribe(b)
    _ = publish(stream)
    #expect(log.entries.count == 6)
    #expect(stream.lastSequence == 4)
  }

  @Test func anObserverMayCallBackIntoTheManagerAfterTheStateChanged() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let log = CallLog()
    let observer = NamedObserver("o", log)
    var seen: [(event: AdEventKind, clicks: Int)] = []
    var impression: ImpressionOutcome?
    observer.onEvent = { event in
      // The state already shows the click the event is about.
      seen.append((event.event, (try? manager.ad(event.adId))?.state.clickCount ?? -1))
      if event.event == .didRecordClick {
        impression = try? manager.recordImpression(adId: event.adId)
      }
    }
    manager.eventStream.subscribe(observer)
    _ = try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: [], by: 1)
    #expect(seen.map(\.event) == [.didRecordClick, .didRecordImpression, .willPresentScreen])
    #expect(seen.map(\.clicks) == [1, 1, 1])
    #expect(impression == .recorded)
    #expect(log.entries == ["o:1", "o:2", "o:3"])
    // The log (subscribed first) keeps the events in sequence order.
    #expect(
      manager.events.map(\.event) == [.didRecordClick, .didRecordImpression, .willPresentScreen])
    #expect(manager.events.map(\.sequence) == [1, 2, 3])
  }
}

@Suite struct InMemoryAdEventLogTests {
  private func event(
    _ sequence: Int, _ kind: AdEventKind = .didRecordImpression, adId: String = "ad-1"
  ) -> AdEvent {
    AdEvent(
      sequence: sequence, adId: adId, owner: 1, event: kind, assetKey: nil,
      time: Double(sequence))
  }

  private func makeLog(capacity: Int, events range: ClosedRange<Int>) -> InMemoryAdEventLog {
    let log = InMemoryAdEventLog(capacity: capacity)
    for sequence in range { log.adEventRecorded(event(sequence)) }
    return log
  }

  private func sequences(_ log: InMemoryAdEventLog, since: Int? = nil, limit: Int = 1000)
    -> [Int]
  {
    log.events(matching: AdEventQuery(since: since, limit: limit)).map(\.sequence)
  }

  @Test func itKeepsEveryEventUpToItsCapacityOldestFirst() {
    let log = makeLog(capacity: 5, events: 1...5)
    #expect(log.capacity == 5)
    #expect(log.events.map(\.sequence) == [1, 2, 3, 4, 5])
    #expect(sequences(log) == [1, 2, 3, 4, 5])
  }

  @Test func pastItsCapacityItDropsTheOldest() {
    let log = makeLog(capacity: 3, events: 1...4)
    #expect(log.events.map(\.sequence) == [2, 3, 4])
    for sequence in 5...20 {
      log.adEventRecorded(event(sequence))
      #expect(log.events.map(\.sequence) == Array(sequence - 2...sequence))
    }
  }

  @Test(arguments: [1, 2, 7, 64])
  func manyEventsKeepExactlyTheLastCapacity(_ capacity: Int) {
    let log = makeLog(capacity: capacity, events: 1...1000)
    #expect(log.events.map(\.sequence) == Array(1001 - capacity...1000))
    #expect(sequences(log, since: 998) == Array(max(999, 1001 - capacity)...1000))
  }

  @Test func sinceCountsFromTheSequenceNumbersAfterDrops() {
    let log = makeLog(capacity: 4, events: 1...10)  // keeps 7...10
    #expect(sequences(log, since: nil) == [7, 8, 9, 10])
    #expect(sequences(log, since: 0) == [7, 8, 9, 10])
    #expect(sequences(log, since: 3) == [7, 8, 9, 10])
    #expect(sequences(log, since: 6) == [7, 8, 9, 10])
    #expect(sequences(log, since: 7) == [8, 9, 10])
    #expect(sequences(log, since: 9) == [10])
    #expect(sequences(log, since: 10) == [])
    #expect(sequences(log, since: 50) == [])
    #expect(sequences(log, since: -5) == [7, 8, 9, 10])
  }

  @Test func aLimitKeepsTheOldestMatches() {
    let log = makeLog(capacity: 10, events: 1...8)
    #expect(sequences(log, limit: 3) == [1, 2, 3])
    #expect(sequences(log, since: 5, limit: 2) == [6, 7])
    #expect(sequences(log, limit: 0) == [])
    #expect(sequences(log, limit: -1) == [])
    #expect(sequences(log, limit: 100) == Array(1...8))
  }

  @Test func theNameFilterMatchesTheWireNameSoDidMuteMatchesBothKinds() {
    let log = InMemoryAdEventLog(capacity: 10)
    let kinds: [AdEventKind] = [
      .didMute, .videoDidMute, .didRecordClick, .videoDidUnmute, .didMute, .videoDidPlay,
    ]
    for (index, kind) in kinds.enumerated() { log.adEventRecorded(event(index + 1, kind)) }
    func named(_ name: String, since: Int? = nil, limit: Int = 10) -> [Int] {
      log.events(matching: AdEventQuery(name: name, since: since, limit: limit)).map(\.sequence)
    }
    #expect(named("didMute") == [1, 2, 5])
    #expect(named("didMute", since: 1, limit: 1) == [2])
    #expect(named("didPlay") == [6])
    #expect(named("videoDidPlay") == [])
    #expect(named("didUnmute") == [4])
    #expect(named("didRecordClick") == [3])
  }

  @Test func theAdFilterAndTheNameFilterCombine() {
    let log = InMemoryAdEventLog(capacity: 10)
    log.adEventRecorded(event(1, .didRecordClick, adId: "a"))
    log.adEventRecorded(event(2, .didRecordClick, adId: "b"))
    log.adEventRecorded(event(3, .didRecordImpression, adId: "a"))
    log.adEventRecorded(event(4, .didRecordClick, adId: "a"))
    let clicksOfA = log.events(
      matching: AdEventQuery(adId: "a", name: "didRecordClick", limit: 10))
    #expect(clicksOfA.map(\.sequence) == [1, 4])
    #expect(log.events(matching: AdEventQuery(adId: "b", limit: 10)).map(\.sequence) == [2])
    #expect(log.events(matching: AdEventQuery(adId: "c", limit: 10)).isEmpty)
  }

  @Test func aLogOfCapacityZeroKeepsNothing() {
    let log = makeLog(capacity: 0, events: 1...5)
    #expect(log.capacity == 0)
    #expect(log.events.isEmpty)
    #expect(sequences(log) == [])
    #expect(sequences(log, since: 2) == [])
    #expect(InMemoryAdEventLog(capacity: -3).capacity == 0)
    #expect(makeLog(capacity: -3, events: 1...2).events.isEmpty)
  }

  @Test func aSinceFarBelowTheKeptEventsAnswersThemAll() {
    // `since` is any Int in the domain (the wire allows only >= 0): far below the kept events,
    // even Int.min, it answers every kept event (no arithmetic overflow).
    let log = InMemoryAdEventLog(capacity: 2)
    for sequence in 1...3 {
      log.adEventRecorded(
        AdEvent(sequence: sequence, adId: "a", owner: 1, event: .didMute, assetKey: nil, time: 0))
    }
    #expect(
      log.events(matching: AdEventQuery(since: Int.min, limit: 10)).map(\.sequence) == [2, 3])
    #expect(log.events(matching: AdEventQuery(since: -5, limit: 10)).map(\.sequence) == [2, 3])
    #expect(log.events(matching: AdEventQuery(since: Int.max, limit: 10)).isEmpty)
  }

  @Test func anEmptyLogAnswersNothing() {
    let log = InMemoryAdEventLog(capacity: 5)
    #expect(sequences(log) == [])
    #expect(sequences(log, since: 0) == [])
  }

  @Test func theCompletionQueryAnswersBeforeReturning() {
    let log = makeLog(capacity: 3, events: 1...5)
    var answered: AdEventPage?
    log.events(matching: AdEventQuery(since: 3, limit: 10)) { answered = try? $0.get() }
    #expect(answered?.events.map(\.sequence) == [4, 5])
    #expect(answered?.lastSequence == 5)
  }

  @Test func aLogSubscribedToAStreamKeepsWhatItPublishes() {
    let ad = Fixtures.loadOne(Fixtures.manager())
    let stream = AdEventStream()
    let log = InMemoryAdEventLog(capacity: 2)
    stream.subscribe(log)
    for kind: AdEventKind in [.didRecordImpression, .didRecordClick, .willPresentScreen] {
      stream.publish(kind, on: ad, assetKey: nil, reason: nil, at: 1)
    }
    #expect(log.events.map(\.event) == [.didRecordClick, .willPresentScreen])
    #expect(log.events(matching: AdEventQuery(since: 2, limit: 5)).map(\.sequence) == [3])
  }
}
