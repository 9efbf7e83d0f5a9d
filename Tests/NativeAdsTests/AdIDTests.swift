import Testing

@testable import NativeAds

/// Ad IDs: the manager's prefix, then its ad counter in base 36, so that a single server's IDs
/// stay short (inline strings) for its first 60 million ads.
@Suite struct AdIDTests {
  /// The counter in base 36, as the IDs should end.
  private static func base36(_ n: Int) -> String { String(n, radix: 36) }

  @Test func adIDsCountInBase36AfterThePrefix() throws {
    let manager = Fixtures.manager(seed: 3)
    var ids: [String] = []
    for _ in 0..<80 {
      guard
        case .answered(.success(let loaded), _) = manager.startLoad(
          Fixtures.request(count: 1), owner: 1)
      else {
        Issue.record("a load did not answer at once")
        return
      }
      ids += loaded.ads.map(\.id)
    }
    let prefix = try #require(ids.first?.dropLast())
    #expect(prefix.hasPrefix("ad-") && prefix.hasSuffix("-"))
    #expect(ids == (1...ids.count).map { prefix + Self.base36($0) })
    #expect(ids[9].hasSuffix("-a") && ids[34].hasSuffix("-z") && ids[35].hasSuffix("-10"))
    #expect(Set(ids).count == ids.count)
    // 10 bytes of prefix and 5 digits: 15 bytes, kept inline up to 36^5 - 1 ads.
    #expect(prefix.utf8.count + Self.base36(60_466_175).utf8.count == 15)
  }
}
