import { NativeAdsClient } from "./dist/index.js";

const path = process.env.NATIVE_ADS_BIN ?? new URL("../../.build/release/native-ads", import.meta.url).pathname;
const client = await NativeAdsClient.spawn({ path, args: ["--seed", "1"], framing: "ndjson" });
client.on("adEvent", (e) => console.log(`adEvent: ${e.event} ${e.adId}`));

const { ads: [ad] } = await client.loadAd({ adUnitID: "/21775744923/example/native" });
console.log(`headline: ${ad.headline}`);
await client.recordImpression(ad.adId);
await client.close();
