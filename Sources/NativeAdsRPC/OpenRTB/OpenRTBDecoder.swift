import JSONRPC
import NativeAds
import PNGImages

/// Reads OpenRTB Native 1.2 responses into creatives (docs/openrtb.md "How assets map"):
/// `loadAd`'s `adResponseString` (a Native response, bare or wrapped, or a 2.x bid response
/// whose bids carry one in `adm`) and store creatives written in OpenRTB. Every problem is an
/// ``InvalidField`` naming its place, through the shapes of `OpenRTBShapes.swift`.
enum OpenRTBDecoder {
  /// The response info entry of ads loaded from a response string.
  static let adNetworkClassName = "OpenRTB"
  /// Its source name when the bid names no seat.
  static let defaultSourceName = "OpenRTB Native 1.2"

  /// The IAB's recommended sizes (section 7.5), for images that state none.
  static let defaultIconSize = (width: 50, height: 50)
  static let defaultMainImageSize = (width: 1198, height: 627)

  /// The data types the native format has a place for, and their places; every other type
  /// is an extra asset (``extraDataNames``).
  static let placedData: [(type: Int, key: NativeAssetKey)] = [
    (1, .advertiser), (2, .body), (3, .starRating), (6, .price), (12, .callToAction),
  ]

  /// The place of data type `type`, nil for an extra asset.
  static func place(ofDataType type: Int) -> NativeAssetKey? {
    placedData.first { $0.type == type }?.key
  }

  /// The text of placed data `key` in assets `a` (the star rating as the number it is).
  static func placedText(_ key: NativeAssetKey, of a: NativeAssets) -> String? {
    switch key {
    case .advertiser: a.advertiser
    case .body: a.body
    case .starRating: a.starRating.map(JSONWriter.format)
    case .price: a.price
    case .callToAction: a.callToAction
    default: nil
    }
  }

  /// The `extraAssets` names of the data types the native format has no place for.
  static let extraDataNames: [Int: String] = [
    4: "likes", 5: "downloads", 7: "salePrice", 8: "phone", 9: "address", 10: "desc2",
    11: "displayURL",
  ]

  // MARK: Response strings

  /// Decodes `text`, an ad response string, for a load of at most `count` ads.
  /// The most assets an ad response string may hold, bids included, by default
  /// (`--max-response-assets`): each is decoded, and its image drawn, on the loop.
  static let defaultMaximumAssets = 32

  /// The most trackers one OpenRTB ad may carry by default (`--max-ad-trackers`): impression,
  /// event and click trackers together. Each is answered in `trackingURLs` and logged as a
  /// `tracker` event, so an ad with thousands would flush the event log.
  static let defaultMaximumTrackers = 64

  /// The most pixels the images of one ad response string may have together by default
  /// (`--max-response-pixels`, 4096 x 4096): each image is drawn at its size when served.
  static let defaultMaximumPixels = 4096 * 4096

  /// How many more assets the response being decoded may hold (`extraAssets` entries count
  /// as assets), and how many trackers each of its ads may carry.
  final class AssetBudget {
    let maximum: Int
    var remaining: Int
    let maximumTrackers: Int
    let maximumPixels: Int
    var pixelsRemaining: Int
    init(
      _ maximum: Int, maximumTrackers: Int = defaultMaximumTrackers,
      maximumPixels: Int = defaultMaximumPixels
    ) {
      self.maximum = maximum
      remaining = maximum
      self.maximumTrackers = maximumTrackers
      self.maximumPixels = maximumPixels
      pixelsRemaining = maximumPixels
    }

    /// Takes the pixels of a `width` x `height` image at `place`, or says the response's
    /// images have too many.
    func takePixels(width: Int, height: Int, at place: String) throws(InvalidField) {
      pixelsRemaining -= width * height
      if pixelsRemaining < 0 {
        throw InvalidField(
          place,
          "is \(width) x \(height): the images of an ad response string may have at most"
            + " \(maximumPixels) pixels in all (--max-response-pixels)")
      }
    }

    /// Takes `count` assets found at `place`, or says the response holds too many.
    func take(_ count: Int, at place: String) throws(InvalidField) {
      remaining -= count
      if remaining < 0 {
        throw InvalidField(
          place,
          "holds more assets than an ad response string may: at most \(maximum) in all"
            + " (extraAssets entries count; --max-response-assets)")
      }
    }
  }

  static func adResponse(
    _ text: String, nativeRequest: NativeRequest?, maximumAssets: Int = defaultMaximumAssets,
    maximumTrackers: Int = defaultMaximumTrackers, maximumPixels: Int = defaultMaximumPixels
  ) -> AdResponse {
    let budget = AssetBudget(
      maximumAssets, maximumTrackers: maximumTrackers, maximumPixels: maximumPixels)
    var text = text
    let decoded: Result<(creatives: [Creative], seat: String?), Failure> = text.withUTF8 {
      bytes in
      do {
        return try JSONParser().parse(UnsafeRawBufferPointer(bytes)) { root in
          do throws(Failure) {
            return .success(try response(root, nativeRequest: nativeRequest, budget: budget))
          } catch {
            return .failure(error)
          }
        }
      } catch {
        return .failure(.invalid(InvalidField("adResponseString", "is not JSON (\(error))")))
      }
    }
    switch decoded {
    case .success(let found):
      return AdResponse(
        adNetworkClassName: adNetworkClassName, adSourceName: found.seat ?? defaultSourceName,
        content: .creatives(found.creatives))
    case .failure(.noBid(let why, let seat)):
      return AdResponse(
        adNetworkClassName: adNetworkClassName, adSourceName: seat ?? defaultSourceName,
        content: .noBid(why))
    case .failure(.invalid(let problem)):
      return AdResponse(
        adNetworkClassName: adNetworkClassName, adSourceName: defaultSourceName,
        content: .invalid(field: problem.field, problem: problem.problem))
    }
  }

  enum Failure: Error {
    case invalid(InvalidField)
    case noBid(String, seat: String?)
  }

  private static func response(
    _ root: JSONRef, nativeRequest: NativeRequest?, budget: AssetBudget
  ) throws(Failure)
    -> (creatives: [Creative], seat: String?)
  {
    guard root.kind == .object else {
      throw .invalid(InvalidField("adResponseString", "must hold a JSON object"))
    }
    let top = Params(root)
    if top.raw(BidResponseShape.seatbid.name) != nil || top.raw(BidResponseShape.nbr.name) != nil {
      return try bidResponse(top, nativeRequest: nativeRequest, budget: budget)
    }
    do throws(InvalidField) {
      let native = try nativeObject(root, place: "")
      let creative = try self.creative(
        native, id: "openrtb", eCPM: 0, request: nativeRequest, indirect: true, budget: budget,
        maximumTrackers: budget.maximumTrackers)
      return ([creative], nil)
    } catch {
      throw .invalid(error)
    }
  }

  /// The Native object of a response, as params whose paths start `<place>native.`: the
  /// value of `native` when it is wrapped, else `root` itself, whose paths start
  /// `<place><bare>`.
  static func nativeObject(_ root: JSONRef, place: String, bare: String = "native.")
    throws(InvalidField) -> Params
  {
    let outer = Params(root, prefix: place)
    if outer.raw(NativeResponseShape.link.name) == nil,
      outer.raw(NativeResponseShape.assets.name) == nil,
      let wrapped = try outer.optionalObject("native")
    {
      return wrapped
    }
    return Params(root, prefix: place + bare)
  }

  /// A 2.x bid response: one creative per bid, highest price first.
  private static func bidResponse(
    _ top: Params, nativeRequest: NativeRequest?, budget: AssetBudget
  ) throws(Failure)
    -> (creatives: [Creative], seat: String?)
  {
    typealias F = BidResponseShape
    var bids: [(creative: Creative, price: Double, seat: String?)] = []
    do throws(InvalidField) {
      try F.shape.check(top)
      for seat in try top(F.seatbid) ?? [] {
        let name = try seat(F.SeatBid.seat)
        for bid in try seat(F.SeatBid.bid) {
          let price = try bid(F.Bid.price) ?? 0
          let crid = try bid(F.Bid.crid)
          let bidID = try bid(F.Bid.id)
          let id = crid ?? bidID ?? "openrtb-\(bids.count + 1)"
          let creative = try admCreative(
            bid, id: id, eCPM: min(price, Creative.eCPMRange.upperBound), request: nativeRequest,
            budget: budget)
          bids.append((creative, price, name))
        }
      }
    } catch {
      throw .invalid(error)
    }
    guard !bids.isEmpty else {
      let nbr = (try? top(F.nbr)) ?? nil
      throw .noBid(
        "the bid response has no bid" + (nbr.map { " (nbr \($0))" } ?? ""), seat: nil)
    }
    // Highest price first; equal prices keep their order.
    let ranked = bids.enumerated().sorted {
      $0.element.price != $1.element.price
        ? $0.element.price > $1.element.price : $0.offset < $1.offset
    }.map(\.element)
    return (ranked.map(\.creative), ranked.first?.seat)
  }

  /// The creative of a bid's `adm`: a JSON string holding the Native response, or the object.
  private static func admCreative(
    _ bid: Params, id: String, eCPM: Double, request: NativeRequest?, budget: AssetBudget
  ) throws(InvalidField) -> Creative {
    let name = BidResponseShape.Bid.adm.name
    let place = bid.path(name)
    guard let adm = bid.raw(name) else { throw InvalidField(place, "is required") }
    switch adm.kind {
    case .object:
      return try creative(
        try nativeObject(adm, place: place + "."), id: id, eCPM: eCPM, request: request,
        indirect: true, budget: budget, maximumTrackers: budget.maximumTrackers)
    case .string:
      return try NestedJSON.readObject(adm.stringValue ?? "", place: place) {
        root throws(InvalidField) in
        try creative(
          try nativeObject(root, place: place + "."), id: id, eCPM: eCPM, request: request,
          indirect: true, budget: budget, maximumTrackers: budget.maximumTrackers)
      }
    default:
      throw InvalidField(place, "must be a JSON string holding the native response, or an object")
    }
  }

  // MARK: Native responses

  /// The creative a Native response object describes (`n`, checked here against its shape).
  /// `request` types the assets that say no type; `budget` is an ad response string's (nil
  /// for a store creative, whose assets must then be typed); `indirect` makes it a programmatic ad with
  /// AdChoices (response strings), else `adChoices` is used when given or the response has a
  /// `privacy` URL.
  static func creative(
    _ n: Params, id: String, eCPM: Double, request: NativeRequest?, indirect: Bool,
    adChoices given: AdChoicesInfo? = nil, priority: Int = 0, targeting: Targeting = Targeting(),
    muteThisAdReasons: [String] = [], budget: AssetBudget?, maximumTrackers: Int
  ) throws(InvalidField) -> Creative {
    typealias F = NativeResponseShape
    try F.shape.check(n)
    // What the limits bound is counted in the document, before anything of it is decoded.
    if let listed = n.raw(F.assets.name), listed.kind == .array {
      try budget?.take(listed.count, at: n.path(F.assets.name))
    }
    let trackerCount = listedTrackers(n)
    guard trackerCount <= maximumTrackers else {
      throw InvalidField(
        String(n.pathPrefix.dropLast()),
        "carries \(trackerCount) trackers (imptrackers, eventtrackers and clicktrackers"
          + " together): an ad may carry at most \(maximumTrackers) (--max-ad-trackers)")
    }
    let mainLink = try link(try n(F.link))
    // An empty list is answered as a missing one (what `assetsurl` means to the caller).
    let emptyList = n.raw(F.assets.name).map { $0.kind == .array && $0.count == 0 } ?? false
    guard !emptyList, let assetList = try n(F.assets) else {
      let assetsURL = try n(F.assetsurl)
      let dcoURL = try n(F.dcourl)
      let never = assetsURL != nil || dcoURL != nil
      throw InvalidField(
        n.path(F.assets.name),
        never
          ? "is required: assetsurl and dcourl are never fetched" : "must hold at least one asset")
    }
    var mapped = MappedAssets(
      colorKey: id,
      untypedHint: budget == nil
        ? "is required: a store creative's assets must say their type"
        : "is required: an untyped asset takes its type from the request asset of its id"
          + " (give loadAd the nativeRequest), and there is none",
      budget: budget)
    for (index, a) in assetList.enumerated() {
      try mapped.add(a, index: index, place: n.path(F.assets.name), request: request)
    }
    guard let headline = mapped.headline else {
      throw InvalidField(n.path(F.assets.name), "must hold a title asset (the headline)")
    }
    var deepLinks = mainLink.isDeepLink ? [mainLink.url] : []
    var extras = mapped.extras
    var store: String?
    if let ext = try n(F.extension_) {
      typealias E = F.Extension
      store = try ext(E.store)
      deepLinks += try ext(E.deepLinks) ?? []
      if let listed = ext.raw(E.extraAssets.name), listed.kind == .object {
        try budget?.take(listed.count, at: ext.path(E.extraAssets.name))
      }
      let given = try ext(E.extraAssets) ?? []
      var taken = Set(extras.lazy.map(\.key))
      for (key, value) in given where taken.insert(key).inserted { extras.append((key, value)) }
    }
    let impressionTrackers = try n(F.imptrackers) ?? []
    let eventTrackerList = try n(F.eventtrackers) ?? []
    var eventTrackers: [AdTracking.EventTracker] = []
    for t in eventTrackerList {
      typealias T = F.EventTracker
      eventTrackers.append(
        AdTracking.EventTracker(event: try t(T.event), method: try t(T.method), url: try t(T.url)))
    }
    let privacy = try n(F.privacy)
    let tracking = AdTracking(
      impressionTrackers: impressionTrackers, eventTrackers: eventTrackers,
      jsTracker: try n(F.jstracker), clickTrackers: mainLink.clickTrackers,
      assetLinks: mapped.assetLinks, vastTag: mapped.vastTag)
    let assets = NativeAssets(
      headline: headline, body: mapped.slots["body"], callToAction: mapped.slots["callToAction"],
      store: store, price: mapped.slots["price"], advertiser: mapped.slots["advertiser"],
      starRating: mapped.starRating, icon: mapped.icon, images: mapped.images,
      extraAssets: extras)
    let media: MediaContent
    if let duration = mapped.videoDuration {
      let poster = assets.images.first
      media = MediaContent(
        aspectRatio: poster.map { Double($0.width) / Double($0.height) } ?? 0,
        hasVideoContent: true, duration: duration, mainImage: poster)
    } else {
      media = assets.images.first.map(MediaContent.image) ?? MediaContent()
    }
    var adChoices = given
    if adChoices == nil, indirect || privacy != nil { adChoices = StoreDecoder.defaultAdChoices }
    if let privacy { adChoices?.clickURL = privacy }
    return Creative(
      id: id, content: .native(assets), media: media, adChoices: adChoices, isIndirect: indirect,
      priority: priority, eCPM: eCPM, deepLinks: deepLinks,
      landingPageURL: mainLink.landingPageURL, targeting: targeting,
      muteThisAdReasons: muteThisAdReasons, tracking: tracking)
  }

  /// How many trackers native object `n` lists: `imptrackers`, `eventtrackers`, and the
  /// `clicktrackers` of its link and of its assets' links, counted in the document.
  static func listedTrackers(_ n: Params) -> Int {
    typealias F = NativeResponseShape
    func length(_ v: JSONRef?) -> Int { v.map { $0.kind == .array ? $0.count : 0 } ?? 0 }
    let clicks = F.Link.clicktrackers.name
    var count =
      length(n.raw(F.imptrackers.name)) + length(n.raw(F.eventtrackers.name))
      + length(n.raw(F.link.name)?[clicks])
    if let assets = n.raw(F.assets.name), assets.kind == .array {
      for a in assets.elements { count += length(a[F.Asset.link.name]?[clicks]) }
    }
    return count
  }

  /// A link object.
  static func link(_ l: Params) throws(InvalidField) -> AdTracking.Link {
    typealias L = NativeResponseShape.Link
    return AdTracking.Link(
      url: try l(L.url), fallback: try l(L.fallback), clickTrackers: try l(L.clicktrackers) ?? [])
  }

  /// The assets of a response, placed as they are read.
  private struct MappedAssets {
    let colorKey: String
    var headline: String?
    /// The one-value text places: body, callToAction, price, advertiser.
    var slots: [String: String] = [:]
    var starRating: Double?
    var icon: AdImage?
    var images: [AdImage] = []
    var extras: [(key: String, value: String)] = []
    var assetLinks: [AdTracking.AssetLink] = []
    var vastTag: String?
    var videoDuration: Double?
    /// How many values each place has had (for `<key>.2`...).
    private var counts: [String: Int] = [:]

    /// What an untyped asset's problem says: where its type could come from.
    let untypedHint: String
    /// An ad response string's budget (nil for a store creative).
    let budget: AssetBudget?

    init(colorKey: String, untypedHint: String, budget: AssetBudget?) {
      self.colorKey = colorKey
      self.untypedHint = untypedHint
      self.budget = budget
    }

    /// The key the next value of place `key` goes under: `key` the first time, then
    /// `key.2`, `key.3`... (kept in `extraAssets`).
    private mutating func place(_ key: String) -> (key: String, isFirst: Bool) {
      let n = (counts[key] ?? 0) + 1
      counts[key] = n
      return n == 1 ? (key, true) : ("\(key).\(n)", false)
    }

    private mutating func extra(_ key: String, _ value: String) -> String {
      let (name, _) = place(key)
      extras.append((name, value))
      return name
    }

    mutating func add(_ a: Params, index: Int, place list: String, request: NativeRequest?)
      throws(InvalidField)
    {
      typealias A = NativeResponseShape.Asset
      let here = "\(list)[\(index)]"
      let present = [A.title.name, A.img.name, A.video.name, A.data.name].filter {
        a.raw($0) != nil
      }
      guard present.count == 1 else {
        throw InvalidField(
          here,
          present.isEmpty
            ? "must hold one of title, img, video, data"
            : "must hold only one of title, img, video, data")
      }
      let id = try a(A.id)
      var requested: NativeRequest.Asset?
      if let request, let id {
        guard let asset = request.asset(id: id) else {
          throw InvalidField(a.path(A.id.name), "names no asset of nativeRequest (\(id))")
        }
        requested = asset
      }
      let hint =
        request != nil && id == nil
        ? "is required: an untyped asset takes its type from the request asset of its id,"
          + " and it has no id" : untypedHint
      let key: String
      if let t = try a(A.title) {
        try expect(requested, id: id, to: "a title", at: t) {
          if case .title = $0 { true } else { false }
        }
        key = title(try t(NativeResponseShape.Title.text))
      } else if let i = try a(A.img) {
        key = try image(i, requested: requested, id: id, hint: hint)
      } else if let d = try a(A.data) {
        key = try data(d, requested: requested, id: id, hint: hint)
      } else {
        let v = try a(A.video)!
        try expect(requested, id: id, to: "a video", at: v) {
          if case .video = $0 { true } else { false }
        }
        key = try video(v)
      }
      if let l = try a(A.link) {
        assetLinks.append(AdTracking.AssetLink(assetKey: key, link: try OpenRTBDecoder.link(l)))
      }
    }

    /// Refuses a response asset that answers request asset `requested` (of `id`) when that
    /// one asks for something else: the response's `<kind>` object at `place` must be `what`.
    private func expect(
      _ requested: NativeRequest.Asset?, id: Int?, to what: String, at place: Params,
      _ matches: (NativeRequest.Kind) -> Bool
    ) throws(InvalidField) {
      guard let requested, !matches(requested.kind) else { return }
      throw InvalidField(
        String(place.pathPrefix.dropLast()),
        "answers asset \(id ?? 0) of nativeRequest, which is not \(what)")
    }

    private mutating func title(_ text: String) -> String {
      let (key, first) = place(NativeAssetKey.headline.rawValue)
      if first { headline = text } else { extras.append((key, text)) }
      return key
    }

    private mutating func image(
      _ i: Params, requested: NativeRequest.Asset?, id: Int?, hint untypedHint: String
    )
      throws(InvalidField) -> String
    {
      typealias I = NativeResponseShape.Image
      var type = try i(I.type)
      var size: (w: Int?, h: Int?) = (try i(I.w), try i(I.h))
      if case .image(let t, let w, let h, let wmin, let hmin)? = requested?.kind {
        // A request image without a type is a main image (as the bidder reads it).
        type = type ?? t ?? 3
        size = (size.w ?? w ?? wmin, size.h ?? h ?? hmin)
      } else if requested != nil {
        throw InvalidField(
          i.pathPrefix.isEmpty ? "img" : String(i.pathPrefix.dropLast()),
          "answers asset \(id ?? 0) of nativeRequest, which is not an image")
      }
      guard let type else {
        throw InvalidField(
          i.path(I.type.name),
          untypedHint)
      }
      let url = try i(I.url)
      let isIcon = type == 1 || type == 2
      let fallback = isIcon ? OpenRTBDecoder.defaultIconSize : OpenRTBDecoder.defaultMainImageSize
      let width = min(size.w ?? fallback.width, AdImage.maximumSide)
      let height = min(size.h ?? fallback.height, AdImage.maximumSide)
      let picture = AdImage(
        url: url,
        picture: .placeholder(
          width: width, height: height, colorKey: colorKey,
          shapeKey: AdImage.generatedShapeKey(url: url)))
      // What is drawn (the icon, the images) counts into the response's pixels.
      let budget = budget
      let drawn = { () throws(InvalidField) in
        try budget?.takePixels(
          width: width, height: height,
          at: i.pathPrefix.isEmpty ? "img" : String(i.pathPrefix.dropLast()))
      }
      switch type {
      case 1, 2:
        let (key, first) = place(NativeAssetKey.icon.rawValue)
        if first {
          try drawn()
          icon = picture
        } else {
          extras.append((key, url))
        }
        return key
      case 3:
        try drawn()
        images.append(picture)
        return images.count == 1 ? NativeAssetKey.image.rawValue : "image.\(images.count)"
      default:
        return extra("img\(type)", url)
      }
    }

    private mutating func data(
      _ d: Params, requested: NativeRequest.Asset?, id: Int?, hint untypedHint: String
    )
      throws(InvalidField) -> String
    {
      typealias D = NativeResponseShape.Data
      var type = try d(D.type)
      if case .data(let t, _)? = requested?.kind {
        type = type ?? t
      } else if requested != nil {
        throw InvalidField(
          String(d.pathPrefix.dropLast()),
          "answers asset \(id ?? 0) of nativeRequest, which is not a data asset")
      }
      guard let type else {
        throw InvalidField(
          d.path(D.type.name),
          untypedHint)
      }
      let value = try d(D.value)
      guard let slot = OpenRTBDecoder.place(ofDataType: type) else {
        return extra(OpenRTBDecoder.extraDataNames[type] ?? "data\(type)", value)
      }
      var rating: Double?
      if slot == .starRating {
        guard let number = OpenRTBDecoder.rating(value) else {
          throw InvalidField(
            d.path(D.value.name), "must be a rating from 0 to 5 (\"\(value)\" is not)")
        }
        rating = number
      }
      let (key, first) = place(slot.rawValue)
      if !first {
        extras.append((key, value))
      } else if let rating {
        starRating = rating
      } else {
        slots[key] = value
      }
      return key
    }

    private mutating func video(_ v: Params) throws(InvalidField) -> String {
      let tag = try v(NativeResponseShape.Video.vasttag)
      let (key, first) = place(NativeAssetKey.mediaView.rawValue)
      if first {
        vastTag = tag
        videoDuration = OpenRTBDecoder.vastDuration(tag) ?? 0
      } else {
        extras.append((key, tag))
      }
      return key
    }
  }

  // MARK: Values

  /// The rating a `data` type 3 value states: its leading number (`"4.5"`, `"3.4 stars out
  /// of 5"`), when from 0 to 5.
  static func rating(_ value: String) -> Double? {
    let text = value.drop { $0 == " " }
    let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    guard !number.isEmpty, let rating = Double(number), (0...5).contains(rating) else {
      return nil
    }
    return rating
  }

  /// The duration a VAST tag states in its first `<Duration>` (`HH:MM:SS` or
  /// `HH:MM:SS.mmm`), in seconds; nil when it states none. (A scan of one element, not an XML
  /// parser: the service reads nothing else of the tag, and plays no video.)
  static func vastDuration(_ tag: String) -> Double? {
    let bytes = Array(tag.utf8)
    guard let open = find(Array("<Duration>".utf8), in: bytes, from: 0),
      let close = find(Array("</Duration>".utf8), in: bytes, from: open)
    else { return nil }
    let start = open + "<Duration>".utf8.count
    guard start <= close else { return nil }
    let text = String(decoding: bytes[start..<close], as: UTF8.self).filter {
      $0 != " " && $0 != "\n" && $0 != "\t" && $0 != "\r"
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, let h = Double(parts[0]), let m = Double(parts[1]),
      let s = Double(parts[2]), h >= 0, m >= 0, s >= 0
    else { return nil }
    let seconds = h * 3600 + m * 60 + s
    return seconds > 0 ? min(seconds, MediaContent.maximumDuration) : nil
  }

  /// Where `needle` first occurs in `haystack` at or after `from`.
  private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    var i = from
    while i + needle.count <= haystack.count {
      if haystack[i..<i + needle.count].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }

}
