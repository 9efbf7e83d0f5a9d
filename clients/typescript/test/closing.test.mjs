// A server that goes away: every request that rejects with ConnectionClosedError finds the
// client already closed (the client marks itself closed before it rejects anything), over
// stdio and TCP in both framings. Repeated, since what notices first is a race.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConnectionClosedError, NativeAdsClient } from "../dist/index.js";
import { BIN } from "../test-support/harness.mjs";

const NATIVE = "/21775744923/example/native";
const REPEATS = 20;

/** What a rejected request saw at the moment it rejected: its error and `client.closed`. */
function outcome(client, promise) {
  return promise.then(
    (result) => ({ result, closed: client.closed }),
    (error) => ({ error, closed: client.closed }),
  );
}

function assertClosedWhenRejected(seen, method) {
  assert.ok(seen.error instanceof ConnectionClosedError, `${method} rejects with ConnectionClosedError, got ${seen.error ?? "a result"}`);
  assert.equal(seen.error.method, method);
  assert.equal(seen.closed, true, "client.closed is true when the request rejects");
}

for (const framing of ["ndjson", "content-length"]) {
  describe(`a server that goes away (${framing})`, () => {
    test("stdio: the server is killed; the next requests reject and the client is closed", async () => {
      for (let i = 0; i < REPEATS; i++) {
        const client = await NativeAdsClient.spawn({ path: BIN, framing, requestTimeoutMs: 15000 });
        try {
          await client.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } });
          process.kill(client.pid, "SIGKILL");
          assertClosedWhenRejected(await outcome(client, client.storeList()), "store.list");
          assertClosedWhenRejected(await outcome(client, client.storeList()), "store.list");
          assert.throws(() => client.notify("store.list"), ConnectionClosedError);
        } finally {
          await client.close();
        }
      }
    });

    test("tcp: the server process is killed; the next requests reject and the client is closed", async () => {
      for (let i = 0; i < REPEATS; i++) {
        const server = await NativeAdsClient.spawn({ path: BIN, listen: "127.0.0.1:0", requestTimeoutMs: 15000 });
        const client = await NativeAdsClient.connect({ ...server.tcpAddress, framing, requestTimeoutMs: 15000 });
        try {
          await client.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } });
          const pending = outcome(client, client.getEvents({ limit: 1 }));
          process.kill(server.pid, "SIGKILL");
          const later = outcome(client, client.storeList());
          const seen = await pending;
          if (seen.error) assertClosedWhenRejected(seen, "getEvents"); // it may have been answered first
          assertClosedWhenRejected(await later, "store.list");
        } finally {
          await client.close();
          await server.close();
        }
      }
    });
  });
}
