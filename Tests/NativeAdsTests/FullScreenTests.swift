import NativeAds
import Testing

@Suite struct FullScreenTests {
  @Test func aLandingPageClickPresentsAScreenAfterTheClickEvent() throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager)
    _ = try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: [], by: 1)
    #expect(sink.events.map(\.event) == [.didRecordClick, .willPresentScreen])
    #expect(sink.events.map(\.assetKey) == ["headline", nil])
    #expect(ad.isScreenPresented)
  }

  @Test func aDeepLinkClickPresentsAScreenToo() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager)
    let outcome = try manager.performClick(
      adId: ad.id, key: "callToAction", openableURLSchemes: ["market"], by: 1)
    #expect(outcome.action == .deepLink)
    #expect(manager.events.map(\.event) == [.didRecordClick, .willPresentScreen])
  }

  @Test func dismissingThePresentedScreenSendsWillThenDidDismissOnce() throws {
    let manager = Fixtures.manager()
    let sink = RecordingSink()
    manager.sink = sink
    let ad = Fixtures.loadOne(manager, owner: 4)
    #expect(try manager.reportScreenDismissed(adId: ad.id) == false)
    _ = try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: [], by: 9)
    #expect(try manager.reportScreenDismissed(adId: ad.id))
    #expect(try manager.reportScreenDismissed(adId: ad.id) == false)
    #expect(
      sink.events.map(\.event) == [
        .didRecordClick, .willPresentScreen, .willDismissScreen, .didDismissScreen,
      ])
    #expect(sink.events.allSatisfy { $0.owner == 4 && $0.adId == ad.id })
    #expect(!ad.isScreenPresented)
  }

  @Test func theCustomClickHandlerPresentsNoScreen() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadCustom(manager)
    _ = try manager.setCustomClickHandler(adId: ad.id, enabled: true, by: 1)
    _ = try manager.performClick(adId: ad.id, key: "Headline", openableURLSchemes: [], by: 1)
    #expect(manager.events.map(\.event) == [.didRecordClick])
    #expect(try manager.reportScreenDismissed(adId: ad.id) == false)
  }

  @Test func clicksThatRecordNothingPresentNoScreen() throws {
    let manager = Fixtures.manager()
    let ad = Fixtures.loadOne(manager, Fixtures.request(Fixtures.backfillUnit))
    _ = try manager.performClick(adId: ad.id, key: "_adChoices", openableURLSchemes: [], by: 1)
    _ = try manager.registerAdView(adId: ad.id, clickable: [], nonclickable: ["headline"])
    _ = try manager.performClick(adId: ad.id, key: "headline", openableURLSchemes: [], by: 1)
    #expect(manager.events.isEmpty)
    #expect(!ad.isScreenPresented)
  }

  @Test func dismissingAnUnknownAdThrowsAdNotFound() {
    let manager = Fixtures.manager()
    #expect(
      Fixtures.adError { try manager.reportScreenDismissed(adId: "x") } == .adNotFound(adId: "x"))
  }
}
