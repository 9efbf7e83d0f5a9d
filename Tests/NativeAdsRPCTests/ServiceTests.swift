import JSONRPC
import NativeAdsRPC
import Testing

@Suite struct ServiceTests {
  private let harness = ServiceHarness()

  @Test func everyContractMethodIsRegistered() {
    let names = Set(harness.dispatcher.methodNames)
    for method in [
      "loadAd", "stringForKey", "imageForKey", "performClickOnAsset", "recordImpression",
      "setCustomClickHandler", "releaseAd",
    ] {
      #expect(names.contains(method), "\(method)")
    }
  }

  @Test func everyMethodOfTheDesignIsRegistered() {
    let names = Set(harness.dispatcher.methodNames)
    for method in [
      "registerAdView", "unregisterAdView", "reportVisibility", "reportScreenDismissed",
      "muteThisAd", "videoControl", "getVideoState", "getEvents", "store.defineFormat",
      "store.putCreative", "store.putAdUnit", "store.remove", "store.list",
    ] {
      #expect(names.contains(method), "\(method)")
    }
  }

  @Test func anUnknownMethodIsMethodNotFound() throws {
    let error = try harness.connect().error("loadAds", #"{"adUnitID":"x"}"#)
    #expect(error["code"] == .number("-32601"))
    #expect(error["message"] == .string("Method not found"))
  }

  @Test func aLoadSentAsANotificationIsNotAnswered() throws {
    let client = harness.connect()
    let messages = try client.send(
      #"{"jsonrpc":"2.0","method":"loadAd","params":{"adUnitID":"\#(Units.direct)"}}"#)
    #expect(messages.isEmpty)
    let failing = try client.send(#"{"jsonrpc":"2.0","method":"loadAd","params":{"adUnitID":5}}"#)
    #expect(failing.isEmpty)
  }

  @Test func aBatchOfServiceCallsIsAnsweredInOrder() throws {
    let client = harness.connect()
    let adId = try client.loadAdID()
    let messages = try client.send(
      """
      [{"jsonrpc":"2.0","id":"a","method":"stringForKey","params":{"adId":"\(adId)","key":"price"}},\
      {"jsonrpc":"2.0","id":"b","method":"recordImpression","params":{"adId":"\(adId)"}},\
      {"jsonrpc":"2.0","id":"c","method":"releaseAd","params":{"adId":"\(adId)"}},\
      {"jsonrpc":"2.0","id":"d","method":"releaseAd","params":{"adId":"\(adId)"}}]
      """)
    #expect(messages.count == 2)
    #expect(messages[0]["method"] == .string("adEvent"))
    let replies = try #require(messages[1].items)
    #expect(replies.map { $0["id"] } == [.string("a"), .string("b"), .string("c"), .string("d")])
    #expect(replies[0]["result"] == .string("Free"))
    #expect(replies[1]["result"] == .object([("recorded", .bool(true))]))
    #expect(replies[2]["result"] == .object([("released", .bool(true))]))
    #expect(replies[3]["error"]?["code"] == .number("2001"))
  }

  @Test func aContentLengthClientGetsAdsAndEventsInContentLengthFraming() throws {
    let session = RPCSession(id: 99, dispatcher: harness.dispatcher)
    harness.service.attach(session)
    defer { session.close() }
    let body =
      #"{"jsonrpc":"2.0","id":1,"method":"loadAd","params":{"adUnitID":"\#(Units.direct)","options":{"disableImageLoading":true}}}"#
    session.receive("Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    let output = session.takeOutput()
    let separator: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
    let headerEnd = try #require(
      output.indices.first { output[$0...].starts(with: separator) })
    let header = String(decoding: output[..<headerEnd], as: UTF8.self)
    let reply = String(decoding: output[(headerEnd + 4)...], as: UTF8.self)
    #expect(header == "Content-Length: \(reply.utf8.count)")
    let adId = try #require(JSONParser().parseValue(reply)["result"]?["ads"]?[0]?["adId"]?.text)
    _ = try harness.connect().result("recordImpression", #"{"adId":"\#(adId)"}"#)
    let event = String(decoding: session.takeOutput(), as: UTF8.self)
    #expect(event.hasPrefix("Content-Length: "))
    #expect(event.hasSuffix(#""event":"didRecordImpression","assetKey":null}}"#))
  }
}
