/// Decisioning: which creatives of an ad unit a request gets, best first.
enum CreativeSelector {
  /// The creatives of `unit` eligible for `request`, best first, without duplicates: those
  /// whose kind is in `adTypes` and, for custom ones, whose format ID was asked for. Best means
  /// highest priority, then highest eCPM, then earliest in the unit's listing. Creative IDs the
  /// inventory does not know are skipped.
  static func rankedCreatives(
    of unit: AdUnit, for request: AdRequest, in inventory: Inventory
  ) -> [Creative] {
    let kinds = Set(request.adTypes)
    let formatIDs = Set(request.customNativeAdFormatIDs)
    var seen: Set<String> = []
    var eligible: [(listing: Int, creative: Creative)] = []
    for (listing, creativeID) in unit.creativeIDs.enumerated() {
      guard seen.insert(creativeID).inserted, let creative = inventory.creative(creativeID),
        kinds.contains(creative.kind)
      else { continue }
      if let formatID = creative.content.customFormatID, !formatIDs.contains(formatID) {
        continue
      }
      eligible.append((listing, creative))
    }
    eligible.sort { a, b in
      if a.creative.priority != b.creative.priority {
        return a.creative.priority > b.creative.priority
      }
      if a.creative.eCPM != b.creative.eCPM { return a.creative.eCPM > b.creative.eCPM }
      return a.listing < b.listing
    }
    return eligible.map(\.creative)
  }
}
