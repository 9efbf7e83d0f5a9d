/// Decisioning: which creatives of an ad unit a request gets, best first.
enum CreativeSelector {
  /// The creatives of `unit` eligible for `request`, best first, without duplicates; the
  /// first `limit` of them.
  ///
  /// Eligible: the kind is in `adTypes`; a custom creative's format ID was asked for; the
  /// media orientation is accepted by `options.mediaAspectRatio` (see
  /// ``MediaAspectRatio/accepts(ratio:)`` and ``Creative/orientationRatio``); the creative's
  /// ``Creative/targeting`` matches the request. Best: highest priority, then highest eCPM;
  /// creatives tied on both rotate (see ``CreativeRotation``): listed in unit order, the group
  /// starts at the member `rotation` picks for this load and wraps around. Creative IDs the
  /// inventory does not know are skipped.
  ///
  /// Every tie group with two eligible members or more advances its rotation, whether or not
  /// the load reaches it within `limit` (a load's place in each group's turn does not depend on
  /// how many ads it asked for). A load reads the unit's ``Ranking`` (kept with its listing):
  /// it reads the creatives themselves only to check targeting and to return them.
  static func rankedCreatives(
    of unit: AdUnit, for request: AdRequest, in inventory: Inventory,
    rotation: inout CreativeRotation, limit: Int = .max
  ) -> [Creative] {
    rankedCreatives(of: unit, for: request, in: inventory, rotation: &rotation, limit: limit) {
      $0
    }
  }

  /// ``rankedCreatives(of:for:in:rotation:limit:)``, each made into what the caller serves
  /// (`made`), in the one array returned.
  static func rankedCreatives<Made>(
    of unit: AdUnit, for request: AdRequest, in inventory: Inventory,
    rotation: inout CreativeRotation, limit: Int = .max, _ made: (Creative) -> Made
  ) -> [Made] {
    // Requests name a couple of kinds and formats: linear scans beat hashing here.
    let kinds = request.adTypes
    let formatIDs = request.customNativeAdFormatIDs
    let aspect = request.options.mediaAspectRatio
    // Read in place from the inventory's resolved listing (local copies of its arrays would
    // count each of them).
    let resolved = inventory.ranking(of: unit)

    func eligible(_ entry: Ranking.Entry) -> Bool {
      guard kinds.contains(entry.kind) else { return false }
      // The creative itself is read only for a custom format or a targeting.
      if entry.kind == .customNative,
        let formatID = resolved.listing[Int(entry.position)].creative.customFormatID,
        !formatIDs.contains(formatID)
      {
        return false
      }
      guard aspect.accepts(ratio: entry.orientationRatio.isNaN ? nil : entry.orientationRatio)
      else { return false }
      return !entry.hasTargeting
        || resolved.listing[Int(entry.position)].creative.targeting.matches(request)
    }

    var ranked: [Made] = []
    ranked.reserveCapacity(min(limit, resolved.ranking.entries.count))
    // The eligible members of the group at hand, by listing position: room on the stack for
    // the largest group there can be (no array made and freed per load).
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: resolved.ranking.entries.count) {
      members in
      var groupStart = 0
      for (group, groupEnd) in resolved.ranking.groupEnds.enumerated() {
        defer { groupStart = Int(groupEnd) }
        let size = Int(groupEnd) - groupStart
        if ranked.count >= limit {
          // Nothing more to serve: only tie groups still take their turn.
          guard group <= resolved.ranking.lastTieGroup else { break }
          guard size > 1 else { continue }
        }
        var count = 0
        for entry in resolved.ranking.entries[groupStart..<Int(groupEnd)] where eligible(entry) {
          members[count] = entry.position
          count += 1
        }
        guard count > 0 else { continue }
        let first = resolved.ranking.entries[groupStart]
        let start = rotation.nextStart(
          unitID: unit.id, priority: first.priority, eCPM: first.eCPM, count: count)
        for offset in 0..<count where ranked.count < limit {
          ranked.append(made(resolved.listing[Int(members[(start + offset) % count])].creative))
        }
      }
    }
    return ranked
  }

  /// Every creative of `unit` eligible for `request`, best first, ties in listing order (no
  /// rotation: the same inventory always answers the same, as a deterministic bidder must).
  static func ranked(of unit: AdUnit, for request: AdRequest, in inventory: Inventory)
    -> [Creative]
  {
    // Read in place from the inventory's resolved listing (local copies of its arrays would
    // count each of them).
    let resolved = inventory.ranking(of: unit)
    let aspect = request.options.mediaAspectRatio
    var out: [Creative] = []
    for entry in resolved.ranking.entries where request.adTypes.contains(entry.kind) {
      let creative = resolved.listing[Int(entry.position)].creative
      if entry.kind == .customNative {
        guard let id = creative.customFormatID, request.customNativeAdFormatIDs.contains(id)
        else { continue }
      }
      guard aspect.accepts(ratio: entry.orientationRatio.isNaN ? nil : entry.orientationRatio),
        !entry.hasTargeting || creative.targeting.matches(request)
      else { continue }
      out.append(creative)
    }
    return out
  }

  /// A unit's listing in ranking order (highest priority, then highest eCPM; ties in listing
  /// order), with the tie groups marked and what eligibility reads of each creative: made
  /// once with the listing (``Inventory``) and kept with it, so that a load reads one
  /// contiguous array instead of every listed creative of a store that may hold a million.
  struct Ranking: Sendable {
    struct Entry: Sendable {
      /// Its index in the listing.
      var position: Int32
      var kind: AdKind
      var hasTargeting: Bool
      var priority: Int
      var eCPM: Double
      /// ``Creative/orientationRatio``; NaN for none.
      var orientationRatio: Double
    }

    let entries: [Entry]
    /// Where each tie group ends in `entries` (the next one's start), in order.
    let groupEnds: [Int32]
    /// The last group with two members or more; -1 for none.
    let lastTieGroup: Int

    init(_ listing: Inventory.Listing) {
      var entries: [Entry] = []
      entries.reserveCapacity(listing.count)
      for (position, listed) in listing.enumerated() {
        let c = listed.creative
        entries.append(
          Entry(
            position: Int32(position), kind: c.kind, hasTargeting: !c.targeting.isEmpty,
            priority: c.priority, eCPM: c.eCPM, orientationRatio: c.orientationRatio ?? .nan))
      }
      // Positions follow listing order, so they break ties as the listing does.
      entries.sort { a, b in
        if a.priority != b.priority { return a.priority > b.priority }
        if a.eCPM != b.eCPM { return a.eCPM > b.eCPM }
        return a.position < b.position
      }
      var ends: [Int32] = []
      var lastTie = -1
      var start = 0
      while start < entries.count {
        var end = start + 1
        while end < entries.count, entries[end].priority == entries[start].priority,
          entries[end].eCPM == entries[start].eCPM
        {
          end += 1
        }
        if end - start > 1 { lastTie = ends.count }
        ends.append(Int32(end))
        start = end
      }
      self.entries = entries
      groupEnds = ends
      lastTieGroup = lastTie
    }
  }
}
