import JSONRPC
import Testing

@Suite struct ReleaseTests {
  private let harness = ServiceHarness()

  @Test func releasingAnAdMakesEveryLaterCallNamingItError2001() throws {
    let client = harness.connect()
    let adId = try client.loadCustomAdID()
    #expect(
      try client.result("releaseAd", #"{"adId":"\#(adId)"}"#)
        == .object([("released", .bool(true))]))
    let calls: [(String, String)] = [
      ("stringForKey", #"{"adId":"\#(adId)","key":"Headline"}"#),
      ("imageForKey", #"{"adId":"\#(adId)","key":"MainImage"}"#),
      ("performClickOnAsset", #"{"adId":"\#(adId)","key":"Headline"}"#),
      ("recordImpression", #"{"adId":"\#(adId)"}"#),
      ("setCustomClickHandler", #"{"adId":"\#(adId)","enabled":true}"#),
      ("releaseAd", #"{"adId":"\#(adId)"}"#),
    ]
    for (method, params) in calls {
      let error = try client.error(method, params)
      #expect(error["code"] == .number("2001"), "\(method)")
      #expect(error["data"]?["name"] == .string("adNotFound"))
    }
    #expect(try client.takeNotifications().isEmpty)
  }

  @Test func releasingOneAdLeavesTheOthers() throws {
    let client = harness.connect()
    let result = try client.load(#"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2}}"#)
    let first = try #require(result["ads"]?[0]?["adId"]?.text)
    let second = try #require(result["ads"]?[1]?["adId"]?.text)
    _ = try client.result("releaseAd", #"{"adId":"\#(first)"}"#)
    #expect(
      try client.result("stringForKey", #"{"adId":"\#(second)","key":"headline"}"#)
        == .string("Mobile Ads, Made Simple"))
  }

  @Test func anyConnectionMayReleaseAnAd() throws {
    let loader = harness.connect()
    let other = harness.connect()
    let adId = try loader.loadAdID()
    _ = try other.result("releaseAd", #"{"adId":"\#(adId)"}"#)
    #expect(
      try loader.error("stringForKey", #"{"adId":"\#(adId)","key":"headline"}"#)["code"]
        == .number("2001"))
  }

  @Test func closingAConnectionReleasesTheAdsItLoadedAndOnlyThose() throws {
    let leaving = harness.connect()
    let staying = harness.connect()
    let leavingResult = try leaving.load(
      #"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":2}}"#)
    let leavingIDs = (leavingResult["ads"]?.items ?? []).compactMap { $0["adId"]?.text }
    let stayingID = try staying.loadAdID(unit: Units.backfill)
    #expect(leavingIDs.count == 2)
    leaving.session.close()
    for adId in leavingIDs {
      #expect(
        try staying.error("recordImpression", #"{"adId":"\#(adId)"}"#)["code"] == .number("2001"))
    }
    #expect(
      try staying.result("stringForKey", #"{"adId":"\#(stayingID)","key":"headline"}"#)
        == .string("Backfill Puzzle Quest"))
    #expect(harness.manager.ads.map(\.id) == [stayingID])
  }

  @Test func aClosedConnectionGetsNoMoreEvents() throws {
    let loader = harness.connect()
    let other = harness.connect()
    let adId = try loader.loadAdID()
    _ = try other.result("recordImpression", #"{"adId":"\#(adId)"}"#)
    loader.session.close()
    #expect(loader.session.pendingOutputBytes > 0)  // the event sent before closing
    _ = loader.session.takeOutput()
    let otherAd = try other.loadAdID()
    _ = try other.result("recordImpression", #"{"adId":"\#(otherAd)"}"#)
    #expect(loader.session.pendingOutputBytes == 0)
  }

  @Test func releaseAdNeedsAnAdId() throws {
    let error = try harness.connect().error("releaseAd", "{}")
    #expect(error["code"] == .number("-32602"))
    #expect(error["message"] == .string("Invalid params: adId is required"))
    #expect(error["data"] == .object([("field", .string("adId"))]))
  }
}
