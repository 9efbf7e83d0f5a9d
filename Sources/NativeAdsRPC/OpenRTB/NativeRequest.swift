import JSONRPC
import NativeAds

/// A Native 1.2 request (section 4), read: what the mock bidder fills, and what gives the
/// untyped assets of an embedded response their types (`loadAd`'s `nativeRequest`).
struct NativeRequest: Sendable {
  /// What one request asset asks for.
  enum Kind: Sendable, Equatable {
    case title(len: Int)
    /// `type` nil: any image (the bidder treats it as a main image).
    case image(type: Int?, w: Int?, h: Int?, wmin: Int?, hmin: Int?)
    case video
    case data(type: Int, len: Int?)
  }

  struct Asset: Sendable {
    var id: Int
    var required: Bool
    var kind: Kind
  }

  var assets: [Asset]
  /// The events and methods the request offers trackers for (`eventtrackers`); nil when it
  /// says nothing (then only `imptrackers` are answered).
  var eventTrackers: [(event: Int, methods: [Int])]?
  /// Whether the supply side shows a buyer's privacy notice (`privacy: 1`).
  var privacy: Bool

  /// The asset with `id`.
  func asset(id: Int) -> Asset? { assets.first { $0.id == id } }

  /// Reads a request: `value` an object, or a string holding one (as OpenRTB 2.x carries it
  /// in `imp.native.request`), bare or wrapped in `{"native": ...}` (before 1.1). `place`
  /// names it in errors (`nativeRequest`, `imp[0].native.request`).
  /// At most `maximumAssets` assets (a response may hold no more: `--max-response-assets`).
  static func read(_ value: JSONRef, place: String, maximumAssets: Int) throws(InvalidField)
    -> NativeRequest
  {
    switch value.kind {
    case .object:
      return try read(object: value, place: place, maximumAssets: maximumAssets)
    case .string:
      return try NestedJSON.readObject(value.stringValue ?? "", place: place) {
        root throws(InvalidField) in
        try read(object: root, place: place, maximumAssets: maximumAssets)
      }
    default:
      throw InvalidField(place, "must be an object or a string holding one")
    }
  }

  private static func read(object: JSONRef, place: String, maximumAssets: Int)
    throws(InvalidField) -> NativeRequest
  {
    var p = Params(object, prefix: place + ".")
    if p.raw(NativeRequestShape.assets.name) == nil, let wrapped = try p.optionalObject("native") {
      p = wrapped
    }
    typealias F = NativeRequestShape
    try F.shape.check(p)
    var assets: [Asset] = []
    var ids = Set<Int>()
    let list = try p(F.assets)
    guard list.count <= maximumAssets else {
      throw InvalidField(
        p.path(F.assets.name),
        "asks for more assets than a response may hold: at most \(maximumAssets)"
          + " (--max-response-assets)")
    }
    for a in list {
      typealias A = F.Asset
      let id = try a(A.id)
      guard ids.insert(id).inserted else {
        throw InvalidField(a.path(A.id.name), "repeats asset id \(id)")
      }
      let required = (try a(A.required) ?? 0) == 1
      var kinds: [Kind] = []
      if let t = try a(A.title) { kinds.append(.title(len: try t(F.Title.len))) }
      if let i = try a(A.img) {
        typealias I = F.Image
        kinds.append(
          .image(
            type: try i(I.type), w: try i(I.w), h: try i(I.h), wmin: try i(I.wmin),
            hmin: try i(I.hmin)))
      }
      if try a(A.video) != nil { kinds.append(.video) }
      if let d = try a(A.data) {
        kinds.append(.data(type: try d(F.Data.type), len: try d(F.Data.len)))
      }
      guard kinds.count == 1, let kind = kinds.first else {
        throw InvalidField(
          a.pathPrefix.isEmpty ? place : String(a.pathPrefix.dropLast()),
          kinds.isEmpty
            ? "must hold one of title, img, video, data"
            : "must hold only one of title, img, video, data")
      }
      assets.append(Asset(id: id, required: required, kind: kind))
    }
    var trackers: [(event: Int, methods: [Int])]?
    if let list = try p(F.eventtrackers) {
      trackers = []
      for t in list {
        trackers?.append(
          (try t(F.EventTracker.event), try t(F.EventTracker.methods) ?? []))
      }
    }
    return NativeRequest(
      assets: assets, eventTrackers: trackers, privacy: (try p(F.privacy) ?? 0) == 1)
  }
}
