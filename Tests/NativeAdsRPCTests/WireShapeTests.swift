import JSONRPC
import NativeAds
import Testing

@testable import NativeAdsRPC

/// The description machinery: fields decode by their rules with exact paths, shapes refuse
/// unknown members and generate their schemas, and what a writer writes its decoder reads.
@Suite struct WireShapeTests {
  /// Runs `body` on the object `json`, answering what it returned or the field that failed.
  private func read<T>(_ json: String, _ body: (Params) throws(InvalidField) -> T) throws
    -> Result<T, InvalidField>
  {
    let bytes = Array(json.utf8)
    return try bytes.withUnsafeBytes { raw in
      try JSONParser().parse(raw) { root in
        do throws(InvalidField) {
          return .success(try body(Params(root)))
        } catch {
          return .failure(error)
        }
      }
    }
  }

  private func failure<T>(_ json: String, _ body: (Params) throws(InvalidField) -> T) throws
    -> InvalidField?
  {
    if case .failure(let error) = try read(json, body) { return error }
    return nil
  }

  @Test func aNestedFieldNamesItsFullPath() throws {
    let bad = try failure(#"{"creatives":[{"id":"a"},{"assets":{"icon":{"width":0}}}]}"#) {
      p throws(InvalidField) in
      let creatives = try p(StoreDocumentShape.creatives) ?? []
      return try creatives.last.map { c throws(InvalidField) in
        try c(CreativeShape.assets)(NativeAssetsShape.icon).map {
          i throws(InvalidField) in try i(ImageInputShape.width)
        }
      }
    }
    #expect(bad == InvalidField("creatives[1].assets.icon.width", "must be a positive integer"))
  }

  @Test func boundsComeFromTheDomainConstants() throws {
    let tooLarge = try failure(#"{"width":\#(AdImage.maximumSide + 1)}"#) {
      p throws(InvalidField) in try p(ImageInputShape.width)
    }
    #expect(tooLarge == InvalidField("width", "must be at most \(AdImage.maximumSide)"))
    let rating = try failure(#"{"starRating":5.5}"#) { p throws(InvalidField) in
      try p(NativeAssetsShape.starRating)
    }
    #expect(rating == InvalidField("starRating", "must be between 0 and 5"))
    #expect(ImageInputShape.width.type.schema["maximum"] == .int(AdImage.maximumSide))
  }

  @Test func closedShapesRefuseUnknownMembersAndParamsIgnoreThem() throws {
    let typo = try failure(#"{"image":{"url":"u","width":1,"height":1,"widht":2}}"#) {
      p throws(InvalidField) in try p(AdChoicesInputShape.image)
    }
    #expect(typo == InvalidField("image.widht", "is not a known field"))
    let options = try read(#"{"options":{"numberOfAds":2,"future":true}}"#) {
      p throws(InvalidField) in
      try p(LoadAd.options).map { o throws(InvalidField) in
        try o(LoadAd.Options.numberOfAds)
      }
    }
    #expect(try options.get() == 2)
  }

  @Test func theSchemaIsGeneratedFromTheShape() {
    let schema = ImageInputShape.shape.schema
    #expect(schema["type"] == .string("object"))
    #expect(schema["required"] == .array([.string("url"), .string("width"), .string("height")]))
    #expect(schema["additionalProperties"] == .bool(false))
    #expect(schema["properties"]?["data"]?["description"] == .string("Base64 of the bytes."))
    #expect(WireType.shape(ImageInputShape.shape).schema == Schema.ref("ImageInput"))
    #expect(LoadAd.Options.shape.schema["additionalProperties"] == nil)
  }

  @Test func aWaterfallWithoutTimeoutGetsTheDomainDefault() throws {
    let unit = try read(#"{"id":"u","waterfall":[{"type":"customEvent","adapterClassName":"A"}]}"#)
    { p throws(InvalidField) in try StoreDecoder.adUnit(p) }.get()
    guard case .customEvent(_, _, _, let timeoutMs, _)? = unit.waterfall?.first else {
      Issue.record("no custom event")
      return
    }
    #expect(timeoutMs == WaterfallSource.defaultTimeoutMs)
  }

  @Test func storeListWritesWhatTheDecoderReadsBack() throws {
    let unit = AdUnit(
      id: "/1/u", creativeIDs: ["a", "b"],
      waterfall: [
        .customEvent(
          adapterClassName: "Net", parameter: "p", eCPM: 2.5, timeoutMs: 300, label: "L"),
        .inventory(eCPM: 1, label: nil),
      ], deadlineMs: 900)
    let format = CustomFormat(
      id: "42",
      assets: [
        CustomAssetDefinition(name: "Title", type: .text),
        CustomAssetDefinition(name: "Clip", type: .video, required: false),
      ])
    var w = JSONWriter()
    StoreList.write(unit, into: &w)
    let unitText = String(decoding: w.bytes, as: UTF8.self)
    w = JSONWriter()
    StoreList.write(format, into: &w)
    let formatText = String(decoding: w.bytes, as: UTF8.self)
    #expect(
      try read(unitText) { p throws(InvalidField) in
        try AdUnitShape.shape.check(p)
        return try StoreDecoder.adUnit(p)
      }.get() == unit)
    #expect(
      try read(formatText) { p throws(InvalidField) in
        try FormatShape.shape.check(p)
        return try StoreDecoder.format(p)
      }.get() == format)
  }

  @Test func inventoryProblemsBecomeStorePathsAndMessages() {
    #expect(
      InventoryProblem.customAsset(name: "MainImage", .image(.nonPositiveWidth)).wire
        == ("assets.MainImage.width", "must be a positive integer"))
    #expect(
      InventoryProblem.source(index: 2, .repeatedInventory(firstIndex: 0)).wire
        == ("waterfall[2]", "repeats the inventory source (waterfall[0])"))
    #expect(
      InventoryError(.creative, "c", .nativeAssets(.image(index: 1, .nonPositiveHeight)))
        .invalidField(under: "creatives[3]")
        == InvalidField("creatives[3].assets.images[1].height", "must be a positive integer"))
    #expect(
      InventoryError(.format, "7", .formatInUse(creativeID: "c")).invalidField(under: "id")
        == InvalidField("id", "format 7 is still used by creative c"))
  }

  @Test func theDocumentListsEveryRegisteredMethodFromItsSignature() {
    let document = OpenRPCDocument.document(examples: [:])
    guard case .array(let methods)? = document["methods"] else {
      Issue.record("no methods")
      return
    }
    #expect(methods.map { $0["name"] } == allMethods.map { .string($0.name) })
    guard case .array(let params)? = methods.first?["params"] else {
      Issue.record("no params")
      return
    }
    #expect(params.first?["schema"] == LoadAd.adUnitID.member.schema)
  }
}
