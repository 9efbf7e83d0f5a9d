import Testing

@testable import NativeAds

@Suite struct PNGEncoderTests {
  @Test func crc32MatchesTheStandardCheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([UInt8]()) == 0)
  }

  @Test func adler32MatchesKnownValues() {
    #expect(Adler32.checksum(Array("Wikipedia".utf8)) == 0x11E6_0398)
    #expect(Adler32.checksum([]) == 1)
    let large = [UInt8](repeating: 255, count: 100_000)
    #expect(Adler32.checksum(large) == TestInflater.adler32(large))
  }

  static func deflateSamples() -> [[UInt8]] {
    let text: [UInt8] = Array("abcabcabcabcabc hello hello hello".utf8)
    let zeros = [UInt8](repeating: 0, count: 1000)
    let noisy: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
    let steps: [UInt8] = (0..<3000).map { UInt8(($0 / 13) % 3) }
    return [[], [7], text, zeros, noisy, steps]
  }

  @Test(arguments: deflateSamples())
  func deflateOutputInflatesBackToItsInput(input: [UInt8]) throws {
    for period in [0, 3, 10, 500] {
      let compressed = DeflateEncoder.compress(input, period: period)
      #expect(try TestInflater.inflate(compressed) == input)
    }
  }

  @Test func aLargeFlatPictureCompressesToAFewKilobytes() throws {
    let picture = PNGPicture.placeholder(
      width: 1200, height: 627, colorKey: "native-app-install-1", shapeKey: "image1")
    let png = picture.pngData()
    // 2 bits a pixel (188 KB before compression), then runs of one colour.
    #expect(png.count < 4_000)
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
        let color = picture.color(column: column, row: row)
        #expect(decoded.color(column: column, row: row) == [color.red, color.green, color.blue])
      }
    }
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

  @Test func anArbitraryImageRoundTrips() throws {
    let width = 17
    let height = 9
    let png = PNGEncoder.encodeRGB(width: width, height: height) { y, pixels in
      for index in 0..<pixels.count {
        pixels[index] = UInt8(truncatingIfNeeded: index * 7 + y * 13)
      }
    }
    let decoded = try DecodedPNG(png)
    for y in 0..<height {
      for x in 0..<width {
        let expected = (0..<3).map { UInt8(truncatingIfNeeded: (x * 3 + $0) * 7 + y * 13) }
        #expect(decoded.color(column: x, row: y) == expected)
      }
    }
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
