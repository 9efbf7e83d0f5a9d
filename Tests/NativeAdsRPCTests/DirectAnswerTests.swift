import NativeAds
import Testing

@testable import JSONRPC
@testable import NativeAdsRPC

/// The fast layers (``DirectHandler``) of `stringForKey` and `releaseAd`: a canonical request
/// naming an ad of this process (and a key) is answered from its bytes, and every answer one
/// gives is the one the general path gives, byte for byte; everything else it declines.
@Suite struct DirectAnswerTests {
  /// What ``FlatParams/strings(_:_:)`` reads of `text`, as text.
  private static func strings(_ text: String) -> (String, String)? {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBytes { raw in
      guard let (a, b) = FlatParams(UnsafeRawBufferPointer(raw)).strings("adId", "key") else {
        return nil
      }
      return (String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
    }
  }

  @Test func bothOrdersOfTheTwoMembersAreRead() throws {
    let a = try #require(Self.strings(#"{"adId":"ad-1","key":"headline"}"#))
    #expect(a == ("ad-1", "headline"))
    let b = try #require(Self.strings(#"{"key":"body","adId":"ad-2"}"#))
    #expect(b == ("ad-2", "body"))
    // Whitespace after the object is the envelope's, and empty values are values.
    let c = try #require(Self.strings(#"{"adId":"","key":""}"# + " \r\n"))
    #expect(c == ("", ""))
    // Values as long as a SIMD block and longer.
    let long = String(repeating: "x", count: 40)
    #expect(Self.strings(#"{"adId":"\#(long)","key":"k"}"#)?.0 == long)
  }

  @Test(arguments: [
    #"{}"#, #"{"adId":"a"}"#, #"{"key":"k"}"#,  // a member missing
    #"{"adId":"a","key":"k","x":"y"}"#,  // a third member
    #"{"adId":"a","adId":"b"}"#, #"{"key":"a","key":"b"}"#,  // repeated
    #"{"adId":"a","key":"k","adId":"b"}"#,
    #"{ "adId":"a","key":"k"}"#, #"{"adId": "a","key":"k"}"#, #"{"adId":"a", "key":"k"}"#,
    #"{"adId":"a","key":"k" }"#,  // whitespace inside
    #"{"adId":"a\"b","key":"k"}"#, #"{"adId":"a","key":"\u0068"}"#,  // escapes
    #"{"adId":"é","key":"k"}"#, #"{"adId":"a","key":"k\#u{01}"}"#,  // not plain
    #"{"adId":null,"key":"k"}"#, #"{"adId":1,"key":"k"}"#, #"{"adId":"a","key":["k"]}"#,
    #"{"adid":"a","key":"k"}"#, #"{"adIdx":"a","key":"k"}"#, #"{"ad":"a","key":"k"}"#,
    #"{"adId":"a","key":"k"},"id":2"#, #"{"adId":"a","key":"k"}}"#,  // after the object
    #"{"adId":"a","key":"k""#, #"{"adId":"a","key":"#, #"{"#, "",  // cut short
  ])
  func everyOtherSpellingIsDeclined(text: String) {
    #expect(Self.strings(text) == nil)
  }

  /// The service answering through its fast layer, and the same service with the dispatcher's
  /// fast layers off, side by side (same seed: same ad IDs).
  private final class Pair {
    let fast = ServiceHarness()
    let general = ServiceHarness()
    let fastClient: Client
    let generalClient: Client

    init() {
      general.dispatcher.readsCanonicalEnvelopes = false
      fastClient = fast.connect()
      generalClient = general.connect()
    }

    /// Sends `line` to both and returns both outputs as text.
    func send(_ line: String) -> (String, String) {
      (Self.output(fastClient.session, line), Self.output(generalClient.session, line))
    }

    private static func output(_ session: RPCSession, _ line: String) -> String {
      session.receive(line + "\n")
      return String(decoding: session.takeOutput(), as: UTF8.self)
    }
  }

  @Test func everyAnswerIsTheGeneralPathsByteForByte() throws {
    let pair = Pair()
    var ids: [String] = []
    for load in [
      #"{"adUnitID":"\#(Units.direct)"}"#,
      #"{"adUnitID":"\#(Units.direct)","adTypes":["customNative"],"customNativeAdFormatIDs":["\#(Units.customFormat)"]}"#,
      #"{"adUnitID":"\#(Units.video)"}"#,
    ] {
      let (a, b) = pair.send(#"{"jsonrpc":"2.0","id":0,"method":"loadAd","params":\#(load)}"#)
      #expect(a == b)
      let ad = try #require(try JSONParser().parseValue(a)["result"]?["ads"]?[0]?["adId"]?.text)
      ids.append(ad)
    }
    // One released: unknown to the fast layer, an error from the general path.
    let released = ids.removeLast()
    _ = pair.send(
      #"{"jsonrpc":"2.0","id":0,"method":"releaseAd","params":{"adId":"\#(released)"}}"#)
    let keys = [
      "headline", "body", "callToAction", "store", "price", "advertiser", "starRating", "icon",
      "Headline", "Caption", "MainImage", "nope", "", "headline ", "HEADLINE",
    ]
    var answeredWithText = 0
    for id in ids + [released, "ad-unknown", ""] {
      for key in keys {
        for params in [
          #"{"adId":"\#(id)","key":"\#(key)"}"#, #"{"key":"\#(key)","adId":"\#(id)"}"#,
          #"{"adId":"\#(id)","key":"\#(key)","x":1}"#, #"{"adId":"\#(id)", "key":"\#(key)"}"#,
          #"{"adId":"\#(id)"}"#,
        ] {
          for envelopeID in ["7", #""q-1""#] {
            let line =
              #"{"jsonrpc":"2.0","id":\#(envelopeID),"method":"stringForKey","params":\#(params)}"#
            let (a, b) = pair.send(line)
            #expect(a == b, "\(line)")
            if a.contains(#""result":""#) { answeredWithText += 1 }
          }
        }
      }
    }
    // The corpus reaches the texts, not only nulls and errors.
    #expect(answeredWithText > 20)
  }

  @Test func theFastLayerIsTakenForTheCommonRequest() throws {
    // A dispatcher whose stringForKey handler fails every call: only the fast layer can
    // answer a canonical request with the text.
    let harness = ServiceHarness()
    let client = harness.connect()
    let id = try client.loadAdID()
    harness.dispatcher.register(
      "stringForKey", { _, _ throws(RPCError) in throw RPCError.internalError() },
      direct: { _, _, w in
        w.string("from the fast layer")
        return true
      })
    let reply = try client.call("stringForKey", #"{"adId":"\#(id)","key":"headline"}"#)
    #expect(reply["result"]?.text == "from the fast layer")
    // The service registers its own for stringForKey, releaseAd and loadAd, and no other.
    let service = ServiceHarness()
    #expect(service.dispatcher.hasDirectHandler("stringForKey"))
    #expect(service.dispatcher.hasDirectHandler("releaseAd"))
    #expect(service.dispatcher.hasDirectHandler("loadAd"))
    #expect(!service.dispatcher.hasDirectHandler("recordImpression"))
  }

  @Test func releaseAdsFastLayerReleasesTheCommonRequestAndDeclinesTheRest() throws {
    // The general handler fails every call: what succeeds went through the fast layer.
    let harness = ServiceHarness()
    let client = harness.connect()
    let kept = try client.loadAdID()
    let released = try client.loadAdID()
    harness.dispatcher.register(
      "releaseAd", { _, _ throws(RPCError) in throw RPCError.internalError() },
      direct: try #require(ReleaseAd.directHandler(for: harness.service)))
    let reply = try client.call("releaseAd", #"{"adId":"\#(released)"}"#)
    #expect(reply["result"] == .object([("released", .bool(true))]))
    #expect(throws: AdObjectError.adNotFound(adId: released)) {
      try harness.service.manager.ad(released)
    }
    // Declined: released already, unknown, another spelling. Nothing changed for the ad kept.
    for params in [
      #"{"adId":"\#(released)"}"#, #"{"adId":"ad-unknown"}"#, #"{"adId": "\#(kept)"}"#,
      #"{"adId":"\#(kept)","x":1}"#, #"{"x":1,"adId":"\#(kept)"}"#, #"{}"#, #"{"adId":null}"#,
    ] {
      let declined = try client.call("releaseAd", params)
      #expect(declined["error"]?["code"] == .int(-32603), "\(params)")
    }
    #expect(try harness.service.manager.ad(kept).id == kept)
  }

  @Test func everyReleaseIsTheGeneralPathsByteForByte() throws {
    let pair = Pair()
    var ids: [String] = []
    for _ in 0..<4 {
      let (a, b) = pair.send(
        #"{"jsonrpc":"2.0","id":0,"method":"loadAd","params":{"adUnitID":"\#(Units.direct)"}}"#)
      #expect(a == b)
      ids.append(try #require(try JSONParser().parseValue(a)["result"]?["ads"]?[0]?["adId"]?.text))
    }
    var releasedCount = 0
    // Each ad twice (released, then unknown), in several spellings, and ads never loaded.
    for id in ids + ids + ["ad-unknown", "", "\\u0061"] {
      for params in [
        #"{"adId":"\#(id)"}"#, #"{"adId":"\#(id)","x":1}"#, #"{ "adId":"\#(id)"}"#,
        #"{"adId":1}"#, #"{"adId":null}"#, #"{}"#, #"[]"#,
      ] {
        for envelopeID in ["3", #""r-1""#] {
          let line =
            #"{"jsonrpc":"2.0","id":\#(envelopeID),"method":"releaseAd","params":\#(params)}"#
          let (a, b) = pair.send(line)
          #expect(a == b, "\(line)")
          if a.contains(#""released":true"#) { releasedCount += 1 }
        }
      }
    }
    // Every ad was released once, by the first request naming it.
    #expect(releasedCount == ids.count)
  }

  /// Loads through the fast layer and through the general path side by side: every unit kind
  /// (direct, backfill, video, a waterfall, one with nothing to serve, unknown), each loaded
  /// several times (the fast layer takes only units loaded a moment ago), in several
  /// spellings, with the inspector watching or not: the same bytes, successes and errors.
  @Test func everyLoadIsTheGeneralPathsByteForByte() throws {
    let pair = Pair()
    let (a, b) = pair.send(
      #"{"jsonrpc":"2.0","id":1,"method":"store.putAdUnit","params":{"adUnit":{"id":"/1/empty"}}}"#)
    #expect(a == b && a.contains(#""result""#), "\(a)")
    let units = [
      Units.direct, Units.backfill, Units.video, Units.adMob, "/1/empty",
      "native-ads/mediation/sample-waterfall", "nope",
    ]
    var loaded = 0
    var failed = 0
    for round in 0..<3 {
      if round == 2 {
        // An inspector watching: it is told of every load, by either path.
        let (a, b) = pair.send(#"{"jsonrpc":"2.0","id":"w","method":"inspector.watch"}"#)
        #expect(a == b && a.contains(#""result""#), "\(a)")
      }
      for unit in units {
        for params in [
          #"{"adUnitID":"\#(unit)"}"#, #"{ "adUnitID":"\#(unit)"}"#,
          #"{"adUnitID":"\#(unit)","options":{"numberOfAds":2}}"#,
        ] {
          for envelopeID in ["5", #""l-1""#] {
            let line =
              #"{"jsonrpc":"2.0","id":\#(envelopeID),"method":"loadAd","params":\#(params)}"#
            let (a, b) = pair.send(line)
            #expect(a == b, "\(line)")
            if a.contains(#""ads":"#) { loaded += 1 }
            if a.contains(#""error":"#) { failed += 1 }
          }
        }
      }
    }
    // Both outcomes were reached, through both paths.
    #expect(loaded > 20 && failed > 10, "\(loaded) loaded, \(failed) failed")
  }

  @Test func theLoadFastLayerIsTakenForARecentUnitOnly() throws {
    // The general handler fails every call: what loads went through the fast layer.
    let harness = ServiceHarness()
    let client = harness.connect()
    _ = try client.loadAdID()  // the unit is recent now
    harness.dispatcher.register(
      "loadAd", { _, _ throws(RPCError) in throw RPCError.internalError() },
      direct: try #require(LoadAd.directHandler(for: harness.service)))
    let fast = try client.call("loadAd", #"{"adUnitID":"\#(Units.direct)"}"#)
    #expect(fast["result"]?["ads"]?[0]?["adId"]?.text != nil)
    // Declined: a unit not loaded lately, another spelling, more params.
    for params in [
      #"{"adUnitID":"\#(Units.backfill)"}"#, #"{"adUnitID": "\#(Units.direct)"}"#,
      #"{"adUnitID":"\#(Units.direct)","request":{}}"#, #"{}"#,
    ] {
      let declined = try client.call("loadAd", params)
      #expect(declined["error"]?["code"] == .int(-32603), "\(params)")
    }
  }

  @Test func afterShutdownTheFastLayerIsNotTaken() throws {
    let pair = Pair()
    let (loadA, _) = pair.send(
      #"{"jsonrpc":"2.0","id":0,"method":"loadAd","params":{"adUnitID":"\#(Units.direct)"}}"#)
    let ad = try #require(try JSONParser().parseValue(loadA)["result"]?["ads"]?[0]?["adId"]?.text)
    _ = pair.send(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#)
    let line =
      #"{"jsonrpc":"2.0","id":2,"method":"stringForKey","params":{"adId":"\#(ad)","key":"headline"}}"#
    let (a, b) = pair.send(line)
    #expect(a == b)
    #expect(a.contains(#""error""#))
  }
}
