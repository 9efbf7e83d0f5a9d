import JSONRPC
import NativeAds

/// Pre-encoded JSON of each creative's assets, per variant of the options that change it
/// (image bytes or not, one image or all, AdChoices corner).
///
/// `loadAd` replies are mostly base64 image data: encoding it once per creative and splicing
/// the bytes into every later reply is what makes `loadAd` cheap. Loop-thread only.
final class CreativeJSONCache {
  private struct Key: Hashable {
    var creativeID: String
    var withImageData: Bool
    var multipleImages: Bool
    var adChoicesPosition: AdChoicesPosition
    /// Video options (only for creatives with video: the initial controller state).
    var video: UInt8
  }

  private var entries: [Key: [UInt8]] = [:]

  /// The members that follow `"kind"` in an Ad object, starting with a comma:
  /// `,"headline":...,"mediaContent":{...},"adChoices":...`.
  func fragment(for ad: NativeAd) -> [UInt8] {
    let options = ad.options
    let key = Key(
      creativeID: ad.creative.id, withImageData: !options.disableImageLoading,
      multipleImages: options.shouldRequestMultipleImages,
      adChoicesPosition: options.adChoicesPosition,
      video: ad.creative.media.hasVideoContent
        ? (options.startMuted ? 1 : 0) | (options.customControlsRequested ? 2 : 0)
          | (options.clickToExpandRequested ? 4 : 0) : 0)
    // A mediated ad's creative is made for that one load: encode it, keep nothing.
    if ad.mediation != nil { return Self.encode(ad) }
    if let cached = entries[key] { return cached }
    let encoded = Self.encode(ad)
    entries[key] = encoded
    return encoded
  }

  /// Forgets every variant of a creative (after the store changes it).
  func invalidate(creativeID: String) {
    entries = entries.filter { $0.key.creativeID != creativeID }
  }

  private static func encode(_ ad: NativeAd) -> [UInt8] {
    let withData = !ad.options.disableImageLoading
    var w = JSONWriter(capacity: 1024)
    w.needsComma = true
    let creative = ad.creative
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
