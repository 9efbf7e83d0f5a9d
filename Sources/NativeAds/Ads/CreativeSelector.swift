/// Decisioning: which creatives of an ad unit a request gets, best first.
enum CreativeSelector {
  /// The creatives of `unit` eligible for `request`, best first, without duplicates.
  ///
  /// Eligible: the kind is in `adTypes`; a custom creative's format ID was asked for; the
  /// media orientation is accepted by `options.mediaAspectRatio` (see
  /// ``MediaAspectRatio/accepts(ratio:)`` and ``Creative/orientationRatio``); the creative's
  /// ``Creative/targeting`` matches the request. Best: highest priority, then highest eCPM;
  /// creatives tied on both rotate (see ``CreativeRotation``): listed in unit order, the group
  /// starts at the member `rotation` picks for this load and wraps around. Creative IDs the
  /// inventory does not know are skipped.
  static func rankedCreatives(
    of unit: AdUnit, for request: AdRequest, in inventory: Inventory,
    rotation: inout CreativeRotation
  ) -> [Creative] {
    // Requests name a couple of kinds and formats, and units list a handful of creatives:
    // linear scans beat hashing here.
    let kinds = request.adTypes
    let formatIDs = request.customNativeAdFormatIDs
    // The listing comes resolved (each creative once, unknown IDs skipped) and kept between
    // loads: a load looks up the unit, not each creative it lists.
    let listed = inventory.listedCreatives(of: unit)
    var eligible: [(listing: Int, creative: Creative)] = []
    eligible.reserveCapacity(listed.count)
    for (listing, creative) in listed {
      guard kinds.contains(creative.kind) else { continue }
      if let formatID = creative.customFormatID, !formatIDs.contains(formatID) {
        continue
      }
      guard request.options.mediaAspectRatio.accepts(ratio: creative.orientationRatio),
        creative.targeting.matches(request)
      else { continue }
      eligible.append((listing, creative))
    }
    eligible.sort { a, b in
      if a.creative.priority != b.creative.priority {
        return a.creative.priority > b.creative.priority
      }
      if a.creative.eCPM != b.creative.eCPM { return a.creative.eCPM > b.creative.eCPM }
      return a.listing < b.listing
    }

    var ranked: [Creative] = []
    ranked.reserveCapacity(eligible.count)
    var groupStart = 0
    while groupStart < eligible.count {
      let first = eligible[groupStart].creative
      var groupEnd = groupStart + 1
      while groupEnd < eligible.count, eligible[groupEnd].creative.priority == first.priority,
        eligible[groupEnd].creative.eCPM == first.eCPM
      {
        groupEnd += 1
      }
      let count = groupEnd - groupStart
      let start = rotation.nextStart(
        unitID: unit.id, priority: first.priority, eCPM: first.eCPM, count: count)
      for offset in 0..<count {
        ranked.append(eligible[groupStart + (start + offset) % count].creative)
      }
      groupStart = groupEnd
    }
    return ranked
  }
}
