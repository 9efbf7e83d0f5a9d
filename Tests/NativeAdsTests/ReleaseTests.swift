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
}
