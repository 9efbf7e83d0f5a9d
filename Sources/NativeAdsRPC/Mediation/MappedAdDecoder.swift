import JSONRPC
import NativeAds

/// Reads the mapped native ad an external adapter answers with (`{"ad": MappedAd}`, see
/// docs/mediation.md) into the domain's ``MediatedNativeAd``, with the store's rules for
/// images (no `data`: a PNG of the stated size is generated).
enum MappedAdDecoder {
  static let fields: Set<String> = [
    "headline", "body", "callToAction", "store", "price", "advertiser", "starRating", "icon",
    "images", "extraAssets", "adChoices", "media", "handlesUserClicks", "handlesUserImpressions",
    "landingPageURL", "deepLinks",
  ]
  static let mediaFields: Set<String> = ["aspectRatio", "hasVideoContent", "duration"]
  static let adChoicesFields: Set<String> = ["image", "clickURL", "attribution"]

  /// `colorKey` names the generated pictures (the load's ID).
  static func ad(_ p: Params, colorKey: String) throws(RPCError) -> MediatedNativeAd {
    try p.rejectUnknownMembers(allowed: fields)
    var images: [AdImage] = []
    for i in try p.objectArray("images") ?? [] {
      images.append(try StoreDecoder.image(i, colorKey: colorKey))
    }
    var extras: [(key: String, value: String)] = []
    if let e = try p.optionalObject("extraAssets") {
      for name in e.memberNames { extras.append((name, try e.string(named: name))) }
    }
    var adChoices: AdChoicesInfo?
    if let a = try p.optionalObject("adChoices") {
      try a.rejectUnknownMembers(allowed: adChoicesFields)
      adChoices = AdChoicesInfo(
        image: try StoreDecoder.image(try a.requiredObject("image"), colorKey: "adchoices"),
        clickURL: try a.string("clickURL"),
        attribution: try a.optionalString("attribution") ?? "Ad")
    }
    var media = images.first.map { MediaContent.image($0) } ?? MediaContent()
    if let m = try p.optionalObject("media") {
      try m.rejectUnknownMembers(allowed: mediaFields)
      if let ratio = try m.optionalDouble("aspectRatio", in: 0...100) { media.aspectRatio = ratio }
      if try m.optionalBool("hasVideoContent") ?? false {
        media.hasVideoContent = true
        media.duration = try m.optionalDouble("duration", in: 0...86_400) ?? 0
      }
    }
    var ad = MediatedNativeAd(headline: try p.string("headline"))
    ad.body = try p.optionalString("body")
    ad.callToAction = try p.optionalString("callToAction")
    ad.store = try p.optionalString("store")
    ad.price = try p.optionalString("price")
    ad.advertiser = try p.optionalString("advertiser")
    ad.starRating = try p.optionalDouble("starRating", in: 0...5)
    ad.icon = try p.optionalObject("icon").map { i throws(RPCError) in
      try StoreDecoder.image(i, colorKey: colorKey)
    }
    ad.images = images
    ad.extraAssets = extras
    ad.adChoices = adChoices
    ad.media = media
    ad.handlesUserClicks = try p.optionalBool("handlesUserClicks") ?? false
    ad.handlesUserImpressions = try p.optionalBool("handlesUserImpressions") ?? false
    ad.landingPageURL = try p.optionalString("landingPageURL")
    ad.deepLinks = try p.optionalStringArray("deepLinks") ?? []
    return ad
  }
}
