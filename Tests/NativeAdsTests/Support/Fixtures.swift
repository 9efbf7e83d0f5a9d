import NativeAds

/// Shared set-up for the domain tests.
enum Fixtures {
  static let directUnit = "/21775744923/example/native"
  static let backfillUnit = "/21775744923/example/native-backfill"
  static let adMobUnit = "ca-app-pub-3940256099942544/3986624511"
  static let videoUnit = "/21775744923/example/native-video"
  static let customFormat = "10063170"
  static let videoFormat = "12406343"

  /// A manager over the built-in inventory, with a manual clock and a fixed seed.
  static func manager(
    inventory: Inventory = .fixture(), clock: ManualClock = ManualClock(), seed: UInt64 = 42
  ) -> AdManager {
    AdManager(inventory: inventory, clock: clock, seed: seed)
  }

  /// A request for `unit`.
  static func request(
    _ unit: String = directUnit, types: [AdKind] = [.native], formats: [String] = [],
    count: Int = 1
  ) -> AdRequest {
    var request = AdRequest(adUnitID: unit, adTypes: types, customNativeAdFormatIDs: formats)
    request.options.numberOfAds = count
    return request
  }

  /// Loads one ad, failing the test (by crashing) if the load fails.
  static func loadOne(
    _ manager: AdManager, _ request: AdRequest = request(), owner: OwnerID = 1
  ) -> NativeAd {
    do {
      return try manager.load(request, owner: owner).ads[0]
    } catch {
      fatalError("load failed: \(error.message)")
    }
  }

  /// The custom ad of the direct unit.
  static func loadCustom(_ manager: AdManager, owner: OwnerID = 1) -> NativeAd {
    loadOne(manager, request(types: [.customNative], formats: [customFormat]), owner: owner)
  }

  /// The load error of `request`, or nil when it loads.
  static func loadError(_ manager: AdManager, _ request: AdRequest) -> AdLoadError? {
    do {
      _ = try manager.load(request, owner: 1)
      return nil
    } catch {
      return error
    }
  }

  /// The video ad of the AdMob unit (custom controls allowed, click to expand not).
  static func loadAdMobVideo(
    _ manager: AdManager, startMuted: Bool = true, customControls: Bool = true,
    clickToExpand: Bool = false
  ) -> NativeAd {
    var request = request(adMobUnit)
    request.options.startMuted = startMuted
    request.options.customControlsRequested = customControls
    request.options.clickToExpandRequested = clickToExpand
    return loadOne(manager, request)
  }

  /// The custom video ad of the video unit, with custom controls requested.
  static func loadCustomVideo(_ manager: AdManager) -> NativeAd {
    var request = request(videoUnit, types: [.customNative], formats: [videoFormat])
    request.options.customControlsRequested = true
    return loadOne(manager, request)
  }

  /// The inventory error `body` throws, or nil when it succeeds (or throws something else).
  static func inventoryError<T>(_ body: () throws -> T) -> InventoryError? {
    do {
      _ = try body()
      return nil
    } catch {
      return error as? InventoryError
    }
  }

  /// The ad error `body` throws, or nil when it succeeds (or throws something else).
  static func adError<T>(_ body: () throws -> T) -> AdObjectError? {
    do {
      _ = try body()
      return nil
    } catch {
      return error as? AdObjectError
    }
  }
}
