import NativeAds
import Testing

@Suite struct LoadResponseInfoTests {
  @Test func aDirectSoldLoadReportsTheReservationSource() throws {
    let manager = Fixtures.manager()
    let (_, info) = try manager.load(Fixtures.request(), owner: 1)
    let expected = AdNetworkInfo(
      adNetworkClassName: "GADMAdapterGoogleAdMobAds", adSourceName: "Reservation", latency: 0,
      error: nil)
    #expect(info.adNetworkInfoArray == [expected])
    #expect(info.loadedAdNetworkResponseInfo == expected)
  }

  @Test func anIndirectLoadReportsTheAdMobNetworkSource() throws {
    let manager = Fixtures.manager()
    let (_, info) = try manager.load(Fixtures.request(Fixtures.backfillUnit), owner: 1)
    #expect(info.loadedAdNetworkResponseInfo?.adSourceName == "AdMob Network")
    #expect(info.adNetworkInfoArray.map(\.adSourceName) == ["AdMob Network"])
  }

  @Test func responseIdentifiersAreFreshForEveryLoad() throws {
    let manager = Fixtures.manager()
    let first = try manager.load(Fixtures.request(), owner: 1).responseInfo.responseIdentifier
    let second = try manager.load(Fixtures.request(), owner: 1).responseInfo.responseIdentifier
    let failed = try #require(Fixtures.loadError(manager, Fixtures.request("nope")))
    #expect(first.count == 24)
    #expect(first != second)
    #expect(failed.responseInfo.responseIdentifier.count == 24)
    #expect(failed.responseInfo.responseIdentifier != second)
  }

  @Test func noFillCarriesTheNetworkErrorInItsResponseInfo() throws {
    let inventory = Inventory.fixture()
    inventory.add(AdUnit(id: "empty-direct", creativeIDs: ["native-content-1"]))
    let manager = Fixtures.manager(inventory: inventory)
    let error = try #require(
      Fixtures.loadError(
        manager, Fixtures.request("empty-direct", types: [.customNative], formats: ["1"])))
    #expect(error.code == .noFill)
    #expect(error.code.name == "noFill")
    #expect(error.message == "Request Error: No ad to show.")
    #expect(error.responseInfo.loadedAdNetworkResponseInfo == nil)
    #expect(
      error.responseInfo.adNetworkInfoArray == [
        AdNetworkInfo(
          adNetworkClassName: "GADMAdapterGoogleAdMobAds", adSourceName: "Reservation",
          latency: 0,
          error: AdNetworkError(
            code: 1, domain: "com.google.admob", message: "Request Error: No ad to show."))
      ])
  }

  @Test func noFillOnAnIndirectUnitNamesTheAdMobNetwork() throws {
    let manager = Fixtures.manager()
    let request = Fixtures.request(Fixtures.adMobUnit, types: [.customNative], formats: ["1"])
    let error = try #require(Fixtures.loadError(manager, request))
    #expect(error.code == .noFill)
    #expect(error.responseInfo.adNetworkInfoArray.map(\.adSourceName) == ["AdMob Network"])
  }

  @Test func anUnknownAdUnitIsAnInvalidRequest() throws {
    let manager = Fixtures.manager()
    let error = try #require(Fixtures.loadError(manager, Fixtures.request("x")))
    #expect(error.code == .invalidRequest)
    #expect(error.message == "Invalid request: unknown ad unit ID \"x\"")
    #expect(error.responseInfo.adNetworkInfoArray.isEmpty)
    #expect(error.responseInfo.loadedAdNetworkResponseInfo == nil)
  }

  @Test(arguments: [0, -3])
  func numberOfAdsBelowOneIsAnInvalidRequest(count: Int) throws {
    let manager = Fixtures.manager()
    let error = try #require(Fixtures.loadError(manager, Fixtures.request(count: count)))
    #expect(error.code == .invalidRequest)
    #expect(error.message.hasPrefix("Invalid request: numberOfAds must be at least 1"))
    #expect(error.responseInfo.adNetworkInfoArray.isEmpty)
  }

  @Test func noAdTypesIsAnInvalidRequest() throws {
    let manager = Fixtures.manager()
    let error = try #require(Fixtures.loadError(manager, Fixtures.request(types: [])))
    #expect(error.code == .invalidRequest)
    #expect(error.message == "Invalid request: adTypes must name at least one ad type")
  }

  @Test func customNativeWithoutFormatIDsIsAnInvalidRequest() throws {
    let manager = Fixtures.manager()
    let request = Fixtures.request(types: [.native, .customNative], formats: [])
    let error = try #require(Fixtures.loadError(manager, request))
    #expect(error.code == .invalidRequest)
    #expect(
      error.message
        == "Invalid request: customNative was requested without any customNativeAdFormatIDs")
  }

  @Test func failedLoadsCreateNoAds() throws {
    let manager = Fixtures.manager()
    _ = Fixtures.loadError(manager, Fixtures.request("x"))
    _ = Fixtures.loadError(manager, Fixtures.request(types: [.customNative], formats: ["1"]))
    #expect(manager.ads.isEmpty)
  }

  @Test func latencyIsMeasuredWithTheClock() throws {
    final class SteppingClock: AdClock {
      var time = 100.0
      func now() -> Double {
        time += 0.25
        return time
      }
    }
    let manager = AdManager(inventory: .fixture(), clock: SteppingClock(), seed: 1)
    let (ads, info) = try manager.load(Fixtures.request(), owner: 1)
    #expect(info.loadedAdNetworkResponseInfo?.latency == 0.25)
    // Asked at 100.25, answered at 100.5: the ad is loaded when its source answered (the
    // same clock read).
    #expect(ads[0].loadedAt == 100.5)
    #expect(ads[0].expiresAt == ads[0].loadedAt + 3600)
  }

  @Test func errorCodesHaveTheirSDKNumbersAndNames() {
    #expect(GADErrorCode.invalidRequest.rawValue == 0)
    #expect(GADErrorCode.mediationAdapterError.rawValue == 8)
    #expect(GADErrorCode.applicationIdentifierMissing.rawValue == 20)
    #expect(GADErrorCode.receivedInvalidResponse.name == "receivedInvalidResponse")
    #expect(Set(GADErrorCode.allCases.map(\.name)).count == GADErrorCode.allCases.count)
  }
}
