// A mediation adapter in TypeScript/JavaScript: one connection serves the adapter class
// "AcmeAds" (answering the server's adapter.loadNativeAd requests), another is the app that
// defines a waterfall unit and loads from it. Run: node examples/adapter.mjs
import { AdapterError, NativeAdsClient } from "../dist/index.js";

const path = process.env.NATIVE_ADS_BIN ?? new URL("../../../.build/release/native-ads", import.meta.url).pathname;
// The adapter speaks over the server's stdio; the app connects over TCP with Content-Length framing.
const adapter = await NativeAdsClient.spawn({ path, args: ["--seed", "1"], listen: "127.0.0.1:0" });
const app = await NativeAdsClient.connect({ ...adapter.tcpAddress, framing: "content-length" });

await adapter.serveAdapter("AcmeAds", async (load) => {
  console.log(`[adapter] load ${load.loadId} for placement ${load.parameter}`);
  if (load.parameter !== "acme-42") throw new AdapterError("unknown placement", { code: 3, domain: "com.acme" });
  return {
    headline: "Rocket Boots 3000",
    body: "Run faster than the roadrunner.",
    images: [{ url: "https://cdn.acme.example/boots.png", width: 1200, height: 627 }],
    starRating: 4.5,
    landingPageURL: "https://acme.example/click",
  };
});
adapter.on("adapter.didRecordImpression", (p) => console.log(`[adapter] impression on ${p.adId}`));
adapter.on("adapter.didRecordClickOnAsset", (p) => console.log(`[adapter] click on ${p.assetKey}`));

await app.storePutCreative({ id: "house-1", kind: "native", landingPageURL: "https://example.com",
  assets: { headline: "House ad" } });
await app.storePutAdUnit({ id: "/acme/unit", creatives: ["house-1"], waterfall: [
  { type: "customEvent", adapterClassName: "AcmeAds", parameter: "acme-42", eCPM: 3, timeoutMs: 2000, label: "Acme" },
  { type: "inventory", eCPM: 0.5 }] });

const { ads: [ad], responseInfo } = await app.loadAd({ adUnitID: "/acme/unit", options: { disableImageLoading: true } });
console.log(`[app] "${ad.headline}" from ${responseInfo.loadedAdNetworkResponseInfo.adSourceName}`);
const impression = adapter.waitFor("adapter.didRecordImpression");
await app.recordImpression(ad.adId);
await impression;
const click = adapter.waitFor("adapter.didRecordClickOnAsset");
const result = await app.performClickOnAsset(ad.adId, "headline");
await click;
console.log(`[app] click: ${JSON.stringify(result)}`);
await app.close();
await adapter.close();
