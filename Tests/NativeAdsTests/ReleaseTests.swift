import NativeAds
import Testing

@Suite struct ReleaseTests {
  @Test func aReleasedAdIsNotFoundAnyMore() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    try manager.release(adId: ad.id)
    #expect(ad.isReleased)
    let notFound = AdObjectError.adNotFound(adId: ad.id)
    #expect(Fixtures.adError { try manager.ad(ad.id) } == notFound)
    #expect(
      Fixtures.adError { try manager.recordImpression(adId: ad.id) }
        == notFound)
    #expect(
      Fixtures.adError { try manager.string(forKey: "headline", adId: ad.id) }
        == notFound)
    #expect(Fixtures.adError { try manager.release(adId: ad.id) } == notFound)
  }

  @Test func releasingOneAdLeavesTheOthers() throws {
    let manager = Fixtures.manager()
    let (ads, _) = try manager.load(Fixtures.request(count: 2), owner: 1)
    try manager.release(adId: ads[0].id)
    #expect(try manager.ad(ads[1].id) === ads[1])
    #expect(manager.ads.map(\.id) == [ads[1].id])
  }

  @Test func releaseAllReleasesOnlyTheOwnersAds() throws {
    let manager = Fixtures.manager()
    let mine = try manager.load(Fixtures.request(count: 2), owner: 1).ads
    let theirs = Fixtures.loadOne(manager, owner: 2)
    #expect(manager.releaseAll(ownedBy: 1) == 2)
    #expect(mine.allSatisfy { $0.isReleased })
    #expect(manager.ads(ownedBy: 1).isEmpty)
    #expect(try manager.ad(theirs.id) === theirs)
    #expect(manager.releaseAll(ownedBy: 1) == 0)
    #expect(manager.releaseAll(ownedBy: 3) == 0)
  }

  @Test func adsOfAnyOwnerCanBeUsedByAnyCaller() throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager, owner: 1)
    _ = try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: [], by: 2)
    #expect(sink.events.map(\.owner) == [1, 1])
    #expect(sink.events.map(\.event) == [.didRecordClick, .willPresentScreen])
  }

  /// `releaseNow` (the RPC layer's common case) answers at once for an ad of this process,
  /// with what `release(adId:)` does: the ad gone, the same events, the inspector told.
  @Test func releaseNowDoesAtOnceWhatReleaseDoes() throws {
    var outcomes: [[AdEvent]] = []
    var told: [[String]] = []
    for now in [true, false] {
      let manager = Fixtures.manager()
      let sink = RecordingSink()
      manager.sink = sink
      var released: [String] = []
      manager.onReleased = { released.append($0) }
      let ad = Fixtures.loadOne(manager)
      _ = try manager.recordImpression(adId: ad.id)
      if now {
        let result = try #require(manager.releaseNow(adId: ad.id))
        #expect(throws: Never.self) { try result.get() }
      } else {
        try manager.release(adId: ad.id)
      }
      #expect(ad.isReleased)
      #expect(Fixtures.adError { try manager.ad(ad.id) } == .adNotFound(adId: ad.id))
      outcomes.append(sink.events)
      told.append(released)
    }
    #expect(outcomes[0] == outcomes[1])
    #expect(told[0] == told[1])
    #expect(told[0].count == 1)
  }

  @Test func releaseNowOfAnUnknownOrReleasedAdIsNotFound() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    #expect(throws: Never.self) { try manager.releaseNow(adId: ad.id)?.get() }
    for id in [ad.id, "ad-unknown"] {
      let result = try #require(manager.releaseNow(adId: id))
      #expect(throws: AdObjectError.adNotFound(adId: id)) { try result.get() }
    }
  }

  /// The store in this process's memory answers at once: a store that would not (the
  /// requirement's default) sends every release through the completion.
  @Test func theInMemoryStoreReleasesAtOnce() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let store = InMemoryLiveAdStore()
    store.insert([ad]) { _ in }
    let released = try #require(store.releaseNow(ad, at: 10))
    // (No ad view was registered: nothing to tell, nothing changed.)
    #expect(released == AdTransition(outcome: .changed(false), effects: []))
    #expect(ad.isReleased)
    #expect(store.ad(ad.id) == nil)
  }
}
