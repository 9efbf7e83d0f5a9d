/// One creative in the inventory: its content, media, how it is sold, how it ranks, and where a
/// click on it leads.
public struct Creative: Sendable {
  /// The stored values. A creative is copied into every ad loaded from it, into rankings and
  /// into replies: behind one immutable box a copy costs one reference count, not one per
  /// field (copy-on-write for the rare change).
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
  }

  final class Box: Sendable {
    let fields: Fields
    init(_ fields: Fields) { self.fields = fields }
  }

  private var box: Box

  private mutating func update(_ change: (inout Fields) -> Void) {
    var fields = box.fields
    change(&fields)
    box = Box(fields)
  }

  /// The creative ID, unique in an ``Inventory``.
  public var id: String {
    get { box.fields.id }
    set { update { $0.id = newValue } }
  }
  /// The assets.
  public var content: CreativeContent {
    get { box.fields.content }
    set { update { $0.content = newValue } }
  }
  /// The media content.
  public var media: MediaContent {
    get { box.fields.media }
    set { update { $0.media = newValue } }
  }
  /// The AdChoices overlay: always there for indirect ads; a direct-sold ad carries it only
  /// when its creative says so (the Digital Services Act rule for reservation ads in the EEA).
  public var adChoices: AdChoicesInfo? {
    get { box.fields.adChoices }
    set { update { $0.adChoices = newValue } }
  }
  /// The line item priority: higher wins.
  public var priority: Int {
    get { box.fields.priority }
    set { update { $0.priority = newValue } }
  }
  /// The eCPM; breaks priority ties, higher wins.
  public var eCPM: Double {
    get { box.fields.eCPM }
    set { update { $0.eCPM = newValue } }
  }
  /// Deep links tried in order on a click; the first whose scheme the caller can open is used.
  public var deepLinks: [String] {
    get { box.fields.deepLinks }
    set { update { $0.deepLinks = newValue } }
  }
  /// The page opened on a click when no deep link applies.
  public var landingPageURL: String {
    get { box.fields.landingPageURL }
    set { update { $0.landingPageURL = newValue } }
  }
  /// Whether the creative has a custom click action, so that a custom click handler takes over
  /// its clicks (meaningful for custom formats only).
  public var hasCustomClickAction: Bool {
    get { box.fields.hasCustomClickAction }
    set { update { $0.hasCustomClickAction = newValue } }
  }
  /// What a request must match for this creative to serve.
  public var targeting: Targeting {
    get { box.fields.targeting }
    set { update { $0.targeting = newValue } }
  }
  /// The reasons offered by Mute This Ad; empty when the creative does not offer it.
  public var muteThisAdReasons: [String] {
    get { box.fields.muteThisAdReasons }
    set { update { $0.muteThisAdReasons = newValue } }
  }

  /// The eCPMs a store may state (creatives and waterfall sources alike).
  public static let eCPMRange: ClosedRange<Double> = 0...1_000_000

  /// The ad kind this creative is served as.
  public var kind: AdKind { content.kind }

  /// True for indirect (backfill, programmatic) ads, which carry AdChoices and show the ad
  /// attribution; false for direct-sold (reservation) ads.
  public var isIndirect: Bool {
    get { box.fields.isIndirect }
    set { update { $0.isIndirect = newValue } }
  }

  /// The width / height ratio that gives the creative its orientation for
  /// ``LoaderOptions/mediaAspectRatio``: ``MediaContent/aspectRatio`` when known (> 0), else the
  /// ratio of its first image (a native creative's first image, a custom creative's first image
  /// asset); nil when neither exists.
  public var orientationRatio: Double? {
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
    muteThisAdReasons: [String] = []
  ) {
    box = Box(
      Fields(
        id: id, content: content, media: media, adChoices: adChoices,
        isIndirect: isIndirect ?? (adChoices != nil), priority: priority,
        eCPM: eCPM, deepLinks: deepLinks, landingPageURL: landingPageURL,
        hasCustomClickAction: hasCustomClickAction, targeting: targeting,
        muteThisAdReasons: muteThisAdReasons))
  }
}
