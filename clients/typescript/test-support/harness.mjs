// Shared test plumbing: the four connection configurations, a server per suite, reply
// validation hooked into every client, and a notification recorder.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, afterEach, test } from "node:test";
import { NativeAdsClient } from "../dist/index.js";
import { BIN, ReplyChecker } from "./contract.mjs";

export { BIN };

/** Every transport × framing the client must work over. */
export const CONFIGS = [
  { transport: "stdio", framing: "ndjson" },
  { transport: "stdio", framing: "content-length" },
  { transport: "tcp", framing: "ndjson" },
  { transport: "tcp", framing: "content-length" },
];

export const configName = (c) => `${c.transport}/${c.framing}`;

/** How long any one request may take in the tests before it fails as a timeout. */
export const REQUEST_TIMEOUT_MS = 15000;

/**
 * One ReplyChecker per test file: every client made through `startServer` reports its messages
 * to it, each test ends by asserting that all of them matched schemas/openrpc.json, and the
 * file ends with a visible note (a skipped test when openrpc.json does not exist yet).
 */
export function useReplyValidation() {
  const checker = new ReplyChecker();
  afterEach(() => checker.assertClean());
  after(() => {
    for (const line of checker.summary()) process.stderr.write(`${line}\n`);
  });
  if (!checker.contract.available) {
    process.stderr.write(`${checker.contract.reason}\n`);
    test("every reply validates against schemas/openrpc.json", { skip: checker.contract.reason }, () => {});
  }
  return checker;
}

function requireBinary() {
  assert.ok(
    existsSync(BIN),
    `the native-ads binary is not at ${BIN}: build it (swift build) or set NATIVE_ADS_BIN`,
  );
}

/**
 * Starts a server (`--stdio --tcp 127.0.0.1:0 --seed 1 [args]`) whose stdio speaks
 * `stdioFraming`. `open(config)` gives the connection a configuration asks for: the stdio
 * client itself, or a new TCP connection in that framing.
 */
export async function startServer(checker, { stdioFraming = "ndjson", args = [], label = "server" } = {}) {
  requireBinary();
  const stdio = await NativeAdsClient.spawn({
    path: BIN,
    args: ["--seed", "1", ...args],
    framing: stdioFraming,
    listen: "127.0.0.1:0",
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    trace: checker.tracer(`${label} stdio/${stdioFraming}`),
  });
  const clients = [stdio];
  let n = 0;
  const server = {
    stdio,
    address: stdio.tcpAddress,
    async connect(framing, options = {}) {
      n += 1;
      const client = await NativeAdsClient.connect({
        host: stdio.tcpAddress.host,
        port: stdio.tcpAddress.port,
        framing,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        trace: checker.tracer(`${label} tcp#${n}/${framing}`),
        ...options,
      });
      clients.push(client);
      return client;
    },
    async open(config) {
      if (config.transport === "stdio") {
        assert.equal(config.framing, stdioFraming, "stdio framing is chosen when the server starts");
        return stdio;
      }
      return server.connect(config.framing);
    },
    async close() {
      for (const c of clients.reverse()) await c.close();
      assert.equal(stdio.exitCode, 0, `the server exited with ${stdio.exitCode}; stderr:\n${stdio.stderr}`);
    },
  };
  return server;
}

/** Records every notification a client receives; `take()` returns and clears them. */
export function recordNotifications(client) {
  const seen = [];
  client.on("notification", (n) => seen.push(n));
  return {
    seen,
    take() {
      return seen.splice(0);
    },
    /** `[method, event]` pairs, compact for assertions. */
    takeBrief() {
      return seen.splice(0).map((n) => (n.params?.event ? `${n.method}:${n.params.event}` : n.method));
    },
  };
}

/** Asserts that `promise` rejects with a NativeAdsError of `code`; returns the error. */
export async function rejectsWith(promise, code, check) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected error ${code}, but the call succeeded`);
  assert.equal(error.code, code, `expected error ${code}, got ${error.code}: ${error.message}`);
  if (check) check(error);
  return error;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
