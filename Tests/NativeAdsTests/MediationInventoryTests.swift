import NativeAds
import Testing

@Suite struct MediationInventoryTests {
  static func put(_ unit: AdUnit) -> InventoryProblem? {
    let inventory = Inventory.fixture()
    return Fixtures.inventoryError { try inventory.putAdUnit(unit) }?.problem
  }

  static func unit(_ waterfall: [WaterfallSource]?, deadlineMs: UInt64? = nil) -> AdUnit {
    AdUnit(
      id: "u", creativeIDs: ["native-app-install-1"], waterfall: waterfall,
      deadlineMs: deadlineMs)
  }

  static let sample = WaterfallSource.customEvent(
    adapterClassName: "SampleCustomEvent", parameter: "p", eCPM: 1, timeoutMs: 1, label: nil)

  @Test func unitsHaveNoWaterfallByDefault() {
    let unit = AdUnit(id: "u", creativeIDs: [])
    #expect(unit.waterfall == nil)
    #expect(unit.deadlineMs == nil)
  }

  @Test func aValidWaterfallIsStored() throws {
    let inventory = Inventory.fixture()
    let unit = Self.unit([Self.sample, .inventory(eCPM: 0, label: "Backfill")], deadlineMs: 1)
    #expect(try !inventory.putAdUnit(unit))
    #expect(inventory.adUnit("u") == unit)
  }

  @Test func theBuiltInWaterfallPassesTheStoreValidation() throws {
    let unit = try #require(Inventory.fixture().adUnit(Inventory.sampleWaterfallAdUnitID))
    #expect(Self.put(unit) == nil)
    #expect(unit.waterfall?.count == 2)
  }

  @Test func anEmptyWaterfallIsRefused() {
    #expect(
      Self.put(Self.unit([]))
        == .emptyWaterfall)
  }

  @Test func aNegativeOrNonFiniteECPMIsRefused() {
    for eCPM in [-0.1, .nan, .infinity] {
      #expect(
        Self.put(Self.unit([Self.sample, .inventory(eCPM: eCPM, label: nil)]))
          == .source(index: 1, .invalidECPM))
    }
  }

  @Test func aTimeoutOfZeroIsRefused() {
    let source = WaterfallSource.customEvent(
      adapterClassName: "A", parameter: "", eCPM: 1, timeoutMs: 0, label: nil)
    #expect(
      Self.put(Self.unit([source]))
        == .source(index: 0, .nonPositiveTimeout))
  }

  @Test func anEmptyAdapterClassNameIsRefused() {
    let source = WaterfallSource.customEvent(
      adapterClassName: "", parameter: "", eCPM: 1, timeoutMs: 5, label: nil)
    #expect(Self.put(Self.unit([source])) == .source(index: 0, .emptyAdapterClassName))
  }

  @Test func theInventorySourceMayAppearOnlyOnce() {
    #expect(
      Self.put(
        Self.unit([.inventory(eCPM: 1, label: nil), Self.sample, .inventory(eCPM: 2, label: nil)]))
        == .source(index: 2, .repeatedInventory(firstIndex: 0)))
  }

  @Test func aDeadlineOfZeroIsRefused() {
    #expect(
      Self.put(Self.unit(nil, deadlineMs: 0))
        == .nonPositiveDeadline)
  }
}
