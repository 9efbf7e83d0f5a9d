// OpenRTB Native 1.2 (contract section 10, docs/openrtb.md) against the real binary, over
// stdio, TCP and a Unix socket in both framings: loadAd with adResponseString (bare, wrapped,
// a bid response) and nativeRequest, 1013 naming the place (AdLoadError.field), exportAd and
// its round trip, the trackingURLs of impressions and clicks and the tracker events of the log,
// a store creative written in OpenRTB. Every reply is validated against schemas/openrpc.json.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { AdLoadError, AdObjectError, ErrorCodes, InvalidParamsError } from "../dist/index.js";
import { OPENRPC_PATH } from "../test-support/contract.mjs";
import {
  CONFIGS,
  configName,
  rejectsWith,
  skipFor,
  startServer,
  useReplyValidation,
} from "../test-support/harness.mjs";

const checker = useReplyValidation();

const NATIVE = "/21775744923/example/native";
/** What a response string is for: it names the ad and need not be an ad unit of the store. */
const RTB_UNIT = "/openrtb/test";

/** A Native 1.2 response with typed assets and trackers whose URLs are unique to `tag`. */
function rtbNative(tag) {
  const t = `https://t.example/${tag}`;
  return {
    ver: "1.2",
    assets: [
      { id: 1, title: { text: `Headline ${tag}` } },
      { id: 2, img: { type: 1, url: `https://cdn.example/${tag}/icon.png`, w: 80, h: 80 } },
      { id: 3, img: { type: 3, url: `https://cdn.example/${tag}/main.png`, w: 600, h: 300 } },
      {
        id: 4,
        data: { type: 2, value: "The body text." },
        link: { url: `https://adv.example/${tag}/body`, clicktrackers: [`${t}/body-click`, `${t}/click`] },
      },
      { id: 5, data: { type: 1, value: "ACME" } },
      { id: 6, data: { type: 3, value: "4.5" } },
      { id: 7, data: { type: 12, value: "Buy now" } },
      { id: 8, data: { type: 6, value: "$1.99" } },
      { id: 9, data: { type: 8, value: "+1 555 0100" } },
    ],
    link: { url: `https://adv.example/${tag}`, clicktrackers: [`${t}/click`] },
    imptrackers: [`${t}/imp`, `${t}/imp`],
    eventtrackers: [
      { event: 1, method: 1, url: `${t}/ev-imp` },
      { event: 1, method: 2, url: `${t}/ev-js` },
      { event: 2, method: 1, url: `${t}/ev-viewable` },
    ],
    privacy: `https://adv.example/${tag}/privacy`,
  };
}

/** A Native 1.2 request: a required title, a main image and a description. */
const NATIVE_REQUEST = {
  ver: "1.2",
  assets: [
    { id: 1, required: 1, title: { len: 25 } },
    { id: 2, img: { type: 3, wmin: 300, hmin: 150 } },
    { id: 3, data: { type: 2, len: 90 } },
  ],
};

/** A response to NATIVE_REQUEST whose image and data leave their type out. */
const UNTYPED_RESPONSE = {
  ver: "1.2",
  link: { url: "https://adv.example/untyped" },
  assets: [
    { id: 1, title: { text: "Untyped" } },
    { id: 2, img: { url: "https://cdn.example/untyped.png" } },
    { id: 3, data: { value: "Typed by the request." } },
  ],
};

const LINK = { url: "https://e.example/" };
const TITLE = { id: 1, title: { text: "x" } };

/** Response strings that cannot be mapped, with the place 1013 names. */
const INVALID = [
  ["not JSON", "not JSON", "adResponseString"],
  ["not an object", "[1, 2]", "adResponseString"],
  ["no link", JSON.stringify({ native: { assets: [TITLE] } }), "native.link"],
  ["no assets", JSON.stringify({ link: LINK, assets: [] }), "native.assets"],
  ["an img without url", JSON.stringify({ link: LINK, assets: [TITLE, { id: 2, img: { type: 3 } }] }), "native.assets[1].img.url"],
  ["no title", JSON.stringify({ link: LINK, assets: [{ id: 1, data: { type: 2, value: "b" } }] }), "native.assets"],
  ["an untyped img without nativeRequest", JSON.stringify(UNTYPED_RESPONSE), "native.assets[1].img.type"],
  ["a bid without adm", JSON.stringify({ id: "r", seatbid: [{ bid: [{ impid: "1", price: 1 }] }] }), "seatbid[0].bid[0].adm"],
  [
    "a bad second bid",
    JSON.stringify({
      id: "r",
      seatbid: [
        {
          bid: [
            { price: 2, adm: JSON.stringify({ link: LINK, assets: [TITLE] }) },
            { price: 1, adm: JSON.stringify({ native: { assets: [TITLE], link: {} } }) },
          ],
        },
      ],
    }),
    "seatbid[0].bid[1].adm.native.link.url",
  ],
];

/** Whether schemas/openrpc.json lets reportVisibility answer trackingURLs (its result schema has
 * additionalProperties false): the server answers them for ads from OpenRTB. */
function reportVisibilityDocumentsTrackingURLs() {
  if (!existsSync(OPENRPC_PATH)) return false;
  const doc = JSON.parse(readFileSync(OPENRPC_PATH, "utf8"));
  const schema = doc.methods.find((m) => m.name === "reportVisibility")?.result?.schema ?? {};
  return "$ref" in schema || "trackingURLs" in (schema.properties ?? {});
}

const brief = (images) => images.map((i) => [i.url, i.width, i.height]);

for (const config of CONFIGS) {
  describe(`OpenRTB over ${configName(config)}`, skipFor(config), () => {
    let server;
    let app;
    const tag = `${config.transport}-${config.framing}`;
    let n = 0;
    const unique = (prefix) => `${prefix}-${tag}-${++n}`;

    before(async () => {
      server = await startServer(checker, {
        stdioFraming: config.transport === "stdio" ? config.framing : "ndjson",
        label: `openrtb ${configName(config)}`,
      });
      app = await server.open(config);
    });
    after(async () => {
      await server?.close();
    });

    test("loadAd adResponseString: a bare Native response mapped to a native ad", async () => {
      const id = unique("bare");
      const native = rtbNative(id);
      const { ads, responseInfo } = await app.loadAd({ adUnitID: RTB_UNIT, adResponseString: JSON.stringify(native) });
      assert.equal(ads.length, 1);
      const [ad] = ads;
      assert.equal(ad.kind, "native");
      assert.equal(ad.headline, `Headline ${id}`);
      assert.equal(ad.body, "The body text.");
      assert.equal(ad.advertiser, "ACME");
      assert.equal(ad.starRating, 4.5);
      assert.equal(ad.callToAction, "Buy now");
      assert.equal(ad.price, "$1.99");
      assert.equal(ad.store, null);
      assert.deepEqual(ad.extraAssets, { phone: "+1 555 0100" });
      assert.deepEqual([ad.icon.url, ad.icon.width, ad.icon.height], [`https://cdn.example/${id}/icon.png`, 80, 80]);
      assert.deepEqual(brief(ad.images), [[`https://cdn.example/${id}/main.png`, 600, 300]]);
      assert.equal(ad.images[0].mimeType, "image/png", "drawn at the stated size, never fetched");
      assert.equal(ad.adChoices.clickURL, native.privacy, "an indirect ad: AdChoices to the privacy URL");
      assert.equal(responseInfo.loadedAdNetworkResponseInfo.adNetworkClassName, "OpenRTB");
      assert.equal(responseInfo.loadedAdNetworkResponseInfo.adSourceName, "OpenRTB Native 1.2");
      assert.equal(responseInfo.adNetworkInfoArray.length, 1);
      assert.deepEqual(ad.responseInfo, responseInfo);

      const wrapped = (
        await app.loadAd({
          adUnitID: RTB_UNIT,
          adResponseString: JSON.stringify({ native }),
          options: { disableImageLoading: true },
        })
      ).ads[0];
      assert.deepEqual([wrapped.headline, wrapped.body, wrapped.images[0].url], [ad.headline, ad.body, ad.images[0].url]);
      assert.equal(wrapped.images[0].data, undefined);
    });

    test("loadAd nativeRequest (an object or its JSON) types the untyped assets", async () => {
      for (const nativeRequest of [NATIVE_REQUEST, JSON.stringify(NATIVE_REQUEST)]) {
        const [ad] = (await app.loadAd({ adUnitID: RTB_UNIT, adResponseString: JSON.stringify(UNTYPED_RESPONSE), nativeRequest }))
          .ads;
        assert.equal(ad.headline, "Untyped");
        assert.equal(ad.body, "Typed by the request.");
        assert.deepEqual(brief(ad.images), [["https://cdn.example/untyped.png", 300, 150]], "the request's wmin × hmin");
      }
    });

    test("loadAd adResponseString: a bid response, the highest price first", async () => {
      const bid = (headline, price, asString) => {
        const native = { link: { url: "https://adv.example/bid" }, assets: [{ id: 1, title: { text: headline } }] };
        return { id: headline, impid: "1", price, adm: asString ? JSON.stringify({ native }) : native };
      };
      const bidResponse = {
        id: unique("auction"),
        seatbid: [
          { seat: "low-seat", bid: [bid("Low", 1, true)] },
          { seat: "high-seat", bid: [bid("High", 2.5, false), bid("Middle", 1.5, true)] },
        ],
        cur: "USD",
      };
      const { ads, responseInfo } = await app.loadAd({
        adUnitID: RTB_UNIT,
        adResponseString: JSON.stringify(bidResponse),
        options: { numberOfAds: 3, disableImageLoading: true },
      });
      assert.deepEqual(ads.map((a) => a.headline), ["High", "Middle", "Low"]);
      assert.equal(responseInfo.loadedAdNetworkResponseInfo.adSourceName, "high-seat", "the winning bid's seat");
      const one = await app.loadAd({ adUnitID: RTB_UNIT, adResponseString: JSON.stringify(bidResponse) });
      assert.deepEqual(one.ads.map((a) => a.headline), ["High"]);
      // no bids: no fill
      const error = await rejectsWith(
        app.loadAd({ adUnitID: RTB_UNIT, adResponseString: JSON.stringify({ id: "empty", seatbid: [], nbr: 2 }) }),
        ErrorCodes.loadNoFill,
      );
      assert.ok(error instanceof AdLoadError);
      assert.equal(error.responseInfo.adNetworkInfoArray[0].adNetworkClassName, "OpenRTB");
      assert.notEqual(error.responseInfo.adNetworkInfoArray[0].error, null);
    });

    test("loadAd adResponseString that cannot be mapped: 1013 with data.field naming the place", async () => {
      for (const [what, adResponseString, field] of INVALID) {
        const error = await rejectsWith(app.loadAd({ adUnitID: RTB_UNIT, adResponseString }), 1013);
        assert.ok(error instanceof AdLoadError, what);
        assert.equal(error.kind, "load");
        assert.equal(error.code, ErrorCodes.loadReceivedInvalidResponse);
        assert.equal(error.gadErrorCode, 13);
        assert.equal(error.errorName, "receivedInvalidResponse");
        assert.equal(error.field, field, `${what}: ${error.message}`);
        assert.ok(error.message.includes(field), error.message);
        assert.equal(error.method, "loadAd");
        assert.equal(error.responseInfo.loadedAdNetworkResponseInfo, null, what);
        assert.equal(error.responseInfo.adNetworkInfoArray.length, 1, what);
        assert.equal(error.responseInfo.adNetworkInfoArray[0].adNetworkClassName, "OpenRTB");
        assert.equal(error.responseInfo.adNetworkInfoArray[0].error.code, 13);
      }
    });

    test("exportAd: an inventory ad as a Native 1.2 response that loads back with the same assets", async () => {
      const options = { shouldRequestMultipleImages: true, disableImageLoading: true };
      const [ad] = (await app.loadAd({ adUnitID: NATIVE, options })).ads;
      const exported = await app.exportAd(ad.adId);
      assert.deepEqual(await app.exportAd(ad.adId, "openrtb-native-1.2"), exported);
      assert.equal(exported.ver, "1.2");
      assert.deepEqual(exported.assets.map((a) => a.id), exported.assets.map((_, i) => i + 1), "ids from 1");
      assert.equal(exported.assets[0].title.text, ad.headline);
      for (const asset of exported.assets) {
        if (asset.img) assert.equal(typeof asset.img.type, "number", "every img typed");
        if (asset.data) assert.equal(typeof asset.data.type, "number", "every data typed");
      }
      const [back] = (await app.loadAd({ adUnitID: RTB_UNIT, adResponseString: JSON.stringify(exported), options })).ads;
      for (const key of ["headline", "body", "callToAction", "store", "price", "advertiser", "starRating", "extraAssets"]) {
        assert.deepEqual(back[key], ad[key], key);
      }
      assert.deepEqual(brief(back.images), brief(ad.images));
      assert.deepEqual(brief([back.icon]), brief([ad.icon]));
      assert.deepEqual((await app.exportAd(back.adId)).assets, exported.assets, "the copy exports as the original");
    });

    test("exportAd of a response-string ad keeps its links, trackers and privacy", async () => {
      const native = rtbNative(unique("export"));
      const [ad] = (await app.loadAd({ adUnitID: RTB_UNIT, adResponseString: JSON.stringify(native) })).ads;
      const exported = await app.exportAd(ad.adId);
      assert.equal(exported.link.url, native.link.url);
      assert.deepEqual(exported.link.clicktrackers, native.link.clicktrackers);
      assert.equal(exported.imptrackers[0], native.imptrackers[0]);
      assert.deepEqual(exported.eventtrackers.map((t) => t.url), native.eventtrackers.map((t) => t.url));
      assert.equal(exported.privacy, native.privacy);
    });

    test("exportAd: 2003 for a custom native ad, -32602 for another format", async () => {
      const custom = (await app.loadAd({ adUnitID: NATIVE, adTypes: ["customNative"], customNativeAdFormatIDs: ["10063170"] })).ads[0];
      const wrong = await rejectsWith(app.exportAd(custom.adId), ErrorCodes.wrongAdKind);
      assert.ok(wrong instanceof AdObjectError);
      assert.equal(wrong.errorName, "wrongAdKind");
      const [ad] = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads;
      const bad = await rejectsWith(app.exportAd(ad.adId, "openrtb-native-1.1"), ErrorCodes.invalidParams);
      assert.ok(bad instanceof InvalidParamsError);
      assert.equal(bad.field, "format");
    });

    test("trackingURLs: impression and click trackers handed out, and logged as tracker events", async () => {
      const id = unique("track");
      const t = `https://t.example/${id}`;
      const [ad] = (
        await app.loadAd({ adUnitID: RTB_UNIT, adResponseString: JSON.stringify(rtbNative(id)), options: { disableImageLoading: true } })
      ).ads;
      assert.deepEqual(await app.recordImpression(ad.adId), { recorded: true, trackingURLs: [`${t}/imp`, `${t}/ev-imp`] });
      assert.deepEqual(await app.recordImpression(ad.adId), { recorded: false, reason: "alreadyRecorded", trackingURLs: [] });
      assert.deepEqual(await app.performClickOnAsset(ad.adId, "headline"), {
        recorded: true,
        action: "landingPage",
        url: `https://adv.example/${id}`,
        trackingURLs: [`${t}/click`],
      });
      const body = await app.performClickOnAsset(ad.adId, "body");
      assert.equal(body.url, `https://adv.example/${id}/body`, "the asset's own link");
      assert.deepEqual(body.trackingURLs, [`${t}/body-click`, `${t}/click`], "the asset's trackers first");
      const adChoices = await app.performClickOnAsset(ad.adId, "_adChoices");
      assert.deepEqual([adChoices.recorded, adChoices.trackingURLs], [false, []]);

      const { events } = await app.getEvents({ adId: ad.adId });
      assert.deepEqual(
        events.map((e) => [e.type, e.event, e.trigger ?? null, e.url ?? null, e.assetKey]),
        [
          ["adEvent", "didRecordImpression", null, null, null],
          ["tracker", "tracker", "impression", `${t}/imp`, null],
          ["tracker", "tracker", "impression", `${t}/ev-imp`, null],
          ["adEvent", "didRecordClick", null, null, "headline"],
          ["tracker", "tracker", "click", `${t}/click`, "headline"],
          ["adEvent", "willPresentScreen", null, null, null],
          ["adEvent", "didRecordClick", null, null, "body"],
          ["tracker", "tracker", "click", `${t}/body-click`, "body"],
          ["tracker", "tracker", "click", `${t}/click`, "body"],
          ["adEvent", "willPresentScreen", null, null, null],
        ],
      );
      const trackers = (await app.getEvents({ adId: ad.adId, event: "tracker" })).events;
      assert.deepEqual(trackers.map((e) => e.url), [`${t}/imp`, `${t}/ev-imp`, `${t}/click`, `${t}/body-click`, `${t}/click`]);
    });

    test("ads not from OpenRTB answer without trackingURLs", async () => {
      const [ad] = (await app.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } })).ads;
      assert.deepEqual(await app.recordImpression(ad.adId), { recorded: true });
      assert.equal("trackingURLs" in (await app.performClickOnAsset(ad.adId, "headline")), false);
      assert.deepEqual((await app.getEvents({ adId: ad.adId, event: "tracker" })).events, []);
    });

    test(
      "reportVisibility hands out the impression trackers",
      reportVisibilityDocumentsTrackingURLs()
        ? {}
        : { skip: "schemas/openrpc.json's reportVisibility result has no trackingURLs, though the server answers them" },
      async () => {
        const id = unique("visible");
        const t = `https://t.example/${id}`;
        const [ad] = (await app.loadAd({ adUnitID: RTB_UNIT, adResponseString: JSON.stringify(rtbNative(id)) })).ads;
        await app.registerAdView(ad.adId, { clickableAssets: ["headline"] });
        assert.deepEqual(await app.reportVisibility(ad.adId, 0), { impressionRecorded: false, reason: "notVisible", trackingURLs: [] });
        assert.deepEqual(await app.reportVisibility(ad.adId, 10), { impressionRecorded: true, trackingURLs: [`${t}/imp`, `${t}/ev-imp`] });
      },
    );

    test("a store creative written in OpenRTB serves ads with its trackers", async () => {
      const id = unique("store");
      const native = rtbNative(id);
      const creativeID = `rtb-${id}`;
      const unitID = `/openrtb/${id}`;
      assert.equal((await app.storePutCreative({ id: creativeID, openrtb: native, eCPM: 2.5, priority: 1 })).creativeID, creativeID);
      await app.storePutAdUnit({ id: unitID, creatives: [creativeID] });
      try {
        const [ad] = (await app.loadAd({ adUnitID: unitID, options: { disableImageLoading: true } })).ads;
        assert.equal(ad.headline, `Headline ${id}`);
        assert.equal(ad.adChoices.clickURL, native.privacy);
        const impression = await app.recordImpression(ad.adId);
        assert.deepEqual(impression.trackingURLs, [`https://t.example/${id}/imp`, `https://t.example/${id}/ev-imp`]);
        await app.releaseAd(ad.adId);
        // an untyped asset cannot be placed without a request: the store refuses it, naming it
        const refused = await rejectsWith(
          app.storePutCreative({ id: `${creativeID}-bad`, openrtb: UNTYPED_RESPONSE }),
          ErrorCodes.invalidParams,
        );
        assert.equal(refused.field, "creative.openrtb.assets[1].img.type");
      } finally {
        await app.storeRemove("adUnit", unitID);
        await app.storeRemove("creative", creativeID);
      }
    });
  });
}
