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
    let key = request.key.string
    try context.answer(about: request.adId.string, name, into: &w) { ad, w in
      AdJSON.write(ad.image(forKey: key), withData: !ad.options.disableImageLoading, into: &w)
    }
  }
}
