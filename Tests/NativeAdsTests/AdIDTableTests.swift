import Testing

@testable import NativeAds

/// The live-ad table looked up by ID bytes: every kept ad is found, every removed one is not,
/// whatever the order of inserts and removals (probe runs survive backward-shift deletion and
/// the table's growing and shrinking).
@Suite struct AdIDTableTests {
  private let template = Fixtures.loadOne(Fixtures.manager())

  private func ad(_ id: String) -> NativeAd {
    NativeAd(
      id: id, creative: template.creative, options: template.options,
      responseInfo: template.responseInfo, loadedAt: 0, expiresAt: 1, owner: 1,
      adUnitID: template.adUnitID)
  }

  private static func find(_ table: AdIDTable, _ id: String) -> NativeAd? {
    var id = id
    return id.withUTF8 { table.ad(utf8: $0) }
  }

  @Test func findsWhatWasInsertedAndNothingElse() {
    var table = AdIDTable()
    let ads = (0..<1000).map { ad("ad-1cc520-\($0)") }
    for ad in ads { table.insert(ad) }
    #expect(table.count == 1000)
    for ad in ads { #expect(Self.find(table, ad.id) === ad) }
    for id in ["ad-1cc520-1000", "ad-1cc520-", "", "ad-1cc520-01", "AD-1CC520-1", "ad-1cc520-1 "] {
      #expect(Self.find(table, id) == nil, "\(id)")
    }
    #expect(Set(table.ads.map(\.id)) == Set(ads.map(\.id)))
  }

  @Test func insertingAnIDAgainReplacesTheAd() {
    var table = AdIDTable()
    let first = ad("ad-x-1")
    let second = ad("ad-x-1")
    table.insert(first)
    table.insert(second)
    #expect(table.count == 1)
    #expect(Self.find(table, "ad-x-1") === second)
  }

  /// Removals in a scrambled order, interleaved with inserts: after each step the table holds
  /// exactly the model's IDs.
  @Test(arguments: [1, 7, 42])
  func removalsKeepEveryOtherAdReachable(seed: UInt64) {
    var table = AdIDTable()
    var model: [String: NativeAd] = [:]
    var random = SplitMix64(seed: seed)
    for step in 0..<4000 {
      let roll = random.next() % 10
      if roll < 6 || model.isEmpty {
        // IDs of every length from 0 to 40 bytes, many sharing prefixes.
        let id = "ad-" + String(repeating: "x", count: Int(random.next() % 38)) + "-\(step)"
        let ad = ad(id)
        table.insert(ad)
        model[id] = ad
      } else {
        let id = model.keys.sorted()[Int(random.next() % UInt64(model.count))]
        table.remove(id)
        model[id] = nil
        #expect(Self.find(table, id) == nil)
      }
      if step % 97 == 0 {
        #expect(table.count == model.count)
        for (id, ad) in model { #expect(Self.find(table, id) === ad, "\(id)") }
      }
    }
    // Empty it: the table shrinks and still answers.
    for id in model.keys { table.remove(id) }
    #expect(table.count == 0)
    #expect(table.ads.isEmpty)
    #expect(Self.find(table, "ad--1") == nil)
  }

  /// Bursts of loads and releases cost no rehashing once the table has grown: its size stays
  /// put through swings of any size within the floor (1 to 40 live ads, 10 to 500), and of
  /// less than eight times above it (600 to 2,000); emptied, it shrinks back to the floor.
  @Test func swingsInTheNumberOfAdsDoNotResizeTheTable() {
    var table = AdIDTable()
    let keeper = ad("ad-keep-0")
    table.insert(keeper)
    var next = 0
    var live: [String] = [keeper.id]
    for (low, high) in [(1, 40), (10, 500), (600, 2_000)] {
      var sizes: Set<Int> = []
      for burst in 0..<6 {
        while live.count < high {
          next += 1
          let ad = ad("ad-swing-\(next)")
          table.insert(ad)
          live.append(ad.id)
        }
        if burst > 0 { sizes.insert(table.capacity) }
        while live.count > low {
          table.remove(live.removeLast())
        }
        if burst > 0 { sizes.insert(table.capacity) }
        #expect(table.count == low)
        #expect(Self.find(table, keeper.id) === keeper)
      }
      #expect(sizes.count == 1, "\(low)...\(high): the table resized between bursts: \(sizes)")
    }
    for id in table.ads.map(\.id) { table.remove(id) }
    #expect(table.count == 0)
    #expect(table.capacity == AdIDTable.shrinkFloor)
  }

  @Test func removingAnUnknownIDChangesNothing() {
    var table = AdIDTable()
    let ad = ad("ad-y-1")
    table.insert(ad)
    table.remove("ad-y-2")
    table.remove("")
    #expect(table.count == 1)
    #expect(Self.find(table, "ad-y-1") === ad)
  }
}
