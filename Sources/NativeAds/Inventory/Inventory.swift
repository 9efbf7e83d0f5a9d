/// The ads a server can serve: custom formats, creatives and ad units, keyed by ID.
///
/// Two ways to change it: the validating store API (``defineFormat(_:)``,
/// ``putCreative(_:)``, ``putAdUnit(_:)``, ``remove(kind:id:)``), used by the `store.*`
/// methods and the store-file loader, which keeps the inventory consistent; and the unchecked
/// `add` / `remove…` methods, for code (and tests) that build inventories directly.
///
/// Loop-bound: used only on the event loop thread. ``AdManager`` reads it on every load, so
/// changes apply to the next load; ads already loaded keep their own copy of their creative.
public final class Inventory {
  /// The custom native formats, by format ID.
  public private(set) var formats: [String: CustomFormat]
  /// The creatives, by creative ID.
  public private(set) var creatives: [String: Creative]
  /// The ad units, by ad unit ID.
  public private(set) var adUnits: [String: AdUnit]

  /// Creates an inventory, empty by default. Nothing is validated.
  public init(
    formats: [CustomFormat] = [], creatives: [Creative] = [], adUnits: [AdUnit] = []
  ) {
    self.formats = [:]
    self.creatives = [:]
    self.adUnits = [:]
    for format in formats { add(format) }
    for creative in creatives { add(creative) }
    for adUnit in adUnits { add(adUnit) }
  }

  // MARK: Unchecked changes

  /// Adds a custom format, replacing any with the same ID. Nothing is validated.
  public func add(_ format: CustomFormat) {
    formats[format.id] = format
  }

  /// Adds a creative, replacing any with the same ID. Nothing is validated (see
  /// ``putCreative(_:)`` for the checked version).
  public func add(_ creative: Creative) {
    creatives[creative.id] = creative
  }

  /// Adds an ad unit, replacing any with the same ID. Nothing is validated.
  public func add(_ adUnit: AdUnit) {
    adUnits[adUnit.id] = adUnit
  }

  /// Removes the custom format with ID `id`, even if creatives use it; returns it if it
  /// existed.
  @discardableResult
  public func removeFormat(_ id: String) -> CustomFormat? { formats.removeValue(forKey: id) }

  /// Removes the creative with ID `id`, even if ad units list it (they skip it); returns it if
  /// it existed.
  @discardableResult
  public func removeCreative(_ id: String) -> Creative? { creatives.removeValue(forKey: id) }

  /// Removes the ad unit with ID `id`; returns it if it existed.
  @discardableResult
  public func removeAdUnit(_ id: String) -> AdUnit? { adUnits.removeValue(forKey: id) }

  // MARK: Lookup

  /// The custom format with ID `id`.
  public func format(_ id: String) -> CustomFormat? { formats[id] }

  /// The creative with ID `id`.
  public func creative(_ id: String) -> Creative? { creatives[id] }

  /// The ad unit with ID `id`.
  public func adUnit(_ id: String) -> AdUnit? { adUnits[id] }

  // MARK: Validated store

  /// Defines (or redefines) a custom format; returns whether it replaced one.
  ///
  /// Rules: the ID is not empty; every asset name is non-empty and unique. Redefining a format
  /// must keep every stored creative of that format valid (see ``putCreative(_:)``).
  ///
  /// - Throws: ``InventoryError`` (path relative to the format, e.g. `assets[1].name`; path
  ///   empty and the creative named when a creative would become invalid). Nothing changes
  ///   when it throws.
  @discardableResult
  public func defineFormat(_ format: CustomFormat) throws(InventoryError) -> Bool {
    guard !format.id.isEmpty else { throw InventoryError(path: "id", message: "must not be empty") }
    var names: [String: Int] = [:]
    for (index, asset) in format.assets.enumerated() {
      let path = "assets[\(index)].name"
      guard !asset.name.isEmpty else {
        throw InventoryError(path: path, message: "must not be empty")
      }
      if let earlier = names[asset.name] {
        throw InventoryError(
          path: path, message: "repeats assets[\(earlier)].name (\"\(asset.name)\")")
      }
      names[asset.name] = index
    }
    let replaced = formats[format.id] != nil
    if replaced {
      let users = creatives.values
        .filter { $0.content.customFormatID == format.id }
        .sorted { $0.id < $1.id }
      for creative in users {
        do {
          try Self.validateCustomAssets(of: creative, against: format)
        } catch {
          throw InventoryError(
            path: "",
            message: "would make creative \(creative.id) invalid: \(error.description)")
        }
      }
    }
    formats[format.id] = format
    return replaced
  }

  /// Stores (or replaces) a creative; returns whether it replaced one.
  ///
  /// Rules for every creative: the ID is not empty; images have positive sizes; the star
  /// rating is within 0–5; eCPM, duration and aspect ratio are finite and not negative; Mute
  /// This Ad reasons are non-empty and unique. For a custom creative: its format exists; every
  /// asset is defined by the format with the right type (text, image or video) and given once;
  /// every required asset is present; a video asset needs video media
  /// (``MediaContent/hasVideoContent``); at most one video asset.
  ///
  /// - Throws: ``InventoryError`` (path relative to the creative, e.g. `assets.MainImage`,
  ///   `formatID`, `assets.icon.width`). Nothing changes when it throws.
  @discardableResult
  public func putCreative(_ creative: Creative) throws(InventoryError) -> Bool {
    try validate(creative)
    let replaced = creatives[creative.id] != nil
    creatives[creative.id] = creative
    return replaced
  }

  /// Stores (or replaces) an ad unit; returns whether it replaced one.
  ///
  /// Rules: the ID is not empty; every listed creative exists; none is listed twice. A
  /// ``AdUnit/waterfall``, when given, is not empty; every source's eCPM is finite and at
  /// least 0; a custom event names an adapter class (not empty) and has a `timeoutMs` of at
  /// least 1; the `inventory` source appears at most once. A ``AdUnit/deadlineMs``, when given,
  /// is at least 1.
  ///
  /// - Throws: ``InventoryError`` (path relative to the unit, e.g. `creatives[2]`). Nothing
  ///   changes when it throws.
  @discardableResult
  public func putAdUnit(_ adUnit: AdUnit) throws(InventoryError) -> Bool {
    guard !adUnit.id.isEmpty else { throw InventoryError(path: "id", message: "must not be empty") }
    var listed: [String: Int] = [:]
    for (index, creativeID) in adUnit.creativeIDs.enumerated() {
      let path = "creatives[\(index)]"
      guard creatives[creativeID] != nil else {
        throw InventoryError(path: path, message: "names no stored creative (\"\(creativeID)\")")
      }
      if let earlier = listed[creativeID] {
        throw InventoryError(
          path: path, message: "repeats creatives[\(earlier)] (\"\(creativeID)\")")
      }
      listed[creativeID] = index
    }
    try Self.validateMediation(of: adUnit)
    let replaced = adUnits[adUnit.id] != nil
    adUnits[adUnit.id] = adUnit
    return replaced
  }

  /// Removes the item of `kind` with ID `id`; returns whether it existed.
  ///
  /// - Throws: ``InventoryError`` with an empty path when a format is still used by a creative
  ///   (`format 10063170 is still used by creative custom-10063170-1`) or a creative is still
  ///   listed by an ad unit (`creative c1 is still listed by ad unit /1/u`); the user named is
  ///   the first by ID. Nothing changes when it throws.
  @discardableResult
  public func remove(kind: InventoryItemKind, id: String) throws(InventoryError) -> Bool {
    switch kind {
    case .format:
      guard formats[id] != nil else { return false }
      if let user = creatives.values.filter({ $0.content.customFormatID == id }).map(\.id).min() {
        throw InventoryError(path: "", message: "format \(id) is still used by creative \(user)")
      }
      formats.removeValue(forKey: id)
    case .creative:
      guard creatives[id] != nil else { return false }
      if let user = adUnits.values.filter({ $0.creativeIDs.contains(id) }).map(\.id).min() {
        throw InventoryError(
          path: "", message: "creative \(id) is still listed by ad unit \(user)")
      }
      creatives.removeValue(forKey: id)
    case .adUnit:
      guard adUnits.removeValue(forKey: id) != nil else { return false }
    }
    return true
  }

  // MARK: Validation

  /// Checks `creative` against the store rules (see ``putCreative(_:)``).
  private func validate(_ creative: Creative) throws(InventoryError) {
    guard !creative.id.isEmpty else {
      throw InventoryError(path: "id", message: "must not be empty")
    }
    guard creative.eCPM.isFinite, creative.eCPM >= 0 else {
      throw InventoryError(path: "eCPM", message: "must be a number of at least 0")
    }
    let media = creative.media
    guard media.duration.isFinite, media.duration >= 0 else {
      throw InventoryError(path: "video.duration", message: "must be a number of at least 0")
    }
    guard media.aspectRatio.isFinite, media.aspectRatio >= 0 else {
      throw InventoryError(path: "video.aspectRatio", message: "must be a number of at least 0")
    }
    var reasons: Set<String> = []
    for (index, reason) in creative.muteThisAdReasons.enumerated() {
      let path = "muteThisAdReasons[\(index)]"
      guard !reason.isEmpty else { throw InventoryError(path: path, message: "must not be empty") }
      guard reasons.insert(reason).inserted else {
        throw InventoryError(path: path, message: "repeats the reason \"\(reason)\"")
      }
    }
    if let adChoices = creative.adChoices {
      try Self.validate(adChoices.image, path: "adChoices.image")
    }

    switch creative.content {
    case .native(let assets):
      if let rating = assets.starRating, !(rating >= 0 && rating <= 5) {
        throw InventoryError(path: "assets.starRating", message: "must be between 0 and 5")
      }
      if let icon = assets.icon { try Self.validate(icon, path: "assets.icon") }
      for (index, image) in assets.images.enumerated() {
        try Self.validate(image, path: "assets.images[\(index)]")
      }
    case .custom(let formatID, let assets):
      guard let format = formats[formatID] else {
        throw InventoryError(
          path: "formatID", message: "names no defined custom format (\"\(formatID)\")")
      }
      for asset in assets {
        if let image = asset.value.image { try Self.validate(image, path: "assets." + asset.name) }
      }
      try Self.validateCustomAssets(of: creative, against: format)
    }
  }

  /// Checks a custom creative's assets against `format`: each defined, of its type, once;
  /// every required one present; a video asset only with video media, and at most one.
  private static func validateCustomAssets(of creative: Creative, against format: CustomFormat)
    throws(InventoryError)
  {
    guard case .custom(_, let assets) = creative.content else { return }
    var given: Set<String> = []
    var videoAsset: String?
    for asset in assets {
      let path = "assets." + asset.name
      guard given.insert(asset.name).inserted else {
        throw InventoryError(path: path, message: "is given twice")
      }
      guard let definition = format.asset(named: asset.name) else {
        throw InventoryError(path: path, message: "is not an asset of format \(format.id)")
      }
      let type: CustomAssetType
      switch asset.value {
      case .text: type = .text
      case .image: type = .image
      case .video: type = .video
      }
      guard type == definition.type else {
        let expected =
          switch definition.type {
          case .text: "a text"
          case .image: "an image"
          case .video: "a video"
          }
        throw InventoryError(
          path: path,
          message: "must be \(expected) asset (format \(format.id) defines it so)")
      }
      if type == .video {
        if let first = videoAsset {
          throw InventoryError(
            path: path, message: "is a second video asset (assets.\(first) is the first)")
        }
        guard creative.media.hasVideoContent else {
          throw InventoryError(path: path, message: "needs the creative to have video content")
        }
        videoAsset = asset.name
      }
    }
    for definition in format.assets where definition.required && !given.contains(definition.name) {
      throw InventoryError(
        path: "assets." + definition.name, message: "is required by format \(format.id)")
    }
  }

  /// Checks `adUnit`'s waterfall and deadline (see ``putAdUnit(_:)``).
  private static func validateMediation(of adUnit: AdUnit) throws(InventoryError) {
    if let deadline = adUnit.deadlineMs, deadline < 1 {
      throw InventoryError(path: "deadlineMs", message: "must be an integer of at least 1")
    }
    guard let waterfall = adUnit.waterfall else { return }
    guard !waterfall.isEmpty else {
      throw InventoryError(path: "waterfall", message: "must list at least one source")
    }
    var inventorySource: Int?
    for (index, source) in waterfall.enumerated() {
      let path = "waterfall[\(index)]"
      guard source.eCPM.isFinite, source.eCPM >= 0 else {
        throw InventoryError(path: path + ".eCPM", message: "must be a number of at least 0")
      }
      switch source {
      case .inventory:
        if let earlier = inventorySource {
          throw InventoryError(
            path: path, message: "repeats the inventory source (waterfall[\(earlier)])")
        }
        inventorySource = index
      case .customEvent(let className, _, _, let timeoutMs, _):
        guard !className.isEmpty else {
          throw InventoryError(path: path + ".adapterClassName", message: "must not be empty")
        }
        guard timeoutMs >= 1 else {
          throw InventoryError(
            path: path + ".timeoutMs", message: "must be an integer of at least 1")
        }
      }
    }
  }

  /// Checks that `image` has a positive size.
  private static func validate(_ image: AdImage, path: String) throws(InventoryError) {
    guard image.width > 0 else {
      throw InventoryError(path: path + ".width", message: "must be a positive integer")
    }
    guard image.height > 0 else {
      throw InventoryError(path: path + ".height", message: "must be a positive integer")
    }
  }
}
