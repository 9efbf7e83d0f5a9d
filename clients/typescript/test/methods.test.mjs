// Every app-side method, notification and error of the client, over stdio, TCP and a Unix
// socket in both framings, against the real binary. Every reply is validated against schemas/openrpc.json.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  AdLoadError,
  AdObjectError,
  ConnectionClosedError,
  InvalidParamsError,
  NativeAdsError,
} from "../dist/index.js";
import {
  CONFIGS,
  configName,
  recordNotifications,
  rejectsWith,
  skipFor,
  startServer,
  useReplyValidation,
} from "../test-support/harness.mjs";
import { RPC_TO_CLIENT } from "../test-support/methods.mjs";

const checker = useReplyValidation();

const NATIVE = "/21775744923/example/native";
const BACKFILL = "/21775744923/example/native-backfill";
const ADMOB = "ca-app-pub-3940256099942544/3986624511";
const VIDEO = "/21775744923/example/native-video";
const PNG_SIGNATURE = "89504e470d0a1a0a";

function pngSize(base64) {
  const bytes = Buffer.from(base64, "base64");
  assert.equal(bytes.subarray(0, 8).toString("hex"), PNG_SIGNATURE, "a PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

for (const config of CONFIGS) {
  describe(`app methods over ${configName(config)}`, skipFor(config), () => {
    let server;
    let app;
    let notes;
    // Store items are per process; names are unique per configuration anyway.
    const tag = `${config.transport}-${config.framing}`;

    before(async () => {
      server = await startServer(checker, {
        stdioFraming: config.transport === "stdio" ? config.framing : "ndjson",
        label: configName(config),
      });
      app = await server.open(config);
      notes = recordNotifications(app);
    });
    after(async () => {
      await server?.close();
    });

    test("loadAd: a system-defined native ad with real image bytes", async () => {
      const { ads, responseInfo } = await app.loadAd({ adUnitID: NATIVE });
      assert.equal(ads.length, 1);
      const [ad] = ads;
      assert.equal(ad.kind, "native");
      assert.equal(ad.headline, "Flood-It! 2");
      assert.equal(ad.adChoices, null, "direct-sold: no AdChoices");
      assert.equal(ad.images.length, 1);
      assert.equal(ad.images[0].mimeType, "image/png");
      assert.deepEqual(pngSize(ad.images[0].data), { width: ad.images[0].width, height: ad.images[0].height });
      assert.deepEqual(pngSize(ad.icon.data), { width: ad.icon.width, height: ad.icon.height });
      assert.equal(ad.mediaContent.hasVideoContent, false);
      assert.deepEqual(ad.mediaContent.mainImage, ad.images[0], "without video, the main image is the first image");
      assert.equal(ad.mediaContent.aspectRatio, ad.images[0].width / ad.images[0].height);
      assert.match(ad.expiresAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(responseInfo.loadedAdNetworkResponseInfo.adSourceName, "Reservation");
      assert.equal(responseInfo.adNetworkInfoArray.length, 1);
      assert.deepEqual(ad.responseInfo, responseInfo);
      assert.deepEqual(notes.take(), []);
    });

    test("loadAd: options (numberOfAds, disableImageLoading, multiple images) and request", async () => {
      const { ads, responseInfo } = await app.loadAd({
        adUnitID: NATIVE,
        options: { numberOfAds: 9, disableImageLoading: true, shouldRequestMultipleImages: true },
        request: { isTestRequest: true, keywords: ["games"], customTargeting: { section: ["a", "b"], tier: "x" } },
      });
      assert.equal(ads.length, 2, "two eligible native creatives; 9 is clamped to 5");
      assert.notEqual(ads[0].adId, ads[1].adId);
      assert.notEqual(ads[0].headline, ads[1].headline);
      for (const ad of ads) {
        assert.equal(ad.images[0].data, undefined);
        assert.equal(ad.images[0].mimeType, undefined);
        assert.equal(ad.icon.data, undefined);
      }
      assert.equal(responseInfo.isTestRequest, true);
    });

    test("loadAd customNative, stringForKey, imageForKey", async () => {
      const { ads } = await app.loadAd({
        adUnitID: NATIVE,
        adTypes: ["customNative"],
        customNativeAdFormatIDs: ["10063170"],
      });
      const [ad] = ads;
      assert.equal(ad.kind, "customNative");
      assert.equal(ad.formatID, "10063170");
      assert.deepEqual(ad.availableAssetKeys.slice(0, 3), ["Headline", "MainImage", "Caption"]);
      assert.equal(ad.headline, undefined, "system-defined fields are absent on a custom ad");
      assert.equal(typeof (await app.stringForKey(ad.adId, "Headline")), "string");
      assert.equal(await app.stringForKey(ad.adId, "NoSuchAsset"), null);
      const image = await app.imageForKey(ad.adId, "MainImage");
      assert.deepEqual(pngSize(image.data), { width: image.width, height: image.height });
      assert.equal(await app.imageForKey(ad.adId, "Headline"), null, "a text asset is not an image");

      const native = (await app.loadAd({ adUnitID: NATIVE })).ads[0];
      assert.equal(await app.stringForKey(native.adId, "headline"), native.headline);
      assert.equal(await app.stringForKey(native.adId, "advertiser"), native.advertiser);
      assert.deepEqual(await app.imageForKey(native.adId, "icon"), native.icon);
      assert.deepEqual(await app.imageForKey(native.adId, "image"), native.images[0]);
    });

    test("both ad types: the best creative wins whatever its format", async () => {
      const { ads } = await app.loadAd({
        adUnitID: NATIVE,
        adTypes: ["native", "customNative"],
        customNativeAdFormatIDs: ["10063170"],
        options: { numberOfAds: 3, disableImageLoading: true },
      });
      assert.deepEqual(
        ads.map((a) => a.kind),
        ["native", "customNative", "native"],
        "priorities 10 (native), 8 (custom), 5 (native)",
      );
    });

    test("recordImpression: once, with an adEvent before the reply", async () => {
      const ad = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads[0];
      const first = await app.recordImpression(ad.adId);
      assert.deepEqual(first, { recorded: true });
      assert.deepEqual(notes.take(), [
        { method: "adEvent", params: { adId: ad.adId, event: "didRecordImpression", assetKey: null } },
      ]);
      const second = await app.recordImpression(ad.adId);
      assert.equal(second.recorded, false);
      assert.equal(second.reason, "alreadyRecorded");
      assert.deepEqual(notes.take(), []);
    });

    test("performClickOnAsset: landing page, deep link, identifiers; reportScreenDismissed", async () => {
      const ad = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads[0];
      const landing = await app.performClickOnAsset(ad.adId, "headline");
      assert.deepEqual(landing, {
        recorded: true,
        action: "landingPage",
        url: "https://play.google.com/store/apps/details?id=com.labpixies.flood",
      });
      assert.deepEqual(notes.takeBrief(), ["adEvent:didRecordClick", "adEvent:willPresentScreen"]);

      assert.deepEqual(await app.reportScreenDismissed(ad.adId), { dismissed: true });
      assert.deepEqual(notes.takeBrief(), ["adEvent:willDismissScreen", "adEvent:didDismissScreen"]);
      assert.deepEqual(await app.reportScreenDismissed(ad.adId), { dismissed: false });

      const deep = await app.performClickOnAsset(ad.adId, "3002", { openableURLSchemes: ["market"] });
      assert.deepEqual(deep, { recorded: true, action: "deepLink", url: "market://details?id=com.labpixies.flood" });
      const [click] = notes.take();
      assert.deepEqual(click.params, { adId: ad.adId, event: "didRecordClick", assetKey: "callToAction" }, "3002 is callToAction");
      notes.take();
    });

    test("custom click handler: customClick notification, nothing opened", async () => {
      const ad = (
        await app.loadAd({ adUnitID: NATIVE, adTypes: ["customNative"], customNativeAdFormatIDs: ["10063170"] })
      ).ads[0];
      assert.deepEqual(await app.setCustomClickHandler(ad.adId, true), { enabled: true });
      const waiting = app.waitFor("customClick", (p) => p.adId === ad.adId);
      const click = await app.performClickOnAsset(ad.adId, "Headline");
      assert.deepEqual(click, { recorded: true, action: "customClickHandler", url: null });
      assert.deepEqual(await waiting, { adId: ad.adId, assetID: "Headline" });
      assert.deepEqual(notes.takeBrief(), ["adEvent:didRecordClick", "customClick"]);

      assert.deepEqual(await app.setCustomClickHandler(ad.adId, false), { enabled: false });
      const plain = await app.performClickOnAsset(ad.adId, "Caption");
      assert.equal(plain.action, "landingPage");
      notes.take();
    });

    test("AdChoices on an indirect ad: position, _adChoices image, click never counts", async () => {
      const { ads } = await app.loadAd({ adUnitID: BACKFILL, options: { adChoicesPosition: "bottomLeft" } });
      const [ad] = ads;
      assert.equal(ad.adChoices.position, "bottomLeft");
      assert.equal(ad.responseInfo.loadedAdNetworkResponseInfo.adSourceName, "AdMob Network");
      const image = await app.imageForKey(ad.adId, "_adChoices");
      assert.equal(image.url, ad.adChoices.image.url);
      const click = await app.performClickOnAsset(ad.adId, "_adChoices");
      assert.deepEqual(click, { recorded: false, action: "adChoices", url: ad.adChoices.clickURL });
      assert.deepEqual(notes.take(), []);
    });

    test("registerAdView, reportVisibility, clickable assets, unregisterAdView", async () => {
      const ad = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads[0];
      assert.deepEqual(await app.reportVisibility(ad.adId, 10), { impressionRecorded: false, reason: "notRegistered" });
      const registered = await app.registerAdView(ad.adId, {
        clickableAssets: ["headline", "3002"],
        nonclickableAssets: ["body", "mediaView"],
      });
      assert.deepEqual(registered, {
        registered: true,
        clickableAssets: ["headline", "callToAction"],
        nonclickableAssets: ["body", "mediaView"],
      });
      assert.deepEqual(await app.reportVisibility(ad.adId, 0), { impressionRecorded: false, reason: "notVisible" });
      assert.deepEqual(await app.reportVisibility(ad.adId, 1), { impressionRecorded: true });
      assert.deepEqual(notes.takeBrief(), ["adEvent:didRecordImpression"]);
      assert.deepEqual(await app.reportVisibility(ad.adId, 500), { impressionRecorded: false, reason: "alreadyRecorded" });

      assert.deepEqual(await app.performClickOnAsset(ad.adId, "body"), {
        recorded: false,
        action: "none",
        url: null,
        reason: "notClickable",
      });
      assert.equal((await app.performClickOnAsset(ad.adId, "callToAction")).recorded, true);
      notes.take();

      assert.deepEqual(await app.unregisterAdView(ad.adId), { unregistered: true });
      assert.deepEqual(await app.unregisterAdView(ad.adId), { unregistered: false });

      const error = await rejectsWith(
        app.registerAdView(ad.adId, { clickableAssets: ["headline", "mediaView"] }),
        -32602,
      );
      assert.ok(error instanceof InvalidParamsError);
      assert.equal(error.kind, "invalidParams");
      assert.equal(error.field, "clickableAssets[1]");
      assert.match(error.message, /^Invalid params: /);
    });

    test("muteThisAd: didMute with its reason, then nothing is recorded", async () => {
      const ad = (await app.loadAd({ adUnitID: BACKFILL, options: { disableImageLoading: true } })).ads[0];
      assert.ok(ad.muteThisAdReasons.length > 0);
      const bad = await rejectsWith(app.muteThisAd(ad.adId, "not a reason"), -32602);
      assert.equal(bad.field, "reason");
      assert.deepEqual(await app.muteThisAd(ad.adId, ad.muteThisAdReasons[1]), { muted: true });
      assert.deepEqual(notes.take(), [
        {
          method: "adEvent",
          params: { adId: ad.adId, event: "didMute", assetKey: null, reason: ad.muteThisAdReasons[1] },
        },
      ]);
      assert.deepEqual(await app.muteThisAd(ad.adId), { muted: true });
      assert.deepEqual(notes.take(), [], "muting again changes nothing");
      assert.deepEqual(await app.recordImpression(ad.adId), { recorded: false, reason: "muted" });
      const click = await app.performClickOnAsset(ad.adId, "headline");
      assert.equal(click.recorded, false);
      assert.equal(click.reason, "muted");

      const direct = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads[0];
      assert.equal(direct.muteThisAdReasons, undefined);
      const error = await rejectsWith(app.muteThisAd(direct.adId), 2004);
      assert.ok(error instanceof AdObjectError);
      assert.equal(error.errorName, "muteNotOffered");
    });

    test("video: videoControl with custom controls, videoEvent, getVideoState", async () => {
      const { ads } = await app.loadAd({
        adUnitID: VIDEO,
        options: { customControlsRequested: true, startMuted: true, disableImageLoading: true },
      });
      const [ad] = ads;
      assert.equal(ad.mediaContent.hasVideoContent, true);
      assert.deepEqual(ad.mediaContent.videoController, {
        isMuted: true,
        customControlsEnabled: true,
        clickToExpandEnabled: false,
        playbackState: "stopped",
      });
      const play = await app.videoControl(ad.adId, "play");
      assert.equal(play.applied, true);
      assert.equal(play.videoController.playbackState, "playing");
      assert.equal(play.duration, ad.mediaContent.duration);
      const again = await app.videoControl(ad.adId, "play");
      assert.deepEqual([again.applied, again.reason], [false, "noChange"]);
      assert.equal((await app.videoControl(ad.adId, "pause")).videoController.playbackState, "paused");
      assert.equal((await app.videoControl(ad.adId, "unmute")).videoController.isMuted, false);
      assert.equal((await app.videoControl(ad.adId, "mute")).videoController.isMuted, true);
      const stop = await app.videoControl(ad.adId, "stop");
      assert.equal(stop.currentTime, 0);
      assert.deepEqual(notes.take().map((n) => [n.method, n.params.event]), [
        ["videoEvent", "didPlay"],
        ["videoEvent", "didPause"],
        ["videoEvent", "didUnmute"],
        ["videoEvent", "didMute"],
        ["videoEvent", "didEnd"],
      ]);
      const state = await app.getVideoState(ad.adId);
      assert.equal(state.videoController.playbackState, "stopped");
      assert.equal(state.duration, 15);

      const plain = (await app.loadAd({ adUnitID: VIDEO, options: { disableImageLoading: true } })).ads[0];
      const refused = await app.videoControl(plain.adId, "play");
      assert.deepEqual([refused.applied, refused.reason], [false, "customControlsNotEnabled"]);

      const noVideo = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads[0];
      assert.equal(await app.getVideoState(noVideo.adId), null);
      const none = await app.videoControl(noVideo.adId, "play");
      assert.deepEqual([none.applied, none.reason], [false, "noVideo"]);

      const custom = (
        await app.loadAd({
          adUnitID: VIDEO,
          adTypes: ["customNative"],
          customNativeAdFormatIDs: ["12406343"],
          options: { customControlsRequested: true, disableImageLoading: true },
        })
      ).ads[0];
      const early = await app.videoControl(custom.adId, "play");
      assert.deepEqual([early.applied, early.reason], [false, "impressionNotRecorded"]);
      // Contract 1.1: recording the impression shows the media, and the video starts playing.
      await app.recordImpression(custom.adId);
      assert.equal((await app.getVideoState(custom.adId)).videoController.playbackState, "playing");
      const replay = await app.videoControl(custom.adId, "play");
      assert.deepEqual([replay.applied, replay.reason], [false, "noChange"]);
      assert.equal((await app.videoControl(custom.adId, "pause")).applied, true);
      notes.take();
    });

    test("getEvents: the event log with filters", async () => {
      const ad = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads[0];
      const before = (await app.getEvents({ limit: 1 })).lastSequence;
      await app.recordImpression(ad.adId);
      await app.performClickOnAsset(ad.adId, "body");
      const mine = await app.getEvents({ adId: ad.adId });
      assert.deepEqual(
        mine.events.map((e) => [e.type, e.event, e.assetKey]),
        [
          ["adEvent", "didRecordImpression", null],
          ["adEvent", "didRecordClick", "body"],
          ["adEvent", "willPresentScreen", null],
        ],
      );
      assert.ok(mine.events.every((e, i, all) => i === 0 || e.sequence > all[i - 1].sequence));
      const since = await app.getEvents({ since: before, event: "didRecordClick" });
      assert.deepEqual(since.events.map((e) => e.adId), [ad.adId]);
      const limited = await app.getEvents({ limit: 2 });
      assert.equal(limited.events.length, 2);
      assert.ok(limited.lastSequence >= mine.events.at(-1).sequence);
      const bad = await rejectsWith(app.getEvents({ limit: 0 }), -32602);
      assert.equal(bad.field, "limit");
      notes.take();
    });

    test("releaseAd: later calls get 2001", async () => {
      const ad = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads[0];
      assert.deepEqual(await app.releaseAd(ad.adId), { released: true });
      const error = await rejectsWith(app.recordImpression(ad.adId), 2001);
      assert.ok(error instanceof AdObjectError);
      assert.equal(error.kind, "ad");
      assert.equal(error.errorName, "adNotFound");
      assert.equal(error.adId, ad.adId);
      assert.equal(error.method, "recordImpression");
      await rejectsWith(app.releaseAd(ad.adId), 2001);
      await rejectsWith(app.stringForKey(ad.adId, "headline"), 2001);
    });

    test("the store: define, put, load (UTF-8 counted in bytes), list, remove", async () => {
      const formatID = `fmt-${tag}`;
      const headline = "Grüße aus Köln — 日本語 🎉 \u2028 «ok»";
      assert.deepEqual(
        await app.storeDefineFormat({
          id: formatID,
          assets: [
            { name: "Title", type: "text", required: true },
            { name: "Picture", type: "image" },
          ],
        }),
        { formatID, replaced: false },
      );
      assert.deepEqual(
        await app.storePutCreative({
          id: `native-${tag}`,
          kind: "native",
          priority: 3,
          eCPM: 1.25,
          landingPageURL: "https://example.com/ü",
          assets: {
            headline,
            body: "b".repeat(70000),
            starRating: 3.5,
            images: [{ url: "https://example.com/1.png", width: 300, height: 300 }],
          },
        }),
        { creativeID: `native-${tag}`, replaced: false },
      );
      assert.deepEqual(
        await app.storePutCreative({
          id: `custom-${tag}`,
          kind: "customNative",
          formatID,
          landingPageURL: "https://example.com/c",
          assets: { Title: "Ça marche ✓", Picture: { url: "https://example.com/p.png", width: 64, height: 32 } },
        }),
        { creativeID: `custom-${tag}`, replaced: false },
      );
      const unitID = `/ts/${tag}`;
      assert.deepEqual(await app.storePutAdUnit({ id: unitID, creatives: [`native-${tag}`, `custom-${tag}`] }), {
        adUnitID: unitID,
        replaced: false,
      });
      assert.deepEqual((await app.storePutAdUnit({ id: unitID, creatives: [`native-${tag}`, `custom-${tag}`] })).replaced, true);

      const native = (await app.loadAd({ adUnitID: unitID })).ads[0];
      assert.equal(native.headline, headline);
      assert.equal(native.body.length, 70000);
      assert.deepEqual(pngSize(native.images[0].data), { width: 300, height: 300 });
      const custom = (
        await app.loadAd({ adUnitID: unitID, adTypes: ["customNative"], customNativeAdFormatIDs: [formatID] })
      ).ads[0];
      assert.equal(await app.stringForKey(custom.adId, "Title"), "Ça marche ✓");
      assert.deepEqual(pngSize((await app.imageForKey(custom.adId, "Picture")).data), { width: 64, height: 32 });

      const list = await app.storeList();
      assert.ok(list.formats.some((f) => f.id === formatID));
      assert.deepEqual(
        list.creatives.find((c) => c.id === `custom-${tag}`),
        { id: `custom-${tag}`, kind: "customNative", formatID },
      );
      assert.deepEqual(list.adUnits.find((u) => u.id === unitID).creatives, [`native-${tag}`, `custom-${tag}`]);

      const inUse = await rejectsWith(app.storeRemove("creative", `native-${tag}`), -32602);
      assert.ok(inUse instanceof InvalidParamsError);
      const badImage = await rejectsWith(
        app.storePutCreative({
          id: `bad-${tag}`,
          kind: "native",
          landingPageURL: "https://example.com",
          assets: { headline: "x", images: [{ url: "https://example.com/x.png", width: 0, height: 10 }] },
        }),
        -32602,
      );
      assert.equal(badImage.field, "creative.assets.images[0].width");

      assert.deepEqual(await app.storeRemove("adUnit", unitID), { removed: true });
      assert.deepEqual(await app.storeRemove("creative", `native-${tag}`), { removed: true });
      assert.deepEqual(await app.storeRemove("creative", `custom-${tag}`), { removed: true });
      assert.deepEqual(await app.storeRemove("format", formatID), { removed: true });
      assert.deepEqual(await app.storeRemove("format", formatID), { removed: false });
      // Loaded ads keep their creative.
      assert.equal(await app.stringForKey(native.adId, "headline"), headline);
      notes.take();
    });

    test("load errors: AdLoadError with gadErrorCode and responseInfo", async () => {
      const unknown = await rejectsWith(app.loadAd({ adUnitID: "/no/such/unit" }), 1000);
      assert.ok(unknown instanceof AdLoadError);
      assert.ok(unknown instanceof NativeAdsError);
      assert.equal(unknown.kind, "load");
      assert.equal(unknown.gadErrorCode, 0);
      assert.equal(unknown.errorName, "invalidRequest");
      assert.deepEqual(unknown.responseInfo.adNetworkInfoArray, []);
      assert.equal(unknown.method, "loadAd");

      const zero = await rejectsWith(app.loadAd({ adUnitID: NATIVE, options: { numberOfAds: 0 } }), 1000);
      assert.equal(zero.errorName, "invalidRequest");
      await rejectsWith(app.loadAd({ adUnitID: NATIVE, adTypes: ["customNative"] }), 1000);
      await rejectsWith(app.loadAd({ adUnitID: NATIVE, adTypes: [] }), 1000);

      const noFill = await rejectsWith(app.loadAd({ adUnitID: NATIVE, options: { mediaAspectRatio: "portrait" } }), 1001);
      assert.equal(noFill.gadErrorCode, 1);
      assert.equal(noFill.errorName, "noFill");
      assert.equal(noFill.responseInfo.loadedAdNetworkResponseInfo, null);
      assert.deepEqual(noFill.responseInfo.adNetworkInfoArray[0].error, {
        code: 1,
        domain: "com.google.admob",
        message: "Request Error: No ad to show.",
      });
    });

    test("ad errors: 2002 assetNotFound, 2003 wrongAdKind", async () => {
      const content = (
        await app.loadAd({ adUnitID: NATIVE, options: { numberOfAds: 2, disableImageLoading: true } })
      ).ads.find((a) => a.price === null);
      const missing = await rejectsWith(app.performClickOnAsset(content.adId, "price"), 2002);
      assert.equal(missing.errorName, "assetNotFound");
      assert.equal(missing.key, "price");
      const direct = await rejectsWith(app.performClickOnAsset(content.adId, "_adChoices"), 2002);
      assert.equal(direct.kind, "ad");
      const wrong = await rejectsWith(app.setCustomClickHandler(content.adId, true), 2003);
      assert.equal(wrong.errorName, "wrongAdKind");
      const custom = (
        await app.loadAd({ adUnitID: NATIVE, adTypes: ["customNative"], customNativeAdFormatIDs: ["10063170"] })
      ).ads[0];
      await rejectsWith(app.registerAdView(custom.adId, { clickableAssets: ["headline"] }), 2003);
      await rejectsWith(app.reportVisibility(custom.adId, 1), 2003);
      notes.take();
    });

    test("JSON-RPC errors: invalid params name the field, unknown methods", async () => {
      const typed = await rejectsWith(app.request("loadAd", { adUnitID: NATIVE, options: { numberOfAds: "two" } }), -32602);
      assert.ok(typed instanceof InvalidParamsError);
      assert.equal(typed.message, "Invalid params: options.numberOfAds must be an integer");
      assert.equal(typed.field, "options.numberOfAds");
      const missing = await rejectsWith(app.request("recordImpression", {}), -32602);
      assert.equal(missing.message, "Invalid params: adId is required");
      assert.equal(missing.field, "adId");
      const negative = await rejectsWith(app.reportVisibility("whatever", -1), -32602);
      assert.equal(negative.field, "visiblePixels");
      const nope = await rejectsWith(app.request("no.such.method", {}), -32601);
      assert.equal(nope.kind, "protocol");
      assert.equal(nope.message, "Method not found");
      // Notifications are never answered, even for unknown methods.
      app.notify("no.such.method", { x: 1 });
      assert.deepEqual(await app.stringForKey("gone", "x").catch((e) => e.code), 2001);
    });

    test("listeners: on / once / off / waitFor", async () => {
      const ad = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads[0];
      const all = [];
      const onceSeen = [];
      const listener = (p) => all.push(p.event);
      app.on("adEvent", listener);
      app.once("adEvent", (p) => onceSeen.push(p.event));
      const waited = app.waitFor("adEvent", (p) => p.event === "willPresentScreen");
      await app.performClickOnAsset(ad.adId, "headline");
      assert.deepEqual(all, ["didRecordClick", "willPresentScreen"]);
      assert.deepEqual(onceSeen, ["didRecordClick"]);
      assert.equal((await waited).adId, ad.adId);
      app.off("adEvent", listener);
      await app.recordImpression(ad.adId);
      assert.deepEqual(all, ["didRecordClick", "willPresentScreen"]);
      await assert.rejects(app.waitFor("customClick", undefined, 50), /no customClick notification within 50 ms/);
      notes.take();
    });

    test("formats.schema", async () => {
      const native = await app.formatSchema("native");
      assert.equal(native.$schema, "https://json-schema.org/draft/2020-12/schema");
      const custom = await app.formatSchema("10063170");
      assert.ok(JSON.stringify(custom).includes("MainImage"));
      const error = await rejectsWith(app.formatSchema("no-such-format"), -32602);
      assert.equal(error.field, "formatID");
    });

    test("rpc.discover", async (t) => {
      let doc;
      try {
        doc = await app.discover();
      } catch (e) {
        if (e instanceof NativeAdsError && e.code === -32601) {
          t.skip("this server does not answer rpc.discover yet");
          return;
        }
        throw e;
      }
      assert.equal(typeof doc.openrpc, "string");
      const names = new Set(doc.methods.map((m) => m.name));
      for (const method of Object.keys(RPC_TO_CLIENT)) assert.ok(names.has(method), `rpc.discover lists ${method}`);
    });

    test("events go only to the connection that loaded the ad; ads live process-wide", async () => {
      const other = await server.connect(config.framing === "ndjson" ? "content-length" : "ndjson");
      const otherNotes = recordNotifications(other);
      const ad = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads[0];
      assert.deepEqual(await other.recordImpression(ad.adId), { recorded: true });
      assert.deepEqual(otherNotes.take(), []);
      assert.deepEqual(notes.takeBrief(), ["adEvent:didRecordImpression"]);
      // An ad that connection loads is released when it closes.
      const theirs = (await other.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads[0];
      await other.close();
      await rejectsWith(app.stringForKey(theirs.adId, "headline"), 2001);
      await assert.rejects(other.recordImpression(ad.adId), (e) => e instanceof ConnectionClosedError && e.kind === "closed");
    });
  });
}
