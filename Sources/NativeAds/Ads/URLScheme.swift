/// URL schemes as a caller names the apps it can open (`openableURLSchemes`).
enum URLScheme {
  /// The first of `links` whose scheme is one of `schemes` (case-insensitive; `"myapp"`,
  /// `"myapp:"` and `"myapp://"` all name the same scheme), or nil.
  static func firstOpenable(_ links: [String], schemes: [String]) -> String? {
    guard !links.isEmpty, !schemes.isEmpty else { return nil }
    let openable = Set(schemes.map(normalized))
    return links.first { link in scheme(of: link).map { openable.contains($0) } ?? false }
  }

  /// The lowercased scheme of `url` (the text before the first `:`), or nil when it has none.
  static func scheme(of url: String) -> String? {
    guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return nil }
    return url[..<colon].lowercased()
  }

  /// A scheme as a caller may write it (`MyApp`, `myapp:`, `myapp://`), lowercased and bare.
  static func normalized(_ scheme: String) -> String {
    var bare = Substring(scheme)
    if bare.hasSuffix("://") {
      bare = bare.dropLast(3)
    } else if bare.hasSuffix(":") {
      bare = bare.dropLast()
    }
    return bare.lowercased()
  }
}
