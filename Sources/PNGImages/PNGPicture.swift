/// A simple, recognisable picture: a background, a full-width band along the bottom and a
/// contrasting rectangle. Built-in creative images are drawn this way so that they have real,
/// small PNG bytes of the stated size without shipping any files.
public struct PNGPicture: Sendable, Equatable {
  /// The width in pixels.
  public var width: Int
  /// The height in pixels.
  public var height: Int
  /// The background colour.
  public var background: RGBColor
  /// The colour of the full-width band.
  public var bandColor: RGBColor
  /// The band (usually along the bottom edge); empty for none.
  public var band: PixelRect
  /// The colour of the rectangle, contrasting with the background.
  public var accent: RGBColor
  /// The rectangle; drawn over the band.
  public var rectangle: PixelRect

  /// Creates a picture.
  public init(
    width: Int, height: Int, background: RGBColor, bandColor: RGBColor, band: PixelRect,
    accent: RGBColor, rectangle: PixelRect
  ) {
    self.width = width
    self.height = height
    self.background = background
    self.bandColor = bandColor
    self.band = band
    self.accent = accent
    self.rectangle = rectangle
  }

  /// A placeholder picture: the background colour is derived from `colorKey` (e.g. a creative
  /// ID, so all images of a creative share it) and the rectangle's place from `shapeKey` (e.g.
  /// the image name, so that a creative's images differ). Deterministic.
  public static func placeholder(
    width: Int, height: Int, colorKey: String, shapeKey: String
  ) -> PNGPicture {
    let colorHash = fnv1a(colorKey)
    let shapeHash = fnv1a(shapeKey)
    let background = RGBColor(
      hue: Double(colorHash % 360), saturation: 0.55, value: 0.85)
    let accent =
      background.luminance > 110
      ? background.mixed(with: .black, fraction: 0.75)
      : background.mixed(with: .white, fraction: 0.8)
    let bandColor = background.mixed(with: accent, fraction: 0.4)
    let bandHeight = height / 6
    let band = PixelRect(x: 0, y: height - bandHeight, width: width, height: bandHeight)
    let rectWidth = max(1, width * 2 / 5)
    let rectHeight = max(1, height * 2 / 5)
    let freeX = width - rectWidth
    let freeY = max(0, height - bandHeight - rectHeight)
    let rectangle = PixelRect(
      x: freeX * Int((shapeHash >> 8) % 101) / 100,
      y: freeY * Int((shapeHash >> 24) % 101) / 100,
      width: rectWidth, height: rectHeight)
    return PNGPicture(
      width: width, height: height, background: background, bandColor: bandColor, band: band,
      accent: accent, rectangle: rectangle)
  }

  /// The picture as a PNG: the prebuilt bytes when it is a built-in picture
  /// (``PrebuiltPNGs``), else ``encodedPNG()``. (``AdImage`` in NativeAds caches the bytes.)
  public func pngData() -> [UInt8] {
    PrebuiltPNGs.bytes(for: self) ?? encodedPNG()
  }

  /// The picture encoded as a PNG: indexed colour (its three colours), bit depth 2, compressed
  /// by zlib. Deterministic; encodes on every call.
  public func encodedPNG() -> [UInt8] {
    PNGEncoder.encodeIndexed(
      width: width, height: height, palette: [background, bandColor, accent],
      rowKey: { row in (band.containsRow(row) ? 1 : 0) | (rectangle.containsRow(row) ? 2 : 0) }
    ) { row, indices in
      fillIndices(row, into: &indices)
    }
  }

  /// Writes row `row` as palette indices (0 background, 1 band, 2 accent).
  private func fillIndices(_ row: Int, into indices: inout [UInt8]) {
    indices.withUnsafeMutableBufferPointer { buffer in
      buffer.update(repeating: 0)
      if band.containsRow(row) {
        for x in clamp(band) { buffer[x] = 1 }
      }
      if rectangle.containsRow(row) {
        for x in clamp(rectangle) { buffer[x] = 2 }
      }
    }
  }

  private func clamp(_ rect: PixelRect) -> Range<Int> {
    let lower = max(0, min(width, rect.x))
    return lower..<max(lower, min(width, rect.x + rect.width))
  }

  private static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}
