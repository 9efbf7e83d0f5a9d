// The OpenRPC document as the test oracle: every reply the tests receive is validated against
// schemas/openrpc.json (methods[].result.schema, with "#/components/..." refs), and every other
// schema in schemas/ is registered so that refs between files resolve too.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SchemaRegistry } from "./json-schema.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
/** The repository root (clients/typescript/test-support → ../../..). */
export const REPO = resolve(HERE, "../../..");
export const CLIENT_DIR = resolve(HERE, "..");
export const SCHEMAS_DIR = process.env.NATIVE_ADS_SCHEMAS ?? join(REPO, "schemas");
export const OPENRPC_PATH = join(SCHEMAS_DIR, "openrpc.json");
export const BIN = process.env.NATIVE_ADS_BIN ?? join(REPO, ".build/debug/native-ads");

let cached;

/**
 * Loads schemas/openrpc.json (and its sibling schemas). `available` is false, with a `reason`,
 * when the document does not exist yet: validation is then skipped, visibly.
 */
export function loadContract() {
  if (cached) return cached;
  const registry = new SchemaRegistry();
  if (!existsSync(OPENRPC_PATH)) {
    cached = { available: false, reason: `${OPENRPC_PATH} does not exist: reply validation is SKIPPED`, registry };
    return cached;
  }
  const doc = JSON.parse(readFileSync(OPENRPC_PATH, "utf8"));
  for (const file of readdirSync(SCHEMAS_DIR)) {
    if (!file.endsWith(".json") || file === "openrpc.json") continue;
    try {
      registry.add(JSON.parse(readFileSync(join(SCHEMAS_DIR, file), "utf8")), file, `./${file}`);
    } catch (e) {
      throw new Error(`${join(SCHEMAS_DIR, file)}: ${e.message}`);
    }
  }
  registry.add(doc, "openrpc.json", "./openrpc.json");
  const deref = (node) => {
    let n = node;
    for (let i = 0; n && typeof n === "object" && typeof n.$ref === "string" && i < 20; i++) {
      n = registry.resolve(n.$ref, doc).schema;
    }
    return n;
  };
  const methods = new Map();
  for (const raw of doc.methods ?? []) {
    const m = deref(raw);
    const result = m.result === undefined ? undefined : deref(m.result);
    const params = (m.params ?? []).map(deref);
    const errors = (m.errors ?? []).map(deref);
    methods.set(m.name, { method: m, result, params, errors });
  }
  cached = { available: true, doc, registry, methods, deref };
  return cached;
}

/** Server-sent messages that openrpc.json describes as component schemas rather than methods
 * (OpenRPC has no notifications from server to client): method → schema of the whole params. */
const SERVER_SENT_SCHEMAS = {
  adEvent: "AdEventParams",
  videoEvent: "VideoEventParams",
  customClick: "CustomClickParams",
  "adapter.loadNativeAd": "AdapterLoadParams",
};

/** Collects validation failures of the messages it sees; tests assert it is clean. */
export class ReplyChecker {
  constructor() {
    this.contract = loadContract();
    this.failures = [];
    this.warnings = new Set();
    this.counts = { results: 0, errors: 0, notifications: 0, serverRequests: 0, ourReplies: 0 };
  }

  /** A `trace` option for one client (request ids are per connection). */
  tracer(label) {
    const sent = new Map(); // our request id → method
    const received = new Map(); // the server's request id → method
    return (direction, message) => {
      const list = Array.isArray(message) ? message : [message];
      for (const m of list) {
        try {
          if (direction === "send") this.onSend(label, m, sent, received);
          else this.onReceive(label, m, sent, received);
        } catch (e) {
          this.failures.push(`${label}: checker crashed on ${JSON.stringify(m).slice(0, 200)}: ${e.stack}`);
        }
      }
    };
  }

  onSend(label, m, sent, received) {
    if (typeof m.method === "string") {
      if ("id" in m) sent.set(m.id, m.method);
      return;
    }
    // Our reply to a server request (adapter.loadNativeAd): check it too when documented.
    const method = received.get(m.id);
    received.delete(m.id);
    if (!this.contract.available || method === undefined || !("result" in m)) return;
    const entry = this.contract.methods.get(method);
    if (entry?.result?.schema !== undefined) {
      this.counts.ourReplies++;
      this.validate(`${label}: our reply to ${method}`, entry.result.schema, m.result);
    } else if (method === "adapter.loadNativeAd" && this.contract.doc.components?.schemas?.MappedAd) {
      this.counts.ourReplies++;
      this.validate(`${label}: our reply to ${method}`, {
        type: "object",
        required: ["ad"],
        properties: { ad: { $ref: "#/components/schemas/MappedAd" } },
      }, m.result);
    }
  }

  onReceive(label, m, sent, received) {
    if (typeof m !== "object" || m === null) {
      this.failures.push(`${label}: the server sent a non-object message ${JSON.stringify(m)}`);
      return;
    }
    if (m.jsonrpc !== "2.0") this.failures.push(`${label}: message without "jsonrpc": "2.0": ${JSON.stringify(m).slice(0, 200)}`);
    if (typeof m.method === "string") {
      if ("id" in m) {
        received.set(m.id, m.method);
        this.counts.serverRequests++;
      } else {
        this.counts.notifications++;
      }
      this.checkParams(label, m.method, m.params);
      return;
    }
    const method = sent.get(m.id);
    if (method === undefined) {
      // Replies with id null (parse errors) answer nothing we sent as a request.
      if (m.id !== null) this.failures.push(`${label}: a response for id ${JSON.stringify(m.id)}, which no request of ours had`);
      return;
    }
    sent.delete(m.id);
    if ("error" in m) {
      this.counts.errors++;
      const e = m.error;
      if (typeof e !== "object" || e === null || !Number.isInteger(e.code) || typeof e.message !== "string") {
        this.failures.push(`${label}: ${method}: malformed error object ${JSON.stringify(e)}`);
        return;
      }
      if ("result" in m) this.failures.push(`${label}: ${method}: a response with both result and error`);
      if (!this.contract.available) return;
      const entry = this.contract.methods.get(method);
      if (entry && e.code >= 1000 && entry.errors.length > 0 && !entry.errors.some((d) => d && d.code === e.code)) {
        this.warnings.add(`openrpc.json: ${method} answered error ${e.code} (${e.data?.name ?? e.message}), which its "errors" do not list`);
      }
      return;
    }
    if (!("result" in m)) {
      this.failures.push(`${label}: ${method}: a response with neither result nor error`);
      return;
    }
    this.counts.results++;
    if (!this.contract.available) return;
    const entry = this.contract.methods.get(method);
    if (!entry) {
      this.failures.push(`${label}: ${method} answered a result but openrpc.json has no method ${JSON.stringify(method)}`);
      return;
    }
    if (!entry.result || entry.result.schema === undefined) {
      this.failures.push(`${label}: openrpc.json: method ${method} has no result schema`);
      return;
    }
    this.validate(`${label}: ${method} result`, entry.result.schema, m.result);
  }

  /** Notifications and server requests: validated when openrpc.json describes them as methods
   * (by-name params); otherwise noted once as undocumented. */
  checkParams(label, method, params) {
    if (!this.contract.available) return;
    const entry = this.contract.methods.get(method);
    if (!entry) {
      const component = SERVER_SENT_SCHEMAS[method];
      if (component && this.contract.doc.components?.schemas?.[component]) {
        this.validate(`${label}: ${method} params`, { $ref: `#/components/schemas/${component}` }, params);
      } else {
        this.warnings.add(`openrpc.json does not describe the server-sent ${method}`);
      }
      return;
    }
    const p = params ?? {};
    for (const d of entry.params) {
      if (!d || typeof d.name !== "string") continue;
      if (!(d.name in p)) {
        if (d.required) this.failures.push(`${label}: ${method}: required param ${d.name} missing in ${JSON.stringify(p).slice(0, 200)}`);
        continue;
      }
      if (d.schema !== undefined) this.validate(`${label}: ${method} params.${d.name}`, d.schema, p[d.name]);
    }
  }

  validate(where, schema, value) {
    const errors = this.contract.registry.validate(schema, value, { root: this.contract.doc, path: "$" });
    if (errors.length > 0) {
      this.failures.push(`${where} does not match openrpc.json:\n    ${errors.slice(0, 10).join("\n    ")}\n    value: ${JSON.stringify(value).slice(0, 600)}`);
    }
  }

  /** Removes and returns the failures matching `pattern` (for messages a test makes invalid
   * on purpose). */
  takeFailures(pattern) {
    const taken = this.failures.filter((f) => pattern.test(f));
    this.failures = this.failures.filter((f) => !pattern.test(f));
    return taken;
  }

  /** Throws (failing the test) when any message failed validation since the last call. */
  assertClean() {
    const failures = this.failures.splice(0);
    assert.equal(failures.length, 0, `replies that do not match schemas/openrpc.json:\n  ${failures.join("\n  ")}`);
  }

  /** Lines for a final diagnostic. */
  summary() {
    const c = this.counts;
    const lines = [];
    if (!this.contract.available) lines.push(this.contract.reason);
    else {
      lines.push(
        `validated against openrpc.json: ${c.results} results, ${c.errors} errors (envelope), ${c.notifications} notifications, ${c.serverRequests} server requests, ${c.ourReplies} of our replies`,
      );
    }
    for (const w of this.warnings) lines.push(`warning: ${w}`);
    const unsupported = [...this.contract.registry.unsupportedKeywords];
    if (unsupported.length) lines.push(`warning: schema keywords not checked by the test validator: ${unsupported.join(", ")}`);
    return lines;
  }
}
