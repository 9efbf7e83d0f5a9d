// The client's JSON-RPC behaviour against a scripted fake server (node:net), for what the real
// server never does on purpose: replies out of order or split byte by byte, batches, responses
// to unknown ids, bad JSON, requests for unknown methods, a peer that hangs up mid-request.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ConnectionClosedError, encodeMessage, NativeAdsClient } from "../dist/index.js";
import { fakeServer } from "../test-support/fake-server.mjs";

const send = (socket, message, framing) => socket.write(encodeMessage(message, framing));

for (const framing of ["ndjson", "content-length"]) {
  describe(`client protocol (${framing}) against a scripted server`, () => {
    let fake;
    let port;
    before(async () => {
      fake = fakeServer();
      port = await fake.listen();
    });
    after(async () => fake.close());

    async function connectWith(script) {
      let done;
      const finished = new Promise((r) => (done = r));
      fake.onConnection(async (peer) => {
        try {
          done({ ok: await script(peer) });
        } catch (e) {
          peer.socket.destroy(); // so that the client's requests fail instead of waiting
          done({ error: e });
        }
      });
      const client = await NativeAdsClient.connect({ port, framing });
      return { client, finished };
    }

    test("requests on the wire: framing, jsonrpc, unique ids, by-name params", async () => {
      const { client, finished } = await connectWith(async ({ socket, next, raw }) => {
        const a = await next();
        const b = await next();
        const bytes = Buffer.concat(raw).toString("utf8");
        if (framing === "ndjson") assert.match(bytes, /^\{"jsonrpc":"2\.0","id":1,"method":"stringForKey","params":\{"adId":"a","key":"ü"\}\}\n/);
        else assert.match(bytes, /^Content-Length: (\d+)\r\n\r\n\{/);
        assert.deepEqual(a, { jsonrpc: "2.0", id: 1, method: "stringForKey", params: { adId: "a", key: "ü" } });
        assert.deepEqual(b, { jsonrpc: "2.0", id: 2, method: "rpc.discover" });
        // Answer out of order.
        send(socket, { jsonrpc: "2.0", id: 2, result: { openrpc: "1.3.2", info: {}, methods: [] } }, framing);
        send(socket, { jsonrpc: "2.0", id: 1, result: "ok" }, framing);
      });
      const replies = await Promise.allSettled([client.stringForKey("a", "ü"), client.discover()]);
      const outcome = await finished;
      assert.equal(outcome.error, undefined, outcome.error?.stack);
      assert.equal(replies[0].value, "ok");
      assert.equal(replies[1].value.openrpc, "1.3.2");
      await client.close();
    });

    test("replies split byte by byte, multi-byte UTF-8, a batch, notifications in between", async () => {
      const { client, finished } = await connectWith(async ({ socket, next }) => {
        const a = await next();
        const bytes = Buffer.concat([
          encodeMessage({ jsonrpc: "2.0", method: "adEvent", params: { adId: "x", event: "didRecordClick", assetKey: "日本" } }, framing),
          encodeMessage([{ jsonrpc: "2.0", id: a.id, result: "Grüße 🎉" }], framing),
        ]);
        for (let i = 0; i < bytes.length; i++) {
          socket.write(bytes.subarray(i, i + 1));
          if (i % 16 === 0) await new Promise((r) => setImmediate(r));
        }
      });
      const events = [];
      client.on("adEvent", (e) => events.push(e));
      assert.equal(await client.stringForKey("x", "k"), "Grüße 🎉");
      assert.deepEqual(events, [{ adId: "x", event: "didRecordClick", assetKey: "日本" }]);
      await finished;
      await client.close();
    });

    test("protocol errors are reported, not fatal (unknown id, bad JSON in NDJSON)", async () => {
      const { client, finished } = await connectWith(async ({ socket, next }) => {
        const a = await next();
        send(socket, { jsonrpc: "2.0", id: 999, result: 1 }, framing);
        send(socket, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }, framing);
        if (framing === "ndjson") socket.write("{oops}\n");
        send(socket, { jsonrpc: "2.0", id: a.id, error: { code: 2001, message: "gone", data: { name: "adNotFound", adId: "x" } } }, framing);
      });
      const problems = [];
      client.on("protocolError", (e) => problems.push(e.message));
      await assert.rejects(client.recordImpression("x"), (e) => e.code === 2001 && e.adId === "x" && e.kind === "ad");
      assert.equal(problems.length, framing === "ndjson" ? 3 : 2);
      assert.match(problems[0], /no waiting request \(id 999\)/);
      assert.match(problems[1], /error -32700 Parse error/);
      await finished;
      await client.close();
    });

    test("server requests: unknown methods get -32601, handleRequest answers, errors carry code/data", async () => {
      const { client, finished } = await connectWith(async ({ socket, next }) => {
        send(socket, { jsonrpc: "2.0", id: "native-ads:1", method: "something.new", params: {} }, framing);
        assert.deepEqual(await next(), {
          jsonrpc: "2.0",
          id: "native-ads:1",
          error: { code: -32601, message: "Method not found", data: { method: "something.new" } },
        });
        send(socket, { jsonrpc: "2.0", id: "native-ads:2", method: "custom.echo", params: { v: [1, "é"] } }, framing);
        assert.deepEqual(await next(), { jsonrpc: "2.0", id: "native-ads:2", result: { echo: { v: [1, "é"] } } });
        send(socket, { jsonrpc: "2.0", id: "native-ads:3", method: "adapter.loadNativeAd", params: { loadId: "l", adapterClassName: "Nobody", adConfiguration: {} } }, framing);
        const refused = await next();
        assert.equal(refused.error.code, 8);
        assert.equal(refused.error.data.domain, "com.native-ads.typescript");
        send(socket, { jsonrpc: "2.0", id: 77, method: "custom.fail", params: {} }, framing);
        assert.deepEqual((await next()).error, { code: 5, message: "nope", data: { domain: "d", networkError: true } });
      });
      client.handleRequest("custom.echo", (params) => ({ echo: params }));
      const { AdapterError } = await import("../dist/index.js");
      client.handleRequest("custom.fail", () => {
        throw new AdapterError("nope", { code: 5, domain: "d", networkError: true });
      });
      const outcome = await finished;
      assert.equal(outcome.error, undefined, outcome.error?.stack);
      await client.close();
    });

    test("the peer hangs up: pending requests reject with ConnectionClosedError, close is emitted", async () => {
      const { client, finished } = await connectWith(async ({ socket, next }) => {
        await next();
        socket.destroy();
      });
      const closed = client.waitFor("close");
      // closed is already true when the request rejects, before the "close" event is awaited
      await assert.rejects(client.getEvents(), (e) => e instanceof ConnectionClosedError && e.method === "getEvents" && client.closed);
      await closed;
      assert.equal(client.closed, true);
      await assert.rejects(client.storeList(), ConnectionClosedError);
      assert.throws(() => client.notify("x"), ConnectionClosedError);
      await finished;
      await client.close(); // closing twice is fine
    });
  });
}

test("spawn: a missing executable rejects; a server that exits reports its stderr", async () => {
  await assert.rejects(NativeAdsClient.spawn({ path: "/nonexistent/native-ads" }), /cannot start \/nonexistent\/native-ads/);
  const dir = mkdtempSync(join(tmpdir(), "native-ads-ts-"));
  const script = join(dir, "failing-server");
  writeFileSync(script, "#!/bin/sh\necho \"native-ads: error: bad option $1\" >&2\nexit 3\n", { mode: 0o755 });
  await assert.rejects(
    NativeAdsClient.spawn({ path: script, listen: "127.0.0.1:0" }),
    /exited \(code 3\) before printing .*bad option --stdio/,
  );
  rmSync(dir, { recursive: true });
  await assert.rejects(NativeAdsClient.spawn({ path: "/bin/true", framing: "lsp" }), /framing must be/);
});
