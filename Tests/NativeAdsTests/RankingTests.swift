import Testing

@testable import NativeAds

/// Decisioning reads a unit's ranking (made once with its listing) and stops at the number of
/// ads asked for; it answers exactly what ranking every listed creative on every load answered,
/// rotation included, over sequences of loads that mix requests.
@Suite struct RankingTests {
  /// The selector as it was: every eligible creative ranked on every load, then the first
  /// `limit`. The reference the ranking is held to.
  private static func reference(
    _ unit: AdUnit, _ request: AdRequest, _ inventory: Inventory,
    _ rotation: inout CreativeRotation, limit: Int
  ) -> [Creative] {
    var eligible: [(listing: Int, creative: Creative)] = []
    for (listing, creative) in inventory.listedCreatives(of: unit) {
      guard request.adTypes.contains(creative.kind) else { continue }
      if let formatID = creative.customFormatID,
        !request.customNativeAdFormatIDs.contains(formatID)
      {
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
    var start = 0
    while start < eligible.count {
      let first = eligible[start].creative
      var end = start + 1
      while end < eligible.count, eligible[end].creative.priority == first.priority,
        eligible[end].creative.eCPM == first.eCPM
      {
        end += 1
      }
      let begin = rotation.nextStart(
        unitID: unit.id, priority: first.priority, eCPM: first.eCPM, count: end - start)
      for offset in 0..<(end - start) {
        ranked.append(eligible[start + (begin + offset) % (end - start)].creative)
      }
      start = end
    }
    return Array(ranked.prefix(limit))
  }

  private struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  /// A unit of `count` creatives with few priorities and eCPMs (many ties), native and custom,
  /// of every orientation, some targeted; its listing repeats some IDs and names unknown ones.
  private static func inventory(_ random: inout Random, count: Int) -> (Inventory, AdUnit) {
    let inventory = Inventory()
    var ids: [String] = []
    for i in 0..<count {
      let id = "c\(i)"
      let sizes = [(0, 0), (1200, 627), (600, 900), (1000, 1000)]
      let (w, h) = sizes[random.next(sizes.count)]
      let images =
        w == 0
        ? []
        : [
          AdImage(
            url: "https://e.example/\(i).png", width: w, height: h, mimeType: "image/png", data: [])
        ]
      let content: CreativeContent =
        random.next(4) == 0
        ? .custom(
          formatID: ["f1", "f2"][random.next(2)],
          assets: images.isEmpty ? [] : [(name: "Picture", value: .image(images[0]))])
        : .native(NativeAssets(headline: id, images: images))
      let targeting =
        random.next(3) == 0
        ? Targeting(keywords: [["cars", "shoes"][random.next(2)]]) : Targeting()
      inventory.add(
        Creative(
          id: id, content: content, priority: 1 + random.next(3),
          eCPM: [1.0, 1.5, 2.0][random.next(3)], landingPageURL: "https://e.example/\(i)",
          targeting: targeting))
      ids.append(id)
    }
    var listed: [String] = []
    for _ in 0..<(count + 3) {
      listed.append(random.next(10) == 0 ? "unknown\(random.next(3))" : ids[random.next(count)])
    }
    let unit = AdUnit(id: "u\(count)", creativeIDs: listed)
    inventory.add(unit)
    return (inventory, unit)
  }

  private static func request(_ random: inout Random, unit: String) -> AdRequest {
    var request = AdRequest(
      adUnitID: unit,
      adTypes: [[.native], [.customNative], [.native, .customNative]][random.next(3)],
      customNativeAdFormatIDs: [[], ["f1"], ["f1", "f2"]][random.next(3)],
      keywords: [[], ["cars"], ["SHOES", "cars"]][random.next(3)])
    request.options.mediaAspectRatio =
      MediaAspectRatio.allCases[
        random.next(MediaAspectRatio.allCases.count)]
    return request
  }

  @Test(arguments: [1, 2, 5, 12, 40])
  func theRankingAnswersWhatRankingEveryCreativeAnswered(creatives: Int) {
    var random = Random(state: UInt64(creatives))
    let (inventory, unit) = Self.inventory(&random, count: creatives)
    var fast = CreativeRotation(seed: 9)
    var slow = CreativeRotation(seed: 9)
    for _ in 0..<300 {
      let request = Self.request(&random, unit: unit.id)
      let limit = [1, 1, 2, 3, 5, 100][random.next(6)]
      let got = CreativeSelector.rankedCreatives(
        of: unit, for: request, in: inventory, rotation: &fast, limit: limit)
      let expected = Self.reference(unit, request, inventory, &slow, limit: limit)
      #expect(got.map(\.id) == expected.map(\.id))
    }
  }
}
