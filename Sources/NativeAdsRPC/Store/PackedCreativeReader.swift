import ByteKeys
import JSONRPC
import NativeAds

/// The store loader's fast path for the common shape of a creative: a system-defined native
/// creative with text assets, a star rating, generated images, click targets, Mute This Ad
/// reasons, default AdChoices and targeting, read in one pass over its members and packed by
/// the ``CreativePacker`` (a few hundred bytes per creative).
///
/// It only ever accepts: anything it does not know, or that is not exactly right (an unknown,
/// repeated or `null` member, a wrong type, a value out of bounds, a custom creative, a video,
/// image data, AdChoices of its own, extra assets), makes it answer nil, and the loader reads
/// that item with ``StoreDecoder``, which is the definition of the rules and names what is
/// wrong. What it accepts, it reads as ``StoreDecoder/creative(_:format:)`` would (a test
/// compares both on every shape it knows).
final class PackedCreativeReader {
  let packer = CreativePacker()
  private var input = CreativePacker.Input()
  /// Where strings with escapes are decoded, for the item being read (at most its size).
  private var arena = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
  private var arenaUsed = 0

  deinit { arena.deallocate() }

  /// The creative `item` describes, packed; nil when the ordinary path must read it.
  func read(_ item: JSONRef) -> Creative? {
    guard item.kind == .object else { return nil }
    input.reset()
    arenaUsed = 0
    let size = item.rawBytes.count
    if size > arena.count {
      arena.deallocate()
      arena = .allocate(byteCount: size, alignment: 8)
    }
    var ok = true
    var sawID = false
    var seen: UInt32 = 0
    var sawKind = false
    var sawAssets = false
    var sawHeadline = false
    var sawLanding = false
    /// Marks member `bit` seen; false when it was already (a repeated key).
    func first(_ bit: UInt32) -> Bool {
      if seen & bit != 0 { return false }
      seen |= bit
      return true
    }
    item.forEachMember { key, value in
      guard ok else { return }
      switch key.count {
      case 2 where Self.equal(key, "id"):
        guard first(1 << 0), let id = Self.nonEmptyString(value) else { return ok = false }
        input.id = id
        sawID = true
      case 4 where Self.equal(key, "kind"):
        guard first(1 << 1), value.stringEquals("native") else { return ok = false }
        sawKind = true
      case 4 where Self.equal(key, "eCPM"):
        guard first(1 << 2), let v = Self.number(value, in: Creative.eCPMRange) else {
          return ok = false
        }
        input.eCPM = v
      case 6 where Self.equal(key, "assets"):
        guard first(1 << 3), value.kind == .object else { return ok = false }
        sawAssets = true
        sawHeadline = readAssets(value, ok: &ok)
      case 8 where Self.equal(key, "priority"):
        guard first(1 << 4), let v = value.intValue else { return ok = false }
        input.priority = v
      case 8 where Self.equal(key, "indirect"):
        guard first(1 << 5), let v = value.boolValue else { return ok = false }
        input.isIndirect = v
      case 9 where Self.equal(key, "deepLinks"):
        guard first(1 << 6), strings(value, into: &input.deepLinks) else { return ok = false }
      case 9 where Self.equal(key, "targeting"):
        guard first(1 << 7), let targeting = Self.targeting(value) else { return ok = false }
        input.targeting = targeting
      case 11 where Self.equal(key, "description"):
        // Not read (a note for people): any value.
        guard first(1 << 8) else { return ok = false }
      case 14 where Self.equal(key, "landingPageURL"):
        guard first(1 << 9), let text = text(value), !text.isEmpty else {
          return ok = false
        }
        input.landingPageURL = text
        sawLanding = true
      case 17 where Self.equal(key, "customClickAction"):
        guard first(1 << 10), let v = value.boolValue else { return ok = false }
        input.hasCustomClickAction = v
      case 17 where Self.equal(key, "muteThisAdReasons"):
        guard first(1 << 11), strings(value, into: &input.muteThisAdReasons) else {
          return ok = false
        }
      default:
        // formatID, adChoices, video, unknown members: the ordinary path.
        ok = false
      }
    }
    guard ok, sawID, sawKind, sawAssets, sawHeadline, sawLanding else { return nil }
    if input.isIndirect {
      input.adChoices = (CreativePacker.Text(start: nil, count: 0), StoreDecoder.defaultAdChoices)
    }
    return packer.pack(&input)
  }

  /// Reads the native assets into `input`; whether a headline was there.
  private func readAssets(_ assets: JSONRef, ok: inout Bool) -> Bool {
    var seen: UInt16 = 0
    var headline = false
    var good = true
    func first(_ bit: UInt16) -> Bool {
      if seen & bit != 0 { return false }
      seen |= bit
      return true
    }
    func optionalText(_ value: JSONRef, _ bit: UInt16) -> CreativePacker.Text?? {
      guard first(bit) else { return .none }
      if value.isNull { return .some(nil) }
      guard let text = text(value) else { return .none }
      return .some(text)
    }
    assets.forEachMember { key, value in
      guard good else { return }
      switch key.count {
      case 8 where Self.equal(key, "headline"):
        guard first(1 << 0), let text = text(value) else { return good = false }
        input.headline = text
        headline = true
      case 4 where Self.equal(key, "body"):
        guard let text = optionalText(value, 1 << 1) else { return good = false }
        input.body = text
      case 12 where Self.equal(key, "callToAction"):
        guard let text = optionalText(value, 1 << 2) else { return good = false }
        input.callToAction = text
      case 5 where Self.equal(key, "store"):
        guard let text = optionalText(value, 1 << 3) else { return good = false }
        input.store = text
      case 5 where Self.equal(key, "price"):
        guard let text = optionalText(value, 1 << 4) else { return good = false }
        input.price = text
      case 10 where Self.equal(key, "advertiser"):
        guard let text = optionalText(value, 1 << 5) else { return good = false }
        input.advertiser = text
      case 10 where Self.equal(key, "starRating"):
        guard first(1 << 6), !value.isNull,
          let v = Self.number(value, in: NativeAssets.starRatingRange)
        else { return good = false }
        input.starRating = v
      case 4 where Self.equal(key, "icon"):
        guard first(1 << 7), let image = image(value) else { return good = false }
        input.icon = image
      case 6 where Self.equal(key, "images"):
        guard first(1 << 8), value.kind == .array else { return good = false }
        for element in value.elements {
          guard let image = image(element) else { return good = false }
          input.images.append(image)
        }
      default:
        // extraAssets, unknown members: the ordinary path.
        good = false
      }
    }
    if !good { ok = false }
    return headline
  }

  // MARK: Values

  /// Whether `key` is `literal`: eight bytes at a time, the last load overlapping the one
  /// before it.
  @inline(__always)
  private static func equal(_ key: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
    key.count == literal.utf8CodeUnitCount
      && ByteKeys.equal(UnsafeRawPointer(key.baseAddress!), literal.utf8Start, count: key.count)
  }

  /// A string's UTF-8: its bytes in the document, or, when it has escapes, decoded into the
  /// arena (valid until the next item).
  @inline(__always)
  private func text(_ value: JSONRef) -> CreativePacker.Text? {
    if let bytes = value.unescapedStringBytes { return UnsafeRawBufferPointer(bytes) }
    guard var decoded = value.stringValue else { return nil }
    return decoded.withUTF8 { utf8 in
      // Decoded is never longer than the document's bytes, and all of an item's strings fit
      // in its size.
      let slice = UnsafeMutableRawBufferPointer(
        rebasing: arena[arenaUsed..<arenaUsed + utf8.count])
      slice.copyMemory(from: UnsafeRawBufferPointer(utf8))
      arenaUsed += utf8.count
      return UnsafeRawBufferPointer(slice)
    }
  }

  private static func nonEmptyString(_ value: JSONRef) -> String? {
    if let bytes = value.unescapedStringBytes {
      return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
    guard let s = value.stringValue, !s.isEmpty else { return nil }
    return s
  }

  /// A number within `range` (as ``Params`` reads one: finite, then within).
  private static func number(_ value: JSONRef, in range: ClosedRange<Double>) -> Double? {
    guard value.kind == .number else { return nil }
    guard let v = StoreNumber.double(value.rawBytes) ?? value.doubleValue, v.isFinite,
      range.contains(v)
    else { return nil }
    return v
  }

  private func strings(_ value: JSONRef, into list: inout [CreativePacker.Text]) -> Bool {
    guard value.kind == .array else { return false }
    for element in value.elements {
      guard let text = text(element) else { return false }
      list.append(text)
    }
    return true
  }

  /// An image without data, as ``StoreDecoder/image(_:colorKey:)`` reads one.
  private func image(_ value: JSONRef) -> CreativePacker.Image? {
    guard value.kind == .object else { return nil }
    var url: CreativePacker.Text?
    var width: Int?
    var height: Int?
    var scale: Double?
    var seen: UInt8 = 0
    var good = true
    value.forEachMember { key, v in
      guard good else { return }
      func first(_ bit: UInt8) -> Bool {
        if seen & bit != 0 { return false }
        seen |= bit
        return true
      }
      switch key.count {
      case 3 where Self.equal(key, "url"):
        guard first(1), let text = text(v), !text.isEmpty else { return good = false }
        url = text
      case 5 where Self.equal(key, "width"):
        guard first(2), let n = v.intValue, AdImage.sideRange.contains(n) else {
          return good = false
        }
        width = n
      case 6 where Self.equal(key, "height"):
        guard first(4), let n = v.intValue, AdImage.sideRange.contains(n) else {
          return good = false
        }
        height = n
      case 5 where Self.equal(key, "scale"):
        guard first(8), let n = Self.number(v, in: AdImage.scaleRange) else { return good = false }
        scale = n
      case 8 where Self.equal(key, "mimeType"):
        // Generated bytes are PNG: only that type may be stated.
        guard first(16), v.stringEquals("image/png") else { return good = false }
      default:
        // data, unknown members: the ordinary path.
        good = false
      }
    }
    guard good, let url, let width, let height else { return nil }
    return CreativePacker.Image(url: url, width: width, height: height, scale: scale ?? 1)
  }

  /// Targeting, read by the ordinary decoder, and its JSON as the key it is shared by.
  private static func targeting(_ value: JSONRef) -> (key: CreativePacker.Text, value: Targeting)? {
    guard value.kind == .object else { return nil }
    let params = Params(value)
    do throws(InvalidField) {
      try TargetingShape.shape.check(params)
      let targeting = try StoreDecoder.targeting(params)
      return (UnsafeRawBufferPointer(value.rawBytes), targeting)
    } catch {
      return nil
    }
  }
}
