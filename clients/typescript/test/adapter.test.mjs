// The mediation adapter role end to end (docs/mediation.md): one connection serves an adapter
// class (`serveAdapter`), another defines a waterfall unit in the store and loads from it as an
// app. Every pairing of transports and framings is covered; every reply is validated against
// schemas/openrpc.json (including the adapter.loadNativeAd requests and our answers to them).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AdapterError, AdLoadError, ConnectionClosedError, InvalidParamsError, RequestTimeoutError } from "../dist/index.js";
import { recordNotifications, rejectsWith, skipFor, sleep, startServer, useReplyValidation } from "../test-support/harness.mjs";

const checker = useReplyValidation();

const PAIRINGS = [
  { adapter: { transport: "stdio", framing: "ndjson" }, app: { transport: "tcp", framing: "content-length" } },
  { adapter: { transport: "stdio", framing: "content-length" }, app: { transport: "tcp", framing: "ndjson" } },
  { adapter: { transport: "tcp", framing: "ndjson" }, app: { transport: "stdio", framing: "content-length" } },
  { adapter: { transport: "tcp", framing: "content-length" }, app: { transport: "tcp", framing: "content-length" } },
  { adapter: { transport: "unix", framing: "ndjson" }, app: { transport: "unix", framing: "content-length" } },
];
const name = (c) => `${c.transport}/${c.framing}`;

function pngSize(base64) {
  const bytes = Buffer.from(base64, "base64");
  assert.equal(bytes.subarray(1, 4).toString("latin1"), "PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A network's ad, mapped to the native shape. */
function mappedAd(headline, extra = {}) {
  return {
    headline,
    body: "Mapped by the TypeScript adapter — ünïcode ✓",
    callToAction: "Go",
    icon: { url: "https://cdn.tsnet.example/icon.png", width: 64, height: 64 },
    images: [{ url: "https://cdn.tsnet.example/wide.png", width: 1200, height: 627 }],
    starRating: 4,
    price: "$1.99",
    advertiser: "TS Net",
    extraAssets: { campaign: "ts-1" },
    landingPageURL: "https://tsnet.example/click",
    ...extra,
  };
}

for (const pairing of PAIRINGS) {
  describe(`adapter over ${name(pairing.adapter)}, app over ${name(pairing.app)}`, skipFor(pairing.adapter), () => {
    let server;
    let adapter;
    let app;
    let appNotes;
    /** What the served class does with the next loads (tests swap it). */
    let behaviour;
    const loads = [];
    const stalled = [];
    const CLASS = "TsNetAdapter";
    const HOUSE = "ts-house-1";
    const UNIT = "/ts/waterfall";
    const ONLY = "/ts/only-adapter";

    before(async () => {
      const stdioFraming = [pairing.adapter, pairing.app].find((c) => c.transport === "stdio")?.framing ?? "ndjson";
      server = await startServer(checker, { stdioFraming, label: `adapter ${name(pairing.adapter)}` });
      adapter = await server.open(pairing.adapter);
      app = await server.open(pairing.app);
      appNotes = recordNotifications(app);
      await app.storePutCreative({
        id: HOUSE,
        kind: "native",
        priority: 1,
        eCPM: 0.5,
        landingPageURL: "https://example.com/house",
        assets: { headline: "House ad", images: [{ url: "https://example.com/h.png", width: 1200, height: 627 }] },
      });
      await app.storePutAdUnit({
        id: UNIT,
        creatives: [HOUSE],
        waterfall: [
          { type: "inventory", eCPM: 0.5, label: "House" },
          { type: "customEvent", adapterClassName: CLASS, parameter: "placement-7", eCPM: 3, timeoutMs: 3000, label: "TS Net" },
        ],
      });
      await app.storePutAdUnit({
        id: ONLY,
        waterfall: [{ type: "customEvent", adapterClassName: CLASS, parameter: "placement-8", eCPM: 1, timeoutMs: 3000 }],
      });
    });
    after(async () => {
      for (const release of stalled) release(null);
      await server?.close();
    });

    test("serveAdapter registers the class; the load reaches the handler; the mapped ad fills", async () => {
      const registration = await adapter.serveAdapter(CLASS, async (load) => {
        loads.push(load);
        return behaviour(load);
      });
      assert.equal(registration.registered, true);
      assert.equal(registration.adapterClassName, CLASS);
      behaviour = () => mappedAd("Rocket Boots");

      const { ads, responseInfo } = await app.loadAd({
        adUnitID: UNIT,
        options: { mediaAspectRatio: "landscape" },
        request: { isTestRequest: true },
      });
      const load = loads.at(-1);
      assert.match(String(load.requestId), /^native-ads:\d+$/);
      assert.equal(load.adapterClassName, CLASS);
      assert.equal(load.parameter, "placement-7");
      assert.deepEqual(load.adConfiguration.credentials.settings, { parameter: "placement-7" });
      assert.equal(load.adConfiguration.isTestRequest, true);
      assert.equal(load.adConfiguration.options.mediaAspectRatio, "landscape");
      assert.equal(typeof load.loadId, "string");

      const [ad] = ads;
      assert.equal(ad.headline, "Rocket Boots");
      assert.equal(ad.body, "Mapped by the TypeScript adapter — ünïcode ✓");
      assert.deepEqual(ad.extraAssets, { campaign: "ts-1" });
      assert.equal(ad.starRating, 4);
      assert.deepEqual(pngSize(ad.images[0].data), { width: 1200, height: 627 });
      assert.deepEqual(
        [responseInfo.loadedAdNetworkResponseInfo.adNetworkClassName, responseInfo.loadedAdNetworkResponseInfo.adSourceName],
        [CLASS, "TS Net"],
      );
      assert.equal(responseInfo.adNetworkInfoArray.length, 1, "sorted by eCPM: the adapter first, and it filled");
      assert.equal(responseInfo.adNetworkInfoArray[0].error, null);

      const rendered = adapter.waitFor("adapter.didRender", (p) => p.adId === ad.adId);
      await app.registerAdView(ad.adId, { clickableAssets: ["headline", "callToAction"], nonclickableAssets: ["body"] });
      assert.deepEqual(await rendered, {
        loadId: load.loadId,
        adId: ad.adId,
        clickableAssets: ["headline", "callToAction"],
        nonclickableAssets: ["body"],
      });

      const impression = adapter.waitFor("adapter.didRecordImpression", (p) => p.adId === ad.adId);
      assert.deepEqual(await app.recordImpression(ad.adId), { recorded: true });
      assert.deepEqual(await impression, { loadId: load.loadId, adId: ad.adId });

      const click = adapter.waitFor("adapter.didRecordClickOnAsset", (p) => p.adId === ad.adId);
      const result = await app.performClickOnAsset(ad.adId, "callToAction");
      assert.deepEqual(result, { recorded: true, action: "landingPage", url: "https://tsnet.example/click" });
      assert.deepEqual(await click, { loadId: load.loadId, adId: ad.adId, assetKey: "callToAction" });

      const untracked = adapter.waitFor("adapter.didUntrackView", (p) => p.adId === ad.adId);
      assert.deepEqual(await app.unregisterAdView(ad.adId), { unregistered: true });
      assert.deepEqual(await untracked, { loadId: load.loadId, adId: ad.adId });
      assert.deepEqual(appNotes.takeBrief(), ["adEvent:didRecordImpression", "adEvent:didRecordClick", "adEvent:willPresentScreen"]);
      await app.releaseAd(ad.adId);
    });

    test("handlesUserImpressions/Clicks: the adapter reports impression, click, video and full screen", async () => {
      behaviour = () =>
        mappedAd("Self-tracking", {
          handlesUserClicks: true,
          handlesUserImpressions: true,
          media: { aspectRatio: 1.5, hasVideoContent: true, duration: 12 },
        });
      const ad = (await app.loadAd({ adUnitID: UNIT, options: { disableImageLoading: true } })).ads[0];
      assert.equal(ad.mediaContent.hasVideoContent, true);

      const handleImpression = adapter.waitFor("adapter.handleImpression", (p) => p.adId === ad.adId);
      assert.deepEqual(await app.recordImpression(ad.adId), { recorded: false, reason: "handledByAdapter" });
      await handleImpression;
      assert.deepEqual(appNotes.take(), [], "nothing recorded until the adapter reports it");
      const appImpression = app.waitFor("adEvent", (p) => p.adId === ad.adId && p.event === "didRecordImpression");
      assert.deepEqual(await adapter.reportImpression(ad.adId), { recorded: true });
      await appImpression;
      assert.deepEqual(await adapter.reportImpression(ad.adId), { recorded: false }, "counted once");

      const handleClick = adapter.waitFor("adapter.handleClick", (p) => p.adId === ad.adId);
      assert.deepEqual(await app.performClickOnAsset(ad.adId, "headline"), {
        recorded: false,
        action: "adapter",
        url: null,
        reason: "handledByAdapter",
      });
      assert.equal((await handleClick).assetKey, "headline");
      const appClick = app.waitFor("adEvent", (p) => p.adId === ad.adId && p.event === "didRecordClick");
      assert.deepEqual(await adapter.reportClick(ad.adId), { recorded: true });
      await appClick;

      const video = app.waitFor("videoEvent", (p) => p.adId === ad.adId);
      assert.deepEqual(await adapter.reportVideoEvent(ad.adId, "didPlay"), { recorded: true });
      assert.deepEqual(await video, { adId: ad.adId, event: "didPlay" });
      const screen = app.waitFor("adEvent", (p) => p.adId === ad.adId && p.event === "willPresentScreen");
      assert.deepEqual(await adapter.reportFullScreen(ad.adId, "willPresentScreen"), { recorded: true });
      await screen;

      // Only the connection that mapped the ad may report on it.
      await rejectsWith(app.reportClick(ad.adId), 2001);
      await rejectsWith(app.reportVideoEvent(ad.adId, "didPause"), 2001);
      const badEvent = await rejectsWith(adapter.reportVideoEvent(ad.adId, "didExplode"), -32602);
      assert.equal(badEvent.field, "event");
      const log = await app.getEvents({ adId: ad.adId });
      assert.deepEqual(
        log.events.map((e) => e.event),
        ["didRecordImpression", "didRecordClick", "didPlay", "willPresentScreen"],
      );
      appNotes.take();
      await app.releaseAd(ad.adId);
    });

    test("adapter failures fall through to the next source, with their error in responseInfo", async () => {
      behaviour = () => {
        throw new AdapterError("TS Net has no ad for placement-7", { code: 3, domain: "com.tsnet.sdk" });
      };
      let result = await app.loadAd({ adUnitID: UNIT, options: { disableImageLoading: true } });
      assert.equal(result.ads[0].headline, "House ad");
      assert.deepEqual(
        result.responseInfo.adNetworkInfoArray.map((i) => [i.adNetworkClassName, i.error]),
        [
          [CLASS, { code: 3, domain: "com.tsnet.sdk", message: "TS Net has no ad for placement-7" }],
          ["GADMAdapterGoogleAdMobAds", null],
        ],
      );

      behaviour = () => null; // no fill
      result = await app.loadAd({ adUnitID: UNIT, options: { disableImageLoading: true } });
      assert.equal(result.responseInfo.adNetworkInfoArray[0].error.code, 1);

      behaviour = () => {
        throw new Error("boom");
      };
      result = await app.loadAd({ adUnitID: UNIT, options: { disableImageLoading: true } });
      assert.deepEqual(result.responseInfo.adNetworkInfoArray[0].error, {
        code: -32603,
        domain: "com.native-ads.typescript",
        message: "adapter failed: boom",
      });

      behaviour = () => ({ body: "no headline" });
      result = await app.loadAd({ adUnitID: UNIT, options: { disableImageLoading: true } });
      // The test validator flags our deliberately invalid answer, as it should.
      const flagged = checker.takeFailures(/our reply to adapter\.loadNativeAd[^]*"headline" is missing/);
      assert.equal(flagged.length, checker.contract.available ? 1 : 0);
      const invalid = result.responseInfo.adNetworkInfoArray[0].error;
      assert.equal(invalid.code, 102);
      assert.match(invalid.message, /headline/);
      for (const ad of result.ads) await app.releaseAd(ad.adId);
    });

    test("nothing fills: 1002 networkError when the adapter reported one, else 1001", async () => {
      behaviour = () => {
        throw AdapterError.networkError("TS Net is offline", { domain: "com.tsnet.sdk" });
      };
      const network = await rejectsWith(app.loadAd({ adUnitID: ONLY }), 1002);
      assert.ok(network instanceof AdLoadError);
      assert.equal(network.errorName, "networkError");
      assert.equal(network.gadErrorCode, 2);
      assert.deepEqual(network.responseInfo.adNetworkInfoArray.map((i) => i.error.message), ["TS Net is offline"]);

      behaviour = () => {
        throw AdapterError.noFill();
      };
      const noFill = await rejectsWith(app.loadAd({ adUnitID: ONLY }), 1001);
      assert.equal(noFill.responseInfo.adNetworkInfoArray[0].adNetworkClassName, CLASS);
    });

    test("per-source timeout: a slow adapter loses its turn and its late answer changes nothing", async () => {
      await app.storePutAdUnit({
        id: "/ts/slow",
        creatives: [HOUSE],
        waterfall: [
          { type: "customEvent", adapterClassName: CLASS, parameter: "slow", eCPM: 2, timeoutMs: 150 },
          { type: "inventory", eCPM: 0.1 },
        ],
      });
      let answered;
      const late = new Promise((r) => (answered = r));
      behaviour = async () => {
        await sleep(400);
        answered();
        return mappedAd("Too late");
      };
      const result = await app.loadAd({ adUnitID: "/ts/slow", options: { disableImageLoading: true } });
      assert.equal(result.ads[0].headline, "House ad");
      const [slow, house] = result.responseInfo.adNetworkInfoArray;
      assert.notEqual(slow.error, null);
      assert.ok(slow.latency >= 0.14, `latency ${slow.latency}`);
      assert.equal(house.error, null);
      await late;
      await sleep(20);
      // The server ignored the late answer and goes on serving both connections.
      assert.equal((await app.storeList()).adUnits.some((u) => u.id === "/ts/slow"), true);
      assert.equal((await adapter.getEvents({ limit: 1 })).events.length <= 1, true);
      await app.releaseAd(result.ads[0].adId);
    });

    test("the load deadline (deadlineMs): 1005 timeout", async () => {
      await app.storePutAdUnit({
        id: "/ts/deadline",
        deadlineMs: 150,
        waterfall: [{ type: "customEvent", adapterClassName: CLASS, parameter: "never", eCPM: 1, timeoutMs: 5000 }],
      });
      behaviour = () => new Promise((resolve) => stalled.push(resolve));
      const error = await rejectsWith(app.loadAd({ adUnitID: "/ts/deadline" }), 1005);
      assert.equal(error.errorName, "timeout");
      assert.equal(error.responseInfo.adNetworkInfoArray.length, 1);
    });

    test("pending requests: rejected when the connection closes, or after requestTimeoutMs", async () => {
      behaviour = () => new Promise((resolve) => stalled.push(resolve));
      const impatient = await server.connect("ndjson", { requestTimeoutMs: 100 });
      const timedOut = await rejectsWith(impatient.loadAd({ adUnitID: ONLY }), -32099);
      assert.ok(timedOut instanceof RequestTimeoutError);
      assert.equal(timedOut.kind, "timeout");
      await impatient.close();

      const leaving = await server.connect("content-length");
      const waiting = rejectsWith(leaving.loadAd({ adUnitID: ONLY }), -32000);
      await sleep(50);
      await leaving.close();
      const closed = await waiting;
      assert.ok(closed instanceof ConnectionClosedError);
      assert.equal(closed.method, "loadAd");
      assert.equal(leaving.closed, true);
      await rejectsWith(leaving.storeList(), -32000);
    });

    test("the adapter's connection closes while a load waits: that source fails (102)", async () => {
      const shortLived = await server.connect("ndjson");
      let gotLoad;
      const received = new Promise((r) => (gotLoad = r));
      await shortLived.serveAdapter("TsLeaving", () => {
        gotLoad();
        return new Promise(() => {});
      });
      await app.storePutAdUnit({
        id: "/ts/leaving",
        waterfall: [{ type: "customEvent", adapterClassName: "TsLeaving", parameter: "x", eCPM: 1, timeoutMs: 5000 }],
      });
      const loading = rejectsWith(app.loadAd({ adUnitID: "/ts/leaving" }), 1001);
      await received;
      await shortLived.close();
      const error = await loading;
      assert.deepEqual(error.responseInfo.adNetworkInfoArray[0].error, {
        code: 102,
        domain: "com.native-ads.mediation",
        message: "adapter connection closed",
      });
    });

    test("unregistering: the class is skipped (1008); built-in classes cannot be registered", async () => {
      const again = await adapter.registerAdapter(CLASS);
      assert.deepEqual(again, { registered: true });
      assert.deepEqual(await adapter.unregisterAdapter(CLASS), { unregistered: true });
      assert.deepEqual(await adapter.unregisterAdapter(CLASS), { unregistered: false });
      const skipped = await rejectsWith(app.loadAd({ adUnitID: ONLY }), 1008);
      assert.equal(skipped.errorName, "mediationAdapterError");
      assert.deepEqual(
        [skipped.responseInfo.adNetworkInfoArray[0].error.code, skipped.responseInfo.adNetworkInfoArray[0].latency],
        [8, 0],
      );
      const builtin = await rejectsWith(adapter.serveAdapter("SampleCustomEvent", () => null), -32602);
      assert.ok(builtin instanceof InvalidParamsError);
      assert.equal(builtin.field, "adapterClassName");
    });

    test("the built-in SampleCustomEvent waterfall, deterministic by request.seed", async () => {
      let filled;
      for (let seed = 0; seed < 20 && !filled; seed++) {
        const result = await app.loadAd({
          adUnitID: "native-ads/mediation/sample-waterfall",
          options: { disableImageLoading: true, mediaAspectRatio: "any" },
          request: { seed },
        });
        const info = result.responseInfo;
        assert.equal(info.adNetworkInfoArray[0].adNetworkClassName, "SampleCustomEvent");
        if (info.loadedAdNetworkResponseInfo.adNetworkClassName === "SampleCustomEvent") filled = result.ads[0];
        else assert.equal(info.adNetworkInfoArray[0].error.domain, "com.google.mediation.sample");
      }
      assert.ok(filled, "85% fill: one of 20 seeds fills");
      assert.deepEqual(filled.extraAssets, { DegreeOfAwesomeness: "Quite Awesome" });
      assert.equal(filled.responseInfo.loadedAdNetworkResponseInfo.adSourceName, "Sample network");
      appNotes.take();
    });
  });
}
