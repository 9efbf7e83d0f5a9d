import JSONRPC
import NativeAds

@testable import NativeAdsRPC

/// The store loader as it was before it streamed: the whole document parsed at once, then
/// formats, creatives and ad units read from it through ``StoreDecoder``. Kept as the reference
/// the streaming loader must agree with, inventory and errors alike.
enum WholeDocumentStoreLoader {
  static func load(_ bytes: UnsafeRawBufferPointer, into inventory: Inventory)
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
