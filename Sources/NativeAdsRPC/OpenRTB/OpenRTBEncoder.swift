import JSONRPC
import NativeAds

/// Writes native ads as OpenRTB Native 1.2 responses (`exportAd`, the mock bidder's `adm`):
/// the reverse of ``OpenRTBDecoder``, so that loading what it writes gives the same assets.
/// Every `img` and `data` is typed (and text carries its `len`), so the response loads
/// without its request; what OpenRTB has no type for travels in `ext` (docs/openrtb.md).
enum OpenRTBEncoder {
  /// One asset of the response being written, before it gets its id.
  struct Asset {
    /// The ad's asset key (for its link), nil for none.
    var key: String?
    /// `"title"`, `"img"`, `"video"` or `"data"`, and its object.
    var member: String
    var value: JSONValue
  }

  /// The assets of `creative`'s native assets, in the export's order: the title, the icon,
  /// each image, the video, then the data (the native places, then the extra assets that have
  /// an IAB type). The extra assets without one are returned apart, for `ext`.
  static func assets(of creative: Creative, multipleImages: Bool = true)
    -> (assets: [Asset], untypedExtras: [(key: String, value: String)])
  {
    guard case .native(let a) = creative.content else { return ([], []) }
    var out: [Asset] = []
    out.append(
      Asset(key: NativeAssetKey.headline.rawValue, member: "title", value: title(a.headline)))
    if let icon = a.icon {
      out.append(
        Asset(key: NativeAssetKey.icon.rawValue, member: "img", value: image(icon, type: 1)))
    }
    for (i, picture) in a.images.prefix(multipleImages ? a.images.count : 1).enumerated() {
      out.append(
        Asset(
          key: i == 0 ? NativeAssetKey.image.rawValue : "image.\(i + 1)", member: "img",
          value: image(picture, type: 3)))
    }
    if creative.media.hasVideoContent {
      let tag = creative.tracking?.vastTag ?? vastTag(duration: creative.media.duration)
      out.append(
        Asset(
          key: NativeAssetKey.mediaView.rawValue, member: "video",
          value: .object([("vasttag", .string(tag))])))
    }
    for (type, key) in OpenRTBDecoder.placedData {
      guard let value = OpenRTBDecoder.placedText(key, of: a) else { continue }
      out.append(Asset(key: key.rawValue, member: "data", value: data(type: type, value)))
    }
    var untyped: [(key: String, value: String)] = []
    for (key, value) in a.extraAssets {
      if let type = dataType(ofExtra: key) {
        out.append(Asset(key: key, member: "data", value: data(type: type, value)))
      } else if let type = imageType(ofExtra: key) {
        out.append(
          Asset(
            key: key, member: "img",
            value: .object([("type", .int(type)), ("url", .string(value))])))
      } else {
        untyped.append((key, value))
      }
    }
    return (out, untyped)
  }

  /// A native creative as a Native 1.2 response object: with `multipleImages` false (an ad
  /// loaded without `shouldRequestMultipleImages`), only its first image, as the ad shows.
  static func response(_ creative: Creative, multipleImages: Bool = true) -> JSONValue {
    let tracking = creative.tracking
    let (assets, untypedExtras) = assets(of: creative, multipleImages: multipleImages)
    var list: [JSONValue] = []
    for (i, asset) in assets.enumerated() {
      var members: [(String, JSONValue)] = [("id", .int(i + 1)), (asset.member, asset.value)]
      if let key = asset.key, let link = tracking?.link(ofAsset: key) {
        members.append(("link", self.link(link)))
      }
      list.append(.object(members))
    }
    var members: [(String, JSONValue)] = [
      ("ver", .string("1.2")), ("assets", .array(list)), ("link", link(of: creative)),
    ]
    members += trackers(tracking, offered: nil, jsTracker: true)
    if let privacy = creative.adChoices?.clickURL { members.append(("privacy", .string(privacy))) }
    let ext = self.ext(of: creative, untypedExtras: untypedExtras)
    if !ext.isEmpty { members.append(("ext", .object(ext))) }
    return .object(members)
  }

  /// The ad's link: its first deep link with the landing page as the fallback, or the landing
  /// page; with its click trackers.
  static func link(of creative: Creative) -> JSONValue {
    let deepLink = linkedDeepLink(of: creative)
    return link(
      AdTracking.Link(
        url: deepLink ?? creative.landingPageURL,
        fallback: deepLink == nil ? nil : creative.landingPageURL,
        clickTrackers: creative.tracking?.clickTrackers ?? []))
  }

  static func link(_ l: AdTracking.Link) -> JSONValue {
    var members: [(String, JSONValue)] = [("url", .string(l.url))]
    if let fallback = l.fallback { members.append(("fallback", .string(fallback))) }
    if !l.clickTrackers.isEmpty { members.append(("clicktrackers", strings(l.clickTrackers))) }
    return .object(members)
  }

  /// `imptrackers`, `jstracker` (when `jsTracker`) and `eventtrackers`; with `offered` (a
  /// request's `eventtrackers`), only the event trackers of the events and methods it offers.
  static func trackers(
    _ tracking: AdTracking?, offered: [(event: Int, methods: [Int])]?, jsTracker: Bool
  ) -> [(String, JSONValue)] {
    guard let tracking else { return [] }
    var members: [(String, JSONValue)] = []
    if !tracking.impressionTrackers.isEmpty {
      members.append(("imptrackers", strings(tracking.impressionTrackers)))
    }
    if jsTracker, let js = tracking.jsTracker { members.append(("jstracker", .string(js))) }
    let events = tracking.eventTrackers.filter { t in
      guard let offered else { return true }
      return offered.contains { $0.event == t.event && $0.methods.contains(t.method) }
    }
    if !events.isEmpty {
      members.append(
        (
          "eventtrackers",
          .array(
            events.map { t in
              var m: [(String, JSONValue)] = [("event", .int(t.event)), ("method", .int(t.method))]
              if let url = t.url { m.append(("url", .string(url))) }
              return .object(m)
            })
        ))
    }
    return members
  }

  /// Whether a request's `eventtrackers` offer what `jstracker` is in 1.2's terms: event 1
  /// (impression) with method 2 (JavaScript).
  static func offersJSTracker(_ offered: [(event: Int, methods: [Int])]) -> Bool {
    offered.contains { $0.event == 1 && $0.methods.contains(2) }
  }

  /// `ext`: the store, the extra assets without an IAB type, the deep links after the first.
  static func ext(of creative: Creative, untypedExtras: [(key: String, value: String)])
    -> [(String, JSONValue)]
  {
    var members: [(String, JSONValue)] = []
    if case .native(let a) = creative.content, let store = a.store {
      members.append(("store", .string(store)))
    }
    if !untypedExtras.isEmpty {
      members.append(("extraAssets", .object(untypedExtras.map { ($0.key, .string($0.value)) })))
    }
    let inExt = creative.deepLinks.dropFirst(linkedDeepLink(of: creative) == nil ? 0 : 1)
    if !inExt.isEmpty { members.append(("deepLinks", strings(Array(inExt)))) }
    return members
  }

  /// The deep link `link.url` carries: the ad's first, unless it is a web URL (a universal
  /// link), which `link.url` would read back as the landing page; then every deep link
  /// travels in `ext.deepLinks`.
  static func linkedDeepLink(of creative: Creative) -> String? {
    creative.deepLinks.first.flatMap { AdTracking.Link.isWeb($0) ? nil : $0 }
  }

  // MARK: Values

  static func title(_ text: String) -> JSONValue {
    .object([("text", .string(text)), ("len", .int(text.count))])
  }

  static func image(_ image: AdImage, type: Int) -> JSONValue {
    .object([
      ("type", .int(type)), ("url", .string(image.url)), ("w", .int(image.width)),
      ("h", .int(image.height)),
    ])
  }

  static func data(type: Int, _ value: String) -> JSONValue {
    .object([("type", .int(type)), ("len", .int(value.count)), ("value", .string(value))])
  }

  /// The data type an extra asset's name stands for (`likes` 4, `data501` 501...).
  static func dataType(ofExtra key: String) -> Int? {
    if let type = OpenRTBDecoder.extraDataNames.first(where: { $0.value == key })?.key {
      return type
    }
    // Only the names the decoder gives: `data1` is not advertiser text (type 1 reads back as
    // the advertiser), it is an extra asset that happens to be called so.
    guard let type = numbered(key, prefix: "data"),
      OpenRTBDecoder.place(ofDataType: type) == nil, OpenRTBDecoder.extraDataNames[type] == nil
    else { return nil }
    return type
  }

  /// The image type an extra asset's name stands for (`img501`; not `img1`...`img3`, which
  /// the decoder never names so: those types are the icon and the images).
  static func imageType(ofExtra key: String) -> Int? {
    guard let type = numbered(key, prefix: "img"), type > 3 else { return nil }
    return type
  }

  private static func numbered(_ key: String, prefix: String) -> Int? {
    guard key.hasPrefix(prefix), let n = Int(key.dropFirst(prefix.count)), n > 0,
      String(n) == key.dropFirst(prefix.count)
    else { return nil }
    return n
  }

  /// A VAST 4 tag of a linear video of `duration` seconds, for ads whose video did not come
  /// with one.
  static func vastTag(duration: Double) -> String {
    let millis = Int((duration * 1000).rounded())
    let (h, m, s, ms) = (
      millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000
    )
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let three = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
    return
      "<VAST version=\"4.0\"><Ad><InLine><AdSystem>native-ads</AdSystem><Creatives><Creative>"
      + "<Linear><Duration>\(two(h)):\(two(m)):\(two(s)).\(three)</Duration></Linear></Creative>"
      + "</Creatives></InLine></Ad></VAST>"
  }
}

extension OpenRTBEncoder {
  /// An array of strings.
  static func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
}
