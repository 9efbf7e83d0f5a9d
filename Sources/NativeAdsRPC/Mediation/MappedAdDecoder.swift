import JSONRPC
import NativeAds

/// The mapped native ad an external adapter answers with (`{"ad": MappedAd}`, see
/// docs/mediation.md): the store's native assets plus what only a mapped ad says. Decoded into
/// the domain's ``MediatedNativeAd`` with the store's rules (images without `data` get a
/// generated PNG of the stated size).
enum MappedAdDecoder {
  enum AdChoicesShape {
    static let image = Field.requiredObject("image", ImageInputShape.shape)
    static let clickURL = Field.string("clickURL")
    static let attribution = Field.optionalString("attribution")
    static let shape = WireShape(nil, [image.member, clickURL.member, attribution.member])
  }

  enum MediaShape {
    static let aspectRatio = Field.optionalNumber(
      "aspectRatio", in: 0...MediaContent.maximumAspectRatio)
    static let hasVideoContent = Field.optionalBool("hasVideoContent")
    static let duration = Field.optionalNumber("duration", in: 0...MediaContent.maximumDuration)
    static let shape = WireShape(
      nil, [aspectRatio.member, hasVideoContent.member, duration.member])
  }

  static let adChoices = Field.object("adChoices", AdChoicesShape.shape)
  static let media = Field.object("media", MediaShape.shape)
  static let handlesUserClicks = Field.optionalBool("handlesUserClicks")
  static let handlesUserImpressions = Field.optionalBool("handlesUserImpressions")
  static let landingPageURL = Field.optionalString("landingPageURL")
  static let deepLinks = Field.stringArray("deepLinks")

  static let shape = WireShape(
    "MappedAd",
    NativeAssetsShape.members + [
      adChoices.member, media.member, handlesUserClicks.member, handlesUserImpressions.member,
      landingPageURL.member, deepLinks.member,
    ])

  /// `colorKey` names the generated pictures (the load's ID).
  static func ad(_ p: Params, colorKey: String) throws(InvalidField) -> MediatedNativeAd {
    try shape.check(p)
    let assets = try StoreDecoder.nativeAssets(p, colorKey: colorKey)
    var adChoices: AdChoicesInfo?
    if let a = try p(Self.adChoices) {
      adChoices = AdChoicesInfo(
        image: try StoreDecoder.image(try a(AdChoicesShape.image), colorKey: "adchoices"),
        clickURL: try a(AdChoicesShape.clickURL),
        attribution: try a(AdChoicesShape.attribution) ?? "Ad")
    }
    var media = assets.images.first.map { MediaContent.image($0) } ?? MediaContent()
    if let m = try p(Self.media) {
      if let ratio = try m(MediaShape.aspectRatio) { media.aspectRatio = ratio }
      if try m(MediaShape.hasVideoContent) ?? false {
        media.hasVideoContent = true
        media.duration = try m(MediaShape.duration) ?? 0
      }
    }
    return MediatedNativeAd(
      assets: assets, adChoices: adChoices, media: media,
      handlesUserClicks: try p(handlesUserClicks) ?? false,
      handlesUserImpressions: try p(handlesUserImpressions) ?? false,
      landingPageURL: try p(landingPageURL), deepLinks: try p(deepLinks) ?? [])
  }
}
