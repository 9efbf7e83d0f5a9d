import NativeAds
import Testing

@Suite struct AdapterRegistryTests {
  @Test func theSampleCustomEventIsBuiltIn() throws {
    let registry = AdapterRegistry()
    #expect(registry.isBuiltIn("SampleCustomEvent"))
    #expect(registry.adapter(named: "SampleCustomEvent") is SampleCustomEvent)
    #expect(registry.owner(of: "SampleCustomEvent") == nil)
    #expect(registry.classNames == ["SampleCustomEvent"])
    #expect(AdManager(inventory: Inventory()).adapters.isBuiltIn("SampleCustomEvent"))
  }

  @Test func aBuiltInClassCannotBeRegisteredOverOrUnregistered() {
    let registry = AdapterRegistry()
    let adapter = TestAdapter(.hold)
    #expect(!registry.register(className: "SampleCustomEvent", adapter: adapter, owner: 1))
    #expect(adapter.setUpCount == 0)
    #expect(!registry.unregister(className: "SampleCustomEvent"))
    #expect(registry.unregisterAll(ownedBy: 1).isEmpty)
    #expect(registry.adapter(named: "SampleCustomEvent") is SampleCustomEvent)
  }

  @Test func anEmptyClassNameIsRefused() {
    let registry = AdapterRegistry()
    #expect(!registry.register(className: "", adapter: TestAdapter(.hold), owner: nil))
    #expect(registry.classNames == ["SampleCustomEvent"])
  }

  @Test func registeringSetsTheAdapterUpAndRecordsItsOwner() throws {
    let registry = AdapterRegistry()
    let adapter = TestAdapter(.hold)
    #expect(registry.register(className: "Remote", adapter: adapter, owner: 4))
    #expect(adapter.setUpCount == 1)
    #expect(registry.adapter(named: "Remote") === adapter)
    #expect(registry.owner(of: "Remote") == 4)
    #expect(!registry.isBuiltIn("Remote"))
    #expect(registry.adapter(named: "Unknown") == nil)
    #expect(registry.owner(of: "Unknown") == nil)
  }

  @Test func anotherOwnerTakesAClassOver() throws {
    let registry = AdapterRegistry()
    let first = TestAdapter(.hold)
    let second = TestAdapter(.hold)
    registry.register(className: "Remote", adapter: first, owner: 4)
    #expect(registry.register(className: "Remote", adapter: second, owner: 5))
    #expect(registry.adapter(named: "Remote") === second)
    #expect(registry.owner(of: "Remote") == 5)
    #expect(registry.unregisterAll(ownedBy: 4).isEmpty)
    #expect(registry.adapter(named: "Remote") === second)
  }

  @Test func unregisteringRemovesOneClassOrAllOfAnOwners() throws {
    let registry = AdapterRegistry()
    registry.register(className: "B", adapter: TestAdapter(.hold), owner: 4)
    registry.register(className: "A", adapter: TestAdapter(.hold), owner: 4)
    registry.register(className: "C", adapter: TestAdapter(.hold), owner: 5)
    registry.register(className: "D", adapter: TestAdapter(.hold), owner: nil)
    #expect(registry.unregister(className: "D"))
    #expect(!registry.unregister(className: "D"))
    #expect(registry.unregisterAll(ownedBy: 4) == ["A", "B"])
    #expect(registry.classNames == ["C", "SampleCustomEvent"])
  }
}
