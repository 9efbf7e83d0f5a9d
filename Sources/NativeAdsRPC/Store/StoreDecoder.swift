import JSONRPC
import NativeAds

/// Reads store documents (formats, creatives, ad units, images) into domain values.
///
/// One reader for the store file and the `store.*` methods, so both apply the same rules and
/// name the offending field the same way (`creatives[3].assets.MainImage.width must be a
/// positive integer`). Cross-item rules (a custom creative's required assets, ad units naming
/// existing creatives) are the ``Inventory``'s; this type checks shapes and values.
enum StoreDecoder {
  /// The AdChoices of indirect creatives that do not give their own.
  static let defaultAdChoices = AdChoicesInfo(
    image: AdImage(
      url: "https://static.native-ads.test/adchoices/icon.png", scale: 2,
      picture: .placeholder(width: 30, height: 30, colorKey: "adchoices", shapeKey: "icon")),
    clickURL: "https://adssettings.google.com/whythisad")

  static let formatFields: Set<String> = ["id", "assets", "description"]
  static let formatAssetFields: Set<String> = ["name", "type", "required"]
  static let creativeFields: Set<String> = [
    "id", "kind", "formatID", "assets", "priority", "eCPM", "landingPageURL", "deepLinks",
    "customClickAction", "indirect", "adChoices", "muteThisAdReasons", "targeting", "video",
    "description",
  ]
  static let nativeAssetFields: Set<String> = [
    "headline", "body", "callToAction", "store", "price", "advertiser", "starRating", "icon",
    "images", "extraAssets",
  ]
  static let imageFields: Set<String> = ["url", "width", "height", "scale", "mimeType", "data"]
  static let videoFields: Set<String> = [
    "duration", "aspectRatio", "customControlsAllowed", "clickToExpandAllowed", "poster",
  ]
  static let targetingFields: Set<String> = ["customTargeting", "keywords", "contentURLs"]
  static let adChoicesFields: Set<String> = ["image", "clickURL", "attribution"]
  static let adUnitFields: Set<String> = [
    "id", "creatives", "description", "waterfall", "deadlineMs",
  ]
  static let sourceFields: Set<String> = [
    "type", "adapterClassName", "parameter", "eCPM", "timeoutMs", "label",
  ]

  // MARK: Formats

  static func format(_ p: Params) throws(RPCError) -> CustomFormat {
    try p.rejectUnknownMembers(allowed: formatFields)
    let id = try p.nonEmptyString("id")
    guard let assets = try p.objectArray("assets") else {
      throw .invalidParams(field: p.path("assets"), "is required")
    }
    var definitions: [CustomAssetDefinition] = []
    for a in assets {
      try a.rejectUnknownMembers(allowed: formatAssetFields)
      let name = try a.nonEmptyString("name")
      guard let type = try a.optionalEnum("type", CustomAssetType.self) else {
        throw .invalidParams(field: a.path("type"), "is required")
      }
      definitions.append(
        CustomAssetDefinition(
          name: name, type: type, required: try a.optionalBool("required") ?? false))
    }
    return CustomFormat(id: id, assets: definitions)
  }

  // MARK: Ad units

  static func adUnit(_ p: Params) throws(RPCError) -> AdUnit {
    try p.rejectUnknownMembers(allowed: adUnitFields)
    var unit = AdUnit(
      id: try p.nonEmptyString("id"), creativeIDs: try p.optionalStringArray("creatives") ?? [])
    if let sources = try p.objectArray("waterfall") {
      var waterfall: [WaterfallSource] = []
      for s in sources {
        try s.rejectUnknownMembers(allowed: sourceFields)
        let eCPM = try s.optionalDouble("eCPM", in: 0...1_000_000) ?? 0
        let label = try s.optionalString("label")
        switch try s.string("type") {
        case "inventory":
          waterfall.append(.inventory(eCPM: eCPM, label: label))
        case "customEvent":
          let timeout = try s.optionalInt("timeoutMs") ?? 5000
          guard timeout >= 1 else {
            throw .invalidParams(field: s.path("timeoutMs"), "must be a positive integer")
          }
          waterfall.append(
            .customEvent(
              adapterClassName: try s.nonEmptyString("adapterClassName"),
              parameter: try s.optionalString("parameter") ?? "", eCPM: eCPM,
              timeoutMs: UInt64(timeout), label: label))
        default:
          throw .invalidParams(field: s.path("type"), "must be \"inventory\" or \"customEvent\"")
        }
      }
      unit.waterfall = waterfall
    }
    if let deadline = try p.optionalInt("deadlineMs") {
      guard deadline >= 1 else {
        throw .invalidParams(field: p.path("deadlineMs"), "must be a positive integer")
      }
      unit.deadlineMs = UInt64(deadline)
    }
    return unit
  }

  // MARK: Creatives

  static func creative(_ p: Params, format lookup: (String) -> CustomFormat?) throws(RPCError)
    -> Creative
  {
    try p.rejectUnknownMembers(allowed: creativeFields)
    let id = try p.nonEmptyString("id")
    guard let kind = try p.optionalEnum("kind", AdKind.self) else {
      throw .invalidParams(field: p.path("kind"), "is required")
    }
    guard let assets = try p.optionalObject("assets") else {
      throw .invalidParams(field: p.path("assets"), "is required")
    }
    let video = try p.optionalObject("video").map { v throws(RPCError) in try videoMedia(v) }
    let content: CreativeContent
    var media: MediaContent
    switch kind {
    case .native:
      if p.raw("formatID") != nil {
        throw .invalidParams(field: p.path("formatID"), "applies only to customNative creatives")
      }
      let native = try nativeAssets(assets, colorKey: id)
      content = .native(native)
      if var video {
        // The poster, else the first image, is what shows before the video plays.
        if video.mainImage == nil { video.mainImage = native.images.first }
        if video.aspectRatio == 0, let image = video.mainImage, image.height > 0 {
          video.aspectRatio = Double(image.width) / Double(image.height)
        }
        media = video
      } else if let first = native.images.first {
        media = .image(first)
      } else {
        media = MediaContent()
      }
    case .customNative:
      if p.raw("video") != nil {
        throw .invalidParams(
          field: p.path("video"), "applies only to native creatives (use a video asset)")
      }
      let formatID = try p.nonEmptyString("formatID")
      guard let format = lookup(formatID) else {
        throw .invalidParams(field: p.path("formatID"), "names no defined custom format")
      }
      var values: [(name: String, value: CustomAssetValue)] = []
      media = MediaContent()
      for name in assets.memberNames {
        guard let definition = format.asset(named: name) else {
          throw .invalidParams(
            field: assets.path(named: name), "is not an asset of custom format \(formatID)")
        }
        switch definition.type {
        case .text:
          values.append((name, .text(try assets.string(named: name))))
        case .image:
          values.append((name, .image(try image(try assets.object(named: name), colorKey: id))))
        case .video:
          media = try videoMedia(try assets.object(named: name))
          values.append((name, .video))
        }
      }
      content = .custom(formatID: formatID, assets: values)
    }
    var adChoices: AdChoicesInfo?
    if try p.optionalBool("indirect") ?? false {
      adChoices = defaultAdChoices
      if let a = try p.optionalObject("adChoices") {
        try a.rejectUnknownMembers(allowed: adChoicesFields)
        if let imageParams = try a.optionalObject("image") {
          adChoices?.image = try image(imageParams, colorKey: "adchoices")
        }
        if let url = try a.optionalString("clickURL") { adChoices?.clickURL = url }
        if let attribution = try a.optionalString("attribution") {
          guard ["Ad", "Advertisement", "Sponsored"].contains(attribution) else {
            throw .invalidParams(
              field: a.path("attribution"), "must be \"Ad\", \"Advertisement\" or \"Sponsored\"")
          }
          adChoices?.attribution = attribution
        }
      }
    } else if p.raw("adChoices") != nil {
      throw .invalidParams(field: p.path("adChoices"), "applies only to indirect creatives")
    }
    return Creative(
      id: id, content: content, media: media, adChoices: adChoices,
      priority: try p.optionalInt("priority") ?? 0,
      eCPM: try p.optionalDouble("eCPM", in: 0...1_000_000) ?? 0,
      deepLinks: try p.optionalStringArray("deepLinks") ?? [],
      landingPageURL: try p.nonEmptyString("landingPageURL"),
      hasCustomClickAction: try p.optionalBool("customClickAction") ?? false,
      targeting: try p.optionalObject("targeting").map { t throws(RPCError) in try targeting(t) }
        ?? Targeting(),
      muteThisAdReasons: try p.optionalStringArray("muteThisAdReasons") ?? [])
  }

  private static func nativeAssets(_ a: Params, colorKey: String) throws(RPCError) -> NativeAssets {
    try a.rejectUnknownMembers(allowed: nativeAssetFields)
    var extras: [(key: String, value: String)] = []
    if let e = try a.optionalObject("extraAssets") {
      for name in e.memberNames { extras.append((name, try e.string(named: name))) }
    }
    var images: [AdImage] = []
    for i in try a.objectArray("images") ?? [] { images.append(try image(i, colorKey: colorKey)) }
    return NativeAssets(
      headline: try a.string("headline"),
      body: try a.optionalString("body"),
      callToAction: try a.optionalString("callToAction"),
      store: try a.optionalString("store"),
      price: try a.optionalString("price"),
      advertiser: try a.optionalString("advertiser"),
      starRating: try a.optionalDouble("starRating", in: 0...5),
      icon: try a.optionalObject("icon").map { i throws(RPCError) in
        try image(i, colorKey: colorKey)
      },
      images: images,
      extraAssets: extras)
  }

  private static func videoMedia(_ v: Params) throws(RPCError) -> MediaContent {
    try v.rejectUnknownMembers(allowed: videoFields)
    guard let duration = try v.optionalDouble("duration", in: 0.001...86_400) else {
      throw .invalidParams(field: v.path("duration"), "is required")
    }
    let poster = try v.optionalObject("poster").map { p throws(RPCError) in
      try image(p, colorKey: "poster")
    }
    let ratio =
      try v.optionalDouble("aspectRatio", in: 0.01...100)
      ?? poster.map { Double($0.width) / Double($0.height) } ?? 0
    return MediaContent(
      aspectRatio: ratio, hasVideoContent: true, duration: duration, mainImage: poster,
      customControlsAllowed: try v.optionalBool("customControlsAllowed") ?? false,
      clickToExpandAllowed: try v.optionalBool("clickToExpandAllowed") ?? false)
  }

  private static func targeting(_ t: Params) throws(RPCError) -> Targeting {
    try t.rejectUnknownMembers(allowed: targetingFields)
    var custom: [String: [String]] = [:]
    if let c = try t.optionalObject("customTargeting") {
      for key in c.memberNames {
        guard let v = c.value(named: key) else { continue }
        if let s = v.stringValue {
          custom[key] = [s]
        } else if v.kind == .array, let values = Optional(v.elements.compactMap(\.stringValue)),
          values.count == v.count, !values.isEmpty
        {
          custom[key] = values
        } else {
          throw .invalidParams(
            field: c.path(named: key), "must be a string or a non-empty array of strings")
        }
      }
    }
    return Targeting(
      customTargeting: custom, keywords: try t.optionalStringArray("keywords") ?? [],
      contentURLs: try t.optionalStringArray("contentURLs") ?? [])
  }

  // MARK: Images

  /// An Image: `url`, `width`, `height`, optional `scale`, `mimeType`, `data` (base64).
  /// Without `data`, a PNG of the stated size is generated (lazily).
  static func image(_ p: Params, colorKey: String) throws(RPCError) -> AdImage {
    try p.rejectUnknownMembers(allowed: imageFields)
    let url = try p.nonEmptyString("url")
    let width = try p.int("width", atLeast: 1)
    let height = try p.int("height", atLeast: 1)
    guard width <= 8192, height <= 8192 else {
      throw .invalidParams(
        field: p.path(width > 8192 ? "width" : "height"), "must be at most 8192")
    }
    let scale = try p.optionalDouble("scale", in: 0.1...10) ?? 1
    if let text = try p.optionalString("data") {
      guard let bytes = Base64.decode(text), !bytes.isEmpty else {
        throw .invalidParams(field: p.path("data"), "must be non-empty base64")
      }
      return AdImage(
        url: url, scale: scale, width: width, height: height,
        mimeType: try p.optionalString("mimeType") ?? "image/png", data: bytes)
    }
    if let mime = try p.optionalString("mimeType"), mime != "image/png" {
      throw .invalidParams(
        field: p.path("mimeType"), "must be image/png when the image bytes are generated")
    }
    let name = url.split(separator: "/").last.map(String.init) ?? url
    let shape = name.hasSuffix(".png") ? String(name.dropLast(4)) : name
    return AdImage(
      url: url, scale: scale,
      picture: .placeholder(width: width, height: height, colorKey: colorKey, shapeKey: shape))
  }
}
