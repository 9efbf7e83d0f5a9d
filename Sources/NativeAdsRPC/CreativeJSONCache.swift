import ByteKeys
import Glibc
import JSONRPC
import NativeAds

/// Pre-encoded JSON of each creative's assets, per variant of the options that change it
/// (image bytes or not, one image or all, AdChoices corner).
///
/// `loadAd` replies are mostly base64 image data: encoding it once per creative and splicing
/// the bytes into every later reply is what makes `loadAd` cheap. Loop-thread only.
final class CreativeJSONCache {
  /// The variant of the loader options a fragment was encoded for.
  fileprivate struct Variant: Equatable {
    var withImageData: Bool
    var multipleImages: Bool
    var adChoicesPosition: AdChoicesPosition
    /// Video options (only for creatives with video: the initial controller state).
    var video: UInt8

    init(_ ad: NativeAd) {
      let options = ad.options
      withImageData = !options.disableImageLoading
      multipleImages = options.shouldRequestMultipleImages
      adChoicesPosition = options.adChoicesPosition
      video =
        ad.creative.hasVideoContent
        ? (options.startMuted ? 1 : 0) | (options.customControlsRequested ? 2 : 0)
          | (options.clickToExpandRequested ? 4 : 0) : 0
    }
  }

  /// Everything encoded for one creative, by creative ID.
  private var entries: [ByteKeys.Key: EncodedCreative] = [:]
  /// The entries of the last few creatives served, by the creative's identity
  /// (``Creative/isIdentical(to:)``; a creative held here keeps its storage, so no other can
  /// take its identity): loads that serve the same creatives again, as an app's do, skip
  /// hashing the ID. Most recent first.
  private var recent: [(creative: Creative, encoded: EncodedCreative)] = []
  private static let recentLimit = 4

  /// The encodings of `ad`'s creative, kept with the ad (``NativeAd/presentation``): a load
  /// reply puts them there (``fragment(for:)``), so later requests about the ad find them
  /// without a lookup. An ad that has none yet gets its own.
  @inline(__always)
  func encoded(_ ad: NativeAd) -> EncodedCreative {
    if let kept = ad.presentation { return unsafeDowncast(kept, to: EncodedCreative.self) }
    let own = EncodedCreative()
    ad.presentation = own
    return own
  }

  /// The members that follow `"adId"` in an Ad object, starting with a comma:
  /// `,"kind":...,"headline":...,"mediaContent":{...},"adChoices":...`. For the reply of the
  /// load that made `ad`, when its creative is the inventory's current one under its ID: the
  /// encodings are shared by every ad of that creative until the store changes it.
  func fragment(for ad: NativeAd, inventory: Inventory) -> ByteBuffer {
    let encoded: EncodedCreative
    if ad.mediation != nil
      || ad.creative.hasTracking
        && inventory.creative(ad.creative.id)?.isIdentical(to: ad.creative) != true
    {
      // A mediated ad's creative, or one an ad response string gave, is made for that one
      // load: kept with the ad only.
      encoded = self.encoded(ad)
    } else if let i = recent.firstIndex(where: { $0.creative.isIdentical(to: ad.creative) }) {
      encoded = recent[i].encoded
      if i > 0 { recent.swapAt(i, i - 1) }
    } else {
      let key = ByteKeys.Key(ad.creative.id)
      if let cached = entries[key] {
        encoded = cached
      } else {
        encoded = EncodedCreative()
        entries[key] = encoded
      }
      if recent.count == Self.recentLimit { recent.removeLast() }
      recent.insert((ad.creative, encoded), at: 0)
    }
    ad.presentation = encoded
    return encoded.fragment(for: ad)
  }

  /// Forgets every encoding of a creative (after the store changes it). Ads loaded before
  /// keep theirs: they show the creative as it was when they were loaded.
  func invalidate(creativeID: String) {
    recent.removeAll { $0.creative.id == creativeID }
    entries.removeValue(forKey: ByteKeys.Key(creativeID))
  }

  fileprivate static func encode(_ ad: NativeAd) -> ByteBuffer {
    let withData = !ad.options.disableImageLoading
    var w = JSONWriter(capacity: 1024)
    w.needsComma = true
    let creative = ad.creative
    w.key("kind")
    w.string(creative.kind.rawValue)
    switch creative.content {
    case .native(let assets):
      w.key("headline")
      w.string(assets.headline)
      w.key("body")
      w.string(assets.body)
      w.key("callToAction")
      w.string(assets.callToAction)
      w.key("store")
      w.string(assets.store)
      w.key("price")
      w.string(assets.price)
      w.key("advertiser")
      w.string(assets.advertiser)
      w.key("starRating")
      if let rating = assets.starRating { w.double(rating) } else { w.null() }
      w.key("icon")
      AdJSON.write(assets.icon, withData: withData, into: &w)
      w.key("images")
      w.beginArray()
      for image in ad.images {
        w.element()
        AdJSON.write(image, withData: withData, into: &w)
      }
      w.endArray()
      w.key("extraAssets")
      w.beginObject()
      for (k, v) in assets.extraAssets {
        w.key(escaping: k)
        w.string(v)
      }
      w.endObject()
    case .custom(let formatID, _):
      w.key("formatID")
      w.string(formatID)
      w.key("availableAssetKeys")
      w.beginArray()
      for name in ad.availableAssetKeys {
        w.element()
        w.string(name)
      }
      w.endArray()
    }
    let media = creative.media
    w.key("mediaContent")
    w.beginObject()
    w.key("aspectRatio")
    w.double(media.aspectRatio)
    w.key("hasVideoContent")
    w.bool(media.hasVideoContent)
    w.key("duration")
    w.double(media.duration)
    w.key("currentTime")
    w.int(0)
    w.key("mainImage")
    AdJSON.write(withData ? media.mainImage : nil, withData: withData, into: &w)
    if media.hasVideoContent {
      let options = ad.options
      w.key("videoController")
      AdJSON.writeVideoController(
        VideoControllerState(
          isMuted: options.startMuted,
          customControlsEnabled: options.customControlsRequested && media.customControlsAllowed,
          clickToExpandEnabled: options.clickToExpandRequested && media.clickToExpandAllowed,
          duration: media.duration),
        into: &w)
    }
    w.endObject()
    w.key("adChoices")
    if let choices = creative.adChoices {
      w.beginObject()
      w.key("position")
      w.string(ad.options.adChoicesPosition.rawValue)
      w.key("image")
      AdJSON.write(choices.image, withData: withData, into: &w)
      w.key("clickURL")
      w.string(choices.clickURL)
      if creative.isIndirect {
        // The ad attribution is for indirect ads; a direct-sold ad shows only the icon.
        w.key("attribution")
        w.string(choices.attribution)
      }
      w.endObject()
    } else {
      w.null()
    }
    if !creative.muteThisAdReasons.isEmpty {
      w.key("muteThisAdReasons")
      w.beginArray()
      for reason in creative.muteThisAdReasons {
        w.element()
        w.string(reason)
      }
      w.endArray()
    }
    return w.bytes
  }
}

/// The pre-encoded JSON of one creative: its `loadAd` fragment per option variant, and its
/// text assets as JSON strings (what `stringForKey` answers), made on first use.
final class EncodedCreative {
  private var fragments: [(variant: CreativeJSONCache.Variant, bytes: ByteBuffer)] = []
  private var texts: EncodedTexts?
  /// The options of the last fragment asked for, and that fragment: an app loads with the
  /// same options every time, and equal options are the same variant, found with one
  /// comparison (no variant worked out from the creative, no list searched).
  private var lastOptions: LoaderOptions?
  private var lastFragment = ByteBuffer()

  func fragment(for ad: NativeAd) -> ByteBuffer {
    let options = ad.options
    if options == lastOptions { return lastFragment }
    let variant = CreativeJSONCache.Variant(ad)
    let bytes: ByteBuffer
    if let i = fragments.firstIndex(where: { $0.variant == variant }) {
      bytes = fragments[i].bytes
    } else {
      bytes = CreativeJSONCache.encode(ad)
      fragments.append((variant, bytes))
    }
    (lastOptions, lastFragment) = (options, bytes)
    return bytes
  }

  /// Writes the text asset `key` of `ad` (this creative) as a JSON string, or `null`: the
  /// value of ``NativeAd/string(forKey:)``, encoded once.
  func writeText(forKey key: UnsafeBufferPointer<UInt8>, of ad: NativeAd, into w: inout JSONWriter)
  {
    if texts == nil { texts = EncodedTexts(ad) }
    texts!.write(key, into: &w)
  }
}

/// A creative's text assets, keys and encoded values in one buffer.
///
/// Made from the domain's own answers: every key the ad has (``NativeAd/availableAssetKeys``,
/// which names every key with a text) asked of ``NativeAd/string(forKey:)``; a key not listed
/// has no text, so `null`.
private struct EncodedTexts {
  private var buffer = ByteBuffer()
  /// Per asset: where its key and its encoded value are in `buffer`.
  private var entries: [(keyStart: Int32, keyEnd: Int32, valueEnd: Int32)] = []

  init(_ ad: NativeAd) {
    var w = JSONWriter(capacity: 256)
    for key in ad.availableAssetKeys {
      guard let text = ad.string(forKey: key) else { continue }
      let keyStart = Int32(w.bytes.count)
      w.bytes.append(contentsOf: key.utf8)
      let keyEnd = Int32(w.bytes.count)
      w.string(text)
      entries.append((keyStart, keyEnd, Int32(w.bytes.count)))
    }
    buffer = w.bytes
  }

  /// Writes the value of `key`, or `null`. (Mutating though it changes nothing: the caller's
  /// `texts!.write` then reads the stored value in place instead of copying it, which would
  /// count a reference to the buffer and to the entries on every request.)
  mutating func write(_ key: UnsafeBufferPointer<UInt8>, into w: inout JSONWriter) {
    buffer.withUnsafeBytes { raw in
      let all = raw.bindMemory(to: UInt8.self)
      for entry in entries where Int(entry.keyEnd - entry.keyStart) == key.count {
        let keyStart = Int(entry.keyStart)
        if key.count == 0
          || ByteKeys.equal(all.baseAddress! + keyStart, key.baseAddress!, count: key.count)
        {
          w.raw(UnsafeBufferPointer(rebasing: all[Int(entry.keyEnd)..<Int(entry.valueEnd)]))
          return
        }
      }
      w.null()
    }
  }
}
