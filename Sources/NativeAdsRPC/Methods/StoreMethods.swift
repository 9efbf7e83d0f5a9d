import JSONRPC
import NativeAds

/// `store.defineFormat {"format": Format}` → `{"formatID", "replaced"}`.
enum StoreDefineFormat: ServiceMethod {
  static let name = "store.defineFormat"

  static func decode(_ params: Params) throws(RPCError) -> CustomFormat {
    try StoreDecoder.format(try params.requiredObject("format"))
  }

  static func handle(_ format: CustomFormat, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let replaced = try storeChange("format") { () throws(InventoryError) in
      try context.service.manager.inventory.defineFormat(format)
    }
    w.beginObject()
    w.key("formatID")
    w.string(format.id)
    w.key("replaced")
    w.bool(replaced)
    w.endObject()
  }
}

/// `store.putCreative {"creative": Creative}` → `{"creativeID", "replaced"}`. Loaded ads keep
/// the creative they were loaded with.
enum StorePutCreative: ServiceMethod {
  static let name = "store.putCreative"

  /// The creative is decoded in `handle`: decoding a custom creative needs its format.
  static func decode(_ params: Params) throws(RPCError) -> Params {
    try params.requiredObject("creative")
  }

  static func handle(_ params: Params, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let inventory = context.service.manager.inventory
    let creative = try StoreDecoder.creative(params) { inventory.format($0) }
    let replaced = try storeChange("creative") { () throws(InventoryError) in
      try inventory.putCreative(creative)
    }
    context.service.creativeJSON.invalidate(creativeID: creative.id)
    w.beginObject()
    w.key("creativeID")
    w.string(creative.id)
    w.key("replaced")
    w.bool(replaced)
    w.endObject()
  }
}

/// `store.putAdUnit {"adUnit": AdUnit}` → `{"adUnitID", "replaced"}`.
enum StorePutAdUnit: ServiceMethod {
  static let name = "store.putAdUnit"

  static func decode(_ params: Params) throws(RPCError) -> AdUnit {
    try StoreDecoder.adUnit(try params.requiredObject("adUnit"))
  }

  static func handle(_ unit: AdUnit, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let replaced = try storeChange("adUnit") { () throws(InventoryError) in
      try context.service.manager.inventory.putAdUnit(unit)
    }
    w.beginObject()
    w.key("adUnitID")
    w.string(unit.id)
    w.key("replaced")
    w.bool(replaced)
    w.endObject()
  }
}

/// `store.remove {"kind": "format"|"creative"|"adUnit", "id"}` → `{"removed"}`.
enum StoreRemove: ServiceMethod {
  static let name = "store.remove"

  struct Request {
    var kind: InventoryItemKind
    var id: String
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    guard let kind = try params.optionalEnum("kind", InventoryItemKind.self) else {
      throw .invalidParams(field: "kind", "is required")
    }
    return Request(kind: kind, id: try params.string("id"))
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    let removed = try storeChange("id") { () throws(InventoryError) in
      try context.service.manager.inventory.remove(kind: request.kind, id: request.id)
    }
    if request.kind == .creative { context.service.creativeJSON.invalidate(creativeID: request.id) }
    w.beginObject()
    w.key("removed")
    w.bool(removed)
    w.endObject()
  }
}

/// `store.list {}` → `{"formats": [Format], "creatives": [{"id","kind","formatID"?}],
/// "adUnits": [AdUnit]}`, each sorted by ID.
enum StoreList: ServiceMethod {
  static let name = "store.list"

  static func decode(_ params: Params) throws(RPCError) {}

  static func handle(_: Void, context: MethodContext, result w: inout JSONWriter) throws(RPCError) {
    let inventory = context.service.manager.inventory
    w.beginObject()
    w.key("formats")
    w.beginArray()
    for format in inventory.formats.values.sorted(by: { $0.id < $1.id }) {
      w.element()
      w.beginObject()
      w.key("id")
      w.string(format.id)
      w.key("assets")
      w.beginArray()
      for asset in format.assets {
        w.element()
        w.beginObject()
        w.key("name")
        w.string(asset.name)
        w.key("type")
        w.string(asset.type.rawValue)
        w.key("required")
        w.bool(asset.required)
        w.endObject()
      }
      w.endArray()
      w.endObject()
    }
    w.endArray()
    w.key("creatives")
    w.beginArray()
    for creative in inventory.creatives.values.sorted(by: { $0.id < $1.id }) {
      w.element()
      w.beginObject()
      w.key("id")
      w.string(creative.id)
      w.key("kind")
      w.string(creative.kind.rawValue)
      if let formatID = creative.content.customFormatID {
        w.key("formatID")
        w.string(formatID)
      }
      w.endObject()
    }
    w.endArray()
    w.key("adUnits")
    w.beginArray()
    for unit in inventory.adUnits.values.sorted(by: { $0.id < $1.id }) {
      w.element()
      w.beginObject()
      w.key("id")
      w.string(unit.id)
      w.key("creatives")
      w.beginArray()
      for id in unit.creativeIDs {
        w.element()
        w.string(id)
      }
      w.endArray()
      if let waterfall = unit.waterfall {
        w.key("waterfall")
        w.beginArray()
        for source in waterfall {
          w.element()
          w.beginObject()
          switch source {
          case .inventory(let eCPM, let label):
            w.key("type")
            w.string("inventory")
            w.key("eCPM")
            w.double(eCPM)
            if let label {
              w.key("label")
              w.string(label)
            }
          case .customEvent(let className, let parameter, let eCPM, let timeoutMs, let label):
            w.key("type")
            w.string("customEvent")
            w.key("adapterClassName")
            w.string(className)
            w.key("parameter")
            w.string(parameter)
            w.key("eCPM")
            w.double(eCPM)
            w.key("timeoutMs")
            w.int(Int(timeoutMs))
            if let label {
              w.key("label")
              w.string(label)
            }
          }
          w.endObject()
        }
        w.endArray()
      }
      if let deadline = unit.deadlineMs {
        w.key("deadlineMs")
        w.int(Int(deadline))
      }
      w.endObject()
    }
    w.endArray()
    w.endObject()
  }
}

/// Runs an inventory change; its error becomes `-32602` naming the field under `root`.
private func storeChange<T>(_ root: String, _ change: () throws(InventoryError) -> T)
  throws(RPCError) -> T
{
  do {
    return try change()
  } catch {
    throw .invalidParams(field: StoreLoader.join(root, error.path), error.message)
  }
}
