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

  static func write(_ info: AdNetworkInfo?, into w: inout JSONWriter) {
    guard let info else {
      w.null()
      return
    }
    w.beginObject()
    w.key("adNetworkClassName")
    w.string(info.adNetworkClassName)
    w.key("adSourceName")
    w.string(info.adSourceName)
    w.key("latency")
    w.double(info.latency)
    w.key("error")
    if let error = info.error {
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

  static func write(_ info: ResponseInfo, into w: inout JSONWriter) {
    w.beginObject()
    w.key("responseIdentifier")
    w.string(info.responseIdentifier)
    w.key("loadedAdNetworkResponseInfo")
    write(info.loadedAdNetworkResponseInfo, into: &w)
    w.key("adNetworkInfoArray")
    w.beginArray()
    for entry in info.adNetworkInfoArray {
      w.element()
      write(entry, into: &w)
    }
    w.endArray()
    w.endObject()
  }

  static func encode(_ info: ResponseInfo) -> [UInt8] {
    var w = JSONWriter(capacity: 256)
    write(info, into: &w)
    return w.bytes
  }
}
