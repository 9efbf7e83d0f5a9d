import Synchronization

/// One creative in the inventory: its content, media, how it is sold, how it ranks, and where a
/// click on it leads.
///
/// A creative is a value behind one immutable box: it is copied into every ad loaded from it,
/// into rankings and into replies, and a copy costs one reference count (copy-on-write for the
/// rare change). The box keeps at hand what decisioning reads for every listed creative (ID,
/// kind, priority, eCPM, targeting, orientation); the rest (assets, media, AdChoices, click
/// targets: ``Details``) is what a served ad reads. A creative made in code has both at once; a
/// creative read from a store file by the loader's packed path (``PackedNativeCreative``) keeps
/// its details packed in a few bytes and unpacks them once, on first use, so that a store of a
/// million creatives costs a few hundred bytes per creative until its creatives are served.
public struct Creative: Sendable {
  /// Every stored value, for ``init(id:content:media:adChoices:isIndirect:priority:eCPM:deepLinks:landingPageURL:hasCustomClickAction:targeting:muteThisAdReasons:tracking:)``
  /// and the setters.
  struct Fields: Sendable {
    var id: String
    var content: CreativeContent
    var media: MediaContent
    var adChoices: AdChoicesInfo?
    var isIndirect: Bool
    var priority: Int
    var eCPM: Double
    var deepLinks: [String]
    var landingPageURL: String
    var hasCustomClickAction: Bool
    var targeting: Targeting
    var muteThisAdReasons: [String]
    var tracking: AdTracking?
  }

  /// What only a served ad reads.
  struct Details: Sendable {
    var content: CreativeContent
    var media: MediaContent
    var adChoices: AdChoicesInfo?
    var deepLinks: [String]
    var landingPageURL: String
    var muteThisAdReasons: [String]
    var tracking: AdTracking?
  }

  final class DetailsBox: Sendable {
    let details: Details
    init(_ details: Details) { self.details = details }
  }

  /// Non-empty targeting, shared by the creatives that have the same.
  final class SharedTargeting: Sendable {
    let targeting: Targeting
    init(_ targeting: Targeting) { self.targeting = targeting }
  }

  struct Flags: OptionSet, Sendable {
    let rawValue: UInt8
    static let custom = Flags(rawValue: 1)
    static let indirect = Flags(rawValue: 2)
    static let customClickAction = Flags(rawValue: 4)
    static let tracking = Flags(rawValue: 8)
    /// ``MediaContent/hasVideoContent`` (never for a packed creative: the packer takes no
    /// video), read without the details.
    static let video = Flags(rawValue: 16)
  }

  final class Box: Sendable {
    let id: String
    let priority: Int
    let eCPM: Double
    /// nil for no targeting.
    let targeting: SharedTargeting?
    /// The packed details of a creative read by the store loader's packed path.
    let packed: PackedNativeCreative?
    /// A packed creative's first image (0 × 0 for none), for its orientation.
    let firstImageWidth: UInt16
    let firstImageHeight: UInt16
    let flags: Flags
    /// The details: set at creation, or unpacked from ``packed`` on first use.
    private let details: Atomic<Unmanaged<DetailsBox>?>

    init(_ f: Fields) {
      id = f.id
      priority = f.priority
      eCPM = f.eCPM
      targeting = f.targeting.isEmpty ? nil : SharedTargeting(f.targeting)
      packed = nil
      firstImageWidth = 0
      firstImageHeight = 0
      var flags: Flags = []
      if f.content.kind == .customNative { flags.insert(.custom) }
      if f.isIndirect { flags.insert(.indirect) }
      if f.hasCustomClickAction { flags.insert(.customClickAction) }
      if f.tracking != nil { flags.insert(.tracking) }
      if f.media.hasVideoContent { flags.insert(.video) }
      self.flags = flags
      details = Atomic(
        Unmanaged.passRetained(
          DetailsBox(
            Details(
              content: f.content, media: f.media, adChoices: f.adChoices, deepLinks: f.deepLinks,
              landingPageURL: f.landingPageURL, muteThisAdReasons: f.muteThisAdReasons,
              tracking: f.tracking))))
    }

    init(
      id: String, priority: Int, eCPM: Double, targeting: SharedTargeting?, flags: Flags,
      packed: PackedNativeCreative, firstImageWidth: UInt16, firstImageHeight: UInt16
    ) {
      self.id = id
      self.priority = priority
      self.eCPM = eCPM
      self.targeting = targeting
      self.flags = flags
      self.packed = packed
      self.firstImageWidth = firstImageWidth
      self.firstImageHeight = firstImageHeight
      details = Atomic(nil)
    }

    deinit {
      if let unmanaged = details.load(ordering: .relaxed) { unmanaged.release() }
    }

    /// The details, unpacked on the first call for a packed creative (any thread; a race
    /// unpacks twice and keeps one).
    var unpacked: DetailsBox {
      if let unmanaged = details.load(ordering: .acquiring) {
        return unmanaged.takeUnretainedValue()
      }
      // Only packed creatives start without details.
      let made = Unmanaged.passRetained(DetailsBox(packed!.details(creativeID: id)))
      let (stored, existing) = details.compareExchange(
        expected: nil, desired: made, successOrdering: .acquiringAndReleasing,
        failureOrdering: .acquiring)
      if stored { return made.takeUnretainedValue() }
      made.release()
      return existing!.takeUnretainedValue()
    }

    /// Whether the details exist yet (always for a creative made in code). For tests.
    var isUnpacked: Bool { details.load(ordering: .acquiring) != nil }

    var fields: Fields {
      let d = unpacked.details
      return Fields(
        id: id, content: d.content, media: d.media, adChoices: d.adChoices,
        isIndirect: flags.contains(.indirect), priority: priority, eCPM: eCPM,
        deepLinks: d.deepLinks, landingPageURL: d.landingPageURL,
        hasCustomClickAction: flags.contains(.customClickAction),
        targeting: targeting?.targeting ?? Targeting(), muteThisAdReasons: d.muteThisAdReasons,
        tracking: d.tracking)
    }
  }

  private(set) var box: Box

  init(box: Box) { self.box = box }

  private mutating func update(_ change: (inout Fields) -> Void) {
    var fields = box.fields
    change(&fields)
    box = Box(fields)
  }

  // The getters read one field of the details each, in place: a `details` property would copy
  // every field (a reference count each) to read one.

  /// The creative ID, unique in an ``Inventory``.
  public var id: String {
    get { box.id }
    set { update { $0.id = newValue } }
  }
  /// The assets.
  public var content: CreativeContent {
    get { box.unpacked.details.content }
    set { update { $0.content = newValue } }
  }
  /// The media content.
  public var media: MediaContent {
    get { box.unpacked.details.media }
    set { update { $0.media = newValue } }
  }
  /// ``media``'s `hasVideoContent`, read in place (no copy of the media).
  public var hasVideoContent: Bool { box.flags.contains(.video) }
  /// The AdChoices overlay: always there for indirect ads; a direct-sold ad carries it only
  /// when its creative says so (the Digital Services Act rule for reservation ads in the EEA).
  public var adChoices: AdChoicesInfo? {
    get { box.unpacked.details.adChoices }
    set { update { $0.adChoices = newValue } }
  }
  /// The line item priority: higher wins.
  public var priority: Int {
    get { box.priority }
    set { update { $0.priority = newValue } }
  }
  /// The eCPM; breaks priority ties, higher wins.
  public var eCPM: Double {
    get { box.eCPM }
    set { update { $0.eCPM = newValue } }
  }
  /// Deep links tried in order on a click; the first whose scheme the caller can open is used.
  public var deepLinks: [String] {
    get { box.unpacked.details.deepLinks }
    set { update { $0.deepLinks = newValue } }
  }
  /// The page opened on a click when no deep link applies.
  public var landingPageURL: String {
    get { box.unpacked.details.landingPageURL }
    set { update { $0.landingPageURL = newValue } }
  }
  /// Whether the creative has a custom click action, so that a custom click handler takes over
  /// its clicks (meaningful for custom formats only).
  public var hasCustomClickAction: Bool {
    get { box.flags.contains(.customClickAction) }
    set { update { $0.hasCustomClickAction = newValue } }
  }
  /// What a request must match for this creative to serve.
  public var targeting: Targeting {
    get { box.targeting?.targeting ?? Targeting() }
    set { update { $0.targeting = newValue } }
  }
  /// The reasons offered by Mute This Ad; empty when the creative does not offer it.
  public var muteThisAdReasons: [String] {
    get { box.unpacked.details.muteThisAdReasons }
    set { update { $0.muteThisAdReasons = newValue } }
  }

  /// The third-party tracking of a creative written in OpenRTB Native; nil for the others.
  public var tracking: AdTracking? {
    get { hasTracking ? box.unpacked.details.tracking : nil }
    set { update { $0.tracking = newValue } }
  }

  /// Whether ``tracking`` is set (one bit: what the request paths of every other ad ask).
  public var hasTracking: Bool { box.flags.contains(.tracking) }

  /// The eCPMs a store may state (creatives and waterfall sources alike).
  public static let eCPMRange: ClosedRange<Double> = 0...1_000_000

  /// The ad kind this creative is served as.
  public var kind: AdKind { box.flags.contains(.custom) ? .customNative : .native }

  /// The custom format ID, for a custom creative (``CreativeContent/customFormatID`` without
  /// unpacking the assets of a native one: decisioning asks it of every listed creative).
  public var customFormatID: String? {
    box.flags.contains(.custom) ? content.customFormatID : nil
  }

  /// True for indirect (backfill, programmatic) ads, which carry AdChoices and show the ad
  /// attribution; false for direct-sold (reservation) ads.
  public var isIndirect: Bool {
    get { box.flags.contains(.indirect) }
    set { update { $0.isIndirect = newValue } }
  }

  /// Whether `other` is this very creative (a copy of the same stored value), not merely one
  /// with equal fields.
  public func isIdentical(to other: Creative) -> Bool { box === other.box }

  /// What ``isIdentical(to:)`` compares, as a number.
  var storageIdentity: UInt { UInt(bitPattern: ObjectIdentifier(box)) }

  /// Whether the assets are packed and not unpacked yet (see the type's discussion). For tests
  /// and measurements.
  public var isPacked: Bool { box.packed != nil && !box.isUnpacked }

  /// Whether the creative was read by the store loader's packed path (its details are unpacked
  /// on first use); its store rules were checked when it was packed.
  var wasPacked: Bool { box.packed != nil }

  /// The width / height ratio that gives the creative its orientation for
  /// ``LoaderOptions/mediaAspectRatio``: ``MediaContent/aspectRatio`` when known (> 0), else the
  /// ratio of its first image (a native creative's first image, a custom creative's first image
  /// asset); nil when neither exists.
  public var orientationRatio: Double? {
    if box.packed != nil {
      // A packed creative has no video: its media is its first image, if any.
      let (width, height) = (box.firstImageWidth, box.firstImageHeight)
      guard width > 0, height > 0 else { return nil }
      return Double(width) / Double(height)
    }
    if media.aspectRatio > 0 { return media.aspectRatio }
    let first: AdImage?
    switch content {
    case .native(let assets): first = assets.images.first
    case .custom(_, let assets): first = assets.lazy.compactMap(\.value.image).first
    }
    guard let first, first.width > 0, first.height > 0 else { return nil }
    return Double(first.width) / Double(first.height)
  }

  /// Creates a creative. `isIndirect` defaults to whether `adChoices` is given; an indirect
  /// creative must have AdChoices (the inventory checks it).
  public init(
    id: String,
    content: CreativeContent,
    media: MediaContent = MediaContent(),
    adChoices: AdChoicesInfo? = nil,
    isIndirect: Bool? = nil,
    priority: Int = 0,
    eCPM: Double = 0,
    deepLinks: [String] = [],
    landingPageURL: String,
    hasCustomClickAction: Bool = false,
    targeting: Targeting = Targeting(),
    muteThisAdReasons: [String] = [],
    tracking: AdTracking? = nil
  ) {
    box = Box(
      Fields(
        id: id, content: content, media: media, adChoices: adChoices,
        isIndirect: isIndirect ?? (adChoices != nil), priority: priority,
        eCPM: eCPM, deepLinks: deepLinks, landingPageURL: landingPageURL,
        hasCustomClickAction: hasCustomClickAction, targeting: targeting,
        muteThisAdReasons: muteThisAdReasons, tracking: tracking))
  }
}

extension Creative {
  /// Every image the creative shows, in a fixed order: the icon and images of a native
  /// creative or the image assets of a custom one, then the media's main image and the
  /// AdChoices icon.
  public var allImages: [AdImage] {
    var images: [AdImage] = []
    switch content {
    case .native(let assets):
      images += [assets.icon].compactMap { $0 } + assets.images
    case .custom(_, let assets):
      images += assets.compactMap(\.value.image)
    }
    return images + [media.mainImage, adChoices?.image].compactMap { $0 }
  }
}
