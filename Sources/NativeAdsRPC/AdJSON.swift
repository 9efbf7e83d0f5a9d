import JSONRPC
import NativeAds

/// Wire encodings of domain values (contract section 4): Image, MediaContent, ResponseInfo.
enum AdJSON {
  /// `{"url","scale","width","height"}` plus `data` (base64) and `mimeType` unless image
  /// loading is disabled.
  static func write(_ image: AdImage?, withData: Bool, into w: inout JSONWriter) {
    guard let image else {
      w.null()
      return
    }
    w.beginObject()
    w.key("url")
    w.string(image.url)
    w.key("scale")
    w.double(image.scale)
    w.key("width")
    w.int(image.width)
    w.key("height")
    w.int(image.height)
    if withData {
      w.key("data")
      w.bytes.append(UInt8(ascii: "\""))
      Base64.encode(image.data, into: &w.bytes)
      w.bytes.append(UInt8(ascii: "\""))
      w.needsComma = true
      w.key("mimeType")
      w.string(image.mimeType)
    }
    w.endObject()
  }

  static func write(
    _ info: AdNetworkInfo?, names: SourceNamesJSON? = nil, into w: inout JSONWriter
  ) {
    guard let info else {
      w.null()
      return
    }
    if let names, !info.hasError {
      names.writeEntryWithoutError(
        info.adNetworkClassName, info.adSourceName, info.latency, into: &w)
      return
    }
    if let names {
      names.writeHead(info.adNetworkClassName, info.adSourceName, into: &w)
    } else {
      writeHead(info.adNetworkClassName, info.adSourceName, into: &w)
    }
    w.microunits(info.latency)  // seconds, to the microsecond
    writeEnd(error: info.error, into: &w)
  }

  /// An entry up to its latency: `{"adNetworkClassName":…,"adSourceName":…,"latency":`.
  static func writeHead(_ className: String, _ sourceName: String, into w: inout JSONWriter) {
    w.beginObject()
    w.key("adNetworkClassName")
    w.string(className)
    w.key("adSourceName")
    w.string(sourceName)
    w.key("latency")
  }

  /// An entry after its latency: `,"error":…}`.
  static func writeEnd(error: AdNetworkError?, into w: inout JSONWriter) {
    w.key("error")
    if let error {
      w.beginObject()
      w.key("code")
      w.int(error.code)
      w.key("domain")
      w.string(error.domain)
      w.key("message")
      w.string(error.message)
      w.endObject()
    } else {
      w.null()
    }
    w.endObject()
  }

  /// `{"responseIdentifier","loadedAdNetworkResponseInfo","adNetworkInfoArray","isTestRequest"?}`.
  /// The loaded source's entry is written once, and copied where the array repeats it (a
  /// load's last source tried is the one that filled). `names`: see ``SourceNamesJSON``.
  static func write(
    _ info: ResponseInfo, names: SourceNamesJSON? = nil, into w: inout JSONWriter
  ) {
    w.verbatim(#"{"responseIdentifier":"#)
    let identifier = info.identifier
    if identifier.needsNoEscape {
      identifier.withUTF8 { w.string(needingNoEscape: $0) }
    } else {
      w.string(identifier.description)
    }
    w.key("loadedAdNetworkResponseInfo")
    var loaded = JSONWriter.WrittenOnce()
    // The entry of a load that filled: its names and latency lent in place.
    let wroteLoaded =
      names.flatMap { names in
        info.withLoadedWithoutError { className, sourceName, latency in
          loaded.write(into: &w) {
            names.writeEntryWithoutError(className, sourceName, latency, into: &$0)
          }
        }
      } != nil
    if !wroteLoaded {
      if let entry = info.loadedAdNetworkResponseInfo {
        loaded.write(into: &w) { write(entry, names: names, into: &$0) }
      } else {
        w.null()
      }
    }
    w.verbatim(#","adNetworkInfoArray":["#)  // (after the loaded entry or null)
    for entry in info.triedBeforeLoaded {
      w.element()
      write(entry, names: names, into: &w)
    }
    if info.loadedIsLastTried {
      w.element()
      loaded.write(into: &w) { _ in }
    }
    w.endArray()
    if let isTestRequest = info.isTestRequest {
      w.key("isTestRequest")
      w.bool(isTestRequest)
    }
    w.endObject()
  }

  /// Loader options as `loadAd` takes them (for `adapter.loadNativeAd`).
  static func writeOptions(_ o: LoaderOptions, into w: inout JSONWriter) {
    w.beginObject()
    w.key("disableImageLoading")
    w.bool(o.disableImageLoading)
    w.key("shouldRequestMultipleImages")
    w.bool(o.shouldRequestMultipleImages)
    w.key("mediaAspectRatio")
    w.string(o.mediaAspectRatio.rawValue)
    w.key("adChoicesPosition")
    w.string(o.adChoicesPosition.rawValue)
    w.key("startMuted")
    w.bool(o.startMuted)
    w.key("customControlsRequested")
    w.bool(o.customControlsRequested)
    w.key("clickToExpandRequested")
    w.bool(o.clickToExpandRequested)
    w.key("numberOfAds")
    w.int(o.numberOfAds)
    w.endObject()
  }

  /// `"videoController":{...},"currentTime":n,"duration":n` (members of an enclosing object).
  static func writeVideoMembers(_ state: VideoControllerState, into w: inout JSONWriter) {
    w.key("videoController")
    writeVideoController(state, into: &w)
    w.key("currentTime")
    w.double(state.currentTime)
    w.key("duration")
    w.double(state.duration)
  }

  /// `{"isMuted","customControlsEnabled","clickToExpandEnabled","playbackState"}`.
  static func writeVideoController(_ state: VideoControllerState, into w: inout JSONWriter) {
    w.beginObject()
    w.key("isMuted")
    w.bool(state.isMuted)
    w.key("customControlsEnabled")
    w.bool(state.customControlsEnabled)
    w.key("clickToExpandEnabled")
    w.bool(state.clickToExpandEnabled)
    w.key("playbackState")
    w.string(state.playbackState.rawValue)
    w.endObject()
  }

  /// RFC 3339 UTC with milliseconds: `2026-11-30T01:48:20.123Z`.
  static func timestampWithMilliseconds(_ seconds: Double) -> String {
    let whole = seconds.rounded(.down)
    let millis = min(999, Int(((seconds - whole) * 1000).rounded(.down)))
    var text = formatRFC3339(whole)
    text.removeLast()  // "Z"
    let digits = String(millis)
    return text + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
  }

  static func encode(_ info: ResponseInfo) -> ByteBuffer {
    // Room for a load's info with a few sources tried: no growth (and copy) on the way.
    var w = JSONWriter(capacity: 512 + 192 * info.adNetworkInfoArray.count)
    write(info, into: &w)
    return w.bytes
  }

  /// `{"<recordedKey>": bool, "reason"?: string}`: an impression's outcome.
  static func write(
    _ outcome: ImpressionOutcome, recordedKey: StaticString, into w: inout JSONWriter
  ) {
    w.beginObject()
    w.key(recordedKey)
    w.bool(outcome.recorded)
    if let reason = outcome.reason {
      w.key("reason")
      w.string(reason.rawValue)
    }
    writeTrackingURLs(outcome.trackingURLs, into: &w)
    w.endObject()
  }

  /// `"trackingURLs": [...]` when the ad has trackers (nothing otherwise).
  static func writeTrackingURLs(_ urls: [String]?, into w: inout JSONWriter) {
    guard let urls else { return }
    w.key("trackingURLs")
    w.beginArray()
    for url in urls {
      w.element()
      w.string(url)
    }
    w.endArray()
  }
}

/// A response info entry's bytes around its latency, `{"adNetworkClassName":…,
/// "adSourceName":…,"latency":` and `,"error":null}`, encoded once for the last source
/// written (by ``AdJSON/writeHead(_:_:into:)`` and ``AdJSON/writeEnd(error:into:)``): a
/// service's loads are nearly all filled by the same one or two sources, whose entries then
/// cost a comparison, the latency and two copies instead of four keys and two escaped
/// strings. Loop-bound (one per service).
final class SourceNamesJSON {
  private var className = ""
  private var sourceName = ""
  private var head = ByteBuffer()
  private let endWithoutError: ByteBuffer = {
    var w = JSONWriter(capacity: 16)
    w.needsComma = true  // after the latency
    AdJSON.writeEnd(error: nil, into: &w)
    return w.bytes
  }()

  /// Writes an entry's start for `className` and `sourceName`, up to its latency.
  func writeHead(_ className: String, _ sourceName: String, into w: inout JSONWriter) {
    if head.isEmpty || className != self.className || sourceName != self.sourceName {
      var names = JSONWriter(capacity: 64 + className.utf8.count + sourceName.utf8.count)
      AdJSON.writeHead(className, sourceName, into: &names)
      (self.className, self.sourceName, head) = (className, sourceName, names.bytes)
    }
    w.bytes.append(contentsOf: head)
    w.needsComma = false  // a key's value follows
  }

  /// Writes an entry without an error: its start, its latency, its end.
  func writeEntryWithoutError(
    _ className: String, _ sourceName: String, _ latency: Double, into w: inout JSONWriter
  ) {
    writeHead(className, sourceName, into: &w)
    w.microunits(latency)  // seconds, to the microsecond
    w.raw(endWithoutError)
  }
}
