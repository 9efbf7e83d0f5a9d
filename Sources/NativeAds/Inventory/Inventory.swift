/// The ads a server can serve: custom formats, creatives and ad units, keyed by ID.
///
/// Loop-bound: used only on the event loop thread. ``AdManager`` reads it on every load, so
/// changes (e.g. from the future `store.*` methods) apply to the next load; ads already loaded
/// keep their own copy of their creative.
public final class Inventory {
  /// The custom native formats, by format ID.
  public private(set) var formats: [String: CustomFormat]
  /// The creatives, by creative ID.
  public private(set) var creatives: [String: Creative]
  /// The ad units, by ad unit ID.
  public private(set) var adUnits: [String: AdUnit]

  /// Creates an inventory, empty by default.
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

  /// Adds a custom format, replacing any with the same ID.
  public func add(_ format: CustomFormat) {
    formats[format.id] = format
  }

  /// Adds a creative, replacing any with the same ID. No validation against its format is done
  /// here.
  public func add(_ creative: Creative) {
    creatives[creative.id] = creative
  }

  /// Adds an ad unit, replacing any with the same ID.
  public func add(_ adUnit: AdUnit) {
    adUnits[adUnit.id] = adUnit
  }

  /// The custom format with ID `id`.
  public func format(_ id: String) -> CustomFormat? { formats[id] }

  /// The creative with ID `id`.
  public func creative(_ id: String) -> Creative? { creatives[id] }

  /// The ad unit with ID `id`.
  public func adUnit(_ id: String) -> AdUnit? { adUnits[id] }

  /// Removes the custom format with ID `id`; returns it if it existed.
  @discardableResult
  public func removeFormat(_ id: String) -> CustomFormat? { formats.removeValue(forKey: id) }

  /// Removes the creative with ID `id`; returns it if it existed. Ad units listing it skip it.
  @discardableResult
  public func removeCreative(_ id: String) -> Creative? { creatives.removeValue(forKey: id) }

  /// Removes the ad unit with ID `id`; returns it if it existed.
  @discardableResult
  public func removeAdUnit(_ id: String) -> AdUnit? { adUnits.removeValue(forKey: id) }
}
