import JSONRPC

/// Params `{"adId", "key"}`, shared by the asset getters. Borrowed (``StringParam``): both
/// are only looked up, so the common request makes no `String`; valid during the call only.
struct AdKeyRequest {
  static let adIdField = Field.stringParam("adId")
  static let keyField = Field.stringParam("key")
  static let params = [adIdField.member, keyField.member]

  var adId: StringParam
  var key: StringParam

  init(_ params: Params) throws(RPCError) {
    // Both in one pass over the members, each by its field's rule (``Field/stringParam``).
    (adId, key) = try decoding { () throws(InvalidField) in
      try params.stringParams(Self.adIdField.name, Self.keyField.name)
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
