import JSONRPC
import NativeAds
import Testing

@testable import NativeAdsRPC

/// The OpenRTB layer on its own (docs/openrtb.md): value parsing, the decoder's places, the
/// encoder's round trip, and the bidder's rules. The end-to-end suite covers the wire
/// (Tests/EndToEnd/test_openrtb*.py).
@Suite struct OpenRTBTests {
  /// Decodes `json` (a Native response) as `loadAd` does.
  private func decode(_ json: String, request: NativeRequest? = nil) -> AdResponse {
    OpenRTBDecoder.adResponse(json, nativeRequest: request)
  }

  private func creatives(_ json: String) throws -> [Creative] {
    guard case .creatives(let list) = decode(json).content else {
      Issue.record("expected creatives from \(json): \(decode(json).content)")
      return []
    }
    return list
  }

  private func problem(_ json: String) -> (field: String, problem: String)? {
    guard case .invalid(let field, let problem) = decode(json).content else { return nil }
    return (field, problem)
  }

  @Test func ratingsAreTheLeadingNumberFromZeroToFive() {
    #expect(OpenRTBDecoder.rating("4.5") == 4.5)
    #expect(OpenRTBDecoder.rating("3.4 stars out of 5") == 3.4)
    #expect(OpenRTBDecoder.rating(" 5") == 5)
    #expect(OpenRTBDecoder.rating("0") == 0)
    #expect(OpenRTBDecoder.rating("5.1") == nil)
    #expect(OpenRTBDecoder.rating("stars: 4") == nil)
    #expect(OpenRTBDecoder.rating("") == nil)
    #expect(OpenRTBDecoder.rating("4.5.1") == nil)
  }

  @Test func aVASTDurationIsReadFromItsFirstDurationElement() {
    #expect(OpenRTBDecoder.vastDuration("<VAST><Duration>00:00:30</Duration></VAST>") == 30)
    #expect(OpenRTBDecoder.vastDuration("<Duration> 00:01:02.500 </Duration>") == 62.5)
    #expect(OpenRTBDecoder.vastDuration("<Duration>01:00:00.000</Duration>") == 3600)
    #expect(OpenRTBDecoder.vastDuration("<VAST version='2.0'></VAST>") == nil)
    #expect(OpenRTBDecoder.vastDuration("<Duration>30</Duration>") == nil)
    #expect(OpenRTBDecoder.vastDuration("<Duration>00:00:00</Duration>") == nil)
    #expect(OpenRTBDecoder.vastDuration("<Duration>00:00:10") == nil)
  }

  @Test func theEncodersVASTTagStatesTheDurationBack() {
    for duration in [0.5, 15, 30.25, 61, 3599.999] {
      #expect(
        OpenRTBDecoder.vastDuration(OpenRTBEncoder.vastTag(duration: duration)) == duration)
    }
  }

  @Test func trackersAreHandedOutOnceEachInOrder() {
    let tracking = AdTracking(
      impressionTrackers: ["https://a/imp", "https://b/imp", "https://a/imp"],
      eventTrackers: [
        .init(event: 1, method: 1, url: "https://b/imp"),
        .init(event: 1, method: 1, url: "https://c"),
        .init(event: 1, method: 2, url: "https://js"), .init(event: 2, method: 1, url: "https://v"),
        .init(event: 1, method: 1, url: nil),
      ],
      clickTrackers: ["https://main/click", "https://cta/click"],
      assetLinks: [
        .init(
          assetKey: "callToAction",
          link: .init(url: "https://cta", clickTrackers: ["https://cta/click", "https://own"]))
      ])
    #expect(tracking.impressionURLs == ["https://a/imp", "https://b/imp", "https://c"])
    #expect(
      tracking.clickURLs(assetKey: "callToAction")
        == ["https://cta/click", "https://own", "https://main/click"])
    #expect(
      tracking.clickURLs(assetKey: "headline") == ["https://main/click", "https://cta/click"])
  }

  @Test func aDeepLinkFallsBackToItsFallbackElseItself() {
    #expect(AdTracking.Link(url: "app://x", fallback: "https://w").landingPageURL == "https://w")
    #expect(AdTracking.Link(url: "app://x").landingPageURL == "app://x")
    #expect(AdTracking.Link(url: "HTTPS://w", fallback: "https://other").isDeepLink == false)
    #expect(
      AdTracking.Link(url: "https://w", fallback: "https://other").landingPageURL == "https://w")
  }

  @Test func problemsNameTheirPlaceFromTheNativeObject() {
    let link = #""link":{"url":"https://x"}"#
    #expect(problem(#"{"native":{"assets":[{"title":{"text":"t"}}]}}"#)?.field == "native.link")
    #expect(
      problem(#"{"native":{\#(link),"assets":[{"title":{"text":"t"}},{"img":{"type":3}}]}}"#)?
        .field == "native.assets[1].img.url")
    #expect(
      problem(#"{\#(link),"assets":[{"title":{"text":"t"}},{"img":{"type":3}}]}"#)?.field
        == "native.assets[1].img.url")
    #expect(
      problem(#"{\#(link),"assets":[{"img":{"type":3,"url":"u"}}]}"#)?.field == "native.assets")
    #expect(
      problem(#"{\#(link),"assets":[{"title":{"text":"t"},"data":{"type":2,"value":"v"}}]}"#)?
        .field == "native.assets[0]")
    #expect(
      problem(#"{\#(link),"assets":[{"title":{"text":"t"}},{"data":{"value":"v"}}]}"#)?.field
        == "native.assets[1].data.type")
    #expect(problem(#"[1]"#)?.field == "adResponseString")
    #expect(problem(#"{"#)?.field == "adResponseString")
    let adm = #"{\"link\":{\"url\":\"https://x\"},\"assets\":[{\"img\":{\"type\":1}}]}"#
    #expect(
      problem(#"{"id":"r","seatbid":[{"bid":[{"price":1,"adm":"\#(adm)"}]}]}"#)?.field
        == "seatbid[0].bid[0].adm.native.assets[0].img.url")
  }

  @Test func anUntypedAssetTakesTheTypeOfTheRequestAssetWithItsID() throws {
    let request = NativeRequest(
      assets: [
        .init(id: 7, required: true, kind: .title(len: 90)),
        .init(id: 8, required: true, kind: .image(type: 1, w: nil, h: nil, wmin: 60, hmin: 60)),
        .init(id: 9, required: false, kind: .data(type: 1, len: 25)),
      ], eventTrackers: nil, privacy: false)
    let json =
      #"{"link":{"url":"https://x"},"assets":[{"id":7,"title":{"text":"T"}},"#
      + #"{"id":8,"img":{"url":"https://i"}},{"id":9,"data":{"value":"Brand"}}]}"#
    guard case .creatives(let made) = decode(json, request: request).content else {
      Issue.record("expected a creative: \(decode(json, request: request).content)")
      return
    }
    let assets = try #require(made.first?.content.nativeAssets)
    #expect(assets.icon?.url == "https://i")
    #expect(assets.icon?.width == 60 && assets.icon?.height == 60)
    #expect(assets.advertiser == "Brand")
  }

  @Test func whatTheEncoderWritesDecodesToTheSameAssets() throws {
    let icon = AdImage(url: "https://i", width: 64, height: 64, mimeType: "image/png", data: [1])
    let image = AdImage(
      url: "https://m", width: 1200, height: 627, mimeType: "image/png", data: [1])
    let original = Creative(
      id: "c",
      content: .native(
        NativeAssets(
          headline: "H", body: "B", callToAction: "Go", store: "Shop", price: "$1",
          advertiser: "A", starRating: 4, icon: icon, images: [image, image],
          extraAssets: [("likes", "12"), ("custom", "x"), ("data501", "y")])),
      deepLinks: ["app://one", "app://two"], landingPageURL: "https://land",
      tracking: AdTracking(impressionTrackers: ["https://imp"], clickTrackers: ["https://clk"]))
    let json = OpenRTBEncoder.response(original).jsonText
    let back = try #require(try creatives(json).first)
    let a = try #require(original.content.nativeAssets)
    let b = try #require(back.content.nativeAssets)
    #expect(a.headline == b.headline && a.body == b.body && a.callToAction == b.callToAction)
    #expect(a.store == b.store && a.price == b.price && a.advertiser == b.advertiser)
    #expect(a.starRating == b.starRating)
    #expect(b.icon.map { ($0.url, $0.width, $0.height) } ?? ("", 0, 0) == ("https://i", 64, 64))
    #expect(b.images.map(\.url) == ["https://m", "https://m"])
    #expect(
      Dictionary(uniqueKeysWithValues: a.extraAssets.map { ($0.key, $0.value) })
        == Dictionary(uniqueKeysWithValues: b.extraAssets.map { ($0.key, $0.value) }))
    #expect(back.deepLinks == original.deepLinks)
    #expect(back.landingPageURL == original.landingPageURL)
    #expect(back.tracking?.impressionTrackers == ["https://imp"])
    #expect(back.tracking?.clickTrackers == ["https://clk"])
  }

  @Test func theBidderCutsTextsAndMatchesImageSizes() throws {
    #expect(OpenRTBBidder.cut("Hello there", to: 5) == "Hello")
    #expect(OpenRTBBidder.cut("Hi", to: 5) == "Hi")
    let icon = AdImage(url: "https://i", width: 100, height: 100, mimeType: "image/png", data: [1])
    let creative = Creative(
      id: "c", content: .native(NativeAssets(headline: "A long headline", icon: icon)),
      landingPageURL: "https://x")
    func request(_ kind: NativeRequest.Kind, required: Bool = true) -> NativeRequest {
      NativeRequest(
        assets: [.init(id: 1, required: required, kind: kind)], eventTrackers: nil, privacy: false)
    }
    let title = try #require(OpenRTBBidder.answer(request(.title(len: 6)), with: creative))
    #expect(title.first?.jsonText.contains(#""text":"A long""#) == true)
    let fits = request(.image(type: 1, w: nil, h: nil, wmin: 100, hmin: 50))
    #expect(OpenRTBBidder.answer(fits, with: creative)?.count == 1)
    let tooSmall = request(.image(type: 1, w: nil, h: nil, wmin: 101, hmin: 50))
    #expect(OpenRTBBidder.answer(tooSmall, with: creative) == nil)
    let exact = request(.image(type: 1, w: 100, h: 100, wmin: nil, hmin: nil))
    #expect(OpenRTBBidder.answer(exact, with: creative)?.count == 1)
    let notExact = request(.image(type: 1, w: 120, h: 100, wmin: nil, hmin: nil))
    #expect(OpenRTBBidder.answer(notExact, with: creative) == nil)
    let optional = request(.data(type: 2, len: nil), required: false)
    #expect(OpenRTBBidder.answer(optional, with: creative)?.isEmpty == true)
  }

  @Test func whatACreativeOffersAgreesWithWhatItAnswers() throws {
    let icon = AdImage(url: "https://i", width: 100, height: 100, mimeType: "image/png", data: [1])
    let creative = Creative(
      id: "c",
      content: .native(
        NativeAssets(
          headline: "H", body: "B", icon: icon,
          extraAssets: [("phone", "555"), ("data70", "x"), ("data1", "not the advertiser")])),
      landingPageURL: "https://x")
    let kinds: [NativeRequest.Kind] = [
      .title(len: 3), .image(type: 1, w: nil, h: nil, wmin: 50, hmin: 50),
      .image(type: 1, w: nil, h: nil, wmin: 200, hmin: 50),
      .image(type: 3, w: nil, h: nil, wmin: nil, hmin: nil), .video, .data(type: 2, len: nil),
      .data(type: 8, len: nil), .data(type: 9, len: nil), .data(type: 12, len: nil),
      .data(type: 70, len: nil), .data(type: 71, len: nil), .data(type: 1, len: nil),
    ]
    let offer = try #require(OpenRTBBidder.Offer(creative))
    for kind in kinds {
      let request = NativeRequest(
        assets: [.init(id: 1, required: true, kind: kind)], eventTrackers: nil, privacy: false)
      #expect(
        offer.answers(kind) == (OpenRTBBidder.answer(request, with: creative) != nil), "\(kind)")
    }
  }

  @Test func noBidHeaderIDsArePercentEncoded() {
    #expect(OpenRTBBidder.headerText("imp-1_a.b~") == "imp-1_a.b~")
    #expect(OpenRTBBidder.headerText("imp 7") == "imp%207")
    #expect(
      OpenRTBBidder.headerText("1\r\nSet-Cookie: x=1; y") == "1%0D%0ASet-Cookie%3A%20x%3D1%3B%20y")
    #expect(OpenRTBBidder.headerText("é") == "%C3%A9")
  }

  @Test func theNoBidHeaderIsBoundedAndSaysHowManyItLeftOut() {
    #expect(OpenRTBBidder.noBidHeader([("1", 501), ("a b", 500)]) == "1=501; a%20b=500")
    let long = String(repeating: "x", count: 4080)
    let header = OpenRTBBidder.noBidHeader([("1", 501), (long, 500), ("3", 2), ("4", 2)])
    #expect(header == "1=501; \(long)=500; *=2")
    #expect(OpenRTBBidder.noBidHeader([(long + long, 501), ("2", 2)]) == "*=2")
    let many = (0..<64).map { (String(repeating: "i", count: 100) + "\($0)", 501) }
    let bounded = OpenRTBBidder.noBidHeader(many)
    #expect(bounded.utf8.count <= OpenRTBBidder.maximumNoBidHeaderBytes)
    let listed = bounded.split(separator: "; ")
    #expect(listed.last?.hasPrefix("*=") == true)
    #expect(listed.count - 1 + (Int(listed.last!.dropFirst(2)) ?? 0) == 64)
  }

  @Test func onlyTheExtraNamesTheDecoderGivesAreExportedTyped() {
    #expect(OpenRTBEncoder.dataType(ofExtra: "likes") == 4)
    #expect(OpenRTBEncoder.dataType(ofExtra: "data13") == 13)
    #expect(OpenRTBEncoder.dataType(ofExtra: "data501") == 501)
    for name in ["data1", "data2", "data3", "data4", "data6", "data12", "data01", "data"] {
      #expect(OpenRTBEncoder.dataType(ofExtra: name) == nil, "\(name)")
    }
    #expect(OpenRTBEncoder.imageType(ofExtra: "img501") == 501)
    #expect(OpenRTBEncoder.imageType(ofExtra: "img4") == 4)
    for name in ["img1", "img2", "img3", "img0", "img"] {
      #expect(OpenRTBEncoder.imageType(ofExtra: name) == nil, "\(name)")
    }
  }

  @Test func extrasNamedLikeIABTypesAndUniversalLinksSurviveTheRoundTrip() throws {
    let extras = [
      ("data1", "a"), ("data3", "b"), ("data4", "c"), ("img1", "https://1"),
      ("img3", "https://3"), ("img501", "https://501"), ("data501", "d"), ("likes", "9"),
    ]
    let original = Creative(
      id: "c", content: .native(NativeAssets(headline: "H", extraAssets: extras)),
      deepLinks: ["https://universal.example/x", "app://two"], landingPageURL: "https://land")
    let back = try #require(try creatives(OpenRTBEncoder.response(original).jsonText).first)
    let b = try #require(back.content.nativeAssets)
    #expect(
      Dictionary(uniqueKeysWithValues: b.extraAssets.map { ($0.key, $0.value) })
        == Dictionary(uniqueKeysWithValues: extras))
    #expect(back.deepLinks == original.deepLinks)
    #expect(back.landingPageURL == "https://land")
  }

  @Test func extraAssetsCountIntoTheAssetBudgetAndRepeatsKeepTheirFirstPlace() throws {
    func response(_ extras: String) -> String {
      #"{"native":{"assets":[{"id":1,"title":{"text":"H"}},{"id":2,"data":{"type":4,"value":"7"}}],"#
        + #""link":{"url":"https://x"},"ext":{"extraAssets":{"# + extras + "}}}}"
    }
    let ok = try #require(
      try creatives(response(#""a":"1","b":"2","a":"3","likes":"0""#)).first?.content
        .nativeAssets)
    #expect(ok.extraAssets.map(\.key) == ["likes", "a", "b"])
    #expect(ok.extraAssets.map(\.value) == ["7", "3", "2"])
    let many = (0..<31).map { #""k\#($0)":"v""# }.joined(separator: ",")
    let over = try #require(problem(response(many)))
    #expect(over.field == "native.ext.extraAssets")
    #expect(over.problem.contains("--max-response-assets"))
  }

  @Test func trackersAndPixelsAreBounded() throws {
    func response(imptrackers: Int, clicktrackers: Int = 0, image: Int = 100) -> String {
      let imps = (0..<imptrackers).map { #""https://t/\#($0)""# }.joined(separator: ",")
      let clicks = (0..<clicktrackers).map { #""https://c/\#($0)""# }.joined(separator: ",")
      return #"{"native":{"assets":[{"id":1,"title":{"text":"H"}},"#
        + #"{"id":2,"img":{"type":3,"url":"https://m","w":\#(image),"h":\#(image)}}],"#
        + #""link":{"url":"https://x","clicktrackers":[\#(clicks)]},"imptrackers":[\#(imps)]}}"#
    }
    #expect(problem(response(imptrackers: 60, clicktrackers: 4)) == nil)
    let over = try #require(problem(response(imptrackers: 60, clicktrackers: 5)))
    #expect(over.field == "native" && over.problem.contains("--max-ad-trackers"))
    #expect(problem(response(imptrackers: 0, image: 4096)) == nil)
    let big = try #require(problem(response(imptrackers: 0, image: 4097)))
    #expect(big.field == "native.assets[1].img" && big.problem.contains("--max-response-pixels"))
  }
}
