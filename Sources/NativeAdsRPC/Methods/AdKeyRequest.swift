import JSONRPC

/// Params `{"adId", "key"}`, shared by the asset getters.
struct AdKeyRequest {
  var adId: String
  var key: String

  init(_ params: Params) throws(RPCError) {
    adId = try params.string("adId")
    key = try params.string("key")
  }
}

/// Params `{"adId"}`.
struct AdIDRequest {
  var adId: String

  init(_ params: Params) throws(RPCError) {
    adId = try params.string("adId")
  }
}
