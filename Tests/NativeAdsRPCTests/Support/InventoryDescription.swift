import NativeAds

/// Everything an inventory holds, as text in ID order: two inventories hold the same when their
/// descriptions are equal (creatives are not `Equatable`; this reads every field, unpacking
/// packed ones).
func describe(_ inventory: Inventory) -> String {
  var lines: [String] = []
  for format in inventory.formats.values.sorted(by: { $0.id < $1.id }) {
    lines.append("format \(format)")
  }
  for creative in inventory.creatives.values.sorted(by: { $0.id < $1.id }) {
    lines.append(describe(creative))
  }
  for unit in inventory.adUnits.values.sorted(by: { $0.id < $1.id }) {
    lines.append("unit \(unit)")
  }
  return lines.joined(separator: "\n")
}

/// Every field of a creative, as text.
func describe(_ c: Creative) -> String {
  var s = "creative \(c.id) kind=\(c.kind) priority=\(c.priority) eCPM=\(c.eCPM.bitPattern)"
  s += " indirect=\(c.isIndirect) customClick=\(c.hasCustomClickAction)"
  s += " deepLinks=\(c.deepLinks) landing=\(c.landingPageURL) mute=\(c.muteThisAdReasons)"
  let t = c.targeting
  s += " targeting=\(t.customTargeting.sorted { $0.key < $1.key }) \(t.keywords) \(t.contentURLs)"
  s += " orientation=\(c.orientationRatio.map { "\($0.bitPattern)" } ?? "nil")"
  s += " customFormatID=\(c.customFormatID ?? "nil")"
  switch c.content {
  case .native(let a):
    s += " native(headline=\(a.headline) body=\(a.body ?? "nil") cta=\(a.callToAction ?? "nil")"
    s += " store=\(a.store ?? "nil") price=\(a.price ?? "nil") advertiser=\(a.advertiser ?? "nil")"
    s += " rating=\(a.starRating.map { "\($0.bitPattern)" } ?? "nil")"
    s += " icon=\(a.icon.map(describe) ?? "nil") images=\(a.images.map(describe))"
    s += " extra=\(a.extraAssets.map { "\($0.key)=\($0.value)" }))"
  case .custom(let formatID, let assets):
    s += " custom(\(formatID)"
    for (name, value) in assets {
      switch value {
      case .text(let text): s += " \(name)=text(\(text))"
      case .image(let image): s += " \(name)=\(describe(image))"
      case .video: s += " \(name)=video"
      }
    }
    s += ")"
  }
  let m = c.media
  s += " media(ratio=\(m.aspectRatio.bitPattern) video=\(m.hasVideoContent)"
  s += " duration=\(m.duration.bitPattern) main=\(m.mainImage.map(describe) ?? "nil")"
  s += " controls=\(m.customControlsAllowed) expand=\(m.clickToExpandAllowed))"
  if let a = c.adChoices {
    s += " adChoices(\(describe(a.image)) \(a.clickURL) \(a.attribution))"
  } else {
    s += " adChoices=nil"
  }
  return s
}

/// An image's metadata and what its bytes are made from.
func describe(_ image: AdImage) -> String {
  let source = image.picture.map { "picture \($0)" } ?? "bytes \(image.data)"
  return "image(\(image.url) scale=\(image.scale.bitPattern) \(image.width)x\(image.height)"
    + " \(image.mimeType) \(source))"
}
