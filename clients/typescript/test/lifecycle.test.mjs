// Contract section 8 from the client's side: cancellation (an AbortSignal, a timeout), Unix
// domain sockets, and ending a spawned server with `shutdown` and `exit`.
//
// A request that stays pending long enough to cancel is a `loadAd` of a waterfall unit whose
// only source is an adapter (another connection) that holds every load until the test releases
// it. What needs a server feature skips at run time when the binary lacks it. The races (an
// answer that comes as the request is given up) and the fallbacks of `close()` (a server that
// does not know `shutdown`, one that never answers, one that will not die) are scripted with
// stand-in servers, so they need nothing of the binary.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  ConnectionClosedError,
  encodeMessage,
  NativeAdsClient,
  NativeAdsError,
  RequestCancelledError,
  RequestTimeoutError,
} from "../dist/index.js";
import { fakeServer } from "../test-support/fake-server.mjs";
import {
  BIN,
  CONFIGS,
  configName,
  NO_UNIX,
  rejectsWith,
  skipFor,
  socketPath,
  startServer,
  supportsUnix,
  useReplyValidation,
} from "../test-support/harness.mjs";

const checker = useReplyValidation();
const NATIVE = "/21775744923/example/native";
/** The bound of every wait on a condition. */
const WAIT_MS = 10000;

/** Resolves once `condition()` holds (checked at each turn of the event loop), bounded. */
async function until(condition, what) {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Every message a client sends and receives (wrap it around a `trace` option). */
function recorder() {
  const messages = [];
  return {
    messages,
    trace(inner) {
      return (direction, message) => {
        messages.push({ direction, message });
        inner?.(direction, message);
      };
    },
    /** The ids of the requests sent for `method`, or the params of its notifications. */
    sent(method) {
      return messages
        .filter(({ direction, message }) => direction === "send" && message.method === method)
        .map(({ message }) => ("id" in message ? message.id : message.params));
    },
    sentMethods() {
      return messages.filter(({ direction, message }) => direction === "send" && message.method).map(({ message }) => message.method);
    },
    answer(id) {
      return messages.find(({ direction, message }) => direction === "receive" && !message.method && message.id === id)?.message;
    },
    async waitForAnswer(id) {
      await until(() => this.answer(id) !== undefined, `the answer to request ${id}`);
      return this.answer(id);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Does the binary cancel? (asked once, only by the tests that need to know)

let cancelSupport;
/** A server that supports `$/cancelRequest` answers a cancelled, held load -32800 at once; one
 * that does not answers when the source's timeout (2 s) passes. */
function supportsCancel() {
  cancelSupport ??= (async () => {
    const rec = recorder();
    const probe = await NativeAdsClient.spawn({ path: BIN, trace: rec.trace() });
    try {
      let held;
      const asked = new Promise((r) => (held = r));
      await probe.serveAdapter("Probe", () => {
        held();
        return new Promise(() => {});
      });
      await probe.storePutAdUnit({
        id: "/probe/cancel",
        waterfall: [{ type: "customEvent", adapterClassName: "Probe", parameter: "p", eCPM: 1, timeoutMs: 2000 }],
      });
      const controller = new AbortController();
      const loading = probe.loadAd({ adUnitID: "/probe/cancel" }, { signal: controller.signal }).catch(() => {});
      await asked;
      controller.abort();
      await loading;
      const [id] = rec.sent("loadAd");
      return (await rec.waitForAnswer(id)).error?.code === -32800;
    } finally {
      await probe.close();
    }
  })();
  return cancelSupport;
}

let shutdownSupport;
/** A fresh server answers `shutdown` (not -32601). */
function supportsShutdown() {
  shutdownSupport ??= (async () => {
    const probe = await NativeAdsClient.spawn({ path: BIN });
    try {
      await probe.shutdown();
      return true;
    } catch (e) {
      if (e instanceof NativeAdsError && e.code === -32601) return false;
      throw e;
    } finally {
      await probe.close();
    }
  })();
  return shutdownSupport;
}
const NO_SHUTDOWN = "the server under test answers -32601 to shutdown: no shutdown/exit yet";

// ---------------------------------------------------------------------------------------------
// Cancellation against the real server, over every transport and framing

for (const config of CONFIGS) {
  describe(`cancellation over ${configName(config)}`, skipFor(config), () => {
    let server;
    let adapter;
    let app;
    let rec;
    let adapterRec;
    const protocolErrors = [];
    /** Each load the adapter holds: {load, release(ad)}. */
    const held = [];
    /** The `$/cancelRequest` notifications the server sent the adapter. */
    const adapterCancels = [];
    const CLASS = `TsHeld-${config.transport}-${config.framing}`;
    const UNIT = `/ts/held/${config.transport}/${config.framing}`;

    before(async () => {
      server = await startServer(checker, {
        stdioFraming: config.transport === "stdio" ? config.framing : "ndjson",
        label: `cancel ${configName(config)}`,
      });
      rec = recorder();
      app =
        config.transport === "stdio"
          ? server.stdio
          : config.transport === "unix"
            ? await server.connectUnix(config.framing, { trace: rec.trace(checker.tracer(`cancel app ${configName(config)}`)) })
            : await server.connect(config.framing, { trace: rec.trace(checker.tracer(`cancel app ${configName(config)}`)) });
      if (config.transport === "stdio") {
        // the stdio client exists already: record through its own trace, wrapped
        const options = app["options"];
        options.trace = rec.trace(options.trace);
      }
      app.on("protocolError", (e) => protocolErrors.push(e.message));
      adapterRec = recorder();
      const adapterOptions = { trace: adapterRec.trace(checker.tracer(`cancel adapter ${configName(config)}`)) };
      adapter =
        config.transport === "unix"
          ? await server.connectUnix(config.framing, adapterOptions)
          : await server.connect(config.framing, adapterOptions);
      adapter.on("$/cancelRequest", (params) => adapterCancels.push(params));
      await adapter.serveAdapter(CLASS, (load) => new Promise((release) => held.push({ load, release })));
      await app.storePutAdUnit({
        id: UNIT,
        deadlineMs: 60000,
        waterfall: [{ type: "customEvent", adapterClassName: CLASS, parameter: "held", eCPM: 1, timeoutMs: 60000 }],
      });
    });
    after(async () => {
      for (const h of held) h.release({ headline: "released" });
      await server?.close();
    });

    /** The late answer to a cancelled load: -32800 from a server that cancels, else the result
     * once the adapter answers. Either way nothing else of the client sees it. */
    async function settle(id, load) {
      if (await supportsCancel()) {
        const answer = await rec.waitForAnswer(id);
        assert.deepEqual(answer.error, { code: -32800, message: "Request cancelled" });
        if (load) {
          await until(() => adapterCancels.some((c) => c.id === load.requestId), "the adapter's $/cancelRequest");
          assert.equal(load.signal.aborted, true, "the adapter's load.signal is aborted");
        }
      }
      for (const h of held.splice(0)) h.release({ headline: "too late" });
      await rec.waitForAnswer(id);
      if (load && (await supportsCancel())) {
        await adapter.storeList(); // a round trip: the released handler has finished by now
        const answered = adapterRec.messages.filter(({ direction, message }) => direction === "send" && message.id === load.requestId);
        assert.deepEqual(answered, [], "the adapter does not answer a request the server cancelled");
      }
      assert.deepEqual((await app.storeList()).adUnits.some((u) => u.id === UNIT), true, "the next request gets its own answer");
      assert.deepEqual(protocolErrors, [], "the late answer is dropped quietly");
      assert.equal(app.closed, false);
    }

    test("abort(): rejects with the signal's reason (an AbortError), $/cancelRequest is sent", async () => {
      const controller = new AbortController();
      const loading = app.loadAd({ adUnitID: UNIT }, { signal: controller.signal });
      await until(() => held.length === 1, "the adapter holding the load");
      controller.abort();
      const error = await loading.then(
        () => assert.fail("the load resolved"),
        (e) => e,
      );
      assert.equal(error, controller.signal.reason);
      assert.equal(error.name, "AbortError");
      const [id] = rec.sent("loadAd").slice(-1);
      assert.deepEqual(rec.sent("$/cancelRequest").slice(-1), [{ id }]);
      await settle(id, held[0].load);
    });

    test("abort(reason): rejects with that reason", async () => {
      const controller = new AbortController();
      const loading = app.loadAd({ adUnitID: UNIT }, { signal: controller.signal });
      await until(() => held.length === 1, "the adapter holding the load");
      const reason = new Error("the user left the screen");
      controller.abort(reason);
      await assert.rejects(loading, (e) => e === reason);
      const [id] = rec.sent("loadAd").slice(-1);
      assert.deepEqual(rec.sent("$/cancelRequest").slice(-1), [{ id }]);
      await settle(id, held[0].load);
    });

    test("a signal aborted already: rejects at once, nothing is sent", async () => {
      const before = rec.messages.length;
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(app.loadAd({ adUnitID: UNIT }, { signal: controller.signal }), (e) => e.name === "AbortError");
      assert.equal(rec.messages.length, before);
    });

    test("timeoutMs: RequestTimeoutError, and the request is cancelled the same way", async () => {
      const error = await rejectsWith(app.loadAd({ adUnitID: UNIT }, { timeoutMs: 300 }), -32099);
      assert.ok(error instanceof RequestTimeoutError);
      assert.equal(error.kind, "timeout");
      assert.equal(error.method, "loadAd");
      const [id] = rec.sent("loadAd").slice(-1);
      assert.deepEqual(rec.sent("$/cancelRequest").slice(-1), [{ id }]);
      await until(() => held.length === 1, "the adapter holding the load"); // sent at once, cancelled or not
      await settle(id);
    });

    test("a signal shared by several requests cancels them all; the others go on", async () => {
      const controller = new AbortController();
      const loads = [1, 2].map(() => app.loadAd({ adUnitID: UNIT }, { signal: controller.signal }));
      const unaffected = app.loadAd({ adUnitID: UNIT });
      await until(() => held.length === 3, "the adapter holding three loads");
      controller.abort();
      for (const l of loads) await assert.rejects(l, (e) => e.name === "AbortError");
      const ids = rec.sent("loadAd").slice(-3, -1);
      assert.deepEqual(rec.sent("$/cancelRequest").slice(-2), ids.map((id) => ({ id })));
      if (await supportsCancel()) {
        for (const id of ids) assert.equal((await rec.waitForAnswer(id)).error.code, -32800);
        // the third load is still the adapter's to answer: it gets that answer, no other
        const cancelledLoads = () => held.filter((h) => adapterCancels.some((c) => c.id === h.load.requestId));
        await until(() => cancelledLoads().length === 2, "the adapter's two $/cancelRequest");
        held.find((h) => !cancelledLoads().includes(h)).release({ headline: "for the third" });
      } else {
        for (const h of held) h.release({ headline: "for the third" });
      }
      assert.equal((await unaffected).ads[0].headline, "for the third");
      for (const id of ids) await settle(id);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Late answers and races, against a scripted peer

const send = (socket, message, framing) => socket.write(encodeMessage(message, framing));

for (const framing of ["ndjson", "content-length"]) {
  describe(`late answers (${framing}) against a scripted server`, () => {
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
          peer.socket.destroy();
          done({ error: e });
        }
      });
      const client = await NativeAdsClient.connect({ port, framing });
      const problems = [];
      client.on("protocolError", (e) => problems.push(e.message));
      return { client, finished, problems };
    }

    test("every late answer to a cancelled request is dropped; none reaches another request", async () => {
      const stale = "stale";
      const { client, finished, problems } = await connectWith(async ({ socket, next }) => {
        const cancelled = [];
        for (let i = 0; i < 3; i++) {
          const request = await next();
          assert.deepEqual(await next(), { jsonrpc: "2.0", method: "$/cancelRequest", params: { id: request.id } });
          cancelled.push(request);
        }
        // a result that raced the cancellation, -32800, a late result in a batch
        send(socket, { jsonrpc: "2.0", id: cancelled[0].id, result: stale }, framing);
        send(socket, { jsonrpc: "2.0", id: cancelled[1].id, error: { code: -32800, message: "Request cancelled" } }, framing);
        send(socket, [{ jsonrpc: "2.0", id: cancelled[2].id, result: stale }], framing);
        const fresh = await next();
        send(socket, { jsonrpc: "2.0", id: fresh.id, result: "fresh" }, framing);
      });
      for (let i = 0; i < 3; i++) {
        const controller = new AbortController();
        const pending = client.stringForKey("ad", `k${i}`, { signal: controller.signal });
        controller.abort();
        await assert.rejects(pending, (e) => e.name === "AbortError");
      }
      assert.equal(await client.stringForKey("ad", "next"), "fresh");
      const outcome = await finished;
      assert.equal(outcome.error, undefined, outcome.error?.stack);
      assert.deepEqual(problems, [], "dropped quietly");
      // an answer nobody cancelled and nobody waits for is still reported
      await client.close();
    });

    test("aborted as the answer arrives: one outcome only, and the connection goes on", async () => {
      let controller;
      const { client, finished, problems } = await connectWith(async ({ socket, next }) => {
        const racing = await next();
        send(socket, { jsonrpc: "2.0", id: racing.id, result: "raced" }, framing);
        const after = await next();
        if (after.method === "$/cancelRequest") {
          assert.deepEqual(after.params, { id: racing.id });
          const last = await next();
          send(socket, { jsonrpc: "2.0", id: last.id, result: "last" }, framing);
        } else {
          send(socket, { jsonrpc: "2.0", id: after.id, result: "last" }, framing);
        }
      });
      controller = new AbortController();
      // abort from the trace hook, which sees the answer just before it is dispatched
      client["options"].trace = (direction, message) => {
        if (direction === "receive" && message.result === "raced") controller.abort();
      };
      await assert.rejects(client.stringForKey("ad", "race", { signal: controller.signal }), (e) => e.name === "AbortError");
      assert.equal(await client.stringForKey("ad", "last"), "last");
      const outcome = await finished;
      assert.equal(outcome.error, undefined, outcome.error?.stack);
      assert.deepEqual(problems, []);
      await client.close();
    });

    test("aborted after the answer: the result stands, nothing is sent", async () => {
      const { client, finished } = await connectWith(async ({ socket, next, raw }) => {
        const request = await next();
        send(socket, { jsonrpc: "2.0", id: request.id, result: "answered" }, framing);
        const last = await next();
        assert.equal(last.method, "stringForKey", "no $/cancelRequest for an answered request");
        send(socket, { jsonrpc: "2.0", id: last.id, result: "last" }, framing);
        return raw;
      });
      const controller = new AbortController();
      assert.equal(await client.stringForKey("ad", "k", { signal: controller.signal }), "answered");
      controller.abort();
      assert.equal(await client.stringForKey("ad", "last"), "last");
      const outcome = await finished;
      assert.equal(outcome.error, undefined, outcome.error?.stack);
      await client.close();
    });

    test("a request of the server's that it cancels: the handler's signal aborts, nothing is answered", async () => {
      let handled;
      const handling = new Promise((r) => (handled = r));
      const { client, finished } = await connectWith(async ({ socket, next }) => {
        send(socket, { jsonrpc: "2.0", id: "native-ads:1", method: "custom.slow", params: {} }, framing);
        await handling;
        send(socket, { jsonrpc: "2.0", method: "$/cancelRequest", params: { id: "native-ads:1" } }, framing);
        send(socket, { jsonrpc: "2.0", id: "native-ads:2", method: "custom.slow", params: { quick: true } }, framing);
        // the first message back answers the second request: the first is not answered
        assert.deepEqual(await next(), { jsonrpc: "2.0", id: "native-ads:2", result: "quick" });
      });
      const aborted = [];
      client.handleRequest("custom.slow", (params, id, signal) => {
        if (params.quick) return "quick";
        handled();
        return new Promise((resolve) =>
          signal.addEventListener("abort", () => {
            aborted.push(id);
            resolve("too late");
          }),
        );
      });
      const outcome = await finished;
      assert.equal(outcome.error, undefined, outcome.error?.stack);
      assert.deepEqual(aborted, ["native-ads:1"]);
      await client.close();
    });

    test("-32800 for a request the client did not cancel: RequestCancelledError", async () => {
      const { client, finished } = await connectWith(async ({ socket, next }) => {
        const request = await next();
        send(socket, { jsonrpc: "2.0", id: request.id, error: { code: -32800, message: "Request cancelled" } }, framing);
      });
      const error = await rejectsWith(client.loadAd({ adUnitID: "x" }), -32800);
      assert.ok(error instanceof RequestCancelledError && error instanceof NativeAdsError);
      assert.equal(error.kind, "cancelled");
      assert.equal(error.method, "loadAd");
      assert.equal((await finished).error, undefined);
      await client.close();
    });
  });
}

// ---------------------------------------------------------------------------------------------
// shutdown and exit: ending a spawned server

/** Records the signals sent to a spawned client's process (a test's look inside). */
function spySignals(client) {
  const child = client["transport"].child;
  const sent = [];
  const kill = child.kill.bind(child);
  child.kill = (signal = "SIGTERM") => {
    sent.push(signal);
    return kill(signal);
  };
  return sent;
}

describe("close() ends a spawned server with shutdown and exit", () => {
  for (const framing of ["ndjson", "content-length"]) {
    for (const sockets of [{}, { listen: "127.0.0.1:0" }, { unix: true }]) {
      const what = sockets.listen ? "serving TCP too" : sockets.unix ? "serving a Unix socket too" : "stdio only";
      test(`${framing}, ${what}: shutdown, exit, exit code 0, no signal`, async (t) => {
        if (!(await supportsShutdown())) return t.skip(NO_SHUTDOWN);
        if (sockets.unix && !supportsUnix()) return t.skip(NO_UNIX);
        const socket = sockets.unix ? socketPath() : undefined;
        const rec = recorder();
        const client = await NativeAdsClient.spawn({
          path: BIN,
          framing,
          listen: sockets.listen,
          unix: socket?.path,
          trace: rec.trace(checker.tracer(`close ${framing} ${what}`)),
        });
        const signals = spySignals(client);
        try {
          await client.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } });
          await client.close();
        } finally {
          socket?.remove();
        }
        assert.deepEqual(rec.sentMethods().slice(-2), ["shutdown", "exit"]);
        const [shutdownId] = rec.sent("shutdown");
        assert.equal(rec.answer(shutdownId).result, null);
        assert.equal(client.exitCode, 0, client.stderr);
        assert.deepEqual(signals, [], "the process ended by itself");
        assert.equal(client.closed, true);
        await client.close(); // twice is fine
      });
    }
  }

  test("shutdown() and exit() by hand: -32600 after shutdown, exit 0, close() repeats nothing", async (t) => {
    if (!(await supportsShutdown())) return t.skip(NO_SHUTDOWN);
    const rec = recorder();
    const client = await NativeAdsClient.spawn({ path: BIN, trace: rec.trace(checker.tracer("shutdown by hand")) });
    const closed = client.waitFor("close");
    assert.equal(await client.shutdown(), null);
    await rejectsWith(client.storeList(), -32600);
    client.exit();
    await closed; // the process exits, its stdout ends
    await client.close();
    assert.equal(client.exitCode, 0, client.stderr);
    assert.deepEqual(rec.sentMethods().filter((m) => m === "shutdown" || m === "exit"), ["shutdown", "exit"]);
  });

  for (const transport of ["tcp", "unix"]) {
    test(`exit on a ${transport} connection closes that connection only`, async (t) => {
      if (!(await supportsShutdown())) return t.skip(NO_SHUTDOWN);
      if (transport === "unix" && !supportsUnix()) return t.skip(NO_UNIX);
      const server = await startServer(checker, { label: `exit over ${transport}` });
      try {
        const leaving = transport === "unix" ? await server.connectUnix("ndjson") : await server.connect("content-length");
        const closed = leaving.waitFor("close");
        assert.equal(await leaving.shutdown(), null);
        leaving.exit();
        await closed;
        assert.equal(leaving.closed, true);
        await assert.rejects(leaving.storeList(), ConnectionClosedError);
        assert.ok((await server.stdio.storeList()).adUnits.length > 0, "the others are served as before");
      } finally {
        await server.close();
      }
    });
  }
});

// Stand-in servers (NDJSON over stdio) for what close() does when the server is not the real
// one; each logs the methods it receives, one a line, to the file named by its first argument.
const STAND_IN = `
const { appendFileSync } = require("node:fs");
const [log, mode] = process.argv.slice(2).filter((a) => a !== "--stdio");
if (mode === "stubborn") process.on("SIGTERM", () => appendFileSync(log, "SIGTERM\\n"));
appendFileSync(log, "ready\\n");
let buffer = "";
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf("\\n")) >= 0) {
    const message = JSON.parse(buffer.slice(0, nl));
    buffer = buffer.slice(nl + 1);
    appendFileSync(log, (message.method ?? "?") + "\\n");
    if (!("id" in message)) {
      if (mode === "lsp" && message.method === "exit") process.exit(0);
      continue;
    }
    if (mode === "lsp") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: null }) + "\\n");
    if (mode === "old") {
      const error = { code: -32601, message: "Method not found" };
      process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, error }) + "\\n");
    }
  }
});
process.stdin.on("end", () => {
  appendFileSync(log, "EOF\\n");
  if (mode === "silent" || mode === "stubborn") setInterval(() => {}, 1000); // outlives its stdin
});
`;

describe("close() of a spawned server that is not the real one", () => {
  let dir;
  let script;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "na-ts-stand-in-"));
    script = join(dir, "stand-in.cjs");
    writeFileSync(join(dir, "stand-in"), `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`, { mode: 0o755 });
    writeFileSync(script, STAND_IN);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const cases = [
    // the contract: shutdown answered, exit, stdin closed; it exits by itself
    { mode: "lsp", methods: ["shutdown", "exit"], exitCode: 0, signals: [], closeTimeoutMs: WAIT_MS },
    // a server without shutdown (-32601): stdin EOF ends it, no exit is sent
    { mode: "old", methods: ["shutdown", "EOF"], exitCode: 0, signals: [], closeTimeoutMs: WAIT_MS },
    // no answer to shutdown: it times out (and is cancelled), exit and EOF all the same, then
    // SIGTERM for a process that lingers
    { mode: "silent", methods: ["shutdown", "$/cancelRequest", "exit", "EOF"], exitCode: null, signals: ["SIGTERM"], closeTimeoutMs: 500 },
    // one that ignores SIGTERM too: SIGKILL, the last resort
    {
      mode: "stubborn",
      methods: ["shutdown", "$/cancelRequest", "exit", "EOF", "SIGTERM"],
      exitCode: null,
      signals: ["SIGTERM", "SIGKILL"],
      closeTimeoutMs: 500,
    },
  ];
  for (const c of cases) {
    test(`${c.mode}: ${c.methods.join(", ")}; ${c.signals.length ? c.signals.join(" then ") : "no signal"}`, async () => {
      const log = join(dir, `${c.mode}.log`);
      const client = await NativeAdsClient.spawn({ path: join(dir, "stand-in"), args: [log, c.mode], closeTimeoutMs: c.closeTimeoutMs });
      const signals = spySignals(client);
      const logged = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
      await until(() => logged().includes("ready"), "the stand-in running"); // its handlers are in place
      const started = Date.now();
      await client.close();
      assert.ok(Date.now() - started < 3 * c.closeTimeoutMs + 2000, "every step of close() is bounded");
      assert.equal(client.exitCode, c.exitCode);
      assert.deepEqual(signals, c.signals);
      assert.deepEqual(logged().slice(0, c.methods.length + 1), ["ready", ...c.methods]);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// --parent-pid: a spawned server does not outlive the process that started it

/** The command line of process `pid`. */
function commandLine(pid) {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
}

/** Whether process `pid` has ended: gone, or a zombie nobody has reaped yet (an orphan's new
 * parent, in a container, may never reap it). */
function ended(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return ["Z", "X"].includes(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
  } catch {
    return true;
  }
}

describe("a spawned server watches the process that started it (--parent-pid)", () => {
  test("spawn() passes this process's pid unless told not to or given one", async () => {
    const watched = await NativeAdsClient.spawn({ path: BIN });
    const unwatched = await NativeAdsClient.spawn({ path: BIN, watchParent: false });
    const given = await NativeAdsClient.spawn({ path: BIN, args: [`--parent-pid=${process.pid}`] });
    try {
      assert.deepEqual(commandLine(watched.pid).slice(-2), ["--parent-pid", String(process.pid)]);
      assert.ok(!commandLine(unwatched.pid).some((a) => a.startsWith("--parent-pid")));
      assert.deepEqual(commandLine(given.pid).filter((a) => a.startsWith("--parent-pid")), [`--parent-pid=${process.pid}`]);
    } finally {
      await Promise.all([watched.close(), unwatched.close(), given.close()]);
    }
  });

  test("killed with SIGKILL, the starter runs no close(): its server, serving TCP too, exits all the same", async () => {
    const index = new URL("../dist/index.js", import.meta.url).href;
    const script = `
      import { NativeAdsClient } from ${JSON.stringify(index)};
      const client = await NativeAdsClient.spawn({ path: ${JSON.stringify(BIN)}, listen: "127.0.0.1:0" });
      await client.loadAd({ adUnitID: ${JSON.stringify(NATIVE)} });
      console.log(client.pid);
      setInterval(() => {}, 1000);
    `;
    const { spawn } = await import("node:child_process");
    const starter = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    starter.stdout.on("data", (chunk) => (out += chunk));
    starter.stderr.on("data", (chunk) => (err += chunk));
    try {
      await until(() => out.includes("\n") || starter.exitCode !== null, "the starter's server pid");
      const pid = Number(out.trim());
      assert.ok(pid > 0, `the starter printed no pid: ${out} ${err}`);
      assert.equal(ended(pid), false);
      const gone = new Promise((r) => starter.once("exit", r));
      starter.kill("SIGKILL");
      await gone;
      await until(() => ended(pid), `server ${pid} to end after its parent was killed`);
    } finally {
      if (starter.exitCode === null && starter.signalCode === null) starter.kill("SIGKILL");
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Unix domain sockets

describe("Unix domain sockets", () => {
  for (const framing of ["ndjson", "content-length"]) {
    test(`spawn({unix}) and connect({socketPath}), ${framing}`, async (t) => {
      if (!supportsUnix()) return t.skip(NO_UNIX);
      const socket = socketPath();
      try {
        const owner = await NativeAdsClient.spawn({ path: BIN, unix: socket.path, framing: "ndjson" });
        assert.equal(owner.unixPath, socket.path);
        assert.ok(existsSync(socket.path));
        const client = await NativeAdsClient.connect({ socketPath: socket.path, framing, trace: checker.tracer(`unix ${framing}`) });
        const { ads } = await client.loadAd({ adUnitID: NATIVE, options: { disableImageLoading: true } });
        assert.deepEqual(await client.recordImpression(ads[0].adId), { recorded: true });
        await client.close();
        await owner.close();
        assert.equal(owner.exitCode, 0, owner.stderr);
        assert.equal(existsSync(socket.path), false, "the server removes its socket at exit");
      } finally {
        socket.remove();
      }
    });
  }

  test("connect: a missing socket rejects; port and socketPath together, or neither, are refused", async () => {
    const socket = socketPath("missing.sock");
    try {
      await assert.rejects(NativeAdsClient.connect({ socketPath: socket.path }), /cannot connect to unix:.*missing\.sock/);
    } finally {
      socket.remove();
    }
    await assert.rejects(NativeAdsClient.connect({ socketPath: "/x", port: 1 }), TypeError);
    await assert.rejects(NativeAdsClient.connect({}), TypeError);
  });
});
