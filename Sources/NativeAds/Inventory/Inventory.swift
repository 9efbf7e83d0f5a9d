import ByteKeys

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
  /// The ad units, by ad unit ID (a dictionary made on each read: look one up with
  /// ``adUnit(_:)``).
  public var adUnits: [String: AdUnit] {
    Dictionary(uniqueKeysWithValues: units.map { ($0.key.text, $0.value) })
  }
  /// The ad units, by ID (a key hashed once: a load looks its unit up by the ID it names).
  private var units: [ByteKeys.Key: AdUnit]

  /// Creates an inventory, empty by default. Nothing is validated.
  public init(
    formats: [CustomFormat] = [], creatives: [Creative] = [], adUnits: [AdUnit] = []
  ) {
    self.formats = [:]
    self.creatives = [:]
    self.units = [:]
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
    changed()
  }

  /// Adds an ad unit, replacing any with the same ID. Nothing is validated.
  public func add(_ adUnit: AdUnit) {
    units[ByteKeys.Key(adUnit.id)] = adUnit
    changed()
  }

  /// Removes the custom format with ID `id`, even if creatives use it; returns it if it
  /// existed.
  @discardableResult
  public func removeFormat(_ id: String) -> CustomFormat? { formats.removeValue(forKey: id) }

  /// Removes the creative with ID `id`, even if ad units list it (they skip it); returns it if
  /// it existed.
  @discardableResult
  public func removeCreative(_ id: String) -> Creative? {
    changed()
    return creatives.removeValue(forKey: id)
  }

  /// Removes the ad unit with ID `id`; returns it if it existed.
  @discardableResult
  public func removeAdUnit(_ id: String) -> AdUnit? {
    changed(unit: id)
    return units.removeValue(forKey: ByteKeys.Key(id))
  }

  // MARK: Lookup

  /// The custom format with ID `id`.
  public func format(_ id: String) -> CustomFormat? { formats[id] }

  /// The creative with ID `id`.
  public func creative(_ id: String) -> Creative? { creatives[id] }

  /// The ad unit with ID `id`.
  public func adUnit(_ id: String) -> AdUnit? {
    for i in recentUnits.indices where recentUnits[i].id == id {
      if i > 0 { recentUnits.swapAt(i, i - 1) }
      return recentUnits[i > 0 ? i - 1 : 0]
    }
    guard let unit = units[ByteKeys.Key(id)] else { return nil }
    if recentUnits.count == Self.recentLimit { recentUnits.removeLast() }
    recentUnits.insert(unit, at: 0)
    return unit
  }

  /// The last few units looked up, most recent first: a load of a unit loaded a moment ago
  /// compares its ID with theirs before hashing it. Emptied by every change.
  private var recentUnits: [AdUnit] = []

  /// The ID of one of the last few units looked up (``adUnit(_:)``) whose UTF-8 is `utf8`, as
  /// the inventory holds it: a request naming a unit loaded a moment ago then shares that
  /// string instead of making its own (an allocation and a free for an ID longer than 15
  /// bytes), and the lookup that follows finds it by identity. Nil for any other ID.
  public func recentUnitID(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
    recentUnit(utf8)?.id
  }

  /// The unit of ``recentUnitID(_:)``.
  public func recentUnit(_ utf8: UnsafeBufferPointer<UInt8>) -> AdUnit? {
    guard let bytes = utf8.baseAddress else { return nil }
    for unit in recentUnits where unit.id.utf8.count == utf8.count {
      let same = unit.id.utf8.withContiguousStorageIfAvailable {
        ByteKeys.equal($0.baseAddress!, bytes, count: utf8.count)
      }
      if same == true { return unit }
    }
    return nil
  }

  /// The creatives of ad unit `unitID` eligible for `request` (its ad types, formats, media
  /// orientation and targeting), best first (priority, then eCPM), ties in listing order:
  /// decisioning without rotation. nil when there is no such unit.
  public func rankedCreatives(ofUnit unitID: String, for request: AdRequest) -> [Creative]? {
    guard let unit = adUnit(unitID) else { return nil }
    return CreativeSelector.ranked(of: unit, for: request, in: self)
  }

  // MARK: Listings

  /// The creatives a unit lists that the inventory stores, in listing order with their places
  /// (see ``listedCreatives(of:)``).
  public typealias Listing = [(listing: Int, creative: Creative)]

  /// (A class: a load takes it from the inventory with one count, not one per array.)
  final class ResolvedListing {
    /// The IDs it was resolved from (compared by identity first: the unit's own array).
    let ids: [String]
    let generation: Int
    let listing: Listing
    /// The listing in ranking order, for decisioning.
    let ranking: CreativeSelector.Ranking

    init(ids: [String], generation: Int, listing: Listing, ranking: CreativeSelector.Ranking) {
      self.ids = ids
      self.generation = generation
      self.listing = listing
      self.ranking = ranking
    }
  }

  /// Listings resolved for loads, by unit ID; each valid while ``generation`` is its own.
  private var listings: [ByteKeys.Key: ResolvedListing] = [:]
  /// The last few listings used, most recent first, found by the identity of the ID array
  /// they were resolved from (held here, so no other array can take its storage): a unit
  /// loaded a moment ago, as an app loads its few units again and again, skips hashing its
  /// ID. Valid while their generation is the inventory's, as those of ``listings``.
  private var recentListings: [ResolvedListing] = []
  private static let recentLimit = 4

  /// Bumped by every change of a creative or a unit.
  private var generation = 0

  private func changed(unit id: String? = nil) {
    generation &+= 1
    recentListings.removeAll(keepingCapacity: true)
    recentUnits.removeAll(keepingCapacity: true)
    if let id { listings.removeValue(forKey: ByteKeys.Key(id)) }
  }

  /// The creatives `unit` lists that the inventory stores, each once, in listing order with
  /// their places in the listing (a repeated ID counts where it is first listed; an ID the
  /// inventory does not know is skipped): what decisioning ranks for a load.
  ///
  /// Resolved on the unit's first load after a change to the inventory and kept, so that a
  /// load costs one lookup however many creatives the unit lists and the store holds (looking
  /// up a hundred IDs in a store of a million misses the cache a hundred times).
  public func listedCreatives(of unit: AdUnit) -> Listing { resolved(unit).listing }

  /// The listing of `unit` and its ranking order (``CreativeSelector/Ranking``), resolved and
  /// kept together.
  func ranking(of unit: AdUnit) -> ResolvedListing { resolved(unit) }

  private func resolved(_ unit: AdUnit) -> ResolvedListing {
    let ids = unit.creativeIDs
    for i in recentListings.indices
    where recentListings[i].generation == generation
      && Self.sameStorage(recentListings[i].ids, ids)
    {
      if i > 0 { recentListings.swapAt(i, i - 1) }
      return recentListings[i > 0 ? i - 1 : 0]
    }
    let key = ByteKeys.Key(unit.id)
    if let kept = listings[key], kept.generation == generation, kept.ids == ids {
      remember(kept)
      return kept
    }
    var listing: Listing = []
    listing.reserveCapacity(ids.count)
    var seen = Set<String>(minimumCapacity: ids.count)
    for (index, id) in ids.enumerated() where seen.insert(id).inserted {
      if let creative = creatives[id] { listing.append((index, creative)) }
    }
    let made = ResolvedListing(
      ids: ids, generation: generation, listing: listing,
      ranking: CreativeSelector.Ranking(listing))
    listings[key] = made
    remember(made)
    return made
  }

  private func remember(_ listing: ResolvedListing) {
    if recentListings.count == Self.recentLimit { recentListings.removeLast() }
    recentListings.insert(listing, at: 0)
  }

  /// Whether `a` and `b` are one array's storage (not merely equal).
  private static func sameStorage(_ a: [String], _ b: [String]) -> Bool {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
    }
  }

  // MARK: Validated store

  /// Defines (or redefines) a custom format; returns whether it replaced one.
  ///
  /// Rules: the ID is not empty; every asset name is non-empty and unique. Redefining a format
  /// must keep every stored creative of that format valid (see ``putCreative(_:)``).
  ///
  /// - Throws: ``InventoryError`` naming the format (``InventoryProblem/emptyAssetName(index:)``,
  ///   ``InventoryProblem/wouldInvalidateCreative(id:_:)``...). Nothing changes when it throws.
  @discardableResult
  public func defineFormat(_ format: CustomFormat) throws(InventoryError) -> Bool {
    func fail(_ problem: InventoryProblem) -> InventoryError {
      InventoryError(.format, format.id, problem)
    }
    guard !format.id.isEmpty else { throw fail(.emptyID) }
    var names: [String: Int] = [:]
    for (index, asset) in format.assets.enumerated() {
      guard !asset.name.isEmpty else { throw fail(.emptyAssetName(index: index)) }
      if let earlier = names[asset.name] {
        throw fail(.repeatedAssetName(index: index, firstIndex: earlier, name: asset.name))
      }
      names[asset.name] = index
    }
    let replaced = formats[format.id] != nil
    if replaced {
      let users = creatives.values
        .filter { $0.customFormatID == format.id }
        .sorted { $0.id < $1.id }
      for creative in users {
        if let problem = Self.customAssetsProblem(of: creative, against: format) {
          throw fail(.wouldInvalidateCreative(id: creative.id, problem))
        }
      }
    }
    formats[format.id] = format
    return replaced
  }

  /// Stores (or replaces) a creative; returns whether it replaced one.
  ///
  /// Rules for every creative: the ID is not empty; images have positive sizes; a native
  /// creative's assets pass ``NativeAssets/problem`` (star rating within
  /// ``NativeAssets/starRatingRange``); eCPM, duration and aspect ratio are finite and not
  /// negative; Mute This Ad reasons are non-empty and unique. For a custom creative: its format
  /// exists; every asset is defined by the format with the right type (text, image or video)
  /// and given once; every required asset is present; a video asset needs video media
  /// (``MediaContent/hasVideoContent``); at most one video asset.
  ///
  /// - Throws: ``InventoryError`` naming the creative. Nothing changes when it throws.
  @discardableResult
  public func putCreative(_ creative: Creative) throws(InventoryError) -> Bool {
    try storeCreative(creative) != nil
  }

  /// Stores (or replaces) a creative as ``putCreative(_:)`` does; returns the creative it
  /// replaced (the store loader tells a creative its file gives twice from one it replaces).
  public func storeCreative(_ creative: Creative) throws(InventoryError) -> Creative? {
    if let problem = problem(of: creative) {
      throw InventoryError(.creative, creative.id, problem)
    }
    changed()
    return creatives.updateValue(creative, forKey: creative.id)
  }

  /// Makes room for `count` more creatives (a store loader that knows roughly how many come).
  public func reserveCapacity(creatives count: Int) {
    creatives.reserveCapacity(creatives.count + count)
  }

  /// The inventory's content at one moment, to go back to (``restore(_:)``). Copies nothing
  /// until one of them changes.
  public struct Snapshot: Sendable {
    fileprivate var formats: [String: CustomFormat]
    fileprivate var creatives: [String: Creative]
    fileprivate var units: [ByteKeys.Key: AdUnit]
  }

  /// The creative with ID `id` in the snapshot.
  public func creative(_ id: String, in snapshot: Snapshot) -> Creative? { snapshot.creatives[id] }

  /// The content now (see ``Snapshot``).
  public func snapshot() -> Snapshot {
    Snapshot(formats: formats, creatives: creatives, units: units)
  }

  /// Puts back the content of `snapshot`.
  public func restore(_ snapshot: Snapshot) {
    formats = snapshot.formats
    creatives = snapshot.creatives
    units = snapshot.units
    listings = [:]
    changed()
  }

  /// Stores (or replaces) an ad unit; returns whether it replaced one.
  ///
  /// Rules: the ID is not empty; every listed creative exists; none is listed twice. A
  /// ``AdUnit/waterfall``, when given, is not empty; every source's eCPM is finite and at
  /// least 0; a custom event names an adapter class (not empty) and has a timeout of at
  /// least 1 ms; the `inventory` source appears at most once. A ``AdUnit/deadlineMs``, when
  /// given, is at least 1.
  ///
  /// - Throws: ``InventoryError`` naming the unit. Nothing changes when it throws.
  @discardableResult
  public func putAdUnit(_ adUnit: AdUnit) throws(InventoryError) -> Bool {
    func fail(_ problem: InventoryProblem) -> InventoryError {
      InventoryError(.adUnit, adUnit.id, problem)
    }
    guard !adUnit.id.isEmpty else { throw fail(.emptyID) }
    if let problem = listingProblem(of: adUnit.creativeIDs) { throw fail(problem) }
    if let problem = Self.mediationProblem(of: adUnit) { throw fail(problem) }
    let replaced = units.updateValue(adUnit, forKey: ByteKeys.Key(adUnit.id)) != nil
    changed()
    return replaced
  }

  /// Removes the item of `kind` with ID `id`; returns whether it existed.
  ///
  /// - Throws: ``InventoryError`` (``InventoryProblem/formatInUse(creativeID:)``,
  ///   ``InventoryProblem/creativeInUse(adUnitID:)``) when a format is still used by a creative
  ///   or a creative is still listed by an ad unit; the user named is the first by ID. Nothing
  ///   changes when it throws.
  @discardableResult
  public func remove(kind: InventoryItemKind, id: String) throws(InventoryError) -> Bool {
    switch kind {
    case .format:
      guard formats[id] != nil else { return false }
      if let user = creatives.values.filter({ $0.customFormatID == id }).map(\.id).min() {
        throw InventoryError(kind, id, .formatInUse(creativeID: user))
      }
      formats.removeValue(forKey: id)
    case .creative:
      guard creatives[id] != nil else { return false }
      if let user = units.values.filter({ $0.creativeIDs.contains(id) }).map(\.id).min() {
        throw InventoryError(kind, id, .creativeInUse(adUnitID: user))
      }
      creatives.removeValue(forKey: id)
      changed()
    case .adUnit:
      guard units.removeValue(forKey: ByteKeys.Key(id)) != nil else { return false }
      changed(unit: id)
    }
    return true
  }

  // MARK: Validation

  /// The first store rule `creative` breaks (see ``putCreative(_:)``), or nil.
  private func problem(of creative: Creative) -> InventoryProblem? {
    // The packer applied these rules, through the same functions, when it packed it.
    if creative.wasPacked { return nil }
    if creative.id.isEmpty { return .emptyID }
    guard creative.eCPM.isFinite, creative.eCPM >= 0 else { return .invalidECPM }
    if let problem = creative.media.problem { return .media(problem) }
    if let problem = Self.muteReasonsProblem(creative.muteThisAdReasons) { return problem }
    if let problem = creative.adChoices?.image.problem { return .adChoicesImage(problem) }
    switch creative.content {
    case .native(let assets):
      return assets.problem.map(InventoryProblem.nativeAssets)
    case .custom(let formatID, let assets):
      guard let format = formats[formatID] else { return .unknownFormat(formatID) }
      for asset in assets {
        if let problem = asset.value.image?.problem {
          return .customAsset(name: asset.name, .image(problem))
        }
      }
      return Self.customAssetsProblem(of: creative, against: format)
    }
  }

  /// The first listing rule broken in `ids` (each a stored creative, none listed twice), in
  /// listing order, or nil. One lookup per ID: a listed creative is known by its storage, and
  /// repeats are found by sorting those (units of a large store list hundreds).
  private func listingProblem(of ids: [String]) -> InventoryProblem? {
    var firstUnknown: Int?
    var found: [(storage: UInt, index: Int)] = []
    found.reserveCapacity(ids.count)
    for (index, id) in ids.enumerated() {
      guard let creative = creatives[id] else {
        firstUnknown = index
        break
      }
      found.append((creative.storageIdentity, index))
    }
    var firstRepeat: (index: Int, first: Int)?
    if found.count > 1 {
      found.sort { $0.storage != $1.storage ? $0.storage < $1.storage : $0.index < $1.index }
      for k in 1..<found.count where found[k].storage == found[k - 1].storage {
        // The first of a group is listed first; the second is its first repeat.
        if k >= 2 && found[k - 2].storage == found[k].storage { continue }
        if found[k].index < firstRepeat?.index ?? .max {
          firstRepeat = (found[k].index, found[k - 1].index)
        }
      }
    }
    if let firstRepeat, firstRepeat.index < firstUnknown ?? .max {
      return .repeatedCreative(
        index: firstRepeat.index, firstIndex: firstRepeat.first,
        creativeID: ids[firstRepeat.index])
    }
    if let firstUnknown {
      return .unknownCreative(index: firstUnknown, creativeID: ids[firstUnknown])
    }
    return nil
  }

  /// The first rule a list of Mute This Ad reasons breaks (each non-empty, none repeated), or
  /// nil. Used by ``putCreative(_:)`` and by the ``CreativePacker``.
  static func muteReasonsProblem(_ reasons: [String]) -> InventoryProblem? {
    var seen: Set<String> = []
    for (index, reason) in reasons.enumerated() {
      if reason.isEmpty { return .emptyMuteReason(index: index) }
      guard seen.insert(reason).inserted else {
        return .repeatedMuteReason(index: index, reason: reason)
      }
    }
    return nil
  }

  /// The first rule a custom creative's assets break against `format` (each defined, of its
  /// type, once; every required one present; a video asset only with video media, and at most
  /// one), or nil.
  private static func customAssetsProblem(of creative: Creative, against format: CustomFormat)
    -> InventoryProblem?
  {
    guard case .custom(_, let assets) = creative.content else { return nil }
    var given: Set<String> = []
    var videoAsset: String?
    for asset in assets {
      func fail(_ problem: CustomAssetProblem) -> InventoryProblem {
        .customAsset(name: asset.name, problem)
      }
      guard given.insert(asset.name).inserted else { return fail(.givenTwice) }
      guard let definition = format.asset(named: asset.name) else {
        return fail(.notInFormat(formatID: format.id))
      }
      guard asset.value.type == definition.type else {
        return fail(.wrongType(expected: definition.type, formatID: format.id))
      }
      if definition.type == .video {
        if let first = videoAsset { return fail(.secondVideo(first: first)) }
        guard creative.media.hasVideoContent else { return fail(.videoWithoutVideoContent) }
        videoAsset = asset.name
      }
    }
    for definition in format.assets where definition.required && !given.contains(definition.name) {
      return .customAsset(name: definition.name, .requiredByFormat(formatID: format.id))
    }
    return nil
  }

  /// The first rule `adUnit`'s waterfall and deadline break (see ``putAdUnit(_:)``), or nil.
  private static func mediationProblem(of adUnit: AdUnit) -> InventoryProblem? {
    if let deadline = adUnit.deadlineMs, deadline < 1 { return .nonPositiveDeadline }
    guard let waterfall = adUnit.waterfall else { return nil }
    guard !waterfall.isEmpty else { return .emptyWaterfall }
    var inventorySource: Int?
    for (index, source) in waterfall.enumerated() {
      guard source.eCPM.isFinite, source.eCPM >= 0 else {
        return .source(index: index, .invalidECPM)
      }
      switch source {
      case .inventory:
        if let earlier = inventorySource {
          return .source(index: index, .repeatedInventory(firstIndex: earlier))
        }
        inventorySource = index
      case .customEvent(let className, _, _, let timeoutMs, _):
        if className.isEmpty { return .source(index: index, .emptyAdapterClassName) }
        if timeoutMs < 1 { return .source(index: index, .nonPositiveTimeout) }
      }
    }
    return nil
  }
}
