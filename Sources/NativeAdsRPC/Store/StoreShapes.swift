import JSONRPC
import NativeAds

// The store's wire shapes, each described once: ``StoreDecoder`` reads through these fields,
// `store.list` writes through them, and `schemas/store.schema.json` and the OpenRPC components
// are generated from their shapes. Bounds are the domain's named constants.

/// An image given to the service (store, mapped ads): without `data`, a PNG of the stated
/// size is generated.
enum ImageInputShape {
  static let url = Field.string("url", nonEmpty: true)
  static let width = Field.int("width", minimum: 1, maximum: AdImage.maximumSide)
  static let height = Field.int("height", minimum: 1, maximum: AdImage.maximumSide)
  static let scale = Field.optionalNumber("scale", in: AdImage.scaleRange)
  static let mimeType = Field.optionalString("mimeType")
  static let data = Field.optionalString("data", summary: "Base64 of the bytes.")

  static let shape = WireShape(
    "ImageInput",
    [url.member, width.member, height.member, scale.member, mimeType.member, data.member])
}

/// A custom native format (`store.defineFormat`, `formats` of a store file).
enum FormatShape {
  enum Asset {
    static let name = Field.string("name", nonEmpty: true)
    static let type = Field<CustomAssetType>.enumeration("type")
    static let required = Field.optionalBool("required")
    static let shape = WireShape(nil, [name.member, type.member, required.member])
  }

  static let id = Field.string("id", nonEmpty: true)
  static let description = Field.optionalString("description")
  static let assets = Field.objectArray("assets", Asset.shape).orRequired()

  static let shape = WireShape("Format", [id.member, description.member, assets.member])
}

/// The `type` of a waterfall source.
enum WaterfallSourceType: String, CaseIterable {
  case inventory, customEvent
}

/// One source of an ad unit's waterfall.
enum WaterfallSourceShape {
  static let type = Field<WaterfallSourceType>.enumeration("type")
  static let adapterClassName = Field.string("adapterClassName", nonEmpty: true)
  static let parameter = Field.optionalString("parameter")
  static let eCPM = Field.optionalNumber("eCPM", in: Creative.eCPMRange)
  static let timeoutMs = Field.optionalInt("timeoutMs", minimum: 1)
  static let label = Field.optionalString("label")

  static let shape = WireShape(
    "WaterfallSource",
    [
      type.member, adapterClassName.member.optional, parameter.member, eCPM.member,
      timeoutMs.member, label.member,
    ])
}

/// An ad unit (`store.putAdUnit`, `adUnits` of a store file).
enum AdUnitShape {
  static let id = Field.string("id", nonEmpty: true)
  static let description = Field.optionalString("description")
  static let creatives = Field.stringArray("creatives")
  static let waterfall = Field.objectArray("waterfall", WaterfallSourceShape.shape, minItems: 1)
  static let deadlineMs = Field.optionalInt("deadlineMs", minimum: 1)

  static let shape = WireShape(
    "AdUnit",
    [id.member, description.member, creatives.member, waterfall.member, deadlineMs.member])
}

/// A native creative's video (`video`) and a custom creative's video asset.
enum VideoShape {
  static let duration = Field.optionalNumber("duration", in: MediaContent.videoDurationRange)
    .orRequired()
  static let aspectRatio = Field.optionalNumber(
    "aspectRatio", in: MediaContent.videoAspectRatioRange)
  static let customControlsAllowed = Field.optionalBool("customControlsAllowed")
  static let clickToExpandAllowed = Field.optionalBool("clickToExpandAllowed")
  static let poster = Field.object("poster", ImageInputShape.shape)

  static let shape = WireShape(
    "Video",
    [
      duration.member, aspectRatio.member, customControlsAllowed.member,
      clickToExpandAllowed.member, poster.member,
    ])
}

/// What a creative asks of a request (`targeting`).
enum TargetingShape {
  static let customTargeting = Field.object(
    "customTargeting", .map(.oneOf([.string(), .array(.string(), minItems: 1)])))
  static let keywords = Field.stringArray("keywords")
  static let contentURLs = Field.stringArray("contentURLs")

  static let shape = WireShape(
    "Targeting", [customTargeting.member, keywords.member, contentURLs.member])
}

/// The assets of a system-defined native creative, and of a mapped ad.
enum NativeAssetsShape {
  static let headline = Field.string("headline")
  static let body = Field.optionalString("body")
  static let callToAction = Field.optionalString("callToAction")
  static let store = Field.optionalString("store")
  static let price = Field.optionalString("price")
  static let advertiser = Field.optionalString("advertiser")
  static let starRating = Field.optionalNumber("starRating", in: NativeAssets.starRatingRange)
  static let icon = Field.object("icon", ImageInputShape.shape)
  static let images = Field.objectArray("images", ImageInputShape.shape)
  static let extraAssets = Field.stringMap("extraAssets")

  static let members = [
    headline.member, body.member, callToAction.member, store.member, price.member,
    advertiser.member, starRating.member, icon.member, images.member, extraAssets.member,
  ]
  static let shape = WireShape("NativeAssets", members)
}

/// The AdChoices of a creative (`adChoices`): an indirect creative's (defaults when absent), or
/// a direct-sold one's under the Digital Services Act (none when absent).
enum AdChoicesInputShape {
  static let image = Field.object("image", ImageInputShape.shape)
  static let clickURL = Field.optionalString("clickURL")
  static let attribution = Field.optionalEnumeration("attribution", AdChoicesAttribution.self)

  static let shape = WireShape(nil, [image.member, clickURL.member, attribution.member])
}

/// The ad attributions of ``AdChoicesInfo/attribution``.
enum AdChoicesAttribution: String, CaseIterable {
  case ad = "Ad"
  case advertisement = "Advertisement"
  case sponsored = "Sponsored"
}

/// A creative (`store.putCreative`, `creatives` of a store file).
enum CreativeShape {
  static let id = Field.string("id", nonEmpty: true)
  static let description = Field.optionalString("description")
  static let kind = Field<AdKind>.enumeration("kind")
  static let formatID = Field.string("formatID", nonEmpty: true)
  static let assets = Field.object(
    "assets", .anyObject,
    summary:
      "native: NativeAssets; customNative: values by asset name (text: string, image: Image, video: Video)."
  ).orRequired()
  static let priority = Field.optionalInt("priority")
  static let eCPM = Field.optionalNumber("eCPM", in: Creative.eCPMRange)
  static let landingPageURL = Field.string("landingPageURL", nonEmpty: true)
  static let deepLinks = Field.stringArray("deepLinks")
  static let customClickAction = Field.optionalBool("customClickAction")
  static let indirect = Field.optionalBool(
    "indirect",
    summary: "Indirect (backfill) creatives carry AdChoices and the ad attribution; default false.")
  static let adChoices = Field.object(
    "adChoices", AdChoicesInputShape.shape,
    summary:
      "Optional for indirect creatives (defaults apply); on a direct-sold creative, the AdChoices icon the Digital Services Act asks for."
  )
  static let muteThisAdReasons = Field.stringArray("muteThisAdReasons")
  static let targeting = Field.object("targeting", TargetingShape.shape)
  static let video = Field.object("video", VideoShape.shape)
  /// Read raw by ``StoreDecoder`` (the OpenRTB decoder checks it).
  static let openrtb = Field.object(
    "openrtb", .component("OpenRTBNativeResponse"),
    summary:
      "A system-defined native creative written as an OpenRTB Native 1.2 response (bare or"
      + " {\"native\": ...}), in place of kind, assets, video, landingPageURL, deepLinks"
      + " (docs/openrtb.md).")

  /// The members an OpenRTB creative takes from its response instead.
  static let replacedByOpenRTB: [StaticString] = [
    kind.name, formatID.name, assets.name, video.name, landingPageURL.name, deepLinks.name,
    customClickAction.name,
  ]

  static let shape = WireShape(
    "Creative", keywords: [("allOf", kindRules)],
    [
      id.member, description.member, kind.member.optional, formatID.member.optional,
      assets.member.optional, priority.member, eCPM.member, landingPageURL.member.optional,
      deepLinks.member, customClickAction.member, indirect.member, adChoices.member,
      muteThisAdReasons.member, targeting.member, video.member, openrtb.member,
    ])

  /// What each kind requires of `assets`, `formatID` and `video`.
  private static var kindRules: JSONValue {
    func when(_ kind: AdKind, _ then: [(String, JSONValue)]) -> JSONValue {
      .object([
        (
          "if",
          .object([
            ("properties", .object([("kind", Schema.constant(kind.rawValue))])),
            ("required", .array([.string(Self.kind.name.description)])),
          ])
        ),
        ("then", .object(then)),
      ])
    }
    func forbids(_ name: StaticString) -> (String, JSONValue) {
      ("not", .object([("required", .array([.string(name.description)]))]))
    }
    let customAsset = WireType.oneOf([
      .string(), .shape(ImageInputShape.shape), .shape(VideoShape.shape),
    ])
    let openRTBRule: JSONValue = .object([
      ("if", .object([("required", .array([.string(openrtb.name.description)]))])),
      ("then", .object([("allOf", .array(replacedByOpenRTB.map { .object([forbids($0)]) }))])),
      (
        "else",
        .object([
          (
            "required",
            .array([kind.name, assets.name, landingPageURL.name].map { .string($0.description) })
          )
        ])
      ),
    ])
    return .array([
      openRTBRule,
      when(
        .native,
        [
          ("properties", .object([("assets", WireType.shape(NativeAssetsShape.shape).schema)])),
          forbids(formatID.name),
        ]),
      when(
        .customNative,
        [
          ("required", .array([.string(formatID.name.description)])),
          ("properties", .object([("assets", WireType.map(customAsset).schema)])),
          forbids(video.name),
        ]),
    ])
  }
}

/// A store file (`--store FILE`): formats, then creatives, then ad units.
enum StoreDocumentShape {
  static let formats = Field.objectArray("formats", FormatShape.shape)
  static let creatives = Field.objectArray("creatives", CreativeShape.shape)
  static let adUnits = Field.objectArray("adUnits", AdUnitShape.shape)

  static let shape = WireShape(
    nil,
    summary:
      "An inventory of custom formats, creatives and ad units (--store FILE, store.* methods).",
    [
      Field.optionalString("$schema").member, Field.optionalString("description").member,
      formats.member, creatives.member, adUnits.member,
    ])
}

extension WireMember {
  /// The member, not required in the schema (required only in some cases, which the
  /// decoder checks).
  var optional: WireMember {
    var member = self
    member.required = false
    return member
  }
}
