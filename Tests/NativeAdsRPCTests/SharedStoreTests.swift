import JSONRPC
import NativeAds
import Testing

/// The RPC layer over a live-ad store shared with other processes (``HeldLiveAdStore`` with
/// `isShared`, as a fleet's Redis): every call naming an ad waits for the store to find it,
/// and a store out of reach is answered `-32003` `Store unavailable`, never a wrong answer.
@Suite struct SharedStoreTests {
  private let harness = HeldStoreHarness(shared: true)

  private func request(_ id: Int, _ method: String, _ params: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
  }

  private func loadAd(_ client: Client) throws -> String {
    let sent = try client.send(
      request(
        1000, "loadAd",
        #"{"adUnitID":"\#(Units.direct)","options":{"disableImageLoading":true}}"#))
    #expect(sent.isEmpty)
    #expect(harness.store.releaseAll() == ["insert"])
    let messages = try client.takeNotifications()
    try #require(messages.count == 1)
    return try #require(messages[0]["result"]?["ads"]?[0]?["adId"]?.text)
  }

  /// Sends `method` about `adId`: nothing is answered until the store found the ad.
  private func held(_ client: Client, _ method: String, _ params: String) throws -> JSONValue? {
    let sent = try client.send(request(5, method, params))
    #expect(sent.isEmpty, "\(method) answered before the store found the ad")
    #expect(harness.store.heldCalls.first == "find")
    harness.store.releaseAll()
    let messages = try client.takeNotifications()
    try #require(messages.count == 1)
    #expect(messages[0]["id"] == .int(5))
    return messages[0]
  }

  @Test(arguments: [
    ("stringForKey", #""key":"headline""#, JSONValue.string("Flood-It! 2")),
    ("imageForKey", #""key":"icon""#, nil),
    ("getVideoState", "", JSONValue.null),
  ])
  func readsWaitForTheStoreToFindTheAd(_ method: String, _ extra: String, _ expected: JSONValue?)
    throws
  {
    let client = harness.connect()
    let adId = try loadAd(client)
    let params = #"{"adId":"\#(adId)""# + (extra.isEmpty ? "" : "," + extra) + "}"
    let reply = try held(client, method, params)
    let result = try #require(reply?["result"])
    if let expected { #expect(result == expected) } else { #expect(result["url"] != nil) }
  }

  @Test func changesFindTheAdFirstThenApplyAndAnswer() throws {
    let client = harness.connect()
    let adId = try loadAd(client)
    let sent = try client.send(request(6, "recordImpression", #"{"adId":"\#(adId)"}"#))
    #expect(sent.isEmpty)
    #expect(harness.store.releaseNext() == "find")
    #expect(try client.takeNotifications().isEmpty)
    #expect(harness.store.releaseNext() == "apply recordImpression")
    let messages = try client.takeNotifications()
    #expect(messages.map { $0["method"]?.text ?? "reply" } == ["adEvent", "reply"])
    #expect(messages.last?["result"]?["recorded"] == .bool(true))
  }

  @Test func anAdTheStoreDoesNotHaveIsNotFound() throws {
    let client = harness.connect()
    let reply = try held(client, "stringForKey", #"{"adId":"ad-elsewhere-1","key":"headline"}"#)
    #expect(reply?["error"]?["code"] == .int(2001))
  }

  @Test(arguments: [
    ("stringForKey", #","key":"headline""#), ("recordImpression", ""), ("releaseAd", ""),
    ("performClickOnAsset", #","key":"_adChoices""#), ("getVideoState", ""),
  ])
  func aStoreOutOfReachIsAnsweredStoreUnavailable(_ method: String, _ extra: String) throws {
    let client = harness.connect()
    let adId = try loadAd(client)
    harness.store.unavailable = StoreUnavailable(reason: "Redis did not answer within 2000 ms")
    let reply = try held(client, method, #"{"adId":"\#(adId)"\#(extra)}"#)
    #expect(reply?["error"]?["code"] == .int(-32003))
    #expect(reply?["error"]?["message"] == .string("Store unavailable"))
    #expect(reply?["error"]?["data"]?["reason"] == .string("Redis did not answer within 2000 ms"))
    #expect(reply?["error"]?["data"]?["adId"] == .string(adId))
  }

  @Test func aLoadWhoseAdsCannotBeKeptIsAnsweredStoreUnavailable() throws {
    let client = harness.connect()
    harness.store.unavailable = StoreUnavailable(reason: "connection lost")
    let sent = try client.send(request(7, "loadAd", #"{"adUnitID":"\#(Units.direct)"}"#))
    #expect(sent.isEmpty)
    #expect(harness.store.releaseAll() == ["insert"])
    let messages = try client.takeNotifications()
    try #require(messages.count == 1)
    #expect(messages[0]["error"]?["code"] == .int(-32003))
    #expect(messages[0]["error"]?["data"]?["reason"] == .string("connection lost"))
  }
}
