import JSONRPC
import NativeAds

/// `loadAd`: the ad loader. Params by name (contract section 4); result
/// `{"ads": [Ad...], "responseInfo": ResponseInfo}`; failures are `1000 + GADErrorCode`.
enum LoadAd: ServiceMethod {
  static let name = "loadAd"

  static func decode(_ params: Params) throws(RPCError) -> AdRequest {
    var request = AdRequest(adUnitID: try params.string("adUnitID"))
    if let types = try params.optionalStringArray("adTypes") {
      var kinds: [AdKind] = []
      for (i, t) in types.enumerated() {
        guard let kind = AdKind(rawValue: t) else {
          throw .invalidParams(
            field: "adTypes[\(i)]", "must be one of \"native\", \"customNative\"")
        }
        kinds.append(kind)
      }
      request.adTypes = kinds
    }
    request.customNativeAdFormatIDs =
      try params.optionalStringArray("customNativeAdFormatIDs") ?? []
    if let o = try params.optionalObject("options") {
      var options = LoaderOptions()
      if let v = try o.optionalBool("disableImageLoading") { options.disableImageLoading = v }
      if let v = try o.optionalBool("shouldRequestMultipleImages") {
        options.shouldRequestMultipleImages = v
      }
      if let v = try o.optionalEnum("mediaAspectRatio", MediaAspectRatio.self) {
        options.mediaAspectRatio = v
      }
      if let v = try o.optionalEnum("adChoicesPosition", AdChoicesPosition.self) {
        options.adChoicesPosition = v
      }
      if let v = try o.optionalBool("startMuted") { options.startMuted = v }
      if let v = try o.optionalBool("customControlsRequested") {
        options.customControlsRequested = v
      }
      if let v = try o.optionalBool("clickToExpandRequested") { options.clickToExpandRequested = v }
      if let v = try o.optionalInt("numberOfAds") { options.numberOfAds = v }
      request.options = options
    }
    if let r = try params.optionalObject("request") {
      request.isTestRequest = try r.optionalBool("isTestRequest")
      request.keywords = try r.optionalStringArray("keywords") ?? []
      request.contentURL = try r.optionalString("contentURL")
      if let seed = try r.optionalInt("seed") {
        guard seed >= 0 else { throw .invalidParams(field: "request.seed", "must be at least 0") }
        request.seed = UInt64(seed)
      }
      if let targeting = try r.optionalObject("customTargeting"), let object = targeting.object {
        for (key, value) in object.members {
          if let s = value.stringValue {
            request.customTargeting[key] = [s]
          } else if value.kind == .array, value.elements.allSatisfy({ $0.kind == .string }) {
            request.customTargeting[key] = value.elements.map { $0.stringValue ?? "" }
          } else {
            throw .invalidParams(
              field: "request.customTargeting.\(key)", "must be a string or an array of strings")
          }
        }
      }
    }
    return request
  }

  static func handle(_ request: AdRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    // Units without a waterfall answer at once; a waterfall may wait on adapters and timers,
    // and then the reply is deferred (the loop keeps serving everyone meanwhile).
    let service = context.service
    try context.answer(
      into: &w, error: { (error: AdLoadError) in error.rpcError },
      { service.manager.load(request, owner: context.session.id, completion: $0) },
      write: { loaded, w in write(loaded, service: service, into: &w) })
  }

  /// `{"ads": [Ad...], "responseInfo": ResponseInfo}`.
  static func write(
    _ loaded: (ads: [NativeAd], responseInfo: ResponseInfo), service: NativeAdsService,
    into w: inout JSONWriter
  ) {
    let responseInfo = AdJSON.encode(loaded.responseInfo)
    w.beginObject()
    w.key("ads")
    w.beginArray()
    for ad in loaded.ads {
      w.element()
      w.beginObject()
      w.key("adId")
      w.string(ad.id)
      w.key("kind")
      w.string(ad.kind.rawValue)
      w.raw(service.creativeJSON.fragment(for: ad))
      w.key("responseInfo")
      w.raw(responseInfo)
      w.key("expiresAt")
      w.string(service.timestamp(ad.expiresAt))
      w.endObject()
    }
    w.endArray()
    w.key("responseInfo")
    w.raw(responseInfo)
    w.endObject()
  }
}
