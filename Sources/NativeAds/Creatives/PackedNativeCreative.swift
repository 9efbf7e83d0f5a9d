import PNGImages

/// The details of a system-defined native creative packed in a few bytes on the pages of its
/// load's ``CreativeTables``: what the store loader keeps of each creative until it is served
/// (see ``Creative``).
///
/// Text that creatives of a store tend to share (body, call to action, store, price,
/// advertiser), images, deep link and Mute This Ad lists, AdChoices and targeting are stored
/// once in the load's ``CreativeTables`` and named by index; the headline and the landing page,
/// usually the creative's own, are kept inline. Images without data are generated from their
/// size, URL and the creative ID when they are first read, as every store image is.
///
/// The layout of a creative's bytes, in order (varints are LEB128): seven texts (headline, body, call to action,
/// store, price, advertiser, landing page URL), each a varint `v` (0: absent; odd: the interned
/// string `v / 2`; even: `v / 2 - 1` bytes of UTF-8 follow); the star rating (a byte, 0 for
/// none, else 1 and the 8 bytes of the `Double`, little-endian); then five varints, 0 for none
/// or 1 + a table index: the icon, the image list, the deep link list, the Mute This Ad reason
/// list, the AdChoices. ``CreativePacker`` writes it; ``details(creativeID:)`` reads it.
struct PackedNativeCreative: Sendable {
  let tables: CreativeTables
  /// Where its bytes are in the tables' pages (page << 32 | offset).
  let location: UInt64

  /// The creative's details, unpacked (new generated images each time: the creative keeps the
  /// result).
  func details(creativeID: String) -> Creative.Details {
    tables.read { t in
      t.pages[Int(location >> 32)].withUnsafeBufferPointer { p in
        var reader = Reader(p: p, i: Int(location & 0xFFFF_FFFF))
        let headline = reader.text(t) ?? ""
        let body = reader.text(t)
        let callToAction = reader.text(t)
        let store = reader.text(t)
        let price = reader.text(t)
        let advertiser = reader.text(t)
        let landingPageURL = reader.text(t) ?? ""
        var starRating: Double?
        if reader.byte() != 0 { starRating = reader.double() }
        let icon = reader.index().map { t.images[$0].image(colorKey: creativeID) }
        let images = reader.index().map { t.imageLists[$0].map { $0.image(colorKey: creativeID) } }
        let deepLinks = reader.index().map { t.stringLists[$0] } ?? []
        let reasons = reader.index().map { t.stringLists[$0] } ?? []
        let adChoices = reader.index().map { t.adChoices[$0] }
        let assets = NativeAssets(
          headline: headline, body: body, callToAction: callToAction, store: store, price: price,
          advertiser: advertiser, starRating: starRating, icon: icon, images: images ?? [])
        return Creative.Details(
          content: .native(assets),
          media: assets.images.first.map(MediaContent.image(_:))
            ?? MediaContent(), adChoices: adChoices, deepLinks: deepLinks,
          landingPageURL: landingPageURL, muteThisAdReasons: reasons, tracking: nil)
      }
    }
  }

  private struct Reader {
    let p: UnsafeBufferPointer<UInt8>
    var i = 0

    mutating func byte() -> UInt8 {
      defer { i += 1 }
      return p[i]
    }

    mutating func varint() -> Int {
      var value = 0
      var shift = 0
      while true {
        let b = byte()
        value |= Int(b & 0x7F) << shift
        if b < 0x80 { return value }
        shift += 7
      }
    }

    /// A table index (nil for none).
    mutating func index() -> Int? {
      let v = varint()
      return v == 0 ? nil : v - 1
    }

    mutating func double() -> Double {
      var bits: UInt64 = 0
      for k in 0..<8 { bits |= UInt64(byte()) << (8 * k) }
      return Double(bitPattern: bits)
    }

    mutating func text(_ t: CreativeTables.Storage) -> String? {
      let v = varint()
      if v == 0 { return nil }
      if v & 1 == 1 { return t.strings[v >> 1] }
      let count = v / 2 - 1
      defer { i += count }
      return String(decoding: UnsafeBufferPointer(rebasing: p[i..<i + count]), as: UTF8.self)
    }
  }
}

/// A store image without data, as a packed creative refers to it: its bytes are generated from
/// the size, the URL's last path component and the ID of the creative that shows it.
struct PackedImage: Sendable {
  var url: String
  var width: UInt16
  var height: UInt16
  var scale: Double
  /// What places the picture's rectangle (see ``AdImage/generatedShapeKey(url:)``).
  var shapeKey: String

  func image(colorKey: String) -> AdImage {
    AdImage(
      url: url, scale: scale,
      picture: .placeholder(
        width: Int(width), height: Int(height), colorKey: colorKey, shapeKey: shapeKey))
  }
}

extension AdImage {
  /// The shape key of an image generated for `url` (the store's rule): its last path component
  /// without a `.png` extension, so that a creative's images differ.
  public static func generatedShapeKey(url: String) -> String {
    var url = url
    if let ascii = url.withUTF8({ Self.asciiShapeKey($0) }) { return ascii }
    let name = url.split(separator: "/").last.map(String.init) ?? url
    return name.hasSuffix(".png") ? String(name.dropLast(4)) : name
  }

  /// The same rule on the bytes of an ASCII URL (where characters are bytes: the rule then
  /// needs no `String` work); nil for any other.
  private static func asciiShapeKey(_ u: UnsafeBufferPointer<UInt8>) -> String? {
    var end = u.count
    for byte in u where byte >= 0x80 { return nil }
    while end > 0, u[end - 1] == UInt8(ascii: "/") { end -= 1 }
    guard end > 0 else { return nil }  // no component: the URL itself
    var start = end
    while start > 0, u[start - 1] != UInt8(ascii: "/") { start -= 1 }
    if end - start >= 4, u[end - 4] == UInt8(ascii: "."), u[end - 3] == UInt8(ascii: "p"),
      u[end - 2] == UInt8(ascii: "n"), u[end - 1] == UInt8(ascii: "g")
    {
      end -= 4
    }
    return String(decoding: UnsafeBufferPointer(rebasing: u[start..<end]), as: UTF8.self)
  }
}
