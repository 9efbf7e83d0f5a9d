/// PNG bytes of the built-in inventory's pictures, encoded when the sources were written
/// (`Resources/prebuilt-pngs.bin`, embedded in the binary) so that a fresh process serves its
/// first ads without running the encoder (zlib's deflate: ~1.7 M instructions for a 1200x627
/// image, most of a cold start).
///
/// The file maps each picture (all its fields, see ``key(_:)``) to the bytes ``PNGPicture``'s
/// encoder gives it; a picture not in the file is encoded as before. `make prebuilt-pngs`
/// rewrites the file from the built-in store, and a test fails when it is stale (an entry
/// whose bytes the encoder no longer gives, or a built-in picture missing).
public enum PrebuiltPNGs {
  private static let magic = Array("native-ads prebuilt PNGs 1\n".utf8)

  /// Where each picture's bytes are in the embedded file, in file order. (A list searched
  /// in order, not a dictionary: the file holds a few dozen pictures, and a dictionary keyed
  /// by byte arrays would cost a cold start ~250,000 instructions of run-time type metadata
  /// and conformance lookups before its first lookup.)
  private static let index: [Entry] = parse(PackageResources.prebuilt_pngs_bin)

  /// A picture's key and where its bytes are. (A struct: an array of tuples would need its
  /// element type's metadata built at run time.)
  struct Entry {
    let key: [UInt8]
    let bytes: Range<Int>
  }

  /// The prebuilt bytes of `picture`, or nil when the file does not have them.
  public static func bytes(for picture: PNGPicture) -> [UInt8]? {
    let key = key(picture)
    guard let entry = index.first(where: { $0.key == key }) else { return nil }
    return Array(PackageResources.prebuilt_pngs_bin[entry.bytes])
  }

  /// How many pictures the embedded file holds.
  public static var count: Int { index.count }

  /// The embedded file, as it is.
  public static var embeddedFile: [UInt8] { PackageResources.prebuilt_pngs_bin }

  /// The file for `pictures`: each distinct one with its freshly encoded bytes, in order.
  public static func file(for pictures: [PNGPicture]) -> [UInt8] {
    var out = magic
    var seen: Set<[UInt8]> = []
    for picture in pictures {
      let key = key(picture)
      guard seen.insert(key).inserted else { continue }
      let png = picture.encodedPNG()
      append(UInt32(key.count), to: &out)
      out += key
      append(UInt32(png.count), to: &out)
      out += png
    }
    return out
  }

  /// Every field of the picture, little-endian: two pictures with the same key draw the same
  /// pixels.
  static func key(_ p: PNGPicture) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(64)
    for v in [p.width, p.height] { append(UInt32(truncatingIfNeeded: v), to: &out) }
    for c in [p.background, p.bandColor, p.accent] { out += [c.red, c.green, c.blue] }
    for r in [p.band, p.rectangle] {
      for v in [r.x, r.y, r.width, r.height] { append(UInt32(truncatingIfNeeded: v), to: &out) }
    }
    return out
  }

  private static func append(_ v: UInt32, to out: inout [UInt8]) {
    for shift in stride(from: 0, to: 32, by: 8) {
      out.append(UInt8(truncatingIfNeeded: v >> shift))
    }
  }

  /// The entries of a file; an unreadable file (or a truncated entry) gives no entries from
  /// there on: the pictures are then encoded at run time, as without the file.
  static func parse(_ file: [UInt8]) -> [Entry] {
    guard file.starts(with: magic) else { return [] }
    var index: [Entry] = []
    var i = magic.count
    func u32() -> Int? {
      guard i + 4 <= file.count else { return nil }
      var v = 0
      for k in 0..<4 { v |= Int(file[i + k]) << (8 * k) }
      i += 4
      return v
    }
    while i < file.count {
      guard let keyCount = u32(), i + keyCount <= file.count else { break }
      let key = Array(file[i..<i + keyCount])
      i += keyCount
      guard let dataCount = u32(), i + dataCount <= file.count else { break }
      index.append(Entry(key: key, bytes: i..<i + dataCount))  // `file(for:)` writes a key once
      i += dataCount
    }
    return index
  }
}
