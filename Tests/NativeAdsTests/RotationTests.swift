import NativeAds
import Testing

@Suite struct RotationTests {
  /// A unit `unit` of three creatives tied on priority and eCPM, plus a better and a worse one.
  static func tiedInventory(unit: String = "tied") -> Inventory {
    let inventory = Inventory()
    func creative(_ id: String, priority: Int, eCPM: Double) -> Creative {
      Creative(
        id: id, content: .native(NativeAssets(headline: id)), priority: priority, eCPM: eCPM,
        landingPageURL: "https://example.com/\(id)")
    }
    inventory.add(creative("best", priority: 9, eCPM: 1))
    for id in ["a", "b", "c"] { inventory.add(creative(id, priority: 5, eCPM: 1.5)) }
    inventory.add(creative("worst", priority: 1, eCPM: 1))
    inventory.add(AdUnit(id: unit, creativeIDs: ["a", "worst", "b", "best", "c"]))
    return inventory
  }

  /// The creative IDs of `loads` successive loads of `count` ads.
  static func loads(_ manager: AdManager, unit: String = "tied", count: Int, loads: Int) throws
    -> [[String]]
  {
    try (0..<loads).map { _ in
      try manager.load(Fixtures.request(unit, count: count), owner: 1).ads.map(\.creative.id)
    }
  }

  @Test func tiedCreativesTakeTurnsRoundRobin() throws {
    let inventory = Self.tiedInventory()
    inventory.add(AdUnit(id: "only-tied", creativeIDs: ["a", "b", "c"]))
    let manager = Fixtures.manager(inventory: inventory)
    let served = try Self.loads(manager, unit: "only-tied", count: 1, loads: 6).map { $0[0] }
    let order = ["a", "b", "c"]
    let first = try #require(order.firstIndex(of: served[0]))
    #expect(served == (0..<6).map { order[(first + $0) % 3] })
  }

  @Test func aMultiAdLoadRotatesTheTieGroupInsideTheRanking() throws {
    let manager = Fixtures.manager(inventory: Self.tiedInventory())
    let results = try Self.loads(manager, count: 5, loads: 3)
    for ids in results {
      #expect(ids.first == "best" && ids.last == "worst")
      #expect(Set(ids[1...3]) == ["a", "b", "c"])
    }
    // Each load starts the group one member later, keeping the cyclic listing order.
    let order = ["a", "b", "c"]
    let start = try #require(order.firstIndex(of: results[0][1]))
    for (load, ids) in results.enumerated() {
      #expect(Array(ids[1...3]) == (0..<3).map { order[(start + load + $0) % 3] })
    }
  }

  @Test func theSameSeedGivesTheSameRotation() throws {
    let first = try Self.loads(
      Fixtures.manager(inventory: Self.tiedInventory(), seed: 7), count: 2, loads: 5)
    let second = try Self.loads(
      Fixtures.manager(inventory: Self.tiedInventory(), seed: 7), count: 2, loads: 5)
    #expect(first == second)
  }

  @Test func theSeedChoosesWhereTheRotationStarts() throws {
    var starts: Set<String> = []
    for seed in UInt64(1)...12 {
      let manager = Fixtures.manager(inventory: Self.tiedInventory(), seed: seed)
      starts.insert(
        try manager.load(Fixtures.request("tied", count: 2), owner: 1).ads[1].creative.id)
    }
    #expect(starts.count > 1)
  }

  @Test func eachUnitRotatesOnItsOwn() throws {
    let inventory = Self.tiedInventory()
    inventory.add(AdUnit(id: "other", creativeIDs: ["a", "b", "c"]))
    inventory.add(AdUnit(id: "mine", creativeIDs: ["a", "b", "c"]))
    let together = Fixtures.manager(inventory: inventory, seed: 5)
    let alone = Fixtures.manager(inventory: inventory, seed: 5)
    // Loads of another unit in between do not move this unit's rotation.
    var interleaved: [String] = []
    for _ in 0..<4 {
      _ = try together.load(Fixtures.request("other"), owner: 1)
      interleaved.append(try together.load(Fixtures.request("mine"), owner: 1).ads[0].creative.id)
    }
    let straight = try Self.loads(alone, unit: "mine", count: 1, loads: 4).map { $0[0] }
    #expect(interleaved == straight)
  }

  @Test func rotationCarriesOnWhenTheUnitIsRedefined() throws {
    let inventory = Self.tiedInventory()
    inventory.add(AdUnit(id: "u", creativeIDs: ["a", "b"]))
    let manager = Fixtures.manager(inventory: inventory)
    let before = try Self.loads(manager, unit: "u", count: 1, loads: 2).map { $0[0] }
    #expect(Set(before) == ["a", "b"])

    _ = try inventory.putAdUnit(AdUnit(id: "u", creativeIDs: ["c", "b", "a"]))
    let grown = try Self.loads(manager, unit: "u", count: 1, loads: 3).map { $0[0] }
    #expect(Set(grown) == ["a", "b", "c"])

    _ = try inventory.putAdUnit(AdUnit(id: "u", creativeIDs: ["b"]))
    #expect(try Self.loads(manager, unit: "u", count: 1, loads: 2).map { $0[0] } == ["b", "b"])
  }
}
