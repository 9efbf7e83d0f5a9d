/// The third-party tracking of a creative written in OpenRTB Native (a response string, or a
/// store creative given as one): the trackers the caller fetches when the impression or a
/// click is recorded, the asset links a click on an asset follows, and what an export writes
/// back (JavaScript trackers, viewability trackers, the VAST tag).
///
/// The service never fetches a tracker: the replies that record an impression or a click hand
/// the URLs to the caller (contract section 10), and the event log lists each.
public struct AdTracking: Sendable, Equatable {
  /// One `eventtrackers` entry: event type (1 impression, 2 and 3 viewability, 4 video) and
  /// method (1 image pixel, 2 JavaScript).
  public struct EventTracker: Sendable, Equatable {
    public var event: Int
    public var method: Int
    public var url: String?

    public init(event: Int, method: Int, url: String?) {
      self.event = event
      self.method = method
      self.url = url
    }

    /// Whether the caller fetches it as the impression's pixel (event 1, method 1).
    public var isImpressionPixel: Bool { event == 1 && method == 1 && url != nil }
  }

  /// A link: where a click goes (`url`, a deep link when its scheme is not a web one, with
  /// `fallback` for when it cannot be opened) and the click trackers.
  public struct Link: Sendable, Equatable {
    public var url: String
    public var fallback: String?
    public var clickTrackers: [String]

    public init(url: String, fallback: String? = nil, clickTrackers: [String] = []) {
      self.url = url
      self.fallback = fallback
      self.clickTrackers = clickTrackers
    }

    /// Whether `url` is a deep link: its scheme is not `http` or `https`.
    public var isDeepLink: Bool { !Self.isWeb(url) }

    /// The page opened when the deep link cannot be: the fallback, else the URL itself.
    public var landingPageURL: String { isDeepLink ? fallback ?? url : url }

    /// Whether `url` is a web page (`http:` or `https:`).
    public static func isWeb(_ url: String) -> Bool {
      let scheme = URLScheme.scheme(of: url)
      return scheme == "http" || scheme == "https"
    }
  }

  /// An asset's own link, by the asset key it was mapped to.
  public struct AssetLink: Sendable, Equatable {
    public var assetKey: String
    public var link: Link

    public init(assetKey: String, link: Link) {
      self.assetKey = assetKey
      self.link = link
    }
  }

  /// `imptrackers`.
  public var impressionTrackers: [String]
  /// `eventtrackers`.
  public var eventTrackers: [EventTracker]
  /// `jstracker` (kept for export; not a URL to fetch).
  public var jsTracker: String?
  /// The click trackers of the ad's link.
  public var clickTrackers: [String]
  /// The links of assets that have their own.
  public var assetLinks: [AssetLink]
  /// The VAST tag of the video asset, when the creative has one.
  public var vastTag: String?

  public init(
    impressionTrackers: [String] = [], eventTrackers: [EventTracker] = [],
    jsTracker: String? = nil, clickTrackers: [String] = [], assetLinks: [AssetLink] = [],
    vastTag: String? = nil
  ) {
    self.impressionTrackers = impressionTrackers
    self.eventTrackers = eventTrackers
    self.jsTracker = jsTracker
    self.clickTrackers = clickTrackers
    self.assetLinks = assetLinks
    self.vastTag = vastTag
  }

  /// What the caller fetches when the impression is recorded: the impression trackers, then
  /// the image pixels of event 1; each URL once.
  public var impressionURLs: [String] {
    Self.once(impressionTrackers + eventTrackers.lazy.filter(\.isImpressionPixel).compactMap(\.url))
  }

  /// The link of asset `assetKey`, when it has its own.
  public func link(ofAsset assetKey: String) -> Link? {
    assetLinks.first { $0.assetKey == assetKey }?.link
  }

  /// What the caller fetches when a click on `assetKey` is recorded: the asset link's click
  /// trackers, then the ad link's; each URL once.
  public func clickURLs(assetKey: String) -> [String] {
    Self.once((link(ofAsset: assetKey)?.clickTrackers ?? []) + clickTrackers)
  }

  /// `urls` without repeats, in order.
  static func once(_ urls: [String]) -> [String] {
    var seen = Set<String>()
    return urls.filter { seen.insert($0).inserted }
  }
}
