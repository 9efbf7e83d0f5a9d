import NativeAds
import Testing

@Suite struct DecisioningTests {
  @Test func theHighestPriorityCreativeWins() throws {
    let manager = Fixtures.manager()
    let (ads, _) = try manager.load(Fixtures.request(), owner: 1)
    #expect(ads.map(\.creative.id) == ["native-app-install-1"])
  }

  @Test func severalAdsAreDistinctCreativesBestFirst() throws {
    let manager = Fixtures.manager()
    let request = Fixtures.request(
      types: [.native, .customNative], formats: [Fixtures.customFormat], count: 3)
    let (ads, _) = try manager.load(request, owner: 1)
    #expect(
      ads.map(\.creative.id) == ["native-app-install-1", "custom-10063170-1", "native-content-1"])
    #expect(Set(ads.map(\.id)).count == 3)
  }

  @Test func theBestCreativeWinsWhateverItsFormat() throws {
    let inventory = Inventory.fixture()
    var custom = try #require(inventory.creative("custom-10063170-1"))
    custom.priority = 20
    inventory.add(custom)
    let manager = Fixtures.manager(inventory: inventory)
    let request = Fixtures.request(types: [.native, .customNative], formats: ["10063170"])
    let (ads, _) = try manager.load(request, owner: 1)
    #expect(ads.map(\.creative.id) == ["custom-10063170-1"])
    #expect(ads[0].kind == .customNative)
  }

  @Test func eCPMBreaksPriorityTiesAndFullTiesStayTogether() throws {
    let inventory = Inventory()
    func creative(_ id: String, priority: Int, eCPM: Double) -> Creative {
      Creative(
        id: id, content: .native(NativeAssets(headline: id)), priority: priority, eCPM: eCPM,
        landingPageURL: "https://example.com/\(id)")
    }
    inventory.add(creative("low", priority: 1, eCPM: 9))
    inventory.add(creative("tie-a", priority: 5, eCPM: 1))
    inventory.add(creative("rich", priority: 5, eCPM: 3))
    inventory.add(creative("tie-b", priority: 5, eCPM: 1))
    inventory.add(AdUnit(id: "unit", creativeIDs: ["low", "tie-b", "tie-a", "rich"]))
    let manager = Fixtures.manager(inventory: inventory)
    let ids = try manager.load(Fixtures.request("unit", count: 4), owner: 1).ads.map(\.creative.id)
    #expect(ids.first == "rich")
    #expect(Set(ids[1...2]) == ["tie-a", "tie-b"])
    #expect(ids.last == "low")
  }

  /// Long listings take another path to skip repeated IDs (a set instead of a scan): each
  /// creative still counts once, at its first place, whatever the listing's length.
  @Test(arguments: [3, 16, 17, 40])
  func aCreativeListedTwiceIsServedOnce(count: Int) throws {
    let inventory = Inventory()
    for index in 0..<count {
      inventory.add(
        Creative(
          id: "c\(index)", content: .native(NativeAssets(headline: "Ad \(index)")),
          priority: index % 3, eCPM: Double(index), landingPageURL: "https://example.com/\(index)"))
    }
    // Every ID twice, the second time in reverse order, plus one the inventory lacks.
    let ids = (0..<count).map { "c\($0)" }
    inventory.add(AdUnit(id: "u", creativeIDs: ids + ["missing"] + ids.reversed()))
    let manager = Fixtures.manager(inventory: inventory)
    let served = try manager.load(Fixtures.request("u", count: 5), owner: 1).ads.map(\.creative.id)
    #expect(served.count == min(5, count))
    #expect(Set(served).count == served.count)
    // Best first: priority 2, then the highest eCPM.
    let expected = (0..<count).sorted { ($0 % 3, $0) > ($1 % 3, $1) }.prefix(5).map { "c\($0)" }
    #expect(served == Array(expected))
  }

  @Test func numberOfAdsAboveFiveIsClampedToFive() throws {
    let inventory = Inventory()
    for index in 1...7 {
      inventory.add(
        Creative(
          id: "c\(index)", content: .native(NativeAssets(headline: "Ad \(index)")),
          priority: index, landingPageURL: "https://example.com/\(index)"))
    }
    inventory.add(AdUnit(id: "big", creativeIDs: (1...7).map { "c\($0)" }))
    let manager = Fixtures.manager(inventory: inventory)
    let (ads, _) = try manager.load(Fixtures.request("big", count: 9), owner: 1)
    #expect(ads.map(\.creative.id) == ["c7", "c6", "c5", "c4", "c3"])
    #expect(ads.allSatisfy { $0.options.numberOfAds == 5 })
  }

  @Test func fewerAdsAreReturnedWhenTheUnitHasFewerCreatives() throws {
    let manager = Fixtures.manager()
    let (ads, _) = try manager.load(Fixtures.request(Fixtures.backfillUnit, count: 5), owner: 1)
    #expect(ads.map(\.creative.id) == ["backfill-app-install-1", "backfill-content-1"])
  }

  @Test func aCreativeListedTwiceIsServedOnce() throws {
    let inventory = Inventory.fixture()
    inventory.add(
      AdUnit(id: "dup", creativeIDs: ["native-content-1", "native-content-1", "missing"]))
    let manager = Fixtures.manager(inventory: inventory)
    let (ads, _) = try manager.load(Fixtures.request("dup", count: 3), owner: 1)
    #expect(ads.map(\.creative.id) == ["native-content-1"])
  }

  @Test func onlyRequestedCustomFormatsAreEligible() throws {
    let manager = Fixtures.manager()
    let onlyCustom = Fixtures.request(types: [.customNative], formats: ["10063170"], count: 5)
    let (ads, _) = try manager.load(onlyCustom, owner: 1)
    #expect(ads.map(\.creative.id) == ["custom-10063170-1"])

    let otherFormat = Fixtures.request(types: [.customNative], formats: ["12387226"])
    let error = try #require(Fixtures.loadError(manager, otherFormat))
    #expect(error.code == .noFill)
  }

  @Test func nativeOnlyRequestsNeverGetCustomAds() throws {
    let manager = Fixtures.manager()
    // Format IDs alone do not make custom ads eligible: the type must be asked for.
    let request = Fixtures.request(types: [.native], formats: ["10063170"], count: 5)
    let (ads, _) = try manager.load(request, owner: 1)
    #expect(ads.map(\.kind) == [.native, .native])
  }

  @Test func loadedAdsCarryTheirLoadDetails() throws {
    let clock = ManualClock(time: 1_000)
    let manager = Fixtures.manager(clock: clock)
    var request = Fixtures.request()
    request.options.shouldRequestMultipleImages = true
    let (ads, responseInfo) = try manager.load(request, owner: 7)
    let ad = ads[0]
    #expect(ad.owner == 7)
    #expect(ad.loadedAt == 1_000)
    #expect(ad.expiresAt == 4_600)
    #expect(ad.options.shouldRequestMultipleImages)
    #expect(ad.responseInfo == responseInfo)
    #expect(!ad.impressionRecorded && ad.clickCount == 0 && !ad.isReleased)
    #expect(try manager.ad(ad.id) === ad)
  }

  @Test func adIDsAreUniqueAcrossLoads() throws {
    let manager = Fixtures.manager()
    var ids: Set<String> = []
    for _ in 0..<20 {
      for ad in try manager.load(Fixtures.request(count: 3), owner: 1).ads {
        #expect(ids.insert(ad.id).inserted)
      }
    }
    #expect(ids.count == 40)
  }

  @Test func theSameSeedGivesTheSameIdentifiers() throws {
    let first = Fixtures.manager(seed: 99)
    let second = Fixtures.manager(seed: 99)
    let other = Fixtures.manager(seed: 100)
    let a = try first.load(Fixtures.request(), owner: 1)
    let b = try second.load(Fixtures.request(), owner: 1)
    let c = try other.load(Fixtures.request(), owner: 1)
    #expect(a.ads[0].id == b.ads[0].id)
    #expect(a.responseInfo.responseIdentifier == b.responseInfo.responseIdentifier)
    #expect(a.ads[0].id != c.ads[0].id)
    #expect(a.responseInfo.responseIdentifier != c.responseInfo.responseIdentifier)
  }
}
