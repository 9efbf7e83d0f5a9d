import JSONRPC
import NativeAds

/// Loads store documents (`--store FILE`, and the built-in inventory, which is itself a store
/// file embedded at build time) into an ``Inventory``, item by item, with the same rules as
/// the `store.*` methods.
public enum StoreLoader {
  /// The built-in inventory (`Sources/NativeAdsRPC/Resources/builtin-store.json`).
  public static func builtInInventory() -> Inventory {
    let inventory = Inventory()
    do {
      try PackageResources.builtin_store_json.withUnsafeBytes { bytes in
        try load(bytes, into: inventory)
      }
    } catch {
      // The file is part of the build and a test loads it: reaching here is a build defect.
      fatalError("the built-in store is invalid: \(error)")
    }
    return inventory
  }

  /// Adds every format, creative and ad unit of the document to `inventory`, in that order.
  public static func load(_ bytes: UnsafeRawBufferPointer, into inventory: Inventory)
    throws(StoreLoadError)
  {
    let parser = JSONParser(maxDepth: 64)
    do {
      try parser.parse(bytes) { root throws in
        guard root.kind == .object else {
          throw StoreLoadError(path: "", problem: "a store file must be a JSON object")
        }
        try loadDocument(Params(root), into: inventory)
      }
    } catch let error as StoreLoadError {
      throw error
    } catch let error as JSONParseError {
      throw StoreLoadError(path: "", problem: "not valid JSON: \(error)")
    } catch {
      throw StoreLoadError(path: "", problem: "\(error)")
    }
  }

  private static func loadDocument(_ document: Params, into inventory: Inventory)
    throws(StoreLoadError)
  {
    typealias F = StoreDocumentShape
    do throws(InvalidField) {
      try F.shape.check(document)
      // Within one file an ID may appear once per kind (over RPC, putting again replaces).
      var seen: [String: String] = [:]
      func once(_ kind: InventoryItemKind, _ id: String, _ item: Params) throws(InvalidField) {
        let key = kind.rawValue + "\u{0}" + id
        let place = String(item.pathPrefix.dropLast())
        if let first = seen[key] {
          throw InvalidField(item.path("id"), "duplicates the ID of \(first)")
        }
        seen[key] = place
      }
      func apply(_ item: Params, _ change: () throws(InventoryError) -> Void)
        throws(InvalidField)
      {
        do {
          try change()
        } catch {
          throw error.invalidField(under: String(item.pathPrefix.dropLast()))
        }
      }
      for format in try document(F.formats) ?? [] {
        let value = try StoreDecoder.format(format)
        try once(.format, value.id, format)
        try apply(format) { () throws(InventoryError) in _ = try inventory.defineFormat(value) }
      }
      for creative in try document(F.creatives) ?? [] {
        let value = try StoreDecoder.creative(creative) { inventory.format($0) }
        try once(.creative, value.id, creative)
        try apply(creative) { () throws(InventoryError) in _ = try inventory.putCreative(value) }
      }
      for unit in try document(F.adUnits) ?? [] {
        let value = try StoreDecoder.adUnit(unit)
        try once(.adUnit, value.id, unit)
        try apply(unit) { () throws(InventoryError) in _ = try inventory.putAdUnit(value) }
      }
    } catch {
      throw StoreLoadError(path: error.field, problem: error.problem)
    }
  }
}
