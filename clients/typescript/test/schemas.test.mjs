// Discovery and format schemas: rpc.discover against schemas/openrpc.json and the client's
// methods; loaded ads (built-in and user-defined formats) against their `formats.schema`.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { NativeAdsError } from "../dist/index.js";
import { loadContract, SCHEMAS_DIR } from "../test-support/contract.mjs";
import { rejectsWith, startServer, useReplyValidation } from "../test-support/harness.mjs";
import { SchemaRegistry } from "../test-support/json-schema.mjs";
import { RPC_TO_CLIENT, SENT_BY_THE_CLIENT } from "../test-support/methods.mjs";

const checker = useReplyValidation();
const contract = loadContract();

function validateAgainst(schema, instance) {
  return new SchemaRegistry().add(schema).validate(schema, instance);
}

for (const config of [
  { transport: "stdio", framing: "content-length" },
  { transport: "tcp", framing: "ndjson" },
]) {
  describe(`discovery and format schemas over ${config.transport}/${config.framing}`, () => {
    let server;
    let app;
    before(async () => {
      server = await startServer(checker, {
        stdioFraming: config.transport === "stdio" ? config.framing : "ndjson",
        label: `schemas ${config.transport}/${config.framing}`,
      });
      app = await server.open(config);
    });
    after(async () => server?.close());

    test("rpc.discover is the OpenRPC document in schemas/openrpc.json", async (t) => {
      let doc;
      try {
        doc = await app.discover();
      } catch (e) {
        if (e instanceof NativeAdsError && e.code === -32601) return t.skip("the server has no rpc.discover yet");
        throw e;
      }
      assert.match(doc.openrpc, /^1\.\d+\.\d+$/);
      if (!contract.available) return t.skip(contract.reason);
      assert.deepEqual(
        doc.methods.map((m) => m.name).sort(),
        contract.doc.methods.map((m) => m.name).sort(),
        "rpc.discover and schemas/openrpc.json list the same methods",
      );
      assert.deepEqual(doc, contract.doc, "rpc.discover returns schemas/openrpc.json");
    });

    test("the client has a call for every method of the OpenRPC document", async (t) => {
      if (!contract.available) return t.skip(contract.reason);
      for (const m of contract.doc.methods) {
        if (m.name in SENT_BY_THE_CLIENT) continue;
        const fn = RPC_TO_CLIENT[m.name];
        assert.ok(fn, `no client method mapped for ${m.name}`);
        assert.equal(typeof app[fn], "function", `NativeAdsClient.${fn} (for ${m.name})`);
      }
      for (const name of Object.keys(RPC_TO_CLIENT)) {
        assert.ok(contract.methods.has(name), `openrpc.json documents ${name}`);
      }
    });

    test("formats.schema('native') matches schemas/ and every native ad validates against it", async () => {
      const schema = await app.formatSchema("native");
      const file = join(SCHEMAS_DIR, "native-ad.schema.json");
      if (existsSync(file)) assert.deepEqual(schema, JSON.parse(readFileSync(file, "utf8")));
      const units = ["/21775744923/example/native", "/21775744923/example/native-backfill", "ca-app-pub-3940256099942544/3986624511", "/21775744923/example/native-video"];
      for (const adUnitID of units) {
        for (const disableImageLoading of [false, true]) {
          const { ads } = await app.loadAd({ adUnitID, options: { numberOfAds: 5, disableImageLoading, shouldRequestMultipleImages: true } });
          for (const ad of ads) {
            assert.deepEqual(validateAgainst(schema, ad), [], `${adUnitID} ${ad.headline}`);
            await app.releaseAd(ad.adId);
          }
        }
      }
      // And a wrong ad does not validate (the validator is not a rubber stamp).
      const { ads } = await app.loadAd({ adUnitID: units[0] });
      const broken = { ...ads[0], starRating: "five" };
      assert.notDeepEqual(validateAgainst(schema, broken), []);
    });

    test("custom formats: built-in and user-defined, ad and assets validate", async () => {
      for (const formatID of ["10063170", "12406343"]) {
        const schema = await app.formatSchema(formatID);
        const file = join(SCHEMAS_DIR, `custom-format-${formatID}.schema.json`);
        if (existsSync(file)) assert.deepEqual(schema, JSON.parse(readFileSync(file, "utf8")));
      }
      const schema = await app.formatSchema("10063170");
      const ad = (
        await app.loadAd({ adUnitID: "/21775744923/example/native", adTypes: ["customNative"], customNativeAdFormatIDs: ["10063170"] })
      ).ads[0];
      const assets = {
        Headline: await app.stringForKey(ad.adId, "Headline"),
        MainImage: await app.imageForKey(ad.adId, "MainImage"),
        Caption: await app.stringForKey(ad.adId, "Caption"),
      };
      assert.deepEqual(validateAgainst(schema, { ad, assets }), []);
      assert.notDeepEqual(validateAgainst(schema, { ad, assets: { ...assets, MainImage: "not an image" } }), []);

      const id = `ts-format-${config.transport}`;
      await app.storeDefineFormat({
        id,
        assets: [
          { name: "Title", type: "text", required: true },
          { name: "Logo", type: "image", required: false },
        ],
      });
      const defined = await app.formatSchema(id);
      await app.storePutCreative({
        id: `${id}-c`,
        kind: "customNative",
        formatID: id,
        landingPageURL: "https://example.com",
        assets: { Title: "Hello", Logo: { url: "https://example.com/l.png", width: 10, height: 10 } },
      });
      await app.storePutAdUnit({ id: `/ts/${id}`, creatives: [`${id}-c`] });
      const mine = (await app.loadAd({ adUnitID: `/ts/${id}`, adTypes: ["customNative"], customNativeAdFormatIDs: [id] })).ads[0];
      const myAssets = { Title: await app.stringForKey(mine.adId, "Title"), Logo: await app.imageForKey(mine.adId, "Logo") };
      assert.deepEqual(validateAgainst(defined, { ad: mine, assets: myAssets }), []);
      assert.notDeepEqual(validateAgainst(defined, { ad: mine, assets: { Logo: myAssets.Logo } }), [], "Title is required");
      await rejectsWith(app.formatSchema("nope"), -32602);
    });
  });
}
