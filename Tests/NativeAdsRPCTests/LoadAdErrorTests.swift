import JSONRPC
import Testing

@Suite struct LoadAdErrorTests {
  private let harness = ServiceHarness()

  // MARK: 1000 invalidRequest

  @Test(arguments: [
    (#"{"adUnitID":"nope"}"#, #"Invalid request: unknown ad unit ID "nope""#),
    (
      #"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":0}}"#,
      "Invalid request: numberOfAds must be at least 1 (got 0)"
    ),
    (
      #"{"adUnitID":"\#(Units.direct)","options":{"numberOfAds":-3}}"#,
      "Invalid request: numberOfAds must be at least 1 (got -3)"
    ),
    (
      #"{"adUnitID":"\#(Units.direct)","adTypes":["customNative"]}"#,
      "Invalid request: customNative was requested without any customNativeAdFormatIDs"
    ),
    (
      #"{"adUnitID":"\#(Units.direct)","adTypes":["customNative"],"customNativeAdFormatIDs":[]}"#,
      "Invalid request: customNative was requested without any customNativeAdFormatIDs"
    ),
    (
      #"{"adUnitID":"\#(Units.direct)","adTypes":[]}"#,
      "Invalid request: adTypes must name at least one ad type"
    ),
  ])
  func anInvalidRequestIsError1000WithResponseInfo(params: String, message: String) throws {
    let error = try harness.connect().error("loadAd", params)
    #expect(error["code"] == .number("1000"))
    #expect(error["message"] == .string(message))
    let data = try #require(error["data"])
    #expect(data["gadErrorCode"] == .number("0"))
    #expect(data["name"] == .string("invalidRequest"))
    let info = try #require(data["responseInfo"])
    #expect(info["responseIdentifier"]?.text?.count == 24)
    #expect(info["loadedAdNetworkResponseInfo"] == .null)
    #expect(info["adNetworkInfoArray"] == .array([]))
  }

  // MARK: 1001 noFill

  @Test func aUnitWithNothingEligibleIsError1001NamingTheReservationSource() throws {
    let error = try harness.connect().error(
      "loadAd",
      #"{"adUnitID":"\#(Units.direct)","adTypes":["customNative"],"customNativeAdFormatIDs":["999"]}"#
    )
    #expect(error["code"] == .number("1001"))
    #expect(error["message"] == .string("Request Error: No ad to show."))
    let data = try #require(error["data"])
    #expect(data["gadErrorCode"] == .number("1"))
    #expect(data["name"] == .string("noFill"))
    let info = try #require(data["responseInfo"])
    #expect(info["loadedAdNetworkResponseInfo"] == .null)
    #expect(
      info["adNetworkInfoArray"]
        == .array([
          .object([
            ("adNetworkClassName", .string("GADMAdapterGoogleAdMobAds")),
            ("adSourceName", .string("Reservation")),
            ("latency", .number("0")),
            (
              "error",
              .object([
                ("code", .number("1")), ("domain", .string("com.google.admob")),
                ("message", .string("Request Error: No ad to show.")),
              ])
            ),
          ])
        ]))
  }

  @Test func aBackfillUnitWithNothingEligibleNamesTheAdMobNetwork() throws {
    let error = try harness.connect().error(
      "loadAd",
      #"{"adUnitID":"\#(Units.backfill)","adTypes":["customNative"],"customNativeAdFormatIDs":["10063170"]}"#
    )
    #expect(error["code"] == .number("1001"))
    #expect(error["data"]?["name"] == .string("noFill"))
    #expect(
      error["data"]?["responseInfo"]?["adNetworkInfoArray"]?[0]?["adSourceName"]
        == .string("AdMob Network"))
  }

  @Test func aFailedLoadLeavesNoAdBehind() throws {
    _ = try harness.connect().error("loadAd", #"{"adUnitID":"nope"}"#)
    #expect(harness.manager.ads.isEmpty)
  }

  // MARK: -32602

  @Test(arguments: [
    (#"{}"#, "adUnitID is required", "adUnitID"),
    (#"{"adUnitID":null}"#, "adUnitID is required", "adUnitID"),
    (#"{"adUnitID":5}"#, "adUnitID must be a string", "adUnitID"),
    (#"{"adUnitID":"u","adTypes":"native"}"#, "adTypes must be an array of strings", "adTypes"),
    (#"{"adUnitID":"u","adTypes":[1]}"#, "adTypes[0] must be a string", "adTypes[0]"),
    (
      #"{"adUnitID":"u","adTypes":["native","banner"]}"#,
      #"adTypes[1] must be one of "native", "customNative""#, "adTypes[1]"
    ),
    (
      #"{"adUnitID":"u","customNativeAdFormatIDs":["a",2]}"#,
      "customNativeAdFormatIDs[1] must be a string", "customNativeAdFormatIDs[1]"
    ),
    (#"{"adUnitID":"u","options":5}"#, "options must be an object", "options"),
    (
      #"{"adUnitID":"u","options":{"numberOfAds":"2"}}"#,
      "options.numberOfAds must be an integer", "options.numberOfAds"
    ),
    (
      #"{"adUnitID":"u","options":{"numberOfAds":1.5}}"#,
      "options.numberOfAds must be an integer", "options.numberOfAds"
    ),
    (
      #"{"adUnitID":"u","options":{"disableImageLoading":"yes"}}"#,
      "options.disableImageLoading must be a boolean", "options.disableImageLoading"
    ),
    (
      #"{"adUnitID":"u","options":{"shouldRequestMultipleImages":1}}"#,
      "options.shouldRequestMultipleImages must be a boolean", "options.shouldRequestMultipleImages"
    ),
    (
      #"{"adUnitID":"u","options":{"startMuted":0}}"#,
      "options.startMuted must be a boolean", "options.startMuted"
    ),
    (
      #"{"adUnitID":"u","options":{"customControlsRequested":"no"}}"#,
      "options.customControlsRequested must be a boolean", "options.customControlsRequested"
    ),
    (
      #"{"adUnitID":"u","options":{"clickToExpandRequested":[]}}"#,
      "options.clickToExpandRequested must be a boolean", "options.clickToExpandRequested"
    ),
    (
      #"{"adUnitID":"u","options":{"mediaAspectRatio":"wide"}}"#,
      #"options.mediaAspectRatio must be one of "unknown", "any", "landscape", "portrait", "square""#,
      "options.mediaAspectRatio"
    ),
    (
      #"{"adUnitID":"u","options":{"adChoicesPosition":"middle"}}"#,
      #"options.adChoicesPosition must be one of "topRight", "topLeft", "bottomRight", "bottomLeft""#,
      "options.adChoicesPosition"
    ),
    (#"{"adUnitID":"u","request":[]}"#, "request must be an object", "request"),
    (
      #"{"adUnitID":"u","request":{"isTestRequest":"y"}}"#,
      "request.isTestRequest must be a boolean", "request.isTestRequest"
    ),
    (
      #"{"adUnitID":"u","request":{"keywords":"k"}}"#,
      "request.keywords must be an array of strings", "request.keywords"
    ),
    (
      #"{"adUnitID":"u","request":{"keywords":["k",null]}}"#,
      "request.keywords[1] must be a string", "request.keywords[1]"
    ),
    (
      #"{"adUnitID":"u","request":{"contentURL":5}}"#,
      "request.contentURL must be a string", "request.contentURL"
    ),
    (
      #"{"adUnitID":"u","request":{"customTargeting":"x"}}"#,
      "request.customTargeting must be an object", "request.customTargeting"
    ),
    (
      #"{"adUnitID":"u","request":{"customTargeting":{"k":5}}}"#,
      "request.customTargeting.k must be a string or an array of strings",
      "request.customTargeting.k"
    ),
    (
      #"{"adUnitID":"u","request":{"customTargeting":{"k":["a",1]}}}"#,
      "request.customTargeting.k must be a string or an array of strings",
      "request.customTargeting.k"
    ),
  ])
  func paramsThatFailToDecodeNameTheField(params: String, problem: String, field: String) throws {
    let error = try harness.connect().error("loadAd", params)
    #expect(
      error
        == .object([
          ("code", .number("-32602")), ("message", .string("Invalid params: \(problem)")),
          ("data", .object([("field", .string(field))])),
        ]))
  }

  @Test func paramsAreDecodedInFullBeforeTheAdUnitIsLookedUp() throws {
    let error = try harness.connect().error(
      "loadAd", #"{"adUnitID":"nope","options":{"numberOfAds":"x"}}"#)
    #expect(error["code"] == .number("-32602"))
    #expect(error["data"]?["field"] == .string("options.numberOfAds"))
  }

  @Test func paramsByPositionAreInvalidParams() throws {
    let error = try harness.connect().error("loadAd", #"["\#(Units.direct)"]"#)
    #expect(error["code"] == .number("-32602"))
    #expect(error["message"]?.text?.hasPrefix("Invalid params") == true)
  }
}
