import JSONRPC
import NativeAds

/// `exportAd {"adId", "format": "openrtb-native-1.2"}`: a loaded system-defined native ad
/// (from the inventory, an adapter or a response string) as an OpenRTB Native 1.2 response
/// object, which `loadAd`'s `adResponseString` loads back with the same assets (contract
/// section 10, docs/openrtb.md). Custom native ads: 2003 (OpenRTB Native has no named assets).
enum ExportAd: ServiceMethod {
  static let name = "exportAd"

  /// The formats an ad is exported in.
  enum Format: String, CaseIterable, Sendable {
    case openRTBNative12 = "openrtb-native-1.2"
  }

  struct Request {
    var adId: String
    var format: Format
  }

  static let adId = Field.string("adId")
  static let format = Field<Format>.enumeration("format")

  static var signature: MethodSignature {
    MethodSignature(
      summary: "A loaded native ad as an OpenRTB Native 1.2 response object.",
      params: [adId.member, format.member], result: .component("OpenRTBNativeResponse"),
      errors: DocumentedError.adErrors + [.wrongAdKind])
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    try decoding { () throws(InvalidField) in
      Request(adId: try params(adId), format: try params(format))
    }
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let manager = context.service.manager
    let adId = request.adId
    try context.answer(
      name, into: &w,
      { done in
        manager.withAd(adId) { found in
          done(
            found.flatMap { ad in
              ad.kind == .native
                ? .success(ad) : .failure(.wrongAdKind(adId: adId, applies: .native))
            })
        }
      },
      write: { ad, w in
        w.value(
          OpenRTBEncoder.response(
            ad.creative, multipleImages: ad.options.shouldRequestMultipleImages))
      })
  }
}
