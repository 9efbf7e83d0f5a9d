import JSONRPC

/// Recorded exchanges (`Resources/openrpc-examples.json`, made by
/// `tools/record-openrpc-examples.py` against a `--seed 1` server and replayed by a test),
/// as OpenRPC example pairings by method.
enum OpenRPCExamples {
  static var byMethod: [String: [JSONValue]] {
    guard
      let root = try? PackageResources.openrpc_examples_json.withUnsafeBytes({
        try JSONParser(maxDepth: 64).parseValue($0)
      }), case .array(let exchanges)? = root["exchanges"]
    else { return [:] }
    var out: [String: [JSONValue]] = [:]
    for exchange in exchanges {
      guard case .string(let method)? = exchange["method"],
        case .string(let name)? = exchange["name"], let result = exchange["result"]
      else { continue }
      var params: [JSONValue] = []
      if case .object(let members)? = exchange["params"] {
        params = members.map { .object([("name", .string($0.0)), ("value", $0.1)]) }
      }
      out[method, default: []].append(
        .object([
          ("name", .string(name)), ("params", .array(params)),
          ("result", .object([("name", .string("result")), ("value", result)])),
        ]))
    }
    return out
  }
}
