import JSONRPC
import NativeAds

/// `rpc.discover`: the service's OpenRPC document (built once, then spliced).
enum RPCDiscover: ServiceMethod {
  static let name = "rpc.discover"

  static func decode(_ params: Params) throws(RPCError) {}

  static func handle(_: Void, context: MethodContext, result w: inout JSONWriter) throws(RPCError) {
    w.raw(context.service.openRPCBytes)
  }
}

/// `formats.schema {"formatID"}`: the JSON Schema of `"native"` ads or of a custom format,
/// generated from its definition.
enum FormatsSchema: ServiceMethod {
  static let name = "formats.schema"

  static func decode(_ params: Params) throws(RPCError) -> String {
    try params.nonEmptyString("formatID")
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
