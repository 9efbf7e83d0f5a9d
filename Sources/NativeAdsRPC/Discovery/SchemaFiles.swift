import JSONRPC
import NativeAds

/// The files of `schemas/`, generated from ``WireSchemas`` and ``OpenRPCDocument``
/// (`native-ads --write-schemas DIR`); a test fails when the checked-in files are stale.
public enum SchemaFiles {
  /// File name → pretty JSON text.
  public static func all(inventory: Inventory) -> [(name: String, text: String)] {
    var files: [(String, String)] = [
      ("openrpc.json", OpenRPCDocument.document(examples: OpenRPCExamples.byMethod).prettyText),
      ("native-ad.schema.json", nativeAd.prettyText),
      ("store.schema.json", store.prettyText),
      ("openrtb-native-1.2-response.schema.json", openRTBResponse.prettyText),
      ("openrtb-native-1.2-request.schema.json", openRTBRequest.prettyText),
    ]
    for format in inventory.formats.values.sorted(by: { $0.id < $1.id }) {
      files.append(("custom-format-\(format.id).schema.json", customFormat(format).prettyText))
    }
    return files
  }

  static let draft = "https://json-schema.org/draft/2020-12/schema"

  /// A standalone schema: `root` with every shared definition under `$defs`.
  static func standalone(id: String, title: String, root: JSONValue) -> JSONValue {
    guard case .object(let members) = Schema.standalone(root) else { return root }
    return .object(
      [
        ("$schema", .string(draft)), ("$id", .string("https://native-ads.test/schemas/" + id)),
        ("title", .string(title)),
      ] + members + [("$defs", Schema.standalone(.object(WireSchemas.all)))])
  }

  /// The system-defined native ad (`loadAd` results of kind `native`).
  static var nativeAd: JSONValue {
    standalone(
      id: "native-ad.schema.json", title: "A system-defined native ad",
      root: .object([("allOf", .array([Schema.ref("NativeAd")]))]))
  }

  /// The store file (`--store FILE`) and the items of the `store.*` methods.
  static var store: JSONValue {
    standalone(
      id: "store.schema.json", title: "native-ads store",
      root: StoreDocumentShape.shape.schema)
  }

  /// A custom format's ad and its assets (`formats.schema`): the ad object, plus
  /// `assets`, the values `stringForKey`/`imageForKey` give for each asset name.
  /// What `loadAd`'s `adResponseString` reads (the Native object, bare; `{"native": ...}` and
  /// bid responses around it are read too) and `exportAd` writes.
  static var openRTBResponse: JSONValue {
    standalone(
      id: "openrtb-native-1.2-response.schema.json",
      title: "OpenRTB Native 1.2 response, as native-ads reads and writes it",
      root: .object([
        (
          "anyOf",
          .array([
            Schema.ref(NativeResponseShape.shape.name ?? ""),
            Schema.object(
              [("native", Schema.ref(NativeResponseShape.shape.name ?? ""))],
              required: ["native"], closed: false,
              description: "The form before Native 1.1: the object as the value of native."),
          ])
        )
      ]))
  }

  /// What the mock bidder and `loadAd`'s `nativeRequest` read.
  static var openRTBRequest: JSONValue {
    standalone(
      id: "openrtb-native-1.2-request.schema.json",
      title: "OpenRTB Native 1.2 request, as native-ads reads it",
      root: .object([("allOf", .array([Schema.ref(NativeRequestShape.shape.name ?? "")]))]))
  }

  public static func customFormat(_ format: CustomFormat) -> JSONValue {
    var properties: [(String, JSONValue)] = []
    for asset in format.assets {
      let value: JSONValue
      switch asset.type {
      case .text: value = Schema.string
      case .image: value = Schema.ref("Image")
      case .video: value = Schema.described(Schema.ref("MediaContent"), "The ad's mediaContent.")
      }
      properties.append((asset.name, asset.required ? value : Schema.nullable(value)))
    }
    let assets = Schema.object(
      properties, required: format.assets.filter(\.required).map(\.name), closed: false)
    return standalone(
      id: "custom-format-\(format.id).schema.json", title: "Custom native format \(format.id)",
      root: .object([
        ("type", .string("object")),
        (
          "properties",
          .object([
            ("ad", Schema.ref("CustomNativeAd")),
            ("assets", assets),
          ])
        ),
        ("required", .array([.string("ad")])),
      ]))
  }

  /// `formats.schema` for `"native"` or a custom format ID.
  static func schema(forFormat id: String, inventory: Inventory) -> JSONValue? {
    if id == "native" { return nativeAd }
    return inventory.format(id).map(customFormat)
  }
}
