/// The ad unit's own creatives as a source: decisioning (``CreativeSelector``) picks the best
/// eligible ones. Answers at once; Google's entry (`Reservation` when the ad served is
/// direct-sold, else `AdMob Network`).
final class InventorySource: AdSource {
  private let inventory: Inventory
  private var rotation: CreativeRotation

  init(inventory: Inventory, seed: UInt64) {
    self.inventory = inventory
    self.rotation = CreativeRotation(seed: seed)
  }

  var timeoutMs: UInt64? { nil }
  var adNetworkClassName: String { AdNetworkInfo.googleAdapterClassName }
  var adSourceName: String { AdNetworkInfo.adMobNetworkSourceName }

  func ask(_ ask: SourceAsk, answer: @escaping (SourceAnswer) -> Void) -> (any PendingAsk)? {
    answer(reply(to: ask))
    return nil
  }

  func answerNow(_ ask: SourceAsk) -> SourceAnswer? { reply(to: ask) }

  /// The answer, always at once.
  private func reply(to ask: SourceAsk) -> SourceAnswer {
    let plan = ask.plan
    let fills = CreativeSelector.rankedCreatives(
      of: plan.unit, for: plan.request, in: inventory, rotation: &rotation,
      limit: plan.options.numberOfAds
    ) { SourceFill(creative: $0) }
    let className = AdNetworkInfo.googleAdapterClassName
    guard let best = fills.first else {
      return .failed(.failed(.noFill), className: className, sourceName: sourceName(of: plan.unit))
    }
    return .filled(fills, className: className, sourceName: Self.sourceName(of: best.creative))
  }

  /// `Reservation` for a direct-sold creative, `AdMob Network` for an indirect one.
  static func sourceName(of creative: Creative) -> String {
    creative.isIndirect
      ? AdNetworkInfo.adMobNetworkSourceName : AdNetworkInfo.reservationSourceName
  }

  /// The source name of a no-fill: `Reservation` when the unit lists any direct-sold
  /// creative, else `AdMob Network`.
  private func sourceName(of unit: AdUnit) -> String {
    let hasDirect = unit.creativeIDs.contains { inventory.creative($0)?.isIndirect == false }
    return hasDirect ? AdNetworkInfo.reservationSourceName : AdNetworkInfo.adMobNetworkSourceName
  }
}
