import JSONRPC
import NativeAds

/// `rpc.discover`: the service's OpenRPC document (built once, then spliced).
enum RPCDiscover: ServiceMethod {
  static let name = "rpc.discover"
  static var signature: MethodSignature {
    MethodSignature(
      summary: "This OpenRPC document.", params: [],
      result: .described(.anyObject, "An OpenRPC 1.3 document."), errors: [])
  }

  static func decode(_ params: Params) throws(RPCError) {}

  static func handle(_: Void, context: MethodContext, result w: inout JSONWriter) throws(RPCError) {
    w.raw(context.service.openRPCBytes)
  }
}

/// `formats.schema {"formatID"}`: the JSON Schema of `"native"` ads or of a custom format,
/// generated from its definition.
enum FormatsSchema: ServiceMethod {
  static let name = "formats.schema"
  static let formatID = Field.string("formatID", nonEmpty: true)
  static var signature: MethodSignature {
    MethodSignature(
      summary: "The JSON Schema of an ad format: \"native\" or a custom format ID.",
      params: [formatID.member], result: .anyObject)
  }

  static func decode(_ params: Params) throws(RPCError) -> String {
    try decoding { () throws(InvalidField) in try params(formatID) }
  }

  static func handle(_ id: String, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    guard
      let schema = SchemaFiles.schema(forFormat: id, inventory: context.service.manager.inventory)
    else {
      throw .invalidParams(field: "formatID", "names no format (\"native\" or a custom format ID)")
    }
    w.value(schema)
  }
}
