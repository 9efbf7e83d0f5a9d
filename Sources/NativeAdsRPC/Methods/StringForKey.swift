import JSONRPC
import NativeAds

/// `stringForKey {"adId", "key"}`: the text asset, or `null` when the ad has none by that key.
enum StringForKey: ServiceMethod {
  static let name = "stringForKey"
  static var signature: MethodSignature {
    MethodSignature(
      summary: "A text asset of an ad, or null.",
      params: AdKeyRequest.params, result: .nullable(.string()), errors: DocumentedError.adErrors)
  }

  static func decode(_ params: Params) throws(RPCError) -> AdKeyRequest { try AdKeyRequest(params) }

  static func handle(_ request: AdKeyRequest, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let manager = context.service.manager
    w.string(
      try AdObjectError.reported(by: name) { () throws(AdObjectError) in
        try manager.string(forKey: request.key, adId: request.adId)
      })
  }
}
