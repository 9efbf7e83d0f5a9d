import JSONRPC
import NativeAds
import NativeAdsRPC
import PNGImages

/// How an ad is kept in Redis so that any process of a fleet can serve it: its facts (the
/// record, written once at load) and its state (rewritten by every change), each a JSON value.
///
/// The encoding is of the domain's values themselves, field by field, not of the store's input
/// format: an ad read back is equal to the ad written, whatever defaults the store applies
/// (generated images keep their exact picture). The forwarding of a mediated ad lives only in
/// the process that loaded it.
enum AdRecordCodec {
  // MARK: Record

  static func record(_ ad: NativeAd) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("id", .string(ad.id)), ("owner", .uint64(ad.owner)), ("adUnitID", .string(ad.adUnitID)),
      ("loadedAt", .double(ad.loadedAt)), ("expiresAt", .double(ad.expiresAt)),
      ("options", options(ad.options)), ("responseInfo", responseInfo(ad.responseInfo)),
      ("creative", creative(ad.creative)),
    ]
    if let mediation = ad.mediation { members.append(("mediation", self.mediation(mediation))) }
    return .object(members)
  }

  /// The ad `record` describes, with `state`.
  static func ad(record r: SnapshotReader, state: AdState) throws(SnapshotError) -> NativeAd {
    NativeAd(
      restoring: try r("id").string, creative: try creative(try r("creative")),
      options: try options(try r("options")), responseInfo: try responseInfo(try r("responseInfo")),
      loadedAt: try r("loadedAt").double, expiresAt: try r("expiresAt").double,
      owner: try r("owner").uint64, adUnitID: try r("adUnitID").string,
      mediation: try r.optional("mediation").map { m throws(SnapshotError) in try mediation(m) },
      state: state)
  }

  // MARK: State

  static func state(_ state: AdState) -> JSONValue {
    let f = state.fields
    var members: [(String, JSONValue)] = [
      ("impressionRecorded", .bool(f.impressionRecorded)), ("clickCount", .int(f.clickCount)),
      ("customClickHandlerOwners", .array(f.customClickHandlerOwners.map { .uint64($0) })),
      ("isMuted", .bool(f.isMuted)), ("muteReason", .optional(f.muteReason)),
      ("isScreenPresented", .bool(f.isScreenPresented)),
      ("adapterToldOfImpression", .bool(f.adapterToldOfImpression)),
      ("pendingAdapterClickAsset", .optional(f.pendingAdapterClickAsset)),
    ]
    if let view = f.adView {
      members.append(
        (
          "adView",
          .object([
            ("clickable", .strings(view.clickable.map(\.rawValue))),
            ("nonclickable", .strings(view.nonclickable.map(\.rawValue))),
          ])
        ))
    }
    if let video = f.video {
      let s = video.stored
      members.append(
        (
          "video",
          .object([
            ("isMuted", .bool(s.isMuted)),
            ("customControlsEnabled", .bool(s.customControlsEnabled)),
            ("clickToExpandEnabled", .bool(s.clickToExpandEnabled)),
            ("playbackState", .string(s.playbackState.rawValue)),
            ("currentTime", .double(s.currentTime)), ("duration", .double(s.duration)),
            ("anchor", .double(video.anchor)),
          ])
        ))
    }
    return .object(members)
  }

  static func state(_ r: SnapshotReader) throws(SnapshotError) -> AdState {
    var f = AdState.Fields(
      impressionRecorded: try r("impressionRecorded").bool, clickCount: try r("clickCount").int,
      isMuted: try r("isMuted").bool, muteReason: try r.optional("muteReason")?.string,
      isScreenPresented: try r("isScreenPresented").bool,
      adapterToldOfImpression: try r("adapterToldOfImpression").bool,
      pendingAdapterClickAsset: try r.optional("pendingAdapterClickAsset")?.string)
    for owner in try r("customClickHandlerOwners").elements {
      f.customClickHandlerOwners.append(try owner.uint64)
    }
    if let view = r.optional("adView") {
      func keys(_ name: String) throws(SnapshotError) -> [NativeAssetKey] {
        var out: [NativeAssetKey] = []
        for key in try view(name).elements { out.append(try key.enumeration(NativeAssetKey.self)) }
        return out
      }
      f.adView = AdViewRegistration(
        clickable: try keys("clickable"), nonclickable: try keys("nonclickable"))
    }
    if let v = r.optional("video") {
      f.video = VideoPlayer.Fields(
        stored: VideoControllerState(
          isMuted: try v("isMuted").bool,
          customControlsEnabled: try v("customControlsEnabled").bool,
          clickToExpandEnabled: try v("clickToExpandEnabled").bool,
          playbackState: try v("playbackState").enumeration(VideoPlaybackState.self),
          currentTime: try v("currentTime").double, duration: try v("duration").double),
        anchor: try v("anchor").double)
    }
    return AdState(fields: f)
  }

  // MARK: Loader options, response info, mediation

  static func options(_ o: LoaderOptions) -> JSONValue {
    .object([
      ("disableImageLoading", .bool(o.disableImageLoading)),
      ("shouldRequestMultipleImages", .bool(o.shouldRequestMultipleImages)),
      ("mediaAspectRatio", .string(o.mediaAspectRatio.rawValue)),
      ("adChoicesPosition", .string(o.adChoicesPosition.rawValue)),
      ("startMuted", .bool(o.startMuted)),
      ("customControlsRequested", .bool(o.customControlsRequested)),
      ("clickToExpandRequested", .bool(o.clickToExpandRequested)),
      ("numberOfAds", .int(o.numberOfAds)),
    ])
  }

  static func options(_ r: SnapshotReader) throws(SnapshotError) -> LoaderOptions {
    LoaderOptions(
      disableImageLoading: try r("disableImageLoading").bool,
      shouldRequestMultipleImages: try r("shouldRequestMultipleImages").bool,
      mediaAspectRatio: try r("mediaAspectRatio").enumeration(MediaAspectRatio.self),
      adChoicesPosition: try r("adChoicesPosition").enumeration(AdChoicesPosition.self),
      startMuted: try r("startMuted").bool,
      customControlsRequested: try r("customControlsRequested").bool,
      clickToExpandRequested: try r("clickToExpandRequested").bool,
      numberOfAds: try r("numberOfAds").int)
  }

  static func responseInfo(_ info: ResponseInfo) -> JSONValue {
    .object([
      ("responseIdentifier", .string(info.responseIdentifier)),
      ("loaded", info.loadedAdNetworkResponseInfo.map(network) ?? .null),
      ("tried", .array(info.adNetworkInfoArray.map(network))),
      ("isTestRequest", info.isTestRequest.map { .bool($0) } ?? .null),
    ])
  }

  static func responseInfo(_ r: SnapshotReader) throws(SnapshotError) -> ResponseInfo {
    var tried: [AdNetworkInfo] = []
    for n in try r("tried").elements { tried.append(try network(n)) }
    var info = ResponseInfo(
      responseIdentifier: try r("responseIdentifier").string,
      loadedAdNetworkResponseInfo: try r.optional("loaded").map { n throws(SnapshotError) in
        try network(n)
      }, adNetworkInfoArray: tried)
    info.isTestRequest = try r.optional("isTestRequest")?.bool
    return info
  }

  private static func network(_ n: AdNetworkInfo) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("adNetworkClassName", .string(n.adNetworkClassName)),
      ("adSourceName", .string(n.adSourceName)),
      ("latency", .double(n.latency)),
    ]
    if let e = n.error {
      members.append(
        (
          "error",
          .object([
            ("code", .int(e.code)), ("domain", .string(e.domain)), ("message", .string(e.message)),
            ("isNetworkError", .bool(e.isNetworkError)),
          ])
        ))
    }
    return .object(members)
  }

  private static func network(_ r: SnapshotReader) throws(SnapshotError) -> AdNetworkInfo {
    AdNetworkInfo(
      adNetworkClassName: try r("adNetworkClassName").string,
      adSourceName: try r("adSourceName").string, latency: try r("latency").double,
      error: try r.optional("error").map { e throws(SnapshotError) in
        AdNetworkError(
          code: try e("code").int, domain: try e("domain").string, message: try e("message").string,
          isNetworkError: try e("isNetworkError").bool)
      })
  }

  static func mediation(_ m: MediationInfo) -> JSONValue {
    .object([
      ("adapterClassName", .string(m.adapterClassName)), ("loadId", .string(m.loadId)),
      ("adapterOwner", m.adapterOwner.map { .uint64($0) } ?? .null),
      ("handlesUserClicks", .bool(m.handlesUserClicks)),
      ("handlesUserImpressions", .bool(m.handlesUserImpressions)),
    ])
  }

  static func mediation(_ r: SnapshotReader) throws(SnapshotError) -> MediationInfo {
    MediationInfo(
      adapterClassName: try r("adapterClassName").string, loadId: try r("loadId").string,
      adapterOwner: try r.optional("adapterOwner")?.uint64,
      handlesUserClicks: try r("handlesUserClicks").bool,
      handlesUserImpressions: try r("handlesUserImpressions").bool, forwarding: nil,
      eventDelegate: nil)
  }

  // MARK: Creatives

  static func creative(_ c: Creative) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("id", .string(c.id)), ("content", content(c.content)), ("media", media(c.media)),
      ("isIndirect", .bool(c.isIndirect)), ("priority", .int(c.priority)),
      ("eCPM", .double(c.eCPM)),
      ("deepLinks", .strings(c.deepLinks)), ("landingPageURL", .string(c.landingPageURL)),
      ("hasCustomClickAction", .bool(c.hasCustomClickAction)),
      ("muteThisAdReasons", .strings(c.muteThisAdReasons)),
    ]
    if let a = c.adChoices {
      members.append(
        (
          "adChoices",
          .object([
            ("image", image(a.image)), ("clickURL", .string(a.clickURL)),
            ("attribution", .string(a.attribution)),
          ])
        ))
    }
    let t = c.targeting
    if !t.isEmpty {
      members.append(
        (
          "targeting",
          .object([
            (
              "customTargeting",
              .object(
                t.customTargeting.sorted { $0.key < $1.key }.map { ($0.key, .strings($0.value)) })
            ),
            ("keywords", .strings(t.keywords)), ("contentURLs", .strings(t.contentURLs)),
          ])
        ))
    }
    if let tracking = c.tracking { members.append(("tracking", self.tracking(tracking))) }
    return .object(members)
  }

  private static func tracking(_ t: AdTracking) -> JSONValue {
    func link(_ l: AdTracking.Link) -> JSONValue {
      .object([
        ("url", .string(l.url)), ("fallback", .optional(l.fallback)),
        ("clickTrackers", .strings(l.clickTrackers)),
      ])
    }
    return .object([
      ("impressionTrackers", .strings(t.impressionTrackers)),
      (
        "eventTrackers",
        .array(
          t.eventTrackers.map {
            .object([
              ("event", .int($0.event)), ("method", .int($0.method)), ("url", .optional($0.url)),
            ])
          })
      ),
      ("jsTracker", .optional(t.jsTracker)), ("clickTrackers", .strings(t.clickTrackers)),
      (
        "assetLinks",
        .array(
          t.assetLinks.map {
            .object([("assetKey", .string($0.assetKey)), ("link", link($0.link))])
          })
      ),
      ("vastTag", .optional(t.vastTag)),
    ])
  }

  private static func tracking(_ r: SnapshotReader) throws(SnapshotError) -> AdTracking {
    func link(_ l: SnapshotReader) throws(SnapshotError) -> AdTracking.Link {
      AdTracking.Link(
        url: try l("url").string, fallback: try l.optional("fallback")?.string,
        clickTrackers: try l("clickTrackers").strings)
    }
    var eventTrackers: [AdTracking.EventTracker] = []
    for e in try r("eventTrackers").elements {
      eventTrackers.append(
        AdTracking.EventTracker(
          event: try e("event").int, method: try e("method").int, url: try e.optional("url")?.string
        ))
    }
    var assetLinks: [AdTracking.AssetLink] = []
    for a in try r("assetLinks").elements {
      assetLinks.append(
        AdTracking.AssetLink(assetKey: try a("assetKey").string, link: try link(try a("link"))))
    }
    return AdTracking(
      impressionTrackers: try r("impressionTrackers").strings, eventTrackers: eventTrackers,
      jsTracker: try r.optional("jsTracker")?.string, clickTrackers: try r("clickTrackers").strings,
      assetLinks: assetLinks, vastTag: try r.optional("vastTag")?.string)
  }

  static func creative(_ r: SnapshotReader) throws(SnapshotError) -> Creative {
    var adChoices: AdChoicesInfo?
    if let a = r.optional("adChoices") {
      adChoices = AdChoicesInfo(
        image: try image(try a("image")), clickURL: try a("clickURL").string,
        attribution: try a("attribution").string)
    }
    var targeting = Targeting()
    if let t = r.optional("targeting") {
      var custom: [String: [String]] = [:]
      for (key, values) in try t("customTargeting").members { custom[key] = try values.strings }
      targeting = Targeting(
        customTargeting: custom, keywords: try t("keywords").strings,
        contentURLs: try t("contentURLs").strings)
    }
    return Creative(
      id: try r("id").string, content: try content(try r("content")),
      media: try media(try r("media")),
      adChoices: adChoices, isIndirect: try r("isIndirect").bool, priority: try r("priority").int,
      eCPM: try r("eCPM").double, deepLinks: try r("deepLinks").strings,
      landingPageURL: try r("landingPageURL").string,
      hasCustomClickAction: try r("hasCustomClickAction").bool, targeting: targeting,
      muteThisAdReasons: try r("muteThisAdReasons").strings,
      tracking: try r.optional("tracking").map { t throws(SnapshotError) in try tracking(t) })
  }

  private static func content(_ content: CreativeContent) -> JSONValue {
    switch content {
    case .native(let a):
      return .object([
        (
          "native",
          .object([
            ("headline", .string(a.headline)), ("body", .optional(a.body)),
            ("callToAction", .optional(a.callToAction)), ("store", .optional(a.store)),
            ("price", .optional(a.price)), ("advertiser", .optional(a.advertiser)),
            ("starRating", a.starRating.map { .double($0) } ?? .null),
            ("icon", a.icon.map(image) ?? .null), ("images", .array(a.images.map(image))),
            (
              "extraAssets",
              .array(a.extraAssets.map { .array([.string($0.key), .string($0.value)]) })
            ),
          ])
        )
      ])
    case .custom(let formatID, let assets):
      return .object([
        ("formatID", .string(formatID)),
        (
          "custom",
          .array(
            assets.map { asset in
              let value: JSONValue
              switch asset.value {
              case .text(let text): value = .object([("text", .string(text))])
              case .image(let picture): value = .object([("image", image(picture))])
              case .video: value = .object([("video", .bool(true))])
              }
              return .array([.string(asset.name), value])
            })
        ),
      ])
    }
  }

  private static func content(_ r: SnapshotReader) throws(SnapshotError) -> CreativeContent {
    if let n = r.optional("native") {
      var images: [AdImage] = []
      for i in try n("images").elements { images.append(try image(i)) }
      var extra: [(key: String, value: String)] = []
      for pair in try n("extraAssets").elements {
        let parts = try pair.strings
        guard parts.count == 2 else { throw pair.fail("must be [key, value]") }
        extra.append((parts[0], parts[1]))
      }
      return .native(
        NativeAssets(
          headline: try n("headline").string, body: try n.optional("body")?.string,
          callToAction: try n.optional("callToAction")?.string,
          store: try n.optional("store")?.string,
          price: try n.optional("price")?.string, advertiser: try n.optional("advertiser")?.string,
          starRating: try n.optional("starRating")?.double,
          icon: try n.optional("icon").map { i throws(SnapshotError) in try image(i) },
          images: images, extraAssets: extra))
    }
    var assets: [(name: String, value: CustomAssetValue)] = []
    for pair in try r("custom").elements {
      let parts = try pair.elements
      guard parts.count == 2 else { throw pair.fail("must be [name, value]") }
      let value = parts[1]
      if let text = value.optional("text") {
        assets.append((try parts[0].string, .text(try text.string)))
      } else if let picture = value.optional("image") {
        assets.append((try parts[0].string, .image(try image(picture))))
      } else {
        assets.append((try parts[0].string, .video))
      }
    }
    return .custom(formatID: try r("formatID").string, assets: assets)
  }

  private static func media(_ m: MediaContent) -> JSONValue {
    .object([
      ("aspectRatio", .double(m.aspectRatio)), ("hasVideoContent", .bool(m.hasVideoContent)),
      ("duration", .double(m.duration)), ("mainImage", m.mainImage.map(image) ?? .null),
      ("customControlsAllowed", .bool(m.customControlsAllowed)),
      ("clickToExpandAllowed", .bool(m.clickToExpandAllowed)),
    ])
  }

  private static func media(_ r: SnapshotReader) throws(SnapshotError) -> MediaContent {
    MediaContent(
      aspectRatio: try r("aspectRatio").double, hasVideoContent: try r("hasVideoContent").bool,
      duration: try r("duration").double,
      mainImage: try r.optional("mainImage").map { i throws(SnapshotError) in try image(i) },
      customControlsAllowed: try r("customControlsAllowed").bool,
      clickToExpandAllowed: try r("clickToExpandAllowed").bool)
  }

  // MARK: Images

  /// An image: its generated picture when it has one (a few numbers), else its bytes.
  static func image(_ i: AdImage) -> JSONValue {
    var members: [(String, JSONValue)] = [("url", .string(i.url)), ("scale", .double(i.scale))]
    if let p = i.picture {
      func color(_ c: RGBColor) -> JSONValue {
        .array([.int(Int(c.red)), .int(Int(c.green)), .int(Int(c.blue))])
      }
      func rect(_ r: PixelRect) -> JSONValue {
        .array([.int(r.x), .int(r.y), .int(r.width), .int(r.height)])
      }
      members.append(
        (
          "picture",
          .object([
            ("width", .int(p.width)), ("height", .int(p.height)),
            ("background", color(p.background)),
            ("bandColor", color(p.bandColor)), ("band", rect(p.band)), ("accent", color(p.accent)),
            ("rectangle", rect(p.rectangle)),
          ])
        ))
    } else {
      members += [
        ("width", .int(i.width)), ("height", .int(i.height)), ("mimeType", .string(i.mimeType)),
        ("data", .string(Base64.encode(i.data))),
      ]
    }
    return .object(members)
  }

  static func image(_ r: SnapshotReader) throws(SnapshotError) -> AdImage {
    let url = try r("url").string
    let scale = try r("scale").double
    guard let p = r.optional("picture") else {
      let text = try r("data").string
      guard let bytes = Base64.decode(text) else { throw r.fail("data must be base64") }
      return AdImage(
        url: url, scale: scale, width: try r("width").int, height: try r("height").int,
        mimeType: try r("mimeType").string, data: bytes)
    }
    func numbers(_ name: String, _ count: Int) throws(SnapshotError) -> [Int] {
      var out: [Int] = []
      for n in try p(name).elements { out.append(try n.int) }
      guard out.count == count else { throw p.fail("\(name) must hold \(count) numbers") }
      return out
    }
    func color(_ name: String) throws(SnapshotError) -> RGBColor {
      let c = try numbers(name, 3)
      guard c.allSatisfy({ (0...255).contains($0) }) else { throw p.fail("\(name) must be 0-255") }
      return RGBColor(red: UInt8(c[0]), green: UInt8(c[1]), blue: UInt8(c[2]))
    }
    func rect(_ name: String) throws(SnapshotError) -> PixelRect {
      let r = try numbers(name, 4)
      return PixelRect(x: r[0], y: r[1], width: r[2], height: r[3])
    }
    return AdImage(
      url: url, scale: scale,
      picture: PNGPicture(
        width: try p("width").int, height: try p("height").int, background: try color("background"),
        bandColor: try color("bandColor"), band: try rect("band"), accent: try color("accent"),
        rectangle: try rect("rectangle")))
  }
}
