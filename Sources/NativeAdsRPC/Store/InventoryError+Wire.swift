import JSONRPC
import NativeAds

/// The store's wording of the inventory's typed errors: the member path within the item
/// (named by the fields of the store shapes) and the message, e.g. `assets.MainImage.width`
/// `must be a positive integer`. `store.*` methods prefix the path with their param
/// (`creative.`), the store loader with the item's place in the file (`creatives[3].`).
extension InventoryProblem {
  /// The path within the item (empty for the item as a whole) and what is wrong.
  var wire: (path: String, message: String) {
    typealias C = CreativeShape
    let assets = C.assets.name.description
    switch self {
    case .emptyID:
      return (C.id.name.description, "must not be empty")
    case .emptyAssetName(let index):
      return (Self.formatAsset(index), "must not be empty")
    case .repeatedAssetName(let index, let first, let name):
      return (Self.formatAsset(index), "repeats \(Self.formatAsset(first)) (\"\(name)\")")
    case .wouldInvalidateCreative(let id, let problem):
      let (path, message) = problem.wire
      return (
        "", "would make creative \(id) invalid: " + (path.isEmpty ? message : path + " " + message)
      )
    case .invalidECPM:
      return (C.eCPM.name.description, "must be a number of at least 0")
    case .media(let problem):
      let field =
        problem == .invalidDuration ? VideoShape.duration.name : VideoShape.aspectRatio.name
      return (
        Self.join(C.video.name.description, field.description), "must be a number of at least 0"
      )
    case .emptyMuteReason(let index):
      return (Self.element(C.muteThisAdReasons.name, index), "must not be empty")
    case .repeatedMuteReason(let index, let reason):
      return (Self.element(C.muteThisAdReasons.name, index), "repeats the reason \"\(reason)\"")
    case .adChoicesImage(let problem):
      return Self.image(
        Self.join(C.adChoices.name.description, AdChoicesInputShape.image.name.description),
        problem)
    case .nativeAssets(.starRatingOutOfRange):
      let range = NativeAssets.starRatingRange
      return (
        Self.join(assets, NativeAssetsShape.starRating.name.description),
        "must be between \(JSONWriter.format(range.lowerBound)) and \(JSONWriter.format(range.upperBound))"
      )
    case .nativeAssets(.icon(let problem)):
      return Self.image(Self.join(assets, NativeAssetsShape.icon.name.description), problem)
    case .nativeAssets(.image(let index, let problem)):
      return Self.image(
        Self.join(assets, Self.element(NativeAssetsShape.images.name, index)), problem)
    case .unknownFormat(let id):
      return (C.formatID.name.description, "names no defined custom format (\"\(id)\")")
    case .customAsset(let name, let problem):
      let path = Self.join(assets, name)
      switch problem {
      case .givenTwice: return (path, "is given twice")
      case .notInFormat(let format): return (path, "is not an asset of format \(format)")
      case .wrongType(let expected, let format):
        let article = expected == .image ? "an" : "a"
        return (
          path, "must be \(article) \(expected.rawValue) asset (format \(format) defines it so)"
        )
      case .secondVideo(let first):
        return (path, "is a second video asset (\(Self.join(assets, first)) is the first)")
      case .videoWithoutVideoContent: return (path, "needs the creative to have video content")
      case .requiredByFormat(let format): return (path, "is required by format \(format)")
      case .image(let problem): return Self.image(path, problem)
      }
    case .unknownCreative(let index, let id):
      return (
        Self.element(AdUnitShape.creatives.name, index), "names no stored creative (\"\(id)\")"
      )
    case .repeatedCreative(let index, let first, let id):
      let listed = AdUnitShape.creatives.name
      return (Self.element(listed, index), "repeats \(Self.element(listed, first)) (\"\(id)\")")
    case .nonPositiveDeadline:
      return (AdUnitShape.deadlineMs.name.description, "must be an integer of at least 1")
    case .emptyWaterfall:
      return (AdUnitShape.waterfall.name.description, "must list at least one source")
    case .source(let index, let problem):
      typealias S = WaterfallSourceShape
      let source = Self.element(AdUnitShape.waterfall.name, index)
      switch problem {
      case .invalidECPM:
        return (Self.join(source, S.eCPM.name.description), "must be a number of at least 0")
      case .repeatedInventory(let first):
        return (
          source,
          "repeats the inventory source (\(Self.element(AdUnitShape.waterfall.name, first)))"
        )
      case .emptyAdapterClassName:
        return (Self.join(source, S.adapterClassName.name.description), "must not be empty")
      case .nonPositiveTimeout:
        return (Self.join(source, S.timeoutMs.name.description), "must be an integer of at least 1")
      }
    case .formatInUse, .creativeInUse:
      return ("", "")
    }
  }

  private static func formatAsset(_ index: Int) -> String {
    join(element(FormatShape.assets.name, index), FormatShape.Asset.name.name.description)
  }

  private static func image(_ path: String, _ problem: ImageProblem) -> (String, String) {
    let side =
      problem == .nonPositiveWidth ? ImageInputShape.width.name : ImageInputShape.height.name
    return (join(path, side.description), "must be a positive integer")
  }

  private static func element(_ name: StaticString, _ index: Int) -> String { "\(name)[\(index)]" }

  /// `creatives[3]` + `assets.Caption` → `creatives[3].assets.Caption`; either may be empty.
  static func join(_ base: String, _ path: String) -> String {
    if path.isEmpty { return base }
    if base.isEmpty { return path }
    return path.hasPrefix("[") ? base + path : base + "." + path
  }
}

extension InventoryError {
  /// The path within the item and the message (removals name the item and its user).
  var wire: (path: String, message: String) {
    switch problem {
    case .formatInUse(let user): ("", "format \(id) is still used by creative \(user)")
    case .creativeInUse(let user): ("", "creative \(id) is still listed by ad unit \(user)")
    default: problem.wire
    }
  }

  /// The error as a field that failed, under `root` (`creative`, `creatives[3]`).
  func invalidField(under root: String) -> InvalidField {
    let (path, message) = wire
    return InvalidField(InventoryProblem.join(root, path), message)
  }
}
