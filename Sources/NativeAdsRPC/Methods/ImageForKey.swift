import JSONRPC
import NativeAds

/// `imageForKey {"adId", "key"}`: an Image or `null`; no `data` when the ad was loaded with
/// `disableImageLoading`.
enum ImageForKey: ServiceMethod {
  static let name = "imageForKey"
  static var signature: MethodSignature {
    MethodSignature(
      summary: "An image asset of an ad (icon, image, _adChoices...), or null.",
      params: AdKeyRequest.params, result: .nullable(.component("Image")),
      errors: DocumentedError.adErrors)
  }

  static func decode(_ params: Params) throws(RPCError) -> AdKeyRequest { try AdKeyRequest(params) }

  static func handle(_ request: AdKeyRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let manager = context.service.manager
    let ad = try AdObjectError.reported(by: name) { () throws(AdObjectError) in
      try request.adId.withUTF8 { (id) throws(AdObjectError) in try manager.ad(utf8: id) }
    }
    AdJSON.write(
      ad.image(forKey: request.key.string), withData: !ad.options.disableImageLoading, into: &w)
  }
}
