import JSONRPC
import NativeAds

/// The service's OpenRPC 1.3 document: every method with its params, result, errors and
/// recorded examples (`rpc.discover`, and `schemas/openrpc.json`, which is generated from it).
enum OpenRPCDocument {
  static let version = "0.1.0"

  /// The whole document; `examples` are recorded exchanges (by method name).
  static func document(examples: [String: [JSONValue]]) -> JSONValue {
    .object([
      ("openrpc", .string("1.3.2")),
      (
        "info",
        .object([
          ("title", .string("native-ads")),
          (
            "description",
            .string(
              "Google Mobile Ads native ads as a JSON-RPC 2.0 service: loading, assets, clicks, impressions, video, Mute This Ad, the store and mediation. Wire contract version 1; see docs/wire-format.md."
            )
          ),
          ("version", .string(version)),
        ])
      ),
      (
        "methods",
        .array(
          allMethods.map { m in
            let signature = m.signature
            var members: [(String, JSONValue)] = [
              ("name", .string(m.name)), ("summary", .string(signature.summary)),
              ("paramStructure", .string("by-name")),
              (
                "params",
                .array(
                  signature.params.map { param in
                    .object([
                      ("name", .string(param.name)), ("required", .bool(param.required)),
                      ("schema", param.schema),
                    ])
                  })
              ),
            ]
            if let result = signature.result {
              members.append(
                ("result", .object([("name", .string("result")), ("schema", result.schema)])))
            }
            if !signature.errors.isEmpty {
              members.append(
                (
                  "errors",
                  .array(
                    signature.errors.map {
                      .object([("$ref", .string("#/components/errors/" + $0.rawValue))])
                    })
                ))
            }
            if let recorded = examples[m.name], !recorded.isEmpty {
              members.append(("examples", .array(recorded)))
            }
            return .object(members)
          })
      ),
      (
        "components",
        .object([
          ("schemas", .object(WireSchemas.all)),
          (
            "errors",
            .object(
              DocumentedError.allCases.map { error in
                (
                  error.rawValue,
                  .object([("code", .int(error.code)), ("message", .string(error.message))])
                )
              })
          ),
        ])
      ),
    ])
  }
}
