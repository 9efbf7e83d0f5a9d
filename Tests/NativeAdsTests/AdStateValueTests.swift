import Testing

@testable import NativeAds

/// `AdState` keeps what few ads have behind one reference: it must still behave as a plain
/// value (copies independent, equality by content) whichever fields are set.
@Suite struct AdStateValueTests {
  private let ad = Fixtures.loadOne(Fixtures.manager())

  private func fresh() -> AdState { AdState(creative: ad.creative, options: ad.options, at: 0) }

  @Test func eachRareFieldSetAndClearedLeavesTheOthersAlone() {
    var state = fresh()
    state.customClickHandlerOwners.insert(7)
    state.muteReason = "Not interested"
    state.pendingAdapterClickAsset = "headline"
    #expect(state.customClickHandlerOwners == [7])
    #expect(state.muteReason == "Not interested")
    #expect(state.pendingAdapterClickAsset == "headline")
    #expect(state.adView == nil && state.video == nil)
    state.muteReason = nil
    #expect(state.customClickHandlerOwners == [7] && state.pendingAdapterClickAsset == "headline")
    state.customClickHandlerOwners = []
    state.pendingAdapterClickAsset = nil
    #expect(state == fresh())
  }

  @Test func aCopyNeverSeesAChangeOfTheOriginal() {
    var original = fresh()
    original.customClickHandlerOwners = [1]
    var copy = original
    copy.customClickHandlerOwners.insert(2)
    copy.muteReason = "Seen this ad multiple times"
    #expect(original.customClickHandlerOwners == [1] && original.muteReason == nil)
    #expect(copy.customClickHandlerOwners == [1, 2])
    original.pendingAdapterClickAsset = "body"
    #expect(copy.pendingAdapterClickAsset == nil)
  }

  @Test func equalityIsByContentWhereverTheFieldsAreKept() {
    var a = fresh()
    var b = fresh()
    #expect(a == b)
    a.muteReason = "x"
    #expect(a != b)
    b.muteReason = "x"
    #expect(a == b)  // two references, the same content
    a.clickCount = 1
    #expect(a != b)
    b.clickCount = 1
    a.muteReason = nil
    b.muteReason = nil
    #expect(a == b)  // back to none on both sides
  }

  @Test func settlingAStateWithoutVideoKeepsNothingBoxed() {
    var state = fresh()
    _ = state.apply(.settle, to: ad, at: 1)
    _ = state.apply(.release, to: ad, at: 2)
    #expect(state == fresh())
  }
}
