import NativeAds

/// The domain tests' inventory: the same ad units and creatives as the built-in store file
/// (Sources/NativeAdsRPC/Resources/builtin-store.json), built directly in Swift so that the
/// domain is tested without the store reader.
extension Inventory {
  /// The ad unit of direct-sold native ads (app install, content) and the custom format
  /// `10063170`.
  static let directNativeAdUnitID = "/21775744923/example/native"
  /// The ad unit of indirect (backfill) native ads, which carry AdChoices.
  static let backfillNativeAdUnitID = "/21775744923/example/native-backfill"
  /// The AdMob test native ad unit, one of whose ads has video.
  static let adMobNativeAdUnitID = "ca-app-pub-3940256099942544/3986624511"
  /// The Ad Manager native video ad unit: a direct-sold native ad with video and the custom
  /// video format `12406343`.
  static let nativeVideoAdUnitID = "/21775744923/example/native-video"
  /// The built-in mediation test unit (a local ID): `SampleCustomEvent` (parameter
  /// `sample-unit-1`, eCPM 2.5, timeout 2000 ms, label "Sample network") then the backfill
  /// inventory (eCPM 0.5, label "Backfill", the two backfill creatives).
  static let sampleWaterfallAdUnitID = "native-ads/mediation/sample-waterfall"
  /// The sample custom format's ID.
  static let sampleCustomFormatID = "10063170"
  /// The sample custom video format's ID (`Headline`, `Video`, optional `Caption`).
  static let videoCustomFormatID = "12406343"
  /// The Mute This Ad reasons offered by the built-in indirect creatives (direct-sold ones
  /// offer none).
  static let builtInMuteThisAdReasons = [
    "Not interested in this ad", "Seen this ad multiple times", "Ad covered content",
    "Irrelevant",
  ]

  /// The embedded default inventory: Google's documented test ad units (see the contract,
  /// section 6, and the native video unit). Cheap to build: image bytes are encoded only when
  /// first read. Built with the unchecked API, but every item passes the store's validation.
  static func fixture() -> Inventory {
    let adChoices = AdChoicesInfo(
      image: AdImage(
        url: "https://static.native-ads.test/adchoices/icon.png", scale: 2,
        picture: .placeholder(width: 30, height: 30, colorKey: "adchoices", shapeKey: "icon")),
      clickURL: "https://adssettings.google.com/whythisad")

    let customFormat = CustomFormat(
      id: sampleCustomFormatID,
      assets: [
        CustomAssetDefinition(name: "Headline", type: .text, required: true),
        CustomAssetDefinition(name: "MainImage", type: .image, required: true),
        CustomAssetDefinition(name: "Caption", type: .text, required: true),
      ])
    let videoFormat = CustomFormat(
      id: videoCustomFormatID,
      assets: [
        CustomAssetDefinition(name: "Headline", type: .text, required: true),
        CustomAssetDefinition(name: "Video", type: .video, required: true),
        CustomAssetDefinition(name: "Caption", type: .text, required: false),
      ])
    let muteReasons = builtInMuteThisAdReasons

    var creatives: [Creative] = []

    // Unit 1: direct-sold.
    do {
      let id = "native-app-install-1"
      let images = [image(id, "image1", 1200, 627), image(id, "image2", 627, 627)]
      creatives.append(
        Creative(
          id: id,
          content: .native(
            NativeAssets(
              headline: "Flood-It! 2",
              body: "Fill the board with a single colour before you run out of moves.",
              callToAction: "Install", store: "Google Play", price: "Free", advertiser: nil,
              starRating: 4.5, icon: image(id, "icon", 128, 128), images: images)),
          media: .image(images[0]), priority: 10, eCPM: 2.0,
          deepLinks: ["market://details?id=com.labpixies.flood"],
          landingPageURL: "https://play.google.com/store/apps/details?id=com.labpixies.flood"))
    }
    do {
      let id = "native-content-1"
      let images = [image(id, "image1", 1200, 627), image(id, "image2", 800, 800)]
      creatives.append(
        Creative(
          id: id,
          content: .native(
            NativeAssets(
              headline: "Mobile Ads, Made Simple",
              body: "Monetise your app with native ads that match its look and feel.",
              callToAction: "Learn more", advertiser: "Google",
              icon: image(id, "icon", 128, 128), images: images)),
          media: .image(images[0]), priority: 5, eCPM: 1.5,
          landingPageURL: "https://developers.google.com/admob/ios/native"))
    }
    do {
      let id = "custom-10063170-1"
      creatives.append(
        Creative(
          id: id,
          content: .custom(
            formatID: sampleCustomFormatID,
            assets: [
              (name: "Headline", value: .text("Custom Native Ad Headline")),
              (name: "MainImage", value: .image(image(id, "MainImage", 1200, 627))),
              (name: "Caption", value: .text("A custom native format served by Ad Manager")),
            ]),
          media: MediaContent(), priority: 8, eCPM: 1.8,
          deepLinks: ["gadexample://custom/10063170"],
          landingPageURL:
            "https://developers.google.com/ad-manager/mobile-ads-sdk/ios/native/custom-formats",
          hasCustomClickAction: true))
    }

    // Unit 2: backfill (indirect, with AdChoices).
    do {
      let id = "backfill-app-install-1"
      let images = [image(id, "image1", 1200, 627), image(id, "image2", 627, 627)]
      creatives.append(
        Creative(
          id: id,
          content: .native(
            NativeAssets(
              headline: "Backfill Puzzle Quest",
              body: "Match gems, beat bosses and climb the weekly leaderboard.",
              callToAction: "Install", store: "App Store", price: "$0.99", starRating: 4.0,
              icon: image(id, "icon", 128, 128), images: images)),
          media: .image(images[0]), adChoices: adChoices, priority: 10, eCPM: 1.2,
          deepLinks: ["itms-apps://apps.apple.com/app/id000000001"],
          landingPageURL: "https://apps.apple.com/app/id000000001", muteThisAdReasons: muteReasons))
    }
    do {
      let id = "backfill-content-1"
      let images = [image(id, "image1", 1200, 627)]
      creatives.append(
        Creative(
          id: id,
          content: .native(
            NativeAssets(
              headline: "Backfill: Ten Tips for Better Sleep",
              body: "Small changes to your evening routine that add up to better rest.",
              callToAction: "Read more", advertiser: "Sleep Weekly",
              icon: image(id, "icon", 128, 128), images: images)),
          media: .image(images[0]), adChoices: adChoices, priority: 5, eCPM: 0.9,
          landingPageURL: "https://example.com/sleep-tips", muteThisAdReasons: muteReasons))
    }

    // Unit 3: AdMob network (indirect, with AdChoices).
    do {
      let id = "admob-video-1"
      let images = [image(id, "image1", 1280, 720)]
      creatives.append(
        Creative(
          id: id,
          content: .native(
            NativeAssets(
              headline: "Test Ad: Google Mobile Ads Video",
              body: "Video native ad for testing.", callToAction: "Watch", advertiser: "Google",
              icon: image(id, "icon", 128, 128), images: images)),
          media: MediaContent(
            aspectRatio: 1280.0 / 720.0, hasVideoContent: true, duration: 30,
            mainImage: images[0], customControlsAllowed: true, clickToExpandAllowed: false),
          adChoices: adChoices, priority: 10, eCPM: 2.5,
          landingPageURL: "https://developers.google.com/admob/ios/native/video-ads",
          muteThisAdReasons: muteReasons))
    }
    do {
      let id = "admob-app-install-1"
      let images = [image(id, "image1", 1200, 627)]
      creatives.append(
        Creative(
          id: id,
          content: .native(
            NativeAssets(
              headline: "Test Ad: Google Mobile Ads",
              body: "App install native ad for testing.", callToAction: "Install",
              store: "Google Play", price: "Free", starRating: 4.5,
              icon: image(id, "icon", 128, 128), images: images)),
          media: .image(images[0]), adChoices: adChoices, priority: 5, eCPM: 1.0,
          landingPageURL: "https://play.google.com/store/apps/details?id=com.google.android.gms",
          muteThisAdReasons: muteReasons))
    }

    // Unit 4: direct-sold native video.
    do {
      let id = "video-native-1"
      let images = [image(id, "poster", 1280, 720)]
      creatives.append(
        Creative(
          id: id,
          content: .native(
            NativeAssets(
              headline: "Ad Manager Native Video", body: "A direct-sold native ad with video.",
              callToAction: "Watch now", advertiser: "Google",
              icon: image(id, "icon", 128, 128), images: images)),
          media: MediaContent(
            aspectRatio: 16.0 / 9.0, hasVideoContent: true, duration: 15, mainImage: images[0],
            customControlsAllowed: true, clickToExpandAllowed: true),
          priority: 10, eCPM: 2.0,
          landingPageURL:
            "https://developers.google.com/ad-manager/mobile-ads-sdk/ios/native/video"))
    }
    do {
      let id = "custom-video-12406343-1"
      creatives.append(
        Creative(
          id: id,
          content: .custom(
            formatID: videoCustomFormatID,
            assets: [
              (name: "Headline", value: .text("Custom Native Video")),
              (name: "Video", value: .video),
              (name: "Caption", value: .text("A custom native format with video")),
            ]),
          media: MediaContent(
            aspectRatio: 16.0 / 9.0, hasVideoContent: true, duration: 20, mainImage: nil,
            customControlsAllowed: true),
          priority: 8, eCPM: 1.8,
          landingPageURL:
            "https://developers.google.com/ad-manager/mobile-ads-sdk/ios/native/custom-formats#video",
          hasCustomClickAction: false))
    }

    return Inventory(
      formats: [customFormat, videoFormat],
      creatives: creatives,
      adUnits: [
        AdUnit(
          id: directNativeAdUnitID,
          creativeIDs: ["native-app-install-1", "native-content-1", "custom-10063170-1"]),
        AdUnit(
          id: backfillNativeAdUnitID,
          creativeIDs: ["backfill-app-install-1", "backfill-content-1"]),
        AdUnit(id: adMobNativeAdUnitID, creativeIDs: ["admob-video-1", "admob-app-install-1"]),
        AdUnit(
          id: nativeVideoAdUnitID,
          creativeIDs: ["video-native-1", "custom-video-12406343-1"]),
        AdUnit(
          id: sampleWaterfallAdUnitID,
          creativeIDs: ["backfill-app-install-1", "backfill-content-1"],
          waterfall: [
            .customEvent(
              adapterClassName: "SampleCustomEvent", parameter: "sample-unit-1", eCPM: 2.5,
              timeoutMs: 2000, label: "Sample network"),
            .inventory(eCPM: 0.5, label: "Backfill"),
          ]),
      ])
  }

  /// A built-in creative image: a placeholder PNG at the conventional static URL.
  private static func image(_ creativeID: String, _ name: String, _ width: Int, _ height: Int)
    -> AdImage
  {
    AdImage(
      url: "https://static.native-ads.test/creatives/\(creativeID)/\(name).png", scale: 1,
      picture: .placeholder(width: width, height: height, colorKey: creativeID, shapeKey: name))
  }
}
