import Glibc
import NativeAds
import NativeAdsRPC
import PNGImages
import Testing

/// The PNGs embedded at build time are exactly those of the built-in inventory's pictures, as
/// the encoder makes them now. When this fails, run `make prebuilt-pngs` (which runs this test
/// with `UPDATE_PREBUILT_PNGS=1`: it then rewrites the file) and commit the file.
@Suite struct PrebuiltPNGsTests {
  /// Every picture of the built-in store, in creative order.
  static func builtInPictures() -> [PNGPicture] {
    let inventory = StoreLoader.builtInInventory()
    let images = inventory.creatives.values.sorted(by: { $0.id < $1.id }).flatMap(\.allImages)
    return images.compactMap(\.picture)
  }

  private static let sourcePath =
    String(#filePath.dropLast("Tests/NativeAdsRPCTests/PrebuiltPNGsTests.swift".count))
    + "Sources/PNGImages/Resources/prebuilt-pngs.bin"

  @Test func theEmbeddedFileHoldsTheBuiltInPicturesAsTheEncoderMakesThem() throws {
    let expected = PrebuiltPNGs.file(for: Self.builtInPictures())
    if getenv("UPDATE_PREBUILT_PNGS") != nil {
      let file = try #require(fopen(Self.sourcePath, "wb"))
      defer { fclose(file) }
      #expect(fwrite(expected, 1, expected.count, file) == expected.count)
      return
    }
    #expect(
      PrebuiltPNGs.embeddedFile == expected,
      "Sources/PNGImages/Resources/prebuilt-pngs.bin is stale: run make prebuilt-pngs")
    #expect(PrebuiltPNGs.count > 10)
  }

  @Test func aBuiltInPictureIsServedFromTheFileAndOthersAreEncoded() {
    for picture in Self.builtInPictures() {
      #expect(PrebuiltPNGs.bytes(for: picture) == picture.encodedPNG())
      #expect(picture.pngData() == picture.encodedPNG())
    }
    var other = Self.builtInPictures()[0]
    other.width += 1
    #expect(PrebuiltPNGs.bytes(for: other) == nil)
    #expect(other.pngData() == other.encodedPNG())
    #expect(other.pngData().count > 0)
  }
}
