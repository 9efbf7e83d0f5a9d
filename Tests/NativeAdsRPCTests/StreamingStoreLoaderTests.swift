import Glibc
import JSONRPC
import NativeAds
import Testing

@testable import NativeAdsRPC

/// A document in memory handed out in pieces: cut at `cuts` (document offsets), and never
/// more than `maximumRead` bytes at a time.
private struct PiecewiseBytes: StoreByteSource {
  let bytes: [UInt8]
  var cuts: [Int] = []
  var maximumRead = Int.max
  var position = 0

  var size: Int? { bytes.count }

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    var count = min(buffer.count, maximumRead, bytes.count - position)
    if let cut = cuts.first(where: { $0 > position }) { count = min(count, cut - position) }
    guard count > 0 else { return 0 }
    bytes.withUnsafeBytes {
      buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: count)
    }
    position += count
    return count
  }

  mutating func seek(to offset: Int) { position = offset }
}

/// What loading a document gave: its error, or the inventory's description.
private enum Outcome: Equatable, CustomStringConvertible {
  case error(StoreLoadError)
  case loaded(String)

  var description: String {
    switch self {
    case .error(let error): "error: \(error)"
    case .loaded(let text): "loaded:\n\(text)"
    }
  }
}

private func wholeDocument(_ bytes: [UInt8], into inventory: Inventory = Inventory()) -> Outcome {
  var failure: StoreLoadError?
  bytes.withUnsafeBytes { raw in
    do throws(StoreLoadError) {
      try WholeDocumentStoreLoader.load(raw, into: inventory)
    } catch {
      failure = error
    }
  }
  return failure.map(Outcome.error) ?? .loaded(describe(inventory))
}

private func streaming(
  _ bytes: [UInt8], into inventory: Inventory = Inventory(), maximumRead: Int = .max,
  cuts: [Int] = [], options: StoreLoadOptions = StoreLoadOptions()
) -> (outcome: Outcome, summary: StoreLoadSummary?) {
  do throws(StoreLoadError) {
    let summary = try StoreLoader.load(
      from: PiecewiseBytes(bytes: bytes, cuts: cuts, maximumRead: maximumRead), into: inventory,
      options: options)
    return (.loaded(describe(inventory)), summary)
  } catch {
    return (.error(error), nil)
  }
}

/// The options with runs of items off (every item parsed alone) or on.
private func options(runs: Bool, readBytes: Int = 1 << 20) -> StoreLoadOptions {
  var options = StoreLoadOptions(readBytes: readBytes)
  if !runs { options.runBytes = 0 }
  return options
}

private func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 64 * 1024)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count <= 0 { break }
    bytes += buffer[0..<count]
  }
  return bytes
}

/// `Tests/EndToEnd/stores/<name>`, found from this file's path.
private func fixtureStore(_ name: String, _ testFile: String = #filePath) -> [UInt8]? {
  let package = testFile.split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
  return readFile(package.joined(separator: "/") + "/Tests/EndToEnd/stores/" + name)
}

/// A deterministic generator (SplitMix64).
struct SplitMix {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
}

@Suite struct StreamingStoreLoaderTests {
  /// Native creatives of every shape the packed path reads, and others it leaves to the
  /// decoder (custom, video, image data, AdChoices of their own, extra assets).
  static let shapes = #"""
    {"$schema": "x", "description": {"any": [1, 2, null]},
     "formats": [{"id": "f1", "assets": [{"name": "T", "type": "text", "required": true},
                                          {"name": "I", "type": "image"}]}],
     "creatives": [
      {"id": "n1", "kind": "native", "assets": {"headline": "H1"}, "landingPageURL": "https://l/1"},
      {"id": "n2", "kind": "native", "priority": -3, "eCPM": 0.1, "description": null,
       "assets": {"headline": "", "body": "B", "callToAction": "Go", "store": "S", "price": "Free",
                  "advertiser": "A", "starRating": 4.5,
                  "icon": {"url": "https://i/x.png", "width": 64, "height": 32, "scale": 2, "mimeType": "image/png"},
                  "images": [{"url": "https://i/a", "width": 1200, "height": 627}, {"url": "/", "width": 1, "height": 1}]},
       "landingPageURL": "u", "deepLinks": ["a://b", "c://d"], "customClickAction": true,
       "indirect": true, "muteThisAdReasons": ["r1", "r2"],
       "targeting": {"keywords": ["k"], "customTargeting": {"a": "b", "c": ["d", "e"]}, "contentURLs": ["https://x"]}},
      {"id": "n3 \u00e9\"q", "kind": "n\u0061tive",
       "assets": {"headline": "esc \u00e9 \"q\" \\ \n \ud83d\ude00", "body": null, "advertiser": "A"},
       "landingPageURL": "https://l/\u00e9", "eCPM": 1e2, "priority": 3.0},
      {"id": "n4", "kind": "native", "assets": {"headline": "h", "images": []}, "landingPageURL": "l",
       "deepLinks": [], "muteThisAdReasons": [], "targeting": {}, "indirect": false},
      {"id": "n5", "kind": "native", "eCPM": 123456.789012345678901, "landingPageURL": "l",
       "assets": {"headline": "h", "body": "B", "starRating": 0,
                  "icon": {"url": "https://i/x.png", "width": 64, "height": 32, "scale": 2}}},
      {"id": "n6", "kind": "native", "eCPM": 2.5E-3, "landingPageURL": "l", "indirect": true,
       "muteThisAdReasons": ["r1", "r2"], "deepLinks": ["a://b", "c://d"],
       "assets": {"headline": "h", "images": [{"url": "https://i/a", "width": 1200, "height": 627},
                                              {"url": "/", "width": 1, "height": 1}]}},
      {"id": "c1", "kind": "customNative", "formatID": "f1",
       "assets": {"T": "t", "I": {"url": "https://i/c.png", "width": 5, "height": 5}}, "landingPageURL": "l"},
      {"id": "v1", "kind": "native", "assets": {"headline": "h", "images": [{"url": "https://i/p.png", "width": 16, "height": 9}]},
       "video": {"duration": 30}, "landingPageURL": "l"},
      {"id": "d1", "kind": "native", "landingPageURL": "l",
       "assets": {"headline": "h", "icon": {"url": "https://i/d", "width": 2, "height": 2, "mimeType": "image/gif", "data": "AAECAwQ="}}},
      {"id": "a1", "kind": "native", "assets": {"headline": "h"}, "adChoices": {"clickURL": "https://why"},
       "landingPageURL": "l", "indirect": true},
      {"id": "x1", "kind": "native", "assets": {"headline": "h", "extraAssets": {"k": "v"}}, "landingPageURL": "l",
       "formatID": null}
     ],
     "adUnits": [{"id": "u1", "creatives": ["n1", "n2", "n3 \u00e9\"q", "c1"]},
                 {"id": "u2", "description": 5, "creatives": ["v1", "d1", "n6"],
                  "waterfall": [{"type": "inventory", "eCPM": 1}], "deadlineMs": 50}]}
    """#

  /// The documents every comparison starts from.
  static func fixtures() -> [(name: String, bytes: [UInt8])] {
    var all: [(String, [UInt8])] = [
      ("built-in", PackageResources.builtin_store_json),
      ("documented example", Array(StoreLoaderTests.documentedExample.utf8)),
      ("shapes", Array(shapes.utf8)),
    ]
    for name in [
      "aspect.json", "bad-mainimage-width.json", "custom.json", "mediation-waterfalls.json",
      "targeting.json",
    ] {
      if let bytes = fixtureStore(name) { all.append((name, bytes)) }
    }
    return all
  }

  // MARK: Same inventory, same errors

  @Test func theFixturesLoadAsTheWholeDocumentDoesWhateverTheReads() {
    let fixtures = Self.fixtures()
    #expect(fixtures.count == 8)
    for (name, bytes) in fixtures {
      let expected = wholeDocument(bytes)
      for runs in [false, true] {
        for read in [1, 2, 7, 64, 4096, Int.max] {
          let (outcome, _) = streaming(bytes, maximumRead: read, options: options(runs: runs))
          #expect(outcome == expected, "\(name), reads of \(read), runs: \(runs)")
        }
      }
      // Added to an inventory that has items already (--with-builtin).
      let builtIn = wholeDocument(bytes, into: StoreLoader.builtInInventory())
      #expect(streaming(bytes, into: StoreLoader.builtInInventory()).outcome == builtIn, "\(name)")
    }
  }

  @Test func theCommonNativeShapesArePackedAndTheOthersAreNot() throws {
    let inventory = Inventory()
    let (outcome, summary) = streaming(Array(Self.shapes.utf8), into: inventory)
    #expect(outcome == wholeDocument(Array(Self.shapes.utf8)))
    #expect(summary?.packedCreatives == 6)
    #expect(summary?.creatives == 11)
    // Reading a creative's content unpacks it (describe did above); a fresh load keeps it packed.
    let fresh = Inventory()
    try Array(Self.shapes.utf8).withUnsafeBytes { try StoreLoader.load($0, into: fresh) }
    #expect(fresh.creative("n2")?.isPacked == true)
    #expect(fresh.creative("c1")?.isPacked == false)
    // Decisioning reads kind, format, orientation, targeting, priority and eCPM packed.
    let n2 = try #require(fresh.creative("n2"))
    #expect(n2.kind == .native && n2.customFormatID == nil && n2.priority == -3)
    #expect(n2.orientationRatio == 1200.0 / 627.0 && n2.targeting.keywords == ["k"])
    #expect(!n2.hasVideoContent)
    #expect(n2.isPacked)
    // Whether a creative has video is kept with it, packed or not, as its media says.
    for creative in fresh.creatives.values {
      #expect(creative.hasVideoContent == creative.media.hasVideoContent, "\(creative.id)")
    }
    let video = try #require(
      StoreLoader.builtInInventory().creatives.values.first {
        $0.media.hasVideoContent
      })
    #expect(video.hasVideoContent)
  }

  @Test func aDocumentCutAtEveryPositionLoadsTheSame() {
    // (Reads of one byte, in the test above, cut every document everywhere at once.)
    let bytes = Array(StoreLoaderTests.documentedExample.utf8)
    let expected = wholeDocument(bytes)
    for cut in 1..<bytes.count {
      let runs = cut % 2 == 0
      let (outcome, _) = streaming(bytes, cuts: [cut], options: options(runs: runs))
      #expect(outcome == expected, "cut at \(cut), runs: \(runs)")
      if outcome != expected { return }
    }
  }

  @Test func mutatedDocumentsGetTheWholeDocumentsErrorsAndInventories() {
    var random = SplitMix(state: 20_261_201)
    let bases = Self.fixtures()
    var errors = 0
    for round in 0..<1200 {
      let base = bases[round % bases.count]
      let document = Self.mutate(base.bytes, &random)
      // Every third document is added to the built-in inventory (--with-builtin).
      let withBuiltIn = round % 3 == 0
      func inventory() -> Inventory { withBuiltIn ? StoreLoader.builtInInventory() : Inventory() }
      let expected = wholeDocument(document, into: inventory())
      if case .error = expected { errors += 1 }
      let read = [1, 3, 64, 1000, Int.max][random.below(5)]
      let runs = random.below(2) == 0
      let (outcome, _) = streaming(
        document, into: inventory(), maximumRead: read, options: options(runs: runs))
      #expect(
        outcome == expected,
        "round \(round) (\(base.name), reads of \(read), runs: \(runs), built-in: \(withBuiltIn)):\n\(String(decoding: document, as: UTF8.self))"
      )
      if outcome != expected { return }
    }
    // Most mutations break a rule; some keep the document valid.
    #expect(errors > 300 && errors < 1150)
  }

  @Test func aMemberNameOneByteOffIsUnknownWhereverTheByte() {
    // Every member the packed path knows, in a creative that has them all.
    let creative = #"""
      {"id": "a", "description": "d", "kind": "native", "priority": 1, "eCPM": 1.5,
       "assets": {"headline": "h", "body": "b", "callToAction": "c", "store": "s", "price": "p",
                  "advertiser": "a", "starRating": 4,
                  "icon": {"url": "https://i/x.png", "width": 2, "height": 2, "scale": 1, "mimeType": "image/png"},
                  "images": [{"url": "https://i/y.png", "width": 3, "height": 2}]},
       "landingPageURL": "l", "deepLinks": ["x://y"], "customClickAction": false, "indirect": true,
       "muteThisAdReasons": ["r"], "targeting": {"keywords": ["k"]}}
      """#
    let document = Array(#"{"creatives": [\#(creative)]}"#.utf8)
    #expect(streaming(document).summary?.packedCreatives == 1)
    // Each byte of each member name, changed.
    var inKey = false
    var count = 0
    for (i, byte) in document.enumerated() {
      if byte == UInt8(ascii: "\"") {
        inKey.toggle()
        continue
      }
      guard inKey, i + 1 < document.count else { continue }
      var changed = document
      changed[i] = byte == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
      count += 1
      #expect(streaming(changed).outcome == wholeDocument(changed), "byte \(i)")
    }
    #expect(count > 200)
  }

  /// A random change to a document: to its bytes (syntax), or to its values (a type, a
  /// missing or extra member, a repeated item or section, another order).
  static func mutate(_ bytes: [UInt8], _ random: inout SplitMix) -> [UInt8] {
    if random.below(3) == 0 {
      var b = bytes
      let i = random.below(b.count)
      let noise = Array(#"{}[]:," \-0123.eE+nulltrfaséx"#.utf8) + [0x00, 0xFF, 0x0A]
      switch random.below(4) {
      case 0: b.remove(at: i)
      case 1: b.insert(noise[random.below(noise.count)], at: i)
      case 2: b[i] = noise[random.below(noise.count)]
      default: b = Array(b[..<i])
      }
      return b
    }
    guard var value = try? JSONParser().parseValue(String(decoding: bytes, as: UTF8.self)) else {
      return bytes
    }
    let changes = 1 + random.below(2)
    for _ in 0..<changes { value = mutateValue(value, &random, depth: 0) }
    return Array((random.below(2) == 0 ? value.jsonText : value.prettyText).utf8)
  }

  private static let replacements: [JSONValue] = [
    .null, .number("0"), .number("-1"), .number("1.5"), .number("1e400"), .number("9000"),
    .string(""), .string("x"), .string("native"), .string("customNative"), .bool(true),
    .array([]), .object([]), .array([.object([])]), .object([("id", .string("n1"))]),
  ]
  private static let keys = [
    "id", "kind", "formatID", "video", "adChoices", "extraAssets", "data", "bogus", "headline",
    "images", "icon", "creatives", "formats", "adUnits", "muteThisAdReasons", "eCPM", "width",
  ]

  private static func mutateValue(_ value: JSONValue, _ random: inout SplitMix, depth: Int)
    -> JSONValue
  {
    // Go deeper most of the time, so that items and their members change more than the root.
    switch value {
    case .object(var members) where !members.isEmpty:
      let k = random.below(members.count)
      switch random.below(depth == 0 ? 7 : 9) {
      case 0: members.remove(at: k)
      case 1:
        members.insert(
          (keys[random.below(keys.count)], members[k].1), at: random.below(members.count + 1))
      case 2: members[k].0 = keys[random.below(keys.count)]
      case 3: members.append(members[k])  // a repeated key
      case 4: members.swapAt(k, random.below(members.count))
      case 5: members[k].1 = replacements[random.below(replacements.count)]
      default: members[k].1 = mutateValue(members[k].1, &random, depth: depth + 1)
      }
      return .object(members)
    case .array(var elements) where !elements.isEmpty:
      let k = random.below(elements.count)
      switch random.below(6) {
      case 0: elements.remove(at: k)
      case 1: elements.insert(elements[k], at: random.below(elements.count + 1))  // a repeated item
      case 2: elements.swapAt(k, random.below(elements.count))
      case 3: elements[k] = replacements[random.below(replacements.count)]
      default: elements[k] = mutateValue(elements[k], &random, depth: depth + 1)
      }
      return .array(elements)
    default:
      return replacements[random.below(replacements.count)]
    }
  }

  // MARK: Order of sections

  @Test func formatsAfterCustomCreativesTakeASecondPassFromWhereTheSectionsAre() {
    let text =
      #"{"adUnits":[{"id":"u","creatives":["c","n"]}],"creatives":[{"id":"n","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"},{"id":"c","kind":"customNative","formatID":"f","assets":{"T":"t"},"landingPageURL":"l"}],"formats":[{"id":"f","assets":[{"name":"T","type":"text","required":true}]}]}"#
    let bytes = Array(text.utf8)
    let (outcome, summary) = streaming(bytes)
    #expect(outcome == wholeDocument(bytes))
    #expect(summary?.passes == 2)
    #expect(summary?.creatives == 2 && summary?.adUnits == 1 && summary?.formats == 1)
  }

  @Test func unitsBeforeTheCreativesTheyNameNeedOnePass() {
    let text =
      #"{"adUnits":[{"id":"u","creatives":["n"]}],"creatives":[{"id":"n","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"}],"formats":[]}"#
    let (outcome, summary) = streaming(Array(text.utf8))
    #expect(outcome == wholeDocument(Array(text.utf8)))
    #expect(summary?.passes == 1 && summary?.adUnits == 1)
  }

  @Test func aSectionGivenTwiceCountsOnceTheLastTime() {
    let text =
      #"{"creatives":[{"id":"a","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"}],"adUnits":[{"id":"u","creatives":["b"]}],"creatives":[{"id":"b","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"}]}"#
    let inventory = Inventory()
    let (outcome, summary) = streaming(Array(text.utf8), into: inventory)
    #expect(outcome == wholeDocument(Array(text.utf8)))
    #expect(summary?.passes == 2)
    #expect(inventory.creatives.keys.sorted() == ["b"])
  }

  // MARK: Repeated IDs

  @Test(arguments: [false, true])
  func aRepeatedCreativeIDNamesItsFirstPlace(runs: Bool) {
    func native(_ id: String, extra: String = "") -> String {
      #"{"id":"\#(id)","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"\#(extra)}"#
    }
    // Packed, then a packed repeat; packed, then a repeat the decoder reads (video).
    for second in [native("b"), native("b", extra: #","video":{"duration":1}"#)] {
      let text = #"{"creatives":[\#(native("a")),\#(native("b")),\#(native("c")),\#(second)]}"#
      let (outcome, _) = streaming(Array(text.utf8), options: options(runs: runs))
      #expect(
        outcome
          == .error(
            StoreLoadError(path: "creatives[3].id", problem: "duplicates the ID of creatives[1]")))
      #expect(outcome == wholeDocument(Array(text.utf8)))
    }
  }

  @Test func aFileMayReplaceACreativeItAddsToOnceNotTwice() {
    let replace =
      #"{"id":"native-content-1","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"}"#
    let once = Array(#"{"creatives":[\#(replace)]}"#.utf8)
    #expect(
      streaming(once, into: StoreLoader.builtInInventory()).outcome
        == wholeDocument(once, into: StoreLoader.builtInInventory()))
    let twice = Array(#"{"creatives":[\#(replace),\#(replace)]}"#.utf8)
    let (outcome, _) = streaming(twice, into: StoreLoader.builtInInventory())
    #expect(
      outcome
        == .error(
          StoreLoadError(path: "creatives[1].id", problem: "duplicates the ID of creatives[0]")))
  }

  // MARK: Limits

  @Test func anItemLongerThanTheLimitStopsTheLoadNamingIt() {
    let item = #"{"id":"n","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"}"#
    let other = #"{"id":"m","kind":"native","assets":{"headline":"h"},"landingPageURL":"l"}"#
    let text =
      #"{"creatives":[\#(item),\#(other)],"description":"\#(String(repeating: "d", count: 200))"}"#
    var options = StoreLoadOptions(maximumItemBytes: item.utf8.count)
    let (outcome, _) = streaming(Array(text.utf8), options: options)
    #expect(
      outcome
        == .error(
          StoreLoadError(
            path: "description",
            problem: "is larger than the limit of \(item.utf8.count) bytes for one item")))
    options.maximumItemBytes = item.utf8.count - 1
    #expect(
      streaming(Array(text.utf8), options: options).outcome
        == .error(
          StoreLoadError(
            path: "creatives[0]",
            problem: "is larger than the limit of \(item.utf8.count - 1) bytes for one item")))
    options.maximumItemBytes = 202
    #expect(
      streaming(Array(text.utf8), options: options).outcome == wholeDocument(Array(text.utf8)))
  }

  // MARK: Progress

  @Test func progressLinesFollowTheClockAndALastLineEndsThem() {
    let bytes = Self.generated(creatives: 2000, units: 20)
    // A clock that advances 0.25 s each time it is read.
    var now = 100.0
    var lines: [String] = []
    let progress = StoreLoadProgress(
      clock: {
        now += 0.25
        return now
      }, write: { lines.append($0) })
    var options = StoreLoadOptions(readBytes: 16 << 10, progress: progress)
    options.runBytes = 0  // progress is checked after each item, once per read
    let (outcome, _) = streaming(bytes, options: options)
    guard case .loaded = outcome else {
      Issue.record("\(outcome)")
      return
    }
    // About 460 KB in reads of 16 KB, the clock read once a read: 7 s and a last line.
    #expect(lines.count >= 5)
    let size = StoreLoadProgress.megabytes(bytes.count)
    #expect(lines.first?.hasPrefix("store: ") == true)
    #expect(lines.first?.contains(" MB of \(size) MB read (1.") == true)
    #expect(lines.dropLast().allSatisfy { $0.contains(" creatives, ") && $0.hasSuffix(" s)") })
    #expect(
      lines.last?.hasPrefix(
        "store: 2,000 creatives, 20 ad units and 0 formats loaded from \(size) MB in ")
        == true)
  }

  @Test func aLoadFasterThanTheIntervalPrintsNothing() {
    var lines: [String] = []
    let progress = StoreLoadProgress(clock: { 5 }, write: { lines.append($0) })
    let (outcome, _) = streaming(
      Self.generated(creatives: 2000, units: 20),
      options: StoreLoadOptions(readBytes: 16 << 10, progress: progress))
    guard case .loaded = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(lines.isEmpty)
  }

  @Test func progressNumbersAreGrouped() {
    #expect(StoreLoadProgress.grouped(0) == "0")
    #expect(StoreLoadProgress.grouped(999) == "999")
    #expect(StoreLoadProgress.grouped(1_000) == "1,000")
    #expect(StoreLoadProgress.grouped(412_000) == "412,000")
    #expect(StoreLoadProgress.grouped(1_000_000) == "1,000,000")
    #expect(StoreLoadProgress.megabytes(255_000_000) == "255")
    #expect(StoreLoadProgress.megabytes(3_500_000) == "3.5")
    #expect(StoreLoadProgress.seconds(1.04) == "1.0")
  }

  // MARK: A bigger store

  /// A store like bench/gen_store.py's: `creatives` small native creatives in `units` units.
  static func generated(creatives: Int, units: Int) -> [UInt8] {
    var random = SplitMix(state: 7)
    let ctas = ["Install", "Learn more", "Shop now", "Sign up"]
    var text = #"{"description":"generated","creatives":["#
    for i in 0..<creatives {
      let a = random.below(300)
      if i > 0 { text += ",\n" }
      text +=
        #"{"id":"c\#(i)","kind":"native","priority":\#(random.below(4)),"eCPM":\#(random.below(1000)).\#(random.below(100)),"#
      text +=
        #""assets":{"headline":"Deal #\#(i)","body":"Body \#(random.below(50))","callToAction":"\#(ctas[random.below(4)])","advertiser":"Adv \#(a)""#
      if random.below(4) == 0 {
        text +=
          #","starRating":4.5,"icon":{"url":"https://cdn.example.com/a\#(a).png","width":64,"height":64}"#
      }
      text += #"},"landingPageURL":"https://a\#(a).example/\#(i)""#
      if random.below(10) == 0 {
        text += #","indirect":true,"muteThisAdReasons":["Not interested","Irrelevant"]"#
      }
      text += "}"
    }
    text += "],\n" + #""adUnits":["#
    let perUnit = creatives / units
    for u in 0..<units {
      if u > 0 { text += ",\n" }
      let ids = (u * perUnit..<(u + 1) * perUnit).map { #""c\#($0)""# }.joined(separator: ",")
      text += #"{"id":"/1000/unit-\#(u)","creatives":[\#(ids)]}"#
    }
    return Array((text + "]}\n").utf8)
  }

  @Test func twentyThousandGeneratedCreativesLoadAsTheWholeDocumentDoes() {
    let bytes = Self.generated(creatives: 20_000, units: 200)
    let inventory = Inventory()
    let (outcome, summary) = streaming(bytes, into: inventory)
    #expect(summary?.creatives == 20_000 && summary?.adUnits == 200)
    #expect(summary?.packedCreatives == 20_000)
    #expect(inventory.creatives.values.allSatisfy(\.isPacked) == false)  // describe unpacked them
    #expect(outcome == wholeDocument(bytes))
  }
}
