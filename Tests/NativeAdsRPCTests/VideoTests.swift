import JSONRPC
import Testing

/// `loadAd` params asking for the custom video format (its creative: 20 s, custom controls
/// allowed, click to expand not).
private let customVideo =
  #","adTypes":["customNative"],"customNativeAdFormatIDs":["\#(Units.videoFormat)"]"#

/// `mediaContent.videoController`, `videoControl`, `getVideoState` and `videoEvent`.
@Suite struct VideoTests {
  private let harness = ServiceHarness()

  /// Loads the direct-sold native video ad (15 s, allows custom controls and click to expand),
  /// by default with custom controls and sound on.
  private func loadVideoAd(
    _ client: Client, options: String = #""customControlsRequested":true,"startMuted":false"#
  ) throws -> String {
    try client.loadLightAdID(unit: Units.video, options: options)
  }

  private func control(_ client: Client, _ adId: String, _ action: String) throws -> JSONValue {
    try client.result("videoControl", #"{"adId":"\#(adId)","action":"\#(action)"}"#)
  }

  private func state(_ client: Client, _ adId: String) throws -> JSONValue {
    try client.result("getVideoState", #"{"adId":"\#(adId)"}"#)
  }

  /// A `getVideoState` result.
  private static func videoState(
    _ playback: String, _ time: Double, duration: Double = 15, muted: Bool = false,
    clickToExpand: Bool = false
  ) -> JSONValue {
    .object([
      (
        "videoController",
        videoControllerJSON(
          muted: muted, customControls: true, clickToExpand: clickToExpand, state: playback)
      ),
      ("currentTime", .double(time)), ("duration", .double(duration)),
    ])
  }

  /// A `videoControl` result: `applied` (and `reason`) followed by the state's members.
  private static func outcome(_ reason: String?, _ state: JSONValue) -> JSONValue {
    guard case .object(let members) = state else { return state }
    var head: [(String, JSONValue)] = [("applied", .bool(reason == nil))]
    if let reason { head.append(("reason", .string(reason))) }
    return .object(head + members)
  }

  // MARK: mediaContent.videoController

  @Test(arguments: [
    // startMuted defaults to true, the other two to false.
    (Units.video, "", "", true, false, false, 15.0),
    (
      Units.video, "",
      #","startMuted":true,"customControlsRequested":true,"clickToExpandRequested":true"#,
      true, true, true, 15
    ),
    (Units.video, "", #","customControlsRequested":true"#, true, true, false, 15),
    (
      Units.video, "", #","clickToExpandRequested":true,"startMuted":false"#, false, false, true, 15
    ),
    (
      Units.adMob, "", #","customControlsRequested":true,"clickToExpandRequested":true"#, true,
      true, false, 30
    ),
    (Units.adMob, "", #","startMuted":false"#, false, false, false, 30),
    (
      Units.video, customVideo,
      #","startMuted":true,"customControlsRequested":true,"clickToExpandRequested":true"#, true,
      true, false, 20
    ),
  ])
  func theVideoControllerCombinesLoaderOptionsWithWhatTheCreativeAllows(
    unit: String, adTypes: String, options: String, muted: Bool, customControls: Bool,
    clickToExpand: Bool, duration: Double
  ) throws {
    let client = harness.connect()
    let ad = try #require(
      client.load(
        #"{"adUnitID":"\#(unit)"\#(adTypes),"options":{"disableImageLoading":true\#(options)}}"#)[
          "ads"]?[0])
    let controller = videoControllerJSON(
      muted: muted, customControls: customControls, clickToExpand: clickToExpand)
    #expect(
      ad["mediaContent"]
        == .object([
          ("aspectRatio", .double(1280.0 / 720.0)), ("hasVideoContent", .bool(true)),
          ("duration", .double(duration)), ("currentTime", .number("0")), ("mainImage", .null),
          ("videoController", controller),
        ]))
    let adId = try #require(ad["adId"]?.text)
    #expect(
      try state(client, adId)
        == .object([
          ("videoController", controller), ("currentTime", .number("0")),
          ("duration", .double(duration)),
        ]))
  }

  @Test func eachLoadOfTheSameCreativeGetsItsOwnVideoOptions() throws {
    let client = harness.connect()
    let variants = [
      (
        #""startMuted":true"#,
        videoControllerJSON(muted: true, customControls: false, clickToExpand: false)
      ),
      (
        #""customControlsRequested":true"#,
        videoControllerJSON(muted: true, customControls: true, clickToExpand: false)
      ),
      (
        #""clickToExpandRequested":true,"startMuted":false"#,
        videoControllerJSON(muted: false, customControls: false, clickToExpand: true)
      ),
      (
        #""startMuted":false"#,
        videoControllerJSON(muted: false, customControls: false, clickToExpand: false)
      ),
    ]
    for _ in 0..<2 {
      for (options, controller) in variants {
        let ad = try client.load(
          #"{"adUnitID":"\#(Units.video)","options":{"disableImageLoading":true,\#(options)}}"#)[
            "ads"]?[0]
        #expect(ad?["mediaContent"]?["videoController"] == controller, "\(options)")
      }
    }
  }

  @Test func adsWithoutVideoHaveNoVideoControllerAndNoVideoState() throws {
    let client = harness.connect()
    let result = try client.load(
      #"{"adUnitID":"\#(Units.direct)","adTypes":["native","customNative"],"customNativeAdFormatIDs":["\#(Units.customFormat)"],"options":{"numberOfAds":3,"disableImageLoading":true,"customControlsRequested":true}}"#
    )
    let ads = try #require(result["ads"]?.items)
    #expect(ads.count == 3)
    for ad in ads {
      #expect(
        ad["mediaContent"]?.keys
          == ["aspectRatio", "hasVideoContent", "duration", "currentTime", "mainImage"])
      let adId = try #require(ad["adId"]?.text)
      #expect(try state(client, adId) == .null)
      #expect(
        try control(client, adId, "play")
          == .object([("applied", .bool(false)), ("reason", .string("noVideo"))]))
    }
    #expect(try client.takeNotifications().isEmpty)
  }

  // MARK: videoControl and time

  @Test func playPauseAndStopFollowTheServiceClock() throws {
    let client = harness.connect()
    let adId = try loadVideoAd(client)
    #expect(try control(client, adId, "play") == Self.outcome(nil, Self.videoState("playing", 0)))
    #expect(try client.takeNotifications() == [videoEventMessage(adId, "didPlay")])
    harness.clock.advance(by: 4.5)
    #expect(try state(client, adId) == Self.videoState("playing", 4.5))
    #expect(try control(client, adId, "pause") == Self.outcome(nil, Self.videoState("paused", 4.5)))
    harness.clock.advance(by: 10)
    #expect(try state(client, adId) == Self.videoState("paused", 4.5))
    #expect(try control(client, adId, "play") == Self.outcome(nil, Self.videoState("playing", 4.5)))
    harness.clock.advance(by: 2.25)
    #expect(try state(client, adId) == Self.videoState("playing", 6.75))
    #expect(try control(client, adId, "stop") == Self.outcome(nil, Self.videoState("stopped", 0)))
    harness.clock.advance(by: 3)
    #expect(try state(client, adId) == Self.videoState("stopped", 0))
    #expect(
      try client.takeNotifications() == [
        videoEventMessage(adId, "didPause"), videoEventMessage(adId, "didPlay"),
        videoEventMessage(adId, "didEnd"),
      ])
  }

  @Test func stoppingAPausedVideoEndsIt() throws {
    let client = harness.connect()
    let adId = try loadVideoAd(client)
    _ = try control(client, adId, "play")
    harness.clock.advance(by: 1)
    _ = try control(client, adId, "pause")
    #expect(try control(client, adId, "stop") == Self.outcome(nil, Self.videoState("stopped", 0)))
    #expect(
      try client.takeNotifications() == [
        videoEventMessage(adId, "didPlay"), videoEventMessage(adId, "didPause"),
        videoEventMessage(adId, "didEnd"),
      ])
  }

  @Test func playbackReachingTheEndIsNoticedWhenTheAdIsNextTouched() throws {
    let client = harness.connect()
    let adId = try loadVideoAd(client)
    _ = try control(client, adId, "play")
    _ = try client.takeNotifications()
    harness.clock.advance(by: 15.5)
    #expect(try client.takeNotifications().isEmpty)
    let messages = try client.send(
      #"{"jsonrpc":"2.0","id":"s","method":"stringForKey","params":{"adId":"\#(adId)","key":"headline"}}"#
    )
    #expect(
      messages == [
        videoEventMessage(adId, "didEnd"),
        .object([
          ("jsonrpc", .string("2.0")), ("id", .string("s")),
          ("result", .string("Ad Manager Native Video")),
        ]),
      ])
    #expect(try state(client, adId) == Self.videoState("ended", 15))
    harness.clock.advance(by: 5)
    #expect(try state(client, adId) == Self.videoState("ended", 15))
    #expect(try client.takeNotifications().isEmpty)
    #expect(
      harness.manager.events.map(\.event.rawValue) == ["videoDidPlay", "videoDidEnd"])
  }

  @Test(arguments: [
    ("getVideoState", #"{"adId":"AD"}"#),
    ("imageForKey", #"{"adId":"AD","key":"icon"}"#),
    ("recordImpression", #"{"adId":"AD"}"#),
    ("performClickOnAsset", #"{"adId":"AD","key":"headline"}"#),
    ("registerAdView", #"{"adId":"AD","clickableAssets":[],"nonclickableAssets":[]}"#),
    ("reportScreenDismissed", #"{"adId":"AD"}"#),
    ("videoControl", #"{"adId":"AD","action":"mute"}"#),
    ("releaseAd", #"{"adId":"AD"}"#),
  ])
  func anyMethodNamingTheAdNoticesTheEndFirst(method: String, params: String) throws {
    let client = harness.connect()
    let adId = try loadVideoAd(client)
    _ = try control(client, adId, "play")
    _ = try client.takeNotifications()
    harness.clock.advance(by: 60)
    let messages = try client.send(
      #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params.replacingFirst("AD", adId))}"#
    )
    #expect(messages.first == videoEventMessage(adId, "didEnd"))
    #expect(messages.last?["id"] == .number("1"))
    #expect(messages.last?["error"] == nil)
    #expect(harness.manager.events.filter { $0.event == .videoDidEnd }.count == 1)
  }

  @Test func playingAnEndedVideoRestartsItAndStoppingItSendsNothing() throws {
    let client = harness.connect()
    let adId = try loadVideoAd(client)
    _ = try control(client, adId, "play")
    harness.clock.advance(by: 100)
    _ = try state(client, adId)
    _ = try client.takeNotifications()
    #expect(try control(client, adId, "play") == Self.outcome(nil, Self.videoState("playing", 0)))
    harness.clock.advance(by: 3)
    #expect(try state(client, adId) == Self.videoState("playing", 3))
    harness.clock.advance(by: 12)
    #expect(try control(client, adId, "stop") == Self.outcome(nil, Self.videoState("stopped", 0)))
    #expect(
      try client.takeNotifications() == [
        videoEventMessage(adId, "didPlay"), videoEventMessage(adId, "didEnd"),
      ])
  }

  @Test func muteAndUnmuteSendVideoEventsAndLeaveTimeRunning() throws {
    let client = harness.connect()
    let adId = try loadVideoAd(
      client, options: #""customControlsRequested":true,"startMuted":true"#)
    #expect(
      try control(client, adId, "unmute")
        == Self.outcome(nil, Self.videoState("stopped", 0, muted: false)))
    _ = try control(client, adId, "play")
    harness.clock.advance(by: 3)
    #expect(
      try control(client, adId, "mute")
        == Self.outcome(nil, Self.videoState("playing", 3, muted: true)))
    harness.clock.advance(by: 2)
    #expect(try state(client, adId) == Self.videoState("playing", 5, muted: true))
    #expect(
      try client.takeNotifications() == [
        videoEventMessage(adId, "didUnmute"), videoEventMessage(adId, "didPlay"),
        videoEventMessage(adId, "didMute"),
      ])
  }

  @Test func aVideoMuteIsAVideoEventAndMuteThisAdIsAnAdEvent() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID(
      unit: Units.adMob, options: #""customControlsRequested":true,"startMuted":false"#)
    _ = try control(client, adId, "mute")
    _ = try client.result("muteThisAd", #"{"adId":"\#(adId)","reason":"Irrelevant"}"#)
    #expect(
      try client.takeNotifications() == [
        videoEventMessage(adId, "didMute"),
        adEventMessage(adId, "didMute", reason: "Irrelevant"),
      ])
    // Mute This Ad does not touch the video controller.
    #expect(
      try state(client, adId)
        == .object([
          (
            "videoController",
            videoControllerJSON(muted: true, customControls: true, clickToExpand: false)
          ),
          ("currentTime", .number("0")), ("duration", .number("30")),
        ]))
  }

  // MARK: Refusals

  @Test func actionsThatChangeNothingAreNotAppliedAndSendNothing() throws {
    let client = harness.connect()
    let adId = try loadVideoAd(
      client, options: #""customControlsRequested":true,"startMuted":true"#)
    let stopped = Self.videoState("stopped", 0, muted: true)
    for action in ["pause", "stop", "mute"] {
      #expect(try control(client, adId, action) == Self.outcome("noChange", stopped), "\(action)")
    }
    _ = try control(client, adId, "play")
    _ = try control(client, adId, "unmute")
    harness.clock.advance(by: 1)
    #expect(
      try control(client, adId, "play")
        == Self.outcome("noChange", Self.videoState("playing", 1)))
    #expect(
      try control(client, adId, "unmute")
        == Self.outcome("noChange", Self.videoState("playing", 1)))
    _ = try control(client, adId, "pause")
    #expect(
      try control(client, adId, "pause") == Self.outcome("noChange", Self.videoState("paused", 1)))
    #expect(
      try client.takeNotifications() == [
        videoEventMessage(adId, "didPlay"), videoEventMessage(adId, "didUnmute"),
        videoEventMessage(adId, "didPause"),
      ])
  }

  @Test func withoutRequestedCustomControlsNothingCanBeControlled() throws {
    let client = harness.connect()
    let adId = try loadVideoAd(client, options: #""clickToExpandRequested":true"#)
    let controller = videoControllerJSON(muted: true, customControls: false, clickToExpand: true)
    for action in ["play", "pause", "stop", "mute", "unmute"] {
      #expect(
        try control(client, adId, action)
          == .object([
            ("applied", .bool(false)), ("reason", .string("customControlsNotEnabled")),
            ("videoController", controller), ("currentTime", .number("0")),
            ("duration", .number("15")),
          ]), "\(action)")
    }
    #expect(try client.takeNotifications().isEmpty)
  }

  @Test func aCreativeThatDisallowsCustomControlsCannotBeControlled() throws {
    let client = harness.connect()
    _ = try client.result(
      "store.putCreative",
      #"{"creative":{"id":"v","kind":"native","assets":{"headline":"h"},"video":{"duration":8,"aspectRatio":0.5,"clickToExpandAllowed":true},"landingPageURL":"l"}}"#
    )
    _ = try client.result("store.putAdUnit", #"{"adUnit":{"id":"u","creatives":["v"]}}"#)
    let ad = try #require(
      client.load(
        #"{"adUnitID":"u","options":{"customControlsRequested":true,"clickToExpandRequested":true}}"#
      )["ads"]?[0])
    let controller = videoControllerJSON(muted: true, customControls: false, clickToExpand: true)
    #expect(ad["mediaContent"]?["videoController"] == controller)
    #expect(ad["mediaContent"]?["aspectRatio"] == .number("0.5"))
    #expect(ad["mediaContent"]?["duration"] == .number("8"))
    let adId = try #require(ad["adId"]?.text)
    #expect(
      try control(client, adId, "play")
        == .object([
          ("applied", .bool(false)), ("reason", .string("customControlsNotEnabled")),
          ("videoController", controller), ("currentTime", .number("0")),
          ("duration", .number("8")),
        ]))
  }

  /// Contract 1.1: recording a custom-format ad's impression shows its media, and the video
  /// starts playing (version 1 waited for an explicit play).
  @Test func contract11_aCustomVideoAdStartsPlayingWithItsImpression() throws {
    let client = harness.connect()
    let adId = try client.loadLightAdID(
      unit: Units.video, options: #""customControlsRequested":true,"startMuted":false"#,
      extra: customVideo)
    let stopped = Self.videoState("stopped", 0, duration: 20)
    #expect(try control(client, adId, "play") == Self.outcome("impressionNotRecorded", stopped))
    #expect(
      try control(client, adId, "mute")
        == Self.outcome(nil, Self.videoState("stopped", 0, duration: 20, muted: true)))
    #expect(
      try client.result("recordImpression", #"{"adId":"\#(adId)"}"#)
        == .object([("recorded", .bool(true))]))
    #expect(
      try control(client, adId, "pause")
        == Self.outcome(nil, Self.videoState("paused", 0, duration: 20, muted: true)))
    #expect(
      try client.takeNotifications() == [
        videoEventMessage(adId, "didMute"), adEventMessage(adId, "didRecordImpression"),
        videoEventMessage(adId, "didPlay"), videoEventMessage(adId, "didPause"),
      ])
  }

  // MARK: Routing and errors

  @Test func videoEventsGoToTheLoaderWhoeverControls() throws {
    let loader = harness.connect()
    let remote = harness.connect()
    let adId = try loadVideoAd(loader)
    _ = try control(remote, adId, "play")
    harness.clock.advance(by: 16)
    _ = try state(remote, adId)
    #expect(try remote.takeNotifications().isEmpty)
    #expect(
      try loader.takeNotifications() == [
        videoEventMessage(adId, "didPlay"), videoEventMessage(adId, "didEnd"),
      ])
  }

  @Test(arguments: [
    ("videoControl", #"{"adId":"x"}"#, "action", "is required"),
    (
      "videoControl", #"{"adId":"x","action":"rewind"}"#, "action",
      #"must be one of "play", "pause", "stop", "mute", "unmute""#
    ),
    ("videoControl", #"{"adId":"x","action":1}"#, "action", "must be a string"),
    ("videoControl", #"{"action":"play"}"#, "adId", "is required"),
    ("getVideoState", "{}", "adId", "is required"),
  ])
  func videoParamsAreCheckedBeforeTheAdIsLookedUp(
    method: String, params: String, field: String, problem: String
  ) throws {
    #expect(try harness.connect().error(method, params) == invalidParamsError(field, problem))
  }

  @Test(arguments: ["videoControl", "getVideoState"])
  func anUnknownAdIsError2001(method: String) throws {
    #expect(
      try harness.connect().error(method, #"{"adId":"ad-x","action":"play"}"#)
        == adObjectError(
          2001, "adNotFound", adId: "ad-x",
          message: #"No ad with ID "ad-x": it is unknown or was released"#))
  }
}
