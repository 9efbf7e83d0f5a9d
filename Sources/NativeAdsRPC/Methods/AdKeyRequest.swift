import JSONRPC

/// Params `{"adId", "key"}`, shared by the asset getters.
struct AdKeyRequest {
  static let adIdField = AdIDRequest.adIdField
  static let keyField = Field.string("key")
  static let params = [adIdField.member, keyField.member]

  var adId: String
  var key: String

  init(_ params: Params) throws(RPCError) {
    (adId, key) = try decoding { () throws(InvalidField) in
      (try params(Self.adIdField), try params(Self.keyField))
    }
  }
}

/// Params `{"adId"}`.
struct AdIDRequest {
  static let adIdField = Field.string("adId")
  static let params = [adIdField.member]

  var adId: String

  init(_ params: Params) throws(RPCError) {
    adId = try decoding { () throws(InvalidField) in try params(Self.adIdField) }
  }
}
