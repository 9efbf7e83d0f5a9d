import PNGTestSupport
import Testing

@testable import PNGImages

@Suite struct PNGEncoderTests {
  /// The colour `picture` shows at (`column`, `row`), worked out here from its description
  /// (the rectangle over the band over the background), apart from the encoder's drawing.
  static func expectedColor(_ picture: PNGPicture, column: Int, row: Int) -> [UInt8] {
    func inside(_ rect: PixelRect) -> Bool {
      (rect.x..<rect.x + rect.width).contains(column)
        && (rect.y..<rect.y + rect.height).contains(row)
    }
    let color =
      inside(picture.rectangle)
      ? picture.accent : inside(picture.band) ? picture.bandColor : picture.background
    return [color.red, color.green, color.blue]
  }

  @Test func aLargeFlatPictureCompressesToAboutAKilobyte() throws {
    let picture = PNGPicture.placeholder(
      width: 1200, height: 627, colorKey: "native-app-install-1", shapeKey: "image1")
    let png = picture.pngData()
    // 2 bits a pixel (188 KB before compression), then runs of one colour and repeated rows.
    #expect(png.count < 1_500)
    let decoded = try DecodedPNG(png)
    #expect(decoded.decompressedSize == 627 * (1 + decoded.bytesPerRow))
  }

  @Test func decodedPixelsAreThePicture() throws {
    let picture = PNGPicture.placeholder(width: 97, height: 61, colorKey: "k", shapeKey: "s")
    let decoded = try DecodedPNG(picture.pngData())
    #expect((decoded.width, decoded.height) == (97, 61))
    #expect(decoded.chunkTypes == ["IHDR", "PLTE", "IDAT", "IEND"])
    for row in 0..<61 {
      for column in 0..<97 {
        #expect(
          decoded.color(column: column, row: row)
            == Self.expectedColor(picture, column: column, row: row))
      }
    }
  }

  @Test func rowsEqualToTheRowAboveAreFilteredUpAndOthersAreNot() throws {
    let picture = PNGPicture.placeholder(width: 40, height: 30, colorKey: "k", shapeKey: "s")
    let decoded = try DecodedPNG(picture.pngData())
    for row in 0..<30 {
      let same =
        row > 0
        && (0..<40).allSatisfy {
          Self.expectedColor(picture, column: $0, row: row)
            == Self.expectedColor(picture, column: $0, row: row - 1)
        }
      #expect(decoded.filters[row] == (same ? 2 : 0), "row \(row)")
    }
    #expect(decoded.filters.filter { $0 == 2 }.count > 20)
  }

  @Test func aPictureShowsItsBackgroundBandAndRectangle() throws {
    let picture = PNGPicture.placeholder(width: 120, height: 60, colorKey: "c", shapeKey: "s")
    #expect(picture.background != picture.accent)
    #expect(picture.bandColor != picture.background)
    #expect(abs(picture.background.luminance - picture.accent.luminance) > 60)
    let decoded = try DecodedPNG(picture.pngData())
    var seen: Set<[UInt8]> = []
    for row in 0..<60 {
      for column in 0..<120 { seen.insert(decoded.color(column: column, row: row)) }
    }
    #expect(seen.count == 3)
  }

  /// Sizes whose rows end mid-byte, one row, one column, rows longer than a batch of input,
  /// and more rows than one batch holds.
  static let arbitrarySizes = [(17, 9), (1, 1), (5, 1), (1, 300), (70_000, 3), (333, 200)]

  @Test(arguments: arbitrarySizes)
  func anArbitraryFourColourImageRoundTrips(width: Int, height: Int) throws {
    let palette = [
      RGBColor(red: 1, green: 2, blue: 3), RGBColor(red: 200, green: 100, blue: 50),
      RGBColor(red: 0, green: 255, blue: 0), RGBColor(red: 9, green: 9, blue: 9),
    ]
    // Every third row repeats the one above (found by comparing, no row key).
    func index(_ x: Int, _ y: Int) -> UInt8 {
      let y = y % 3 == 2 ? y - 1 : y
      return UInt8((x * 7 + y * 13 + x / 5) % 4)
    }
    let png = PNGEncoder.encodeIndexed(width: width, height: height, palette: palette) {
      y, indices in
      for x in 0..<indices.count { indices[x] = index(x, y) }
    }
    let decoded = try DecodedPNG(png)
    #expect((decoded.width, decoded.height) == (width, height))
    var mismatches = 0
    for y in 0..<height {
      for x in 0..<width {
        let color = palette[Int(index(x, y))]
        if decoded.color(column: x, row: y) != [color.red, color.green, color.blue] {
          mismatches += 1
        }
      }
    }
    #expect(mismatches == 0)
    #expect(
      decoded.filters.enumerated().allSatisfy { y, filter in
        filter == (y % 3 == 2 ? 2 : 0)
      })
  }

  @Test func encodingIsDeterministic() {
    let picture = PNGPicture.placeholder(width: 300, height: 200, colorKey: "a", shapeKey: "b")
    #expect(picture.pngData() == picture.pngData())
  }

  @Test func differentImagesOfACreativeShareTheBackgroundButDiffer() {
    let first = PNGPicture.placeholder(width: 100, height: 100, colorKey: "c1", shapeKey: "image1")
    let second = PNGPicture.placeholder(width: 100, height: 100, colorKey: "c1", shapeKey: "image2")
    let other = PNGPicture.placeholder(width: 100, height: 100, colorKey: "c2", shapeKey: "image1")
    #expect(first.background == second.background)
    #expect(first.rectangle != second.rectangle)
    #expect(first.background != other.background)
  }

  @Test func onePixelPicturesEncode() throws {
    let picture = PNGPicture.placeholder(width: 1, height: 1, colorKey: "a", shapeKey: "b")
    let decoded = try DecodedPNG(picture.pngData())
    #expect((decoded.width, decoded.height) == (1, 1))
  }
}
