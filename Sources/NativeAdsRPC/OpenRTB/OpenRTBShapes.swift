import JSONRPC
import NativeAds

// The OpenRTB objects the service reads, each described once (IAB OpenRTB Dynamic Native Ads
// 1.2, sections 4 and 5; OpenRTB 2.6 for the bid request and response around them). The
// decoders read through these fields, so a wrong value is named by its place
// (`native.assets[2].img.url is required`), and `schemas/openrtb-native-1.2-*.schema.json` are
// generated from them. Every shape is open: OpenRTB readers ignore members they do not know.

/// A Native 1.2 response (section 5), bare or as the value of `{"native": ...}`.
enum NativeResponseShape {
  /// 5.3 Title.
  enum Title {
    static let text = Field.string("text").described("The title (the ad's headline).")
    static let len = Field.optionalInt("len", minimum: 0)
    static let shape = WireShape(
      "OpenRTBTitleResponse", closed: false, [text.member, len.member, ext.member])
  }

  /// 5.4 Image.
  enum Image {
    static let type = Field.optionalInt("type", minimum: 1).described(
      "1 icon (2, the legacy logo, too), 3 main, 500+ exchange-specific. Optional in an embedded"
        + " response: the request asset of the same id gives it.")
    static let url = Field.string("url", nonEmpty: true)
    static let w = Field.optionalInt("w", minimum: 1, maximum: AdImage.maximumSide)
    static let h = Field.optionalInt("h", minimum: 1, maximum: AdImage.maximumSide)
    static let shape = WireShape(
      "OpenRTBImageResponse", closed: false,
      [type.member, url.member, w.member, h.member, ext.member])
  }

  /// 5.5 Data.
  enum Data {
    static let type = Field.optionalInt("type", minimum: 1).described(
      "7.4 Data Asset Types: 1 sponsored, 2 desc, 3 rating, 4 likes, 5 downloads, 6 price,"
        + " 7 saleprice, 8 phone, 9 address, 10 desc2, 11 displayurl, 12 ctatext, 500+.")
    static let len = Field.optionalInt("len", minimum: 0)
    static let value = Field.string("value")
    static let shape = WireShape(
      "OpenRTBDataResponse", closed: false, [type.member, len.member, value.member, ext.member])
  }

  /// 5.6 Video.
  enum Video {
    static let vasttag = Field.string("vasttag").described("The VAST XML.")
    static let shape = WireShape("OpenRTBVideoResponse", closed: false, [vasttag.member])
  }

  /// 5.7 Link.
  enum Link {
    static let url = Field.string("url", nonEmpty: true).described(
      "Where a click goes; a deep link when its scheme is not http or https.")
    static let clicktrackers = Field.stringArray("clicktrackers")
    static let fallback = Field.optionalString(
      "fallback", summary: "The URL opened when the deep link in url cannot be.")
    static let shape = WireShape(
      "OpenRTBLink", closed: false,
      [url.member, clicktrackers.member, fallback.member, ext.member])
  }

  /// 5.8 Event tracker.
  enum EventTracker {
    static let event = Field.int("event", minimum: 1).described(
      "1 impression, 2 viewable-mrc50, 3 viewable-mrc100, 4 viewable-video50.")
    static let method = Field.int("method", minimum: 1).described("1 image pixel, 2 JavaScript.")
    static let url = Field.optionalString("url")
    static let shape = WireShape(
      "OpenRTBEventTracker", closed: false, [event.member, method.member, url.member, ext.member])
  }

  /// 5.2 Asset: exactly one of title, img, video, data (a lone link overrides the ad's link).
  enum Asset {
    static let id = Field.optionalInt("id", minimum: 0)
    static let required = Field.optionalInt("required", minimum: 0, maximum: 1)
    static let title = Field.object("title", Title.shape)
    static let img = Field.object("img", Image.shape)
    static let video = Field.object("video", Video.shape)
    static let data = Field.object("data", Data.shape)
    static let link = Field.object("link", Link.shape)
    static let shape = WireShape(
      "OpenRTBAssetResponse", closed: false,
      [
        id.member, required.member, title.member, img.member, video.member, data.member,
        link.member, ext.member,
      ])
  }

  /// What the service reads from, and writes into, the response's `ext`: the assets OpenRTB
  /// has no type for.
  enum Extension {
    static let store = Field.optionalString("store", summary: "The app store of the ad.")
    static let extraAssets = Field.stringMap("extraAssets")
    static let deepLinks = Field.stringArray(
      "deepLinks", summary: "Deep links tried after link.url.")
    static let shape = WireShape(
      "OpenRTBNativeExtension", closed: false,
      [store.member, extraAssets.member, deepLinks.member])
  }

  static let ext = Field.object("ext", .anyObject)
  static let ver = Field.optionalString("ver")
  static let assets = Field.objectArray("assets", Asset.shape, minItems: 1)
  static let assetsurl = Field.optionalString(
    "assetsurl", summary: "Never fetched: the assets given are used.")
  static let dcourl = Field.optionalString("dcourl", summary: "Never fetched.")
  static let link = Field.requiredObject("link", Link.shape)
  static let imptrackers = Field.stringArray("imptrackers")
  static let jstracker = Field.optionalString("jstracker")
  static let eventtrackers = Field.objectArray("eventtrackers", EventTracker.shape)
  static let privacy = Field.optionalString(
    "privacy", summary: "The page about the buyer's targeting: the AdChoices target.")
  static let extension_ = Field.object("ext", Extension.shape)

  static let shape = WireShape(
    "OpenRTBNativeResponse", closed: false,
    [
      ver.member, assets.member, assetsurl.member, dcourl.member, link.member,
      imptrackers.member, jstracker.member, eventtrackers.member, privacy.member,
      extension_.member,
    ])
}

/// A Native 1.2 request (section 4): what the bidder fills, and what types the untyped assets
/// of an embedded response (`loadAd`'s `nativeRequest`).
enum NativeRequestShape {
  enum Title {
    static let len = Field.int("len", minimum: 1)
    static let shape = WireShape("OpenRTBTitleRequest", closed: false, [len.member])
  }

  enum Image {
    static let type = Field.optionalInt("type", minimum: 1)
    static let w = Field.optionalInt("w", minimum: 1)
    static let wmin = Field.optionalInt("wmin", minimum: 1)
    static let h = Field.optionalInt("h", minimum: 1)
    static let hmin = Field.optionalInt("hmin", minimum: 1)
    static let mimes = Field.stringArray("mimes")
    static let shape = WireShape(
      "OpenRTBImageRequest", closed: false,
      [type.member, w.member, wmin.member, h.member, hmin.member, mimes.member])
  }

  enum Video {
    static let mimes = Field.stringArray("mimes")
    static let minduration = Field.optionalInt("minduration", minimum: 0)
    static let maxduration = Field.optionalInt("maxduration", minimum: 0)
    static let shape = WireShape(
      "OpenRTBVideoRequest", closed: false,
      [mimes.member, minduration.member, maxduration.member])
  }

  enum Data {
    static let type = Field.int("type", minimum: 1)
    static let len = Field.optionalInt("len", minimum: 1)
    static let shape = WireShape("OpenRTBDataRequest", closed: false, [type.member, len.member])
  }

  enum Asset {
    static let id = Field.int("id", minimum: 0)
    static let required = Field.optionalInt("required", minimum: 0, maximum: 1)
    static let title = Field.object("title", Title.shape)
    static let img = Field.object("img", Image.shape)
    static let video = Field.object("video", Video.shape)
    static let data = Field.object("data", Data.shape)
    static let shape = WireShape(
      "OpenRTBAssetRequest", closed: false,
      [id.member, required.member, title.member, img.member, video.member, data.member])
  }

  enum EventTracker {
    static let event = Field.int("event", minimum: 1)
    static let methods = Field.intArray("methods")
    static let shape = WireShape(
      "OpenRTBEventTrackerRequest", closed: false, [event.member, methods.member])
  }

  static let ver = Field.optionalString("ver")
  static let assets = Field.objectArray("assets", Asset.shape, minItems: 1).orRequired()
  static let eventtrackers = Field.objectArray("eventtrackers", EventTracker.shape)
  static let privacy = Field.optionalInt("privacy", minimum: 0, maximum: 1)
  static let plcmtcnt = Field.optionalInt("plcmtcnt", minimum: 1)

  static let shape = WireShape(
    "OpenRTBNativeRequest", closed: false,
    [ver.member, assets.member, eventtrackers.member, privacy.member, plcmtcnt.member])
}

/// The OpenRTB 2.x bid response around Native responses (`loadAd`'s `adResponseString`).
enum BidResponseShape {
  enum Bid {
    static let id = Field.optionalString("id")
    static let impid = Field.optionalString("impid")
    static let price = Field.optionalNumber("price", in: 0...Double.greatestFiniteMagnitude)
    /// Read raw (a JSON string holding the Native response, or the object itself).
    static let adm = Field.object(
      "adm", .oneOf([.string(), .component("OpenRTBNativeResponse")]),
      summary: "The Native response, as a JSON string (the standard) or an object.")
    static let crid = Field.optionalString("crid")
    static let shape = WireShape(
      "OpenRTBBid", closed: false,
      [id.member, impid.member, price.member, adm.member, crid.member])
  }

  enum SeatBid {
    static let bid = Field.objectArray("bid", Bid.shape).orRequired()
    static let seat = Field.optionalString("seat")
    static let shape = WireShape("OpenRTBSeatBid", closed: false, [bid.member, seat.member])
  }

  static let id = Field.optionalString("id")
  static let seatbid = Field.objectArray("seatbid", SeatBid.shape)
  static let nbr = Field.optionalInt("nbr", minimum: 0)
  static let shape = WireShape(
    "OpenRTBBidResponse", closed: false, [id.member, seatbid.member, nbr.member])
}

/// The OpenRTB 2.6 bid request the mock bidder reads.
enum BidRequestShape {
  enum Native {
    /// Read raw (a JSON string holding the Native request, or the object itself).
    static let request = Field.object(
      "request", .oneOf([.string(), .component("OpenRTBNativeRequest")]),
      summary: "The Native request, as a JSON string (the standard) or an object.")
    static let ver = Field.optionalString("ver")
    static let shape = WireShape("OpenRTBImpNative", closed: false, [request.member, ver.member])
  }

  enum Imp {
    static let id = Field.string("id", nonEmpty: true)
    static let tagid = Field.optionalString("tagid", summary: "The ad unit ID.")
    static let native = Field.object("native", Native.shape)
    static let bidfloor = Field.optionalNumber("bidfloor", in: 0...Double.greatestFiniteMagnitude)
    static let shape = WireShape(
      "OpenRTBImp", closed: false, [id.member, tagid.member, native.member, bidfloor.member])
  }

  /// `site` or `app`: what targeting is matched against.
  enum Context {
    static let keywords = Field.optionalString("keywords", summary: "Comma-separated.")
    static let page = Field.optionalString("page")
    static let shape = WireShape(nil, closed: false, [keywords.member, page.member])
  }

  static let id = Field.string("id", nonEmpty: true)
  static let imp = Field.objectArray("imp", Imp.shape, minItems: 1).orRequired()
  static let site = Field.object("site", Context.shape)
  static let app = Field.object("app", Context.shape)
  static let shape = WireShape(
    "OpenRTBBidRequest", closed: false, [id.member, imp.member, site.member, app.member])
}

extension Field where Value == [Int]? {
  /// An array of integers.
  static func intArray(_ name: StaticString) -> Field {
    Field(name, .array(.integer()), required: false) { p, n throws(InvalidField) in
      guard let v = p.raw(n) else { return nil }
      guard v.kind == .array else { throw InvalidField(p.path(n), "must be an array") }
      var out: [Int] = []
      for (i, element) in v.elements.enumerated() {
        guard let value = element.intValue else {
          throw InvalidField("\(p.path(n))[\(i)]", "must be an integer")
        }
        out.append(value)
      }
      return out
    }
  }
}
