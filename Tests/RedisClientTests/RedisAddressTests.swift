import RedisClient
import Testing

@Suite struct RedisAddressTests {
  @Test(arguments: [
    ("redis://127.0.0.1:6380", RedisAddress(endpoint: .tcp(host: "127.0.0.1", port: 6380))),
    ("redis://cache.internal", RedisAddress(endpoint: .tcp(host: "cache.internal", port: 6379))),
    ("redis://[::1]:7000/4", RedisAddress(endpoint: .tcp(host: "::1", port: 7000), database: 4)),
    (
      "redis://:pw@h:1/", RedisAddress(endpoint: .tcp(host: "h", port: 1), password: "pw")
    ),
    (
      "redis://app:p@ss@h:2",
      RedisAddress(endpoint: .tcp(host: "h", port: 2), username: "app", password: "p@ss")
    ),
    ("unix:/run/redis.sock", RedisAddress(endpoint: .unix(path: "/run/redis.sock"))),
    (
      "unix:///run/r.sock?db=2&password=x",
      RedisAddress(endpoint: .unix(path: "/run/r.sock"), database: 2, password: "x")
    ),
  ])
  func urlsParse(_ text: String, _ expected: RedisAddress) throws {
    #expect(try RedisAddress(parsing: text) == expected)
  }

  @Test(arguments: [
    ("http://h:1", "expected redis://"),
    ("redis://", "no host"),
    ("redis://h:0", "port"),
    ("redis://h:99999", "port"),
    ("redis://h:x", "port"),
    ("redis://h:1/x", "database"),
    ("redis://[::1", "unclosed"),
    ("unix:", "no socket path"),
    ("unix:/s?db=-1", "db"),
    ("unix:/s?user=x", "unknown query item"),
  ])
  func badURLsSayWhatIsWrong(_ text: String, _ problem: String) {
    #expect {
      try RedisAddress(parsing: text)
    } throws: { error in
      guard let error = error as? RedisAddressError else { return false }
      return error.url == text && error.problem.contains(problem)
        && error.description.contains(text)
    }
  }

  @Test func thePasswordIsNeverShown() throws {
    #expect(
      try RedisAddress(parsing: "redis://u:secret@h:1/2").description == "redis://u:***@h:1/2")
    #expect(try RedisAddress(parsing: "unix:/s?password=secret").description == "unix:/s")
  }
}
