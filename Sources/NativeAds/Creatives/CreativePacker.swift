/// Packs the system-defined native creatives of one store load (``PackedNativeCreative``):
/// interns what they share into the load's tables and writes the rest into a few bytes per
/// creative.
///
/// Used by the store loader for the common shape of a native creative; anything it does not
/// pack (video, custom formats, image data, extra assets, images over 65,535 pixels) the loader
/// makes the ordinary way. It applies the inventory's rules for a creative
/// (``Inventory/putCreative(_:)``) as it packs, through the same rule functions, so that a packed
/// creative needs no further check. Not thread-safe: one packer per load, on the loading thread.
public final class CreativePacker {
  /// The UTF-8 of a text (without escapes), valid while ``pack(_:)`` runs.
  public typealias Text = UnsafeRawBufferPointer

  /// An image without data (its PNG is generated from its size, URL and the creative ID).
  public struct Image {
    public var url: Text
    public var width: Int
    public var height: Int
    public var scale: Double

    public init(url: Text, width: Int, height: Int, scale: Double) {
      self.url = url
      self.width = width
      self.height = height
      self.scale = scale
    }
  }

  /// What a native creative says, as the store gives it; ``reset()`` between creatives keeps
  /// the arrays' storage.
  public struct Input {
    public var id = ""
    public var priority = 0
    public var eCPM = 0.0
    public var isIndirect = false
    public var hasCustomClickAction = false
    public var headline = Text(start: nil, count: 0)
    public var body: Text?
    public var callToAction: Text?
    public var store: Text?
    public var price: Text?
    public var advertiser: Text?
    public var landingPageURL = Text(start: nil, count: 0)
    public var starRating: Double?
    public var icon: Image?
    public var images: [Image] = []
    public var deepLinks: [Text] = []
    public var muteThisAdReasons: [Text] = []
    /// The AdChoices and a key naming them: equal keys must mean equal AdChoices.
    public var adChoices: (key: Text, value: AdChoicesInfo)?
    /// Non-empty targeting and a key naming it (e.g. its JSON): equal keys, equal targeting.
    public var targeting: (key: Text, value: Targeting)?

    public init() {}

    public mutating func reset() {
      priority = 0
      eCPM = 0
      isIndirect = false
      hasCustomClickAction = false
      body = nil
      callToAction = nil
      store = nil
      price = nil
      advertiser = nil
      starRating = nil
      icon = nil
      if !images.isEmpty { images.removeAll(keepingCapacity: true) }
      if !deepLinks.isEmpty { deepLinks.removeAll(keepingCapacity: true) }
      if !muteThisAdReasons.isEmpty { muteThisAdReasons.removeAll(keepingCapacity: true) }
      if adChoices != nil { adChoices = nil }
      if targeting != nil { targeting = nil }
    }
  }

  /// Strings interned beyond this many are kept inline instead (a store whose "shared" texts
  /// are all different gains nothing from the table).
  public static let maximumInternedStrings = 1 << 20

  let tables = CreativeTables()
  private let strings = ByteKeyIndex()
  private let images = ByteKeyIndex()
  private let imageLists = ByteKeyIndex()
  private let stringLists = ByteKeyIndex()
  /// Per string list: whether it is a valid Mute This Ad reason list.
  private var validReasonLists: [Bool] = []
  private let adChoices = ByteKeyIndex()
  private let targetings = ByteKeyIndex()
  private var sharedTargetings: [Creative.SharedTargeting] = []
  /// The packed bytes of the creative being packed.
  private var scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
  /// Where interning keys of images and lists are written.
  fileprivate var keyBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
  private var imageIndices: [Int] = []

  public init() {}

  deinit {
    scratch.deallocate()
    keyBuffer.deallocate()
  }

  /// How many creatives the packer made. For measurements.
  public private(set) var packedCount = 0

  /// The bytes their packed details take on the load's pages (not counting what they share).
  /// For measurements.
  public var packedBytes: Int { tables.packedBytes.used }

  /// The packed creative, or nil when `input` breaks a store rule (or cannot be packed): the
  /// caller then reads it the ordinary way, which reports the rule. `input`'s byte texts must
  /// be valid during the call.
  public func pack(_ input: inout Input) -> Creative? {
    guard !input.id.isEmpty, input.eCPM.isFinite, input.eCPM >= 0 else { return nil }
    if let rating = input.starRating, !NativeAssets.starRatingRange.contains(rating) {
      return nil
    }
    if let info = input.adChoices?.value, info.image.problem != nil { return nil }
    // Room for the texts, their lengths and the rest, so that writing checks nothing.
    let textBytes =
      input.headline.count + input.landingPageURL.count + (input.body?.count ?? 0)
      + (input.callToAction?.count ?? 0) + (input.store?.count ?? 0) + (input.price?.count ?? 0)
      + (input.advertiser?.count ?? 0)
    let bound = textBytes + 7 * 10 + 9 + 5 * 10
    if scratch.count < bound { grow(bound) }
    var w = Writer(base: scratch.baseAddress!)
    text(input.headline, interned: false, &w)
    text(input.body, interned: true, &w)
    text(input.callToAction, interned: true, &w)
    text(input.store, interned: true, &w)
    text(input.price, interned: true, &w)
    text(input.advertiser, interned: true, &w)
    text(input.landingPageURL, interned: false, &w)
    if let rating = input.starRating {
      w.byte(1)
      w.base.storeBytes(of: rating.bitPattern.littleEndian, toByteOffset: w.at, as: UInt64.self)
      w.at += 8
    } else {
      w.byte(0)
    }
    if let icon = input.icon {
      guard let index = image(icon) else { return nil }
      w.varint(index + 1)
    } else {
      w.varint(0)
    }
    var firstWidth: UInt16 = 0
    var firstHeight: UInt16 = 0
    if input.images.isEmpty {
      w.varint(0)
    } else {
      guard let list = imageList(input.images) else { return nil }
      firstWidth = UInt16(input.images[0].width)
      firstHeight = UInt16(input.images[0].height)
      w.varint(list + 1)
    }
    w.varint(input.deepLinks.isEmpty ? 0 : stringList(input.deepLinks) + 1)
    if input.muteThisAdReasons.isEmpty {
      w.varint(0)
    } else {
      let list = stringList(input.muteThisAdReasons)
      guard validReasonLists[list] else { return nil }
      w.varint(list + 1)
    }
    if let (key, value) = input.adChoices {
      let (index, added) = adChoices.index(of: key)
      if added { tables.append { $0.adChoices.append(value) } }
      w.varint(index + 1)
    } else {
      w.varint(0)
    }
    let packedBytes = UnsafeRawBufferPointer(start: scratch.baseAddress, count: w.at)
    var targeting: Creative.SharedTargeting?
    if let (key, value) = input.targeting, !value.isEmpty {
      let (index, added) = targetings.index(of: key)
      if added { sharedTargetings.append(Creative.SharedTargeting(value)) }
      targeting = sharedTargetings[index]
    }
    var flags: Creative.Flags = []
    if input.isIndirect { flags.insert(.indirect) }
    if input.hasCustomClickAction { flags.insert(.customClickAction) }
    packedCount += 1
    return Creative(
      box: Creative.Box(
        id: input.id, priority: input.priority, eCPM: input.eCPM, targeting: targeting,
        flags: flags,
        packed: PackedNativeCreative(tables: tables, location: tables.store(packedBytes)),
        firstImageWidth: firstWidth, firstImageHeight: firstHeight))
  }

  // MARK: Writing

  /// Writes packed bytes where room was made for them.
  private struct Writer {
    let base: UnsafeMutableRawPointer
    var at = 0

    @inline(__always)
    mutating func byte(_ value: UInt8) {
      base.storeBytes(of: value, toByteOffset: at, as: UInt8.self)
      at += 1
    }

    @inline(__always)
    mutating func varint(_ value: Int) {
      var v = UInt(value)
      while v >= 0x80 {
        byte(UInt8(truncatingIfNeeded: v) | 0x80)
        v >>= 7
      }
      byte(UInt8(v))
    }

    @inline(__always)
    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
      if bytes.count > 0 {
        (base + at).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
      }
      at += bytes.count
    }
  }

  private func grow(_ count: Int) {
    scratch.deallocate()
    scratch = .allocate(byteCount: max(count, 2 * scratch.count), alignment: 8)
  }

  private func text(_ text: Text?, interned: Bool, _ w: inout Writer) {
    guard let bytes = text else { return w.varint(0) }
    if interned,
      let (index, added) = strings.index(
        of: bytes, adding: strings.count < Self.maximumInternedStrings)
    {
      if added {
        let string = String(decoding: bytes, as: UTF8.self)
        tables.append { $0.strings.append(string) }
      }
      return w.varint(2 * index + 1)
    }
    w.varint(2 * (bytes.count + 1))
    w.bytes(bytes)
  }

  /// The table index of an image, or nil when it cannot be packed (or has no positive size).
  private func image(_ image: Image) -> Int? {
    guard AdImage.problem(width: image.width, height: image.height) == nil,
      image.width <= Int(UInt16.max), image.height <= Int(UInt16.max)
    else { return nil }
    var k = KeyWriter(self, capacity: image.url.count + 24)
    k.bytes(image.url)
    k.word(image.width)
    k.word(image.height)
    k.word(Int(bitPattern: UInt(image.scale.bitPattern)))
    let (index, added) = images.index(of: k.key)
    if added {
      let url = String(decoding: image.url, as: UTF8.self)
      let packed = PackedImage(
        url: url, width: UInt16(image.width), height: UInt16(image.height), scale: image.scale,
        shapeKey: AdImage.generatedShapeKey(url: url))
      tables.append { $0.images.append(packed) }
    }
    return index
  }

  private func imageList(_ list: [Image]) -> Int? {
    imageIndices.removeAll(keepingCapacity: true)
    for image in list {
      guard let index = self.image(image) else { return nil }
      imageIndices.append(index)
    }
    var k = KeyWriter(self, capacity: 8 * imageIndices.count)
    for index in imageIndices { k.word(index) }
    let (index, added) = imageLists.index(of: k.key)
    if added {
      let indices = imageIndices
      tables.append { t in t.imageLists.append(indices.map { t.images[$0] }) }
    }
    return index
  }

  private func stringList(_ list: [Text]) -> Int {
    var capacity = 0
    for bytes in list { capacity += 8 + bytes.count }
    var k = KeyWriter(self, capacity: capacity)
    for bytes in list {
      k.word(bytes.count)
      k.bytes(bytes)
    }
    let (index, added) = stringLists.index(of: k.key)
    if added {
      let strings = list.map { String(decoding: $0, as: UTF8.self) }
      validReasonLists.append(Inventory.muteReasonsProblem(strings) == nil)
      tables.append { $0.stringLists.append(strings) }
    }
    return index
  }

  /// Writes an interning key into the packer's key buffer (room made for `capacity` bytes).
  private struct KeyWriter {
    let base: UnsafeMutableRawPointer
    var count = 0

    init(_ packer: CreativePacker, capacity: Int) {
      if packer.keyBuffer.count < capacity {
        packer.keyBuffer.deallocate()
        packer.keyBuffer = .allocate(
          byteCount: max(capacity, 2 * packer.keyBuffer.count), alignment: 8)
      }
      base = packer.keyBuffer.baseAddress!
    }

    var key: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    mutating func word(_ value: Int) {
      base.storeBytes(
        of: UInt64(bitPattern: Int64(value)).littleEndian, toByteOffset: count, as: UInt64.self)
      count += 8
    }

    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
      if bytes.count > 0 {
        (base + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
      }
      count += bytes.count
    }
  }
}
