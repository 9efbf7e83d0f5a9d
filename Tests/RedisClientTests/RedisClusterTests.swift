import RedisClient
import Testing

@testable import RedisClient

/// Slots, keys and redirects as the Redis Cluster specification gives them.
@Suite struct RedisClusterTests {
  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func crc16IsXmodem() {
    #expect(RedisCluster.crc16(bytes("123456789")[...]) == 0x31C3)
  }

  @Test(arguments: [
    ("foo", 12182), ("bar", 5061), ("{user1000}.following", 3443), ("{user1000}.followers", 3443),
    ("foo{}{bar}", RedisCluster.slot(of: Array("foo{}{bar}".utf8))), ("foo{{bar}}zap", 4015),
    ("foo{bar}{zap}", 5061),
  ])
  func slotsFollowTheSpecification(_ key: String, _ slot: Int) {
    #expect(RedisCluster.slot(of: bytes(key)) == slot)
  }

  @Test func anEmptyHashTagHashesTheWholeKey() {
    #expect(RedisCluster.slot(of: bytes("foo{}{bar}")) != RedisCluster.slot(of: bytes("bar")))
    #expect(
      RedisCluster.slot(of: bytes("a{}")) == Int(RedisCluster.crc16(bytes("a{}")[...]) & 16383))
  }

  @Test func theKeysOfOneAdAndOfOneFleetShareASlot() {
    #expect(
      RedisCluster.slot(of: bytes("na:f:ad:{ad-1}")) == RedisCluster.slot(of: bytes("ad-1")))
    #expect(
      RedisCluster.slot(of: bytes("{na:f}:seq")) == RedisCluster.slot(of: bytes("{na:f}:inbox:3")))
  }

  @Test func commandsAreRoutedByTheirFirstKey() {
    func key(_ args: String...) -> String? {
      RedisCluster.key(of: args.map { Array($0.utf8) }).map { String(decoding: $0, as: UTF8.self) }
    }
    #expect(key("EVALSHA", "abc", "2", "k1", "k2", "arg") == "k1")
    #expect(key("EVAL", "return 1", "0") == nil)
    #expect(key("XREAD", "COUNT", "5", "BLOCK", "100", "STREAMS", "s1", "0-0") == "s1")
    #expect(key("GET", "k") == "k")
    #expect(key("SCRIPT", "LOAD", "return 1") == nil)
    #expect(key("INCR", "{na:f}:processes") == "{na:f}:processes")
  }

  @Test func redirectsAreRead() {
    #expect(RedisCluster.redirect("MOVED 3999 127.0.0.1:6381")! == (false, 3999, "127.0.0.1:6381"))
    #expect(RedisCluster.redirect("ASK 12 10.0.0.2:7000")! == (true, 12, "10.0.0.2:7000"))
    #expect(RedisCluster.redirect("ERR unknown command") == nil)
    #expect(RedisCluster.redirect("MOVED 99999 h:1") == nil)
  }
}
