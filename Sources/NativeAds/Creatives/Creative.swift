/// One creative in the inventory: its content, media, how it is sold, how it ranks, and where a
/// click on it leads.
public struct Creative: Sendable {
  /// The creative ID, unique in an ``Inventory``.
  public var id: String
  /// The assets.
  public var content: CreativeContent
  /// The media content.
  public var media: MediaContent
  /// The AdChoices overlay: present exactly for indirect ads (see ``isIndirect``).
  public var adChoices: AdChoicesInfo?
  /// The line item priority: higher wins.
  public var priority: Int
  /// The eCPM; breaks priority ties, higher wins.
  public var eCPM: Double
  /// Deep links tried in order on a click; the first whose scheme the caller can open is used.
  public var deepLinks: [String]
  /// The page opened on a click when no deep link applies.
  public var landingPageURL: String
  /// Whether the creative has a custom click action, so that a custom click handler takes over
  /// its clicks (meaningful for custom formats only).
  public var hasCustomClickAction: Bool
  /// What a request must match for this creative to serve.
  public var targeting: Targeting
  /// The reasons offered by Mute This Ad; empty when the creative does not offer it.
  public var muteThisAdReasons: [String]

  /// The ad kind this creative is served as.
  public var kind: AdKind { content.kind }

  /// True for indirect (backfill, programmatic) ads, which carry AdChoices; false for
  /// direct-sold (reservation) ads. Derived from ``adChoices`` so the two always agree.
  public var isIndirect: Bool { adChoices != nil }

  /// The width / height ratio that gives the creative its orientation for
  /// ``LoaderOptions/mediaAspectRatio``: ``MediaContent/aspectRatio`` when known (> 0), else the
  /// ratio of its first image (a native creative's `images[0]`, a custom creative's first image
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

  /// Creates a creative. It is indirect exactly when `adChoices` is given.
  public init(
    id: String,
    content: CreativeContent,
    media: MediaContent = MediaContent(),
    adChoices: AdChoicesInfo? = nil,
    priority: Int = 0,
    eCPM: Double = 0,
    deepLinks: [String] = [],
    landingPageURL: String,
    hasCustomClickAction: Bool = false,
    targeting: Targeting = Targeting(),
    muteThisAdReasons: [String] = []
  ) {
    self.id = id
    self.content = content
    self.media = media
    self.adChoices = adChoices
    self.priority = priority
    self.eCPM = eCPM
    self.deepLinks = deepLinks
    self.landingPageURL = landingPageURL
    self.hasCustomClickAction = hasCustomClickAction
    self.targeting = targeting
    self.muteThisAdReasons = muteThisAdReasons
  }
}
