import NativeAds
import Testing

/// What decisioning ranks for a unit (``Inventory/listedCreatives(of:)``): resolved once and
/// kept, and never stale.
@Suite struct ListingTests {
  static func native(_ id: String, priority: Int = 0) -> Creative {
    Creative(
      id: id, content: .native(NativeAssets(headline: id)), priority: priority,
      landingPageURL: "https://example.com/\(id)")
  }

  static func ids(_ listing: Inventory.Listing) -> [String] {
    listing.map { "\($0.listing):\($0.creative.id)" }
  }

  @Test func aListingSkipsUnknownIDsAndCountsARepeatedIDWhereItIsFirstListed() {
    let inventory = Inventory(
      creatives: [Self.native("a"), Self.native("b")],
      adUnits: [AdUnit(id: "u", creativeIDs: ["a", "x", "b", "a", "b"])])
    let unit = inventory.adUnit("u")!
    #expect(Self.ids(inventory.listedCreatives(of: unit)) == ["0:a", "2:b"])
  }

  @Test func aKeptListingFollowsEveryChangeOfTheInventory() throws {
    let inventory = Inventory(
      creatives: [Self.native("a"), Self.native("b")],
      adUnits: [AdUnit(id: "u", creativeIDs: ["a", "b", "c"])])
    var unit = try #require(inventory.adUnit("u"))
    #expect(Self.ids(inventory.listedCreatives(of: unit)) == ["0:a", "1:b"])
    // A creative added, replaced, removed.
    try inventory.putCreative(Self.native("c"))
    #expect(Self.ids(inventory.listedCreatives(of: unit)) == ["0:a", "1:b", "2:c"])
    try inventory.putCreative(Self.native("a", priority: 7))
    #expect(inventory.listedCreatives(of: unit).first?.creative.priority == 7)
    inventory.removeCreative("b")
    #expect(Self.ids(inventory.listedCreatives(of: unit)) == ["0:a", "2:c"])
    // The unit replaced: its new listing.
    try inventory.putAdUnit(AdUnit(id: "u", creativeIDs: ["c"]))
    unit = try #require(inventory.adUnit("u"))
    #expect(Self.ids(inventory.listedCreatives(of: unit)) == ["0:c"])
    // A unit value that is not the stored one is listed as it is.
    #expect(
      Self.ids(inventory.listedCreatives(of: AdUnit(id: "u", creativeIDs: ["a", "c"])))
        == ["0:a", "1:c"])
    // Going back to a snapshot.
    let snapshot = inventory.snapshot()
    inventory.add(Self.native("d"))
    inventory.add(AdUnit(id: "u", creativeIDs: ["d"]))
    #expect(Self.ids(inventory.listedCreatives(of: inventory.adUnit("u")!)) == ["0:d"])
    inventory.restore(snapshot)
    #expect(Self.ids(inventory.listedCreatives(of: inventory.adUnit("u")!)) == ["0:c"])
  }

  @Test func aRemovedUnitLeavesNoListing() throws {
    let inventory = Inventory(
      creatives: [Self.native("a")], adUnits: [AdUnit(id: "u", creativeIDs: ["a"])])
    let unit = try #require(inventory.adUnit("u"))
    #expect(Self.ids(inventory.listedCreatives(of: unit)) == ["0:a"])
    #expect(try inventory.remove(kind: .adUnit, id: "u"))
    try inventory.remove(kind: .creative, id: "a")
    #expect(inventory.listedCreatives(of: unit).isEmpty)
  }

  /// The units and listings of the last few loads are kept at hand (found by an ID comparison
  /// and by identity before any hashing): each lookup still answers its own unit, past the
  /// few kept, and none outlives a change.
  @Test func recentUnitsAndListingsAnswerTheirOwnAndForgetEveryChange() throws {
    let names = (0..<7).map { "c\($0)" }
    let inventory = Inventory(
      creatives: names.map { Self.native($0) },
      adUnits: names.map { AdUnit(id: "u-\($0)", creativeIDs: [$0]) })
    for round in 0..<3 {
      for name in names + names.reversed() {
        let unit = try #require(inventory.adUnit("u-\(name)"), "round \(round)")
        #expect(unit.id == "u-\(name)")
        #expect(Self.ids(inventory.listedCreatives(of: unit)) == ["0:\(name)"])
      }
    }
    #expect(inventory.adUnit("u-c") == nil)
    // Changed or removed while kept at hand.
    let kept = try #require(inventory.adUnit("u-c0"))
    #expect(Self.ids(inventory.listedCreatives(of: kept)) == ["0:c0"])
    try inventory.putAdUnit(AdUnit(id: "u-c0", creativeIDs: ["c1", "c0"]))
    let replaced = try #require(inventory.adUnit("u-c0"))
    #expect(Self.ids(inventory.listedCreatives(of: replaced)) == ["0:c1", "1:c0"])
    try inventory.putCreative(Self.native("c1", priority: 9))
    #expect(inventory.listedCreatives(of: replaced).first?.creative.priority == 9)
    #expect(inventory.removeAdUnit("u-c0") != nil)
    #expect(inventory.adUnit("u-c0") == nil)
  }
}
