import JSONRPC
import NativeAds

/// The mock OpenRTB bidder of `POST /openrtb2/auction` (docs/openrtb.md): an OpenRTB 2.6 bid
/// request in, a bid response out, each native impression filled from the store by the rules
/// of a load, deterministically (the same store answers the same request the same way).
public enum OpenRTBBidder {
  /// What the HTTP endpoint answers.
  public struct Reply: Sendable {
    /// 200 with bids, 204 without, 400 for a request that is not a bid request.
    public var status: Int
    /// The JSON body (empty for 204).
    public var body: [UInt8]
    /// The `X-OpenRTB-No-Bid` header of a 204: `impid=nbr` for each impression.
    public var noBidHeader: String?
  }

  /// The seat the bids are made for.
  public static let seat = "native-ads"

  /// What one bid request may ask: each impression ranks its unit's creatives and checks them
  /// against its native request, on the loop.
  public struct Limits: Sendable {
    /// The most impressions (`--max-auction-imps`).
    public var maximumImpressions: Int
    /// The most assets a native request may ask for: what a response may hold
    /// (`--max-response-assets`).
    public var maximumAssets: Int

    public init(
      maximumImpressions: Int = Limits.defaultMaximumImpressions,
      maximumAssets: Int = NativeAdsService.defaultMaxResponseAssets
    ) {
      self.maximumImpressions = maximumImpressions
      self.maximumAssets = maximumAssets
    }

    public static let defaultMaximumImpressions = 64
  }

  /// Why an impression got no bid (`nbr`: OpenRTB's 2, then this bidder's 500+).
  enum NoBid: Int {
    case invalidRequest = 2
    case unknownAdUnit = 500
    case nothingMeetsTheRequest = 501
    case belowFloor = 502
    case notNative = 503
  }

  /// Runs the auction of bid request `body` against `inventory`.
  public static func auction(_ body: [UInt8], inventory: Inventory, limits: Limits = Limits())
    -> Reply
  {
    let outcome: Result<Reply, BadRequest> = body.withUnsafeBytes { bytes in
      do {
        return try JSONParser().parse(bytes) { root in
          do throws(BadRequest) {
            return .success(try auction(root, inventory: inventory, limits: limits))
          } catch {
            return .failure(error)
          }
        }
      } catch {
        return .failure(BadRequest(id: nil, problem: "the body is not JSON (\(error))"))
      }
    }
    switch outcome {
    case .success(let reply): return reply
    case .failure(let bad):
      let response: JSONValue = .object([
        ("id", .string(bad.id ?? "")), ("nbr", .int(NoBid.invalidRequest.rawValue)),
        ("ext", .object([("error", .string(bad.problem))])),
      ])
      return Reply(status: 400, body: Array(response.jsonText.utf8), noBidHeader: nil)
    }
  }

  /// The answer to bid request `body` when the fleet's store cannot be read (Redis is down):
  /// `503` with OpenRTB's `nbr` 1 (technical error) and why, under the request's `id` when it
  /// has one.
  public static func unavailable(_ reason: String, body: [UInt8]) -> Reply {
    let id: String? =
      body.withUnsafeBytes { bytes in
        try? JSONParser().parse(bytes) { root in root["id"]?.stringValue }
      } ?? nil
    let response: JSONValue = .object([
      ("id", .string(id ?? "")), ("nbr", .int(1)),
      ("ext", .object([("error", .string("the fleet's store is unavailable: \(reason)"))])),
    ])
    return Reply(status: 503, body: Array(response.jsonText.utf8), noBidHeader: nil)
  }

  struct BadRequest: Error {
    var id: String?
    var problem: String
  }

  private static func auction(_ root: JSONRef, inventory: Inventory, limits: Limits)
    throws(BadRequest) -> Reply
  {
    guard root.kind == .object else {
      throw BadRequest(id: nil, problem: "the bid request must be a JSON object")
    }
    typealias F = BidRequestShape
    let p = Params(root)
    let id = try? p(F.id)
    let imps: [Params]
    let context: Params?
    do throws(InvalidField) {
      _ = try p(F.id)
      imps = try p(F.imp)
      guard imps.count <= limits.maximumImpressions else {
        throw InvalidField(
          p.path(F.imp.name),
          "holds more impressions than a bid request may: at most \(limits.maximumImpressions)"
            + " (--max-auction-imps)")
      }
      for imp in imps { _ = try imp(F.Imp.id) }
      let site = try p(F.site)
      let app = try p(F.app)
      context = site ?? app
    } catch {
      throw BadRequest(id: id, problem: "\(error.field) \(error.problem)")
    }
    let requestID = id ?? ""
    var targeting = AdRequest(adUnitID: "")
    if let context {
      targeting.keywords =
        ((try? context(F.Context.keywords)) ?? nil)?.split(separator: ",").map {
          String($0.drop { $0 == " " })
        } ?? []
      targeting.contentURL = (try? context(F.Context.page)) ?? nil
    }
    var bids: [JSONValue] = []
    var noBids: [(impid: String, nbr: NoBid, reason: String)] = []
    // Impressions of one unit share its ranking (the targeting is the request's) and what
    // each of its creatives offers.
    var candidates: [String: Candidates?] = [:]
    let ranking = { (tagid: String) -> Candidates? in
      if let kept = candidates[tagid] { return kept }
      var wanted = targeting
      wanted.adUnitID = tagid
      let ranked = inventory.rankedCreatives(ofUnit: tagid, for: wanted).map(Candidates.init)
      candidates[tagid] = .some(ranked)
      return ranked
    }
    for (index, imp) in imps.enumerated() {
      let impID = (try? imp(F.Imp.id)) ?? ""
      switch fill(
        imp, index: index, requestID: requestID, maximumAssets: limits.maximumAssets,
        ranking: ranking)
      {
      case .success(let bid): bids.append(bid)
      case .failure(let noBid): noBids.append((impID, noBid.nbr, noBid.reason))
      }
    }
    guard !bids.isEmpty else {
      return Reply(
        status: 204, body: [],
        noBidHeader: noBidHeader(noBids.map { ($0.impid, $0.nbr.rawValue) }))
    }
    var members: [(String, JSONValue)] = [
      ("id", .string(requestID)), ("bidid", .string(requestID + "-" + seat)),
      ("seatbid", .array([.object([("seat", .string(seat)), ("bid", .array(bids))])])),
      ("cur", .string("USD")),
    ]
    if !noBids.isEmpty {
      members.append(
        (
          "ext",
          .object([
            (
              "noBid",
              .array(
                noBids.map {
                  .object([
                    ("impid", .string($0.impid)), ("nbr", .int($0.nbr.rawValue)),
                    ("reason", .string($0.reason)),
                  ])
                })
            )
          ])
        ))
    }
    return Reply(
      status: 200, body: Array(JSONValue.object(members).jsonText.utf8), noBidHeader: nil)
  }

  /// The most bytes of the `X-OpenRTB-No-Bid` header: impression ids are the client's, of
  /// any length, and clients refuse long header lines.
  static let maximumNoBidHeaderBytes = 4096

  /// The `X-OpenRTB-No-Bid` header: `impid=nbr` for each impression, `; `-separated, as many as
  /// fit in ``maximumNoBidHeaderBytes``; then `*=N` for the N left out (`*` is never in an
  /// encoded id).
  static func noBidHeader(_ entries: [(impid: String, nbr: Int)]) -> String {
    var out = ""
    for (k, entry) in entries.enumerated() {
      // An id longer than the header is not encoded to find that out.
      let id = entry.impid.utf8.count <= maximumNoBidHeaderBytes ? headerText(entry.impid) : nil
      let text = id.map { (k == 0 ? "" : "; ") + "\($0)=\(entry.nbr)" } ?? ""
      let rest = "; *=\(entries.count - k)"
      // Room is kept for the mark of what is left out, unless this is the last entry.
      let room = maximumNoBidHeaderBytes - (k == entries.count - 1 ? 0 : rest.utf8.count)
      guard id != nil, out.utf8.count + text.utf8.count <= room else {
        return out.isEmpty ? "*=\(entries.count)" : out + rest
      }
      out += text
    }
    return out
  }

  private static let hex = Array("0123456789ABCDEF".unicodeScalars)

  /// Impression id `id` as the `X-OpenRTB-No-Bid` header gives it: percent-encoded (UTF-8)
  /// but for RFC 3986's unreserved characters, so no id can end the header, write another, or
  /// be confused with the `=` and `;` that separate the entries.
  static func headerText(_ id: String) -> String {
    var out = ""
    for byte in id.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out.unicodeScalars.append("%")
        out.unicodeScalars.append(hex[Int(byte >> 4)])
        out.unicodeScalars.append(hex[Int(byte & 15)])
      }
    }
    return out
  }

  struct Unfilled: Error {
    var nbr: NoBid
    var reason: String
  }

  /// A unit's creatives, best first, with what each offers (read when first needed, once per
  /// bid request).
  final class Candidates {
    let creatives: [Creative]
    private var offers: [Offer??]

    init(_ creatives: [Creative]) {
      self.creatives = creatives
      offers = Array(repeating: nil, count: creatives.count)
    }

    /// What creative `i` offers (nil for one that is not a native ad).
    func offer(_ i: Int) -> Offer? {
      if let known = offers[i] { return known }
      let made = Offer(creatives[i])
      offers[i] = .some(made)
      return made
    }
  }

  /// What a creative can answer request assets with, in a few words: checking an impression's
  /// required assets against it copies nothing of the creative (what ``answer(_:in:_:)``
  /// finds, this says is there; a test holds them to each other).
  struct Offer {
    var icon: (width: Int, height: Int)?
    var images: [(width: Int, height: Int)]
    var hasVideo: Bool
    /// Bit `t` set: a data asset of type `t` (below 64).
    var dataTypes: UInt64 = 0
    /// The data types of 64 and above it has (extra assets named `data<type>`).
    var otherDataTypes: [Int] = []

    init?(_ creative: Creative) {
      guard case .native(let a) = creative.content else { return nil }
      icon = a.icon.map { ($0.width, $0.height) }
      images = a.images.map { ($0.width, $0.height) }
      hasVideo = creative.media.hasVideoContent
      for (type, key) in OpenRTBDecoder.placedData
      where OpenRTBDecoder.placedText(key, of: a) != nil {
        dataTypes |= 1 << type
      }
      for (key, _) in a.extraAssets {
        guard let type = OpenRTBEncoder.dataType(ofExtra: key) else { continue }
        if type < 64 { dataTypes |= 1 << type } else { otherDataTypes.append(type) }
      }
    }

    func answers(_ kind: NativeRequest.Kind) -> Bool {
      switch kind {
      case .title:
        return true
      case .image(let type, let w, let h, let wmin, let hmin):
        let fits = { (i: (width: Int, height: Int)) -> Bool in
          OpenRTBBidder.fits(width: i.width, height: i.height, w: w, h: h, wmin: wmin, hmin: hmin)
        }
        switch type ?? 3 {
        case 1, 2: return icon.map(fits) ?? false
        case 3: return images.contains(where: fits)
        default: return false
        }
      case .video:
        return hasVideo
      case .data(let type, _):
        return type < 64 ? type >= 0 && dataTypes & (1 << type) != 0 : otherDataTypes.contains(type)
      }
    }
  }

  /// Whether an image of `width` x `height` meets a request image's sizes: at least
  /// `wmin` x `hmin`, exactly `w` x `h` when only those are given.
  static func fits(width: Int, height: Int, w: Int?, h: Int?, wmin: Int?, hmin: Int?) -> Bool {
    let widthOK = wmin.map { width >= $0 } ?? w.map { width == $0 } ?? true
    let heightOK = hmin.map { height >= $0 } ?? h.map { height == $0 } ?? true
    return widthOK && heightOK
  }

  /// The bid for impression `imp`, or why there is none; `ranking` gives a unit's creatives,
  /// best first (nil for an unknown unit).
  private static func fill(
    _ imp: Params, index: Int, requestID: String, maximumAssets: Int,
    ranking: (String) -> Candidates?
  ) -> Result<JSONValue, Unfilled> {
    typealias I = BidRequestShape.Imp
    let impID = (try? imp(I.id)) ?? ""
    let request: NativeRequest
    let floor: Double
    let tagid: String
    do throws(InvalidField) {
      guard let native = try imp(I.native) else {
        return .failure(Unfilled(nbr: .notNative, reason: "imp[\(index)] has no native object"))
      }
      let name = BidRequestShape.Native.request.name
      guard let raw = native.raw(name) else {
        throw InvalidField(native.path(name), "is required")
      }
      request = try NativeRequest.read(
        raw, place: native.path(name), maximumAssets: maximumAssets)
      floor = try imp(I.bidfloor) ?? 0
      tagid = try imp(I.tagid) ?? ""
    } catch {
      return .failure(Unfilled(nbr: .invalidRequest, reason: "\(error.field) \(error.problem)"))
    }
    guard let candidates = ranking(tagid) else {
      return .failure(
        Unfilled(
          nbr: .unknownAdUnit,
          reason: tagid.isEmpty
            ? "imp[\(index)].tagid is required (the ad unit)" : "no ad unit \"\(tagid)\""))
    }
    // What each creative is checked with costs no JSON: only the winner's answer is built.
    let required = request.assets.filter(\.required).map(\.kind)
    var metBelowFloor = false
    for (i, creative) in candidates.creatives.enumerated() {
      guard let offer = candidates.offer(i), required.allSatisfy(offer.answers) else { continue }
      guard creative.eCPM >= floor else {
        metBelowFloor = true
        continue
      }
      return .success(
        bid(
          creative, assets: answer(request, with: creative) ?? [], request: request,
          impID: impID, requestID: requestID))
    }
    return .failure(
      metBelowFloor
        ? Unfilled(
          nbr: .belowFloor,
          reason:
            "no creative of \"\(tagid)\" that meets the request reaches the floor of \(JSONWriter.format(floor))"
        )
        : Unfilled(
          nbr: .nothingMeetsTheRequest,
          reason: "no creative of \"\(tagid)\" meets every required asset"))
  }

  /// Where a creative answers one request asset from.
  enum Answer {
    case headline(String)
    case icon(AdImage)
    /// The image at `index` of the creative's images.
    case image(AdImage, index: Int)
    case video
    /// Data under asset key `key`.
    case data(key: String, text: String)
  }

  /// What of `creative` answers request asset `kind`, nil when it has nothing that does.
  static func answer(_ kind: NativeRequest.Kind, in creative: Creative, _ a: NativeAssets)
    -> Answer?
  {
    switch kind {
    case .title:
      return .headline(a.headline)
    case .image(let type, let w, let h, let wmin, let hmin):
      let fits = { (i: AdImage) -> Bool in
        OpenRTBBidder.fits(width: i.width, height: i.height, w: w, h: h, wmin: wmin, hmin: hmin)
      }
      switch type ?? 3 {
      case 1, 2:
        return a.icon.flatMap { fits($0) ? .icon($0) : nil }
      case 3:
        return a.images.firstIndex(where: fits).map { .image(a.images[$0], index: $0) }
      default:
        return nil
      }
    case .video:
      return creative.media.hasVideoContent ? .video : nil
    case .data(let type, _):
      return dataValue(type: type, of: a).map { .data(key: $0.0, text: $0.1) }
    }
  }

  /// The assets `creative` answers `request` with, each under its request asset's id; nil
  /// when it lacks a required one.
  static func answer(_ request: NativeRequest, with creative: Creative) -> [JSONValue]? {
    guard case .native(let a) = creative.content else { return nil }
    var out: [JSONValue] = []
    for asset in request.assets {
      guard let found = answer(asset.kind, in: creative, a) else {
        if asset.required { return nil }
        continue
      }
      let member: (name: String, value: JSONValue, key: String)
      switch (found, asset.kind) {
      case (.headline(let text), .title(let len)):
        member = (
          "title", OpenRTBEncoder.title(cut(text, to: len)), NativeAssetKey.headline.rawValue
        )
      case (.icon(let icon), _):
        member = ("img", OpenRTBEncoder.image(icon, type: 1), NativeAssetKey.icon.rawValue)
      case (.image(let image, let i), _):
        member = (
          "img", OpenRTBEncoder.image(image, type: 3),
          i == 0 ? NativeAssetKey.image.rawValue : "image.\(i + 1)"
        )
      case (.video, _):
        let tag =
          creative.tracking?.vastTag ?? OpenRTBEncoder.vastTag(duration: creative.media.duration)
        member = ("video", .object([("vasttag", .string(tag))]), NativeAssetKey.mediaView.rawValue)
      case (.data(let key, let text), .data(let type, let len)):
        member = (
          "data", OpenRTBEncoder.data(type: type, len.map { cut(text, to: $0) } ?? text), key
        )
      case (.headline, _), (.data, _):
        continue  // not an answer a kind other than its own gives
      }
      var members: [(String, JSONValue)] = [("id", .int(asset.id)), (member.name, member.value)]
      if asset.required { members.insert(("required", .int(1)), at: 1) }
      if let link = creative.tracking?.link(ofAsset: member.key) {
        members.append(("link", OpenRTBEncoder.link(link)))
      }
      out.append(.object(members))
    }
    return out
  }

  /// The asset key and text a data type maps to, in assets `a`.
  static func dataValue(type: Int, of a: NativeAssets) -> (String, String)? {
    if let key = OpenRTBDecoder.place(ofDataType: type) {
      return OpenRTBDecoder.placedText(key, of: a).map { (key.rawValue, $0) }
    }
    let name = OpenRTBDecoder.extraDataNames[type] ?? "data\(type)"
    return a.extraAssets.first { $0.key == name }.map { (name, $0.value) }
  }

  /// `text`, at most `length` characters long.
  static func cut(_ text: String, to length: Int) -> String {
    text.count <= length ? text : String(text.prefix(max(0, length)))
  }

  private static func bid(
    _ creative: Creative, assets: [JSONValue], request: NativeRequest, impID: String,
    requestID: String
  ) -> JSONValue {
    var native: [(String, JSONValue)] = [
      ("ver", .string("1.2")), ("assets", .array(assets)),
      ("link", OpenRTBEncoder.link(of: creative)),
    ]
    // A request silent on eventtrackers gets none of them (only imptrackers), but its
    // JavaScript tracker, as before 1.2.
    native += OpenRTBEncoder.trackers(
      creative.tracking, offered: request.eventTrackers ?? [],
      jsTracker: request.eventTrackers.map(OpenRTBEncoder.offersJSTracker) ?? true)
    if request.privacy, let privacy = creative.adChoices?.clickURL {
      native.append(("privacy", .string(privacy)))
    }
    return .object([
      ("id", .string("\(requestID)-\(impID)")), ("impid", .string(impID)),
      ("price", .double(creative.eCPM)), ("adm", .string(JSONValue.object(native).jsonText)),
      ("crid", .string(creative.id)),
    ])
  }
}
