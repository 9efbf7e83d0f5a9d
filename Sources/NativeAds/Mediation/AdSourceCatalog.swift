/// The sources a load of an ad unit asks: the unit's waterfall, ordered by eCPM, or for a unit
/// without one its own creatives. Adding a kind of source means a ``WaterfallSource`` case and
/// a line here.
final class AdSourceCatalog {
  /// The unit's creatives (one source, shared by every load so that tied creatives rotate).
  let inventory: InventorySource
  /// The mediation adapters, by class name.
  let adapters: AdapterRegistry
  /// Makes the delegate through which an adapter reports on the ad it mapped.
  var makeDelegate: () -> MediatedAdEventDelegate = { MediatedAdEventDelegate() }
  /// How many adapter loads were asked (numbers their load IDs).
  private var adapterLoadCounter: UInt64 = 0

  /// The plan of a unit without a waterfall, made once.
  private let inventoryOnly: [any AdSource]

  init(inventory: Inventory, adapters: AdapterRegistry, seed: UInt64) {
    self.inventory = InventorySource(inventory: inventory, seed: seed)
    self.adapters = adapters
    self.inventoryOnly = [self.inventory]
  }

  /// The sources for `unit`, in the order a load asks them.
  func sources(for unit: AdUnit) -> [any AdSource] {
    guard let waterfall = unit.waterfall else { return inventoryOnly }
    return WaterfallSource.ordered(waterfall).map { source -> any AdSource in
      switch source {
      case .inventory:
        return inventory
      case .customEvent(let className, let parameter, let eCPM, let timeoutMs, let label):
        return CustomEventSource(
          className: className, parameter: parameter, eCPM: eCPM, timeoutMs: timeoutMs,
          label: label, adapters: adapters,
          nextLoadId: { [unowned self] in
            adapterLoadCounter += 1
            return "load-" + String(adapterLoadCounter)
          },
          makeDelegate: makeDelegate)
      }
    }
  }
}
