/// What a creative asks of a request before it may serve (Ad Manager line-item targeting).
///
/// A request matches when, for every key of ``customTargeting``, the request's custom
/// targeting has that key with at least one of the listed values; when ``keywords`` is not
/// empty, the request shares at least one keyword (case-insensitive); when ``contentURLs`` is
/// not empty, the request's content URL starts with one of them. Empty targeting matches all.
public struct Targeting: Sendable, Equatable {
  public var customTargeting: [String: [String]]
  public var keywords: [String]
  public var contentURLs: [String]

  public init(
    customTargeting: [String: [String]] = [:], keywords: [String] = [], contentURLs: [String] = []
  ) {
    self.customTargeting = customTargeting
    self.keywords = keywords
    self.contentURLs = contentURLs
  }

  /// True when the targeting restricts nothing.
  public var isEmpty: Bool { customTargeting.isEmpty && keywords.isEmpty && contentURLs.isEmpty }
}
