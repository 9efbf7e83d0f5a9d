/// What a creative asks of a request before it may serve (Ad Manager line-item targeting).
///
/// A request matches when, for every key of ``customTargeting``, the request's custom
/// targeting has that key with at least one of the listed values (values compare exactly; a key
/// listed with no values is satisfied by any value of that key); when ``keywords`` is not
/// empty, the request shares at least one keyword (case-insensitive); when ``contentURLs`` is
/// not empty, the request's content URL starts with one of them. Empty targeting matches all.
public struct Targeting: Sendable, Equatable {
  /// Required key-values: every key must be matched by the request.
  public var customTargeting: [String: [String]]
  /// Keywords, one of which the request must share (case-insensitive), when not empty.
  public var keywords: [String]
  /// URL prefixes, one of which the request's content URL must start with, when not empty.
  public var contentURLs: [String]

  /// Creates targeting; the defaults restrict nothing.
  public init(
    customTargeting: [String: [String]] = [:], keywords: [String] = [], contentURLs: [String] = []
  ) {
    self.customTargeting = customTargeting
    self.keywords = keywords
    self.contentURLs = contentURLs
  }

  /// True when the targeting restricts nothing.
  public var isEmpty: Bool { customTargeting.isEmpty && keywords.isEmpty && contentURLs.isEmpty }

  /// Whether `request` satisfies this targeting (see the type's discussion).
  public func matches(_ request: AdRequest) -> Bool {
    for (key, values) in customTargeting {
      guard let offered = request.customTargeting[key] else { return false }
      if !values.isEmpty && !values.contains(where: offered.contains) { return false }
    }
    if !keywords.isEmpty {
      let wanted = Set(keywords.map { $0.lowercased() })
      guard request.keywords.contains(where: { wanted.contains($0.lowercased()) }) else {
        return false
      }
    }
    if !contentURLs.isEmpty {
      guard let contentURL = request.contentURL,
        contentURLs.contains(where: { contentURL.hasPrefix($0) })
      else { return false }
    }
    return true
  }
}
