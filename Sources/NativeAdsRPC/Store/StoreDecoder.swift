import JSONRPC
import NativeAds

/// Reads store documents (formats, creatives, ad units, images) into domain values, through
/// the fields of their shapes (`StoreShapes.swift`).
///
/// One reader for the store file and the `store.*` methods, so both apply the same rules and
/// name the offending field the same way (`creatives[3].assets.MainImage.width must be a
/// positive integer`). Cross-item rules (a custom creative's required assets, ad units naming
/// existing creatives) are the ``Inventory``'s; this type checks shapes and values. Every
/// function expects an object already checked against its shape (as ``Field`` reads do).
enum StoreDecoder {
  /// The AdChoices of indirect creatives that do not give their own.
  static let defaultAdChoices = AdChoicesInfo(
    image: AdImage(
      url: "https://static.native-ads.test/adchoices/icon.png", scale: 2,
      picture: .placeholder(width: 30, height: 30, colorKey: "adchoices", shapeKey: "icon")),
    clickURL: "https://adssettings.google.com/whythisad")

  // MARK: Formats

  static func format(_ p: Params) throws(InvalidField) -> CustomFormat {
    typealias F = FormatShape
    let id = try p(F.id)
    var definitions: [CustomAssetDefinition] = []
    for a in try p(F.assets) {
      definitions.append(
        CustomAssetDefinition(
          name: try a(F.Asset.name), type: try a(F.Asset.type),
          required: try a(F.Asset.required) ?? false))
    }
    return CustomFormat(id: id, assets: definitions)
  }

  // MARK: Ad units

  static func adUnit(_ p: Params) throws(InvalidField) -> AdUnit {
    typealias F = AdUnitShape
    var unit = AdUnit(id: try p(F.id), creativeIDs: try p(F.creatives) ?? [])
    if let sources = try p(F.waterfall) {
      var waterfall: [WaterfallSource] = []
      for s in sources { waterfall.append(try source(s)) }
      unit.waterfall = waterfall
    }
    unit.deadlineMs = try p(F.deadlineMs).map(UInt64.init)
    return unit
  }

  private static func source(_ s: Params) throws(InvalidField) -> WaterfallSource {
    typealias F = WaterfallSourceShape
    let eCPM = try s(F.eCPM) ?? 0
    let label = try s(F.label)
    switch try s(F.type) {
    case .inventory:
      return .inventory(eCPM: eCPM, label: label)
    case .customEvent:
      let timeout = try s(F.timeoutMs).map(UInt64.init) ?? WaterfallSource.defaultTimeoutMs
      return .customEvent(
        adapterClassName: try s(F.adapterClassName), parameter: try s(F.parameter) ?? "",
        eCPM: eCPM, timeoutMs: timeout, label: label)
    }
  }

  // MARK: Creatives

  /// A creative; one written in `openrtb` carries at most `maximumTrackers` trackers
  /// (`--max-ad-trackers`).
  static func creative(
    _ p: Params, maximumTrackers: Int = OpenRTBDecoder.defaultMaximumTrackers,
    format lookup: (String) -> CustomFormat?
  ) throws(InvalidField) -> Creative {
    typealias F = CreativeShape
    let id = try p(F.id)
    if let rtb = p.raw(F.openrtb.name) {
      return try openRTBCreative(p, id: id, rtb, maximumTrackers: maximumTrackers)
    }
    let kind = try p(F.kind)
    let assets = try p(F.assets)
    let video = try p(F.video).map { v throws(InvalidField) in try videoMedia(v) }
    let content: CreativeContent
    var media: MediaContent
    switch kind {
    case .native:
      if p.raw(F.formatID.name) != nil {
        throw InvalidField(p.path(F.formatID.name), "applies only to customNative creatives")
      }
      try NativeAssetsShape.shape.check(assets)
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
      if p.raw(F.video.name) != nil {
        throw InvalidField(
          p.path(F.video.name), "applies only to native creatives (use a video asset)")
      }
      let formatID = try p(F.formatID)
      guard let format = lookup(formatID) else {
        throw InvalidField(p.path(F.formatID.name), "names no defined custom format")
      }
      var values: [(name: String, value: CustomAssetValue)] = []
      media = MediaContent()
      for (name, value) in assets.uniqueMembers {
        guard let definition = format.asset(named: name) else {
          throw InvalidField(
            assets.path(named: name), "is not an asset of custom format \(formatID)")
        }
        switch definition.type {
        case .text:
          values.append((name, .text(try assets.string(value, named: name))))
        case .image:
          let object = try assets.object(value, named: name)
          try ImageInputShape.shape.check(object)
          values.append((name, .image(try image(object, colorKey: id))))
        case .video:
          let object = try assets.object(value, named: name)
          try VideoShape.shape.check(object)
          media = try videoMedia(object)
          values.append((name, .video))
        }
      }
      content = .custom(formatID: formatID, assets: values)
    }
    // Indirect creatives always carry AdChoices; a direct-sold one only when it gives them (the
    // Digital Services Act rule for reservation ads).
    let indirect = try p(F.indirect) ?? false
    let given = try p(F.adChoices).map { a throws(InvalidField) in try self.adChoices(a) }
    return Creative(
      id: id, content: content, media: media,
      adChoices: given ?? (indirect ? defaultAdChoices : nil), isIndirect: indirect,
      priority: try p(F.priority) ?? 0,
      eCPM: try p(F.eCPM) ?? 0,
      deepLinks: try p(F.deepLinks) ?? [],
      landingPageURL: try p(F.landingPageURL),
      hasCustomClickAction: try p(F.customClickAction) ?? false,
      targeting: try p(F.targeting).map { t throws(InvalidField) in try targeting(t) }
        ?? Targeting(),
      muteThisAdReasons: try p(F.muteThisAdReasons) ?? [])
  }

  /// A creative written as an OpenRTB Native 1.2 response (`openrtb`): its assets, links and
  /// trackers from the response, the rest as for any creative.
  private static func openRTBCreative(
    _ p: Params, id: String, _ rtb: JSONRef, maximumTrackers: Int
  ) throws(InvalidField) -> Creative {
    typealias F = CreativeShape
    for name in F.replacedByOpenRTB where p.raw(name) != nil {
      throw InvalidField(p.path(name), "does not apply to a creative written in openrtb")
    }
    let place = p.path(F.openrtb.name)
    guard rtb.kind == .object else { throw InvalidField(place, "must be an object") }
    return try OpenRTBDecoder.creative(
      try OpenRTBDecoder.nativeObject(rtb, place: place + ".", bare: ""), id: id,
      eCPM: try p(F.eCPM) ?? 0, request: nil, indirect: try p(F.indirect) ?? false,
      adChoices: try p(F.adChoices).map { a throws(InvalidField) in try adChoices(a) },
      priority: try p(F.priority) ?? 0,
      targeting: try p(F.targeting).map { t throws(InvalidField) in try targeting(t) }
        ?? Targeting(),
      muteThisAdReasons: try p(F.muteThisAdReasons) ?? [], budget: nil,
      maximumTrackers: maximumTrackers)
  }

  private static func adChoices(_ a: Params) throws(InvalidField) -> AdChoicesInfo {
    typealias F = AdChoicesInputShape
    var adChoices = defaultAdChoices
    if let i = try a(F.image) { adChoices.image = try image(i, colorKey: "adchoices") }
    if let url = try a(F.clickURL) { adChoices.clickURL = url }
    if let attribution = try a(F.attribution) { adChoices.attribution = attribution.rawValue }
    return adChoices
  }

  /// The assets of a native creative or a mapped ad (`a` checked against its shape).
  static func nativeAssets(_ a: Params, colorKey: String) throws(InvalidField) -> NativeAssets {
    typealias F = NativeAssetsShape
    var images: [AdImage] = []
    for i in try a(F.images) ?? [] { images.append(try image(i, colorKey: colorKey)) }
    return NativeAssets(
      headline: try a(F.headline),
      body: try a(F.body),
      callToAction: try a(F.callToAction),
      store: try a(F.store),
      price: try a(F.price),
      advertiser: try a(F.advertiser),
      starRating: try a(F.starRating),
      icon: try a(F.icon).map { i throws(InvalidField) in try image(i, colorKey: colorKey) },
      images: images,
      extraAssets: try a(F.extraAssets) ?? [])
  }

  private static func videoMedia(_ v: Params) throws(InvalidField) -> MediaContent {
    typealias F = VideoShape
    let duration = try v(F.duration)
    let poster = try v(F.poster).map { p throws(InvalidField) in
      try image(p, colorKey: "poster")
    }
    let ratio =
      try v(F.aspectRatio) ?? poster.map { Double($0.width) / Double($0.height) } ?? 0
    return MediaContent(
      aspectRatio: ratio, hasVideoContent: true, duration: duration, mainImage: poster,
      customControlsAllowed: try v(F.customControlsAllowed) ?? false,
      clickToExpandAllowed: try v(F.clickToExpandAllowed) ?? false)
  }

  static func targeting(_ t: Params) throws(InvalidField) -> Targeting {
    typealias F = TargetingShape
    var custom: [String: [String]] = [:]
    if let c = try t(F.customTargeting) {
      for (key, v) in c.uniqueMembers where !v.isNull {
        if let s = v.stringValue {
          custom[key] = [s]
        } else if v.kind == .array, let values = Optional(v.elements.compactMap(\.stringValue)),
          values.count == v.count, !values.isEmpty
        {
          custom[key] = values
        } else {
          throw InvalidField(
            c.path(named: key), "must be a string or a non-empty array of strings")
        }
      }
    }
    return Targeting(
      customTargeting: custom, keywords: try t(F.keywords) ?? [],
      contentURLs: try t(F.contentURLs) ?? [])
  }

  // MARK: Images

  /// An Image: `url`, `width`, `height`, optional `scale`, `mimeType`, `data` (base64).
  /// Without `data`, a PNG of the stated size is generated (lazily).
  static func image(_ p: Params, colorKey: String) throws(InvalidField) -> AdImage {
    typealias F = ImageInputShape
    let url = try p(F.url)
    let width = try p(F.width)
    let height = try p(F.height)
    let scale = try p(F.scale) ?? 1
    if let text = try p(F.data) {
      guard let bytes = Base64.decode(text), !bytes.isEmpty else {
        throw InvalidField(p.path(F.data.name), "must be non-empty base64")
      }
      return AdImage(
        url: url, scale: scale, width: width, height: height,
        mimeType: try p(F.mimeType) ?? "image/png", data: bytes)
    }
    if let mime = try p(F.mimeType), mime != "image/png" {
      throw InvalidField(
        p.path(F.mimeType.name), "must be image/png when the image bytes are generated")
    }
    return AdImage(
      url: url, scale: scale,
      picture: .placeholder(
        width: width, height: height, colorKey: colorKey,
        shapeKey: AdImage.generatedShapeKey(url: url)))
  }
}
