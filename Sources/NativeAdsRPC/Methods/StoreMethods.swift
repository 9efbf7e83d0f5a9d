import JSONRPC
import NativeAds

/// `store.defineFormat {"format": Format}` → `{"formatID", "replaced"}`.
enum StoreDefineFormat: ServiceMethod {
  static let name = "store.defineFormat"
  static let format = Field.requiredObject("format", FormatShape.shape)
  static let result = StoreChangeResult("formatID")
  static var signature: MethodSignature {
    MethodSignature(
      summary: "Defines (or replaces) a custom native format.", params: [format.member],
      result: result.type)
  }

  static func decode(_ params: Params) throws(RPCError) -> CustomFormat {
    try decoding { () throws(InvalidField) in try StoreDecoder.format(try params(format)) }
  }

  static func handle(_ format: CustomFormat, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    if context.replicatedStoreChange(name) { return }
    let replaced = try storeChange(self.format) { () throws(InventoryError) in
      try context.service.manager.inventory.defineFormat(format)
    }
    context.service.storeChanged()
    result.write(id: format.id, replaced: replaced, into: &w)
  }
}

/// `store.putCreative {"creative": Creative}` → `{"creativeID", "replaced"}`. Loaded ads keep
/// the creative they were loaded with.
enum StorePutCreative: ServiceMethod {
  static let name = "store.putCreative"
  static let creative = Field.requiredObject("creative", CreativeShape.shape)
  static let result = StoreChangeResult("creativeID")
  static var signature: MethodSignature {
    MethodSignature(
      summary: "Adds or replaces a creative.", params: [creative.member], result: result.type)
  }

  /// The creative is decoded in `handle`: decoding a custom creative needs its format.
  static func decode(_ params: Params) throws(RPCError) -> Params {
    try decoding { () throws(InvalidField) in try params(creative) }
  }

  static func handle(_ params: Params, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    if context.replicatedStoreChange(name) { return }
    let inventory = context.service.manager.inventory
    let creative = try decoding { () throws(InvalidField) in
      try StoreDecoder.creative(params, maximumTrackers: context.service.maxAdTrackers) {
        inventory.format($0)
      }
    }
    let replaced = try storeChange(self.creative) { () throws(InventoryError) in
      try inventory.putCreative(creative)
    }
    context.service.storeChanged()
    context.service.creativeJSON.invalidate(creativeID: creative.id)
    result.write(id: creative.id, replaced: replaced, into: &w)
  }
}

/// `store.putAdUnit {"adUnit": AdUnit}` → `{"adUnitID", "replaced"}`.
enum StorePutAdUnit: ServiceMethod {
  static let name = "store.putAdUnit"
  static let adUnit = Field.requiredObject("adUnit", AdUnitShape.shape)
  static let result = StoreChangeResult("adUnitID")
  static var signature: MethodSignature {
    MethodSignature(
      summary: "Adds or replaces an ad unit (with its waterfall).", params: [adUnit.member],
      result: result.type)
  }

  static func decode(_ params: Params) throws(RPCError) -> AdUnit {
    try decoding { () throws(InvalidField) in try StoreDecoder.adUnit(try params(adUnit)) }
  }

  static func handle(_ unit: AdUnit, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    if context.replicatedStoreChange(name) { return }
    let replaced = try storeChange(adUnit) { () throws(InventoryError) in
      try context.service.manager.inventory.putAdUnit(unit)
    }
    context.service.storeChanged()
    result.write(id: unit.id, replaced: replaced, into: &w)
  }
}

/// `store.remove {"kind": "format"|"creative"|"adUnit", "id"}` → `{"removed"}`.
enum StoreRemove: ServiceMethod {
  static let name = "store.remove"
  static let result = FlagResult("removed")
  static let kind = Field<InventoryItemKind>.enumeration("kind")
  static let id = Field.string("id")
  static var signature: MethodSignature {
    MethodSignature(
      summary: "Removes a format, creative or ad unit no longer used.",
      params: [kind.member, id.member],
      result: result.type)
  }

  struct Request {
    var kind: InventoryItemKind
    var id: String
  }

  static func decode(_ params: Params) throws(RPCError) -> Request {
    try decoding { () throws(InvalidField) in Request(kind: try params(kind), id: try params(id)) }
  }

  static func handle(_ request: Request, context: MethodContext, result w: inout JSONWriter)
    throws(RPCError)
  {
    if context.replicatedStoreChange(name) { return }
    let removed = try storeChange(id) { () throws(InventoryError) in
      try context.service.manager.inventory.remove(kind: request.kind, id: request.id)
    }
    context.service.storeChanged()
    if request.kind == .creative { context.service.creativeJSON.invalidate(creativeID: request.id) }
    result.write(removed, into: &w)
  }
}

/// `store.list {}` → `{"formats": [Format], "creatives": [{"id","kind","formatID"?}],
/// "adUnits": [AdUnit]}`, each sorted by ID, written through the fields of the store shapes
/// (what it writes, ``StoreDecoder`` reads back).
enum StoreList: ServiceMethod {
  static let name = "store.list"

  /// A creative as listed: its ID, kind and format.
  static let creativeSummary = WireShape(
    nil,
    [
      CreativeShape.id.member, CreativeShape.kind.member,
      CreativeShape.formatID.member.optional,
    ])
  static let formats = Field.objectArray("formats", FormatShape.shape).orRequired()
  static let creatives = Field.objectArray("creatives", creativeSummary).orRequired()
  static let adUnits = Field.objectArray("adUnits", AdUnitShape.shape).orRequired()
  static var signature: MethodSignature {
    MethodSignature(
      summary: "The inventory: formats, creatives and ad units.", params: [],
      result: .shape(WireShape(nil, [formats.member, creatives.member, adUnits.member])),
      errors: [])
  }

  static func decode(_ params: Params) throws(RPCError) {}

  static func handle(_: Void, context: MethodContext, result w: inout JSONWriter) throws(RPCError) {
    let inventory = context.service.manager.inventory
    if context.afterStoreCatchUp({ w in list(inventory, into: &w) }) { return }
    list(inventory, into: &w)
  }

  /// The inventory as `store.list` answers it.
  static func list(_ inventory: Inventory, into w: inout JSONWriter) {
    w.beginObject()
    w.key(formats.name)
    w.beginArray()
    for format in inventory.formats.values.sorted(by: { $0.id < $1.id }) {
      w.element()
      write(format, into: &w)
    }
    w.endArray()
    w.key(creatives.name)
    w.beginArray()
    for creative in inventory.creatives.values.sorted(by: { $0.id < $1.id }) {
      w.element()
      w.beginObject()
      w.key(CreativeShape.id.name)
      w.string(creative.id)
      w.key(CreativeShape.kind.name)
      w.string(creative.kind.rawValue)
      // (`customFormatID`, not `content`: listing must not unpack a packed store creative.)
      if let formatID = creative.customFormatID {
        w.key(CreativeShape.formatID.name)
        w.string(formatID)
      }
      w.endObject()
    }
    w.endArray()
    w.key(adUnits.name)
    w.beginArray()
    for unit in inventory.adUnits.values.sorted(by: { $0.id < $1.id }) {
      w.element()
      write(unit, into: &w)
    }
    w.endArray()
    w.endObject()
  }

  /// A format as ``StoreDecoder/format(_:)`` reads it.
  static func write(_ format: CustomFormat, into w: inout JSONWriter) {
    typealias F = FormatShape
    w.beginObject()
    w.key(F.id.name)
    w.string(format.id)
    w.key(F.assets.name)
    w.beginArray()
    for asset in format.assets {
      w.element()
      w.beginObject()
      w.key(F.Asset.name.name)
      w.string(asset.name)
      w.key(F.Asset.type.name)
      w.string(asset.type.rawValue)
      w.key(F.Asset.required.name)
      w.bool(asset.required)
      w.endObject()
    }
    w.endArray()
    w.endObject()
  }

  /// An ad unit as ``StoreDecoder/adUnit(_:)`` reads it.
  static func write(_ unit: AdUnit, into w: inout JSONWriter) {
    typealias F = AdUnitShape
    typealias S = WaterfallSourceShape
    w.beginObject()
    w.key(F.id.name)
    w.string(unit.id)
    w.key(F.creatives.name)
    w.beginArray()
    for id in unit.creativeIDs {
      w.element()
      w.string(id)
    }
    w.endArray()
    if let waterfall = unit.waterfall {
      w.key(F.waterfall.name)
      w.beginArray()
      for source in waterfall {
        w.element()
        w.beginObject()
        w.key(S.type.name)
        switch source {
        case .inventory:
          w.string(WaterfallSourceType.inventory.rawValue)
        case .customEvent(let className, let parameter, _, _, _):
          w.string(WaterfallSourceType.customEvent.rawValue)
          w.key(S.adapterClassName.name)
          w.string(className)
          w.key(S.parameter.name)
          w.string(parameter)
        }
        w.key(S.eCPM.name)
        w.double(source.eCPM)
        if case .customEvent(_, _, _, let timeoutMs, _) = source {
          w.key(S.timeoutMs.name)
          w.int(Int(timeoutMs))
        }
        if let label = source.label {
          w.key(S.label.name)
          w.string(label)
        }
        w.endObject()
      }
      w.endArray()
    }
    if let deadline = unit.deadlineMs {
      w.key(F.deadlineMs.name)
      w.int(Int(deadline))
    }
    w.endObject()
  }
}

/// The result of a store change: `{"<item>ID": id, "replaced": bool}`.
struct StoreChangeResult: Sendable {
  let idKey: StaticString

  init(_ idKey: StaticString) { self.idKey = idKey }

  var type: WireType {
    .shape(WireShape(nil, [Field.string(idKey).member, Field.boolean("replaced").member]))
  }

  func write(id: String, replaced: Bool, into w: inout JSONWriter) {
    w.beginObject()
    w.key(idKey)
    w.string(id)
    w.key("replaced")
    w.bool(replaced)
    w.endObject()
  }
}

/// Runs an inventory change; its error becomes `-32602` naming the member under the param
/// `root`.
private func storeChange<T, V>(_ root: Field<V>, _ change: () throws(InventoryError) -> T)
  throws(RPCError) -> T
{
  do {
    return try change()
  } catch {
    throw error.invalidField(under: root.name.description).rpcError
  }
}
