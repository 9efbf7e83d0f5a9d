// Shared test plumbing: the six connection configurations, a server per suite, reply
// validation hooked into every client, and a notification recorder.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  { transport: "unix", framing: "ndjson" },
  { transport: "unix", framing: "content-length" },
];

let unixSupport;
/** Whether the binary serves Unix domain sockets (its --help names --unix). */
export function supportsUnix() {
  if (unixSupport === undefined) {
    let help = "";
    try {
      help = execFileSync(BIN, ["--help"], { encoding: "utf8", timeout: 30000, stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
      help = `${e.stdout ?? ""}${e.stderr ?? ""}`;
    }
    unixSupport = help.includes("--unix");
  }
  return unixSupport;
}

export const NO_UNIX = "the server under test has no --unix yet (its --help does not name it)";

/** `{skip}` for a describe/test of `config`: a Unix configuration skips (at run time, saying
 * why) when the binary has no --unix. */
export function skipFor(config) {
  return config.transport === "unix" && !supportsUnix() ? { skip: NO_UNIX } : {};
}

/** A socket path in a new private directory, short enough for sun_path (108 bytes); `remove()`
 * deletes the directory. */
export function socketPath(name = "native-ads.sock") {
  const dir = mkdtempSync(join(tmpdir(), "na-ts-"));
  return { path: join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

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
 * Starts a server (`--stdio --tcp 127.0.0.1:0 [--unix PATH] --seed 1 [args]`) whose stdio speaks
 * `stdioFraming` (the Unix socket when the binary has --unix). `open(config)` gives the
 * connection a configuration asks for: the stdio client itself, or a new TCP or Unix socket
 * connection in that framing.
 */
export async function startServer(checker, { stdioFraming = "ndjson", args = [], label = "server" } = {}) {
  requireBinary();
  const unix = supportsUnix() ? socketPath() : undefined;
  const stdio = await NativeAdsClient.spawn({
    path: BIN,
    args: ["--seed", "1", ...args],
    framing: stdioFraming,
    listen: "127.0.0.1:0",
    unix: unix?.path,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    trace: checker.tracer(`${label} stdio/${stdioFraming}`),
  });
  const clients = [stdio];
  let n = 0;
  const server = {
    stdio,
    address: stdio.tcpAddress,
    unixPath: stdio.unixPath,
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
    async connectUnix(framing, options = {}) {
      assert.ok(stdio.unixPath, NO_UNIX);
      n += 1;
      const client = await NativeAdsClient.connect({
        socketPath: stdio.unixPath,
        framing,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        trace: checker.tracer(`${label} unix#${n}/${framing}`),
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
      if (config.transport === "unix") return server.connectUnix(config.framing);
      return server.connect(config.framing);
    },
    async close() {
      for (const c of clients.reverse()) await c.close();
      unix?.remove();
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
