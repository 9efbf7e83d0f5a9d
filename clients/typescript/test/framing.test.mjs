// The framing layer alone: bytes in, messages out, whatever the chunking.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { encodeMessage, MessageReader } from "../dist/index.js";

const messages = [
  { jsonrpc: "2.0", id: 1, result: { headline: "Grüße — 日本語 🎉" } },
  { jsonrpc: "2.0", method: "adEvent", params: { adId: "ad-1", event: "didRecordClick", assetKey: "body" } },
  [{ jsonrpc: "2.0", id: 2, result: null }, { jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found" } }],
  { jsonrpc: "2.0", id: "native-ads:7", method: "adapter.loadNativeAd", params: { text: "line\nbreak \u2028 \"quoted\"" } },
];

function feed(reader, bytes, chunkSize) {
  const out = [];
  const errors = [];
  for (let i = 0; i < bytes.length; i += chunkSize) {
    const r = reader.push(bytes.subarray(i, i + chunkSize));
    out.push(...r.messages);
    errors.push(...r.errors);
  }
  return { out, errors };
}

describe("encodeMessage", () => {
  test("NDJSON: one line, newline-terminated, no raw newline inside", () => {
    const bytes = Buffer.from(encodeMessage(messages[3], "ndjson"));
    const text = bytes.toString("utf8");
    assert.ok(text.endsWith("\n"));
    assert.equal(text.indexOf("\n"), text.length - 1);
    assert.deepEqual(JSON.parse(text), messages[3]);
  });

  test("Content-Length counts bytes of UTF-8, not characters", () => {
    const bytes = Buffer.from(encodeMessage(messages[0], "content-length"));
    const text = bytes.toString("utf8");
    const [, length] = text.match(/^Content-Length: (\d+)\r\n\r\n/);
    const body = JSON.stringify(messages[0]);
    assert.equal(Number(length), Buffer.byteLength(body, "utf8"));
    assert.notEqual(Number(length), body.length, "the sample has multi-byte characters");
    assert.equal(bytes.length, `Content-Length: ${length}\r\n\r\n`.length + Number(length));
  });
});

describe("MessageReader", () => {
  for (const framing of ["ndjson", "content-length"]) {
    test(`${framing}: any chunking, including splits inside multi-byte characters`, () => {
      const bytes = Buffer.concat(messages.map((m) => encodeMessage(m, framing)));
      for (const size of [1, 2, 3, 5, 7, 64, bytes.length]) {
        const { out, errors } = feed(new MessageReader(), bytes, size);
        assert.deepEqual(errors, []);
        assert.deepEqual(out, messages, `chunks of ${size}`);
      }
    });
  }

  test("both framings on one stream, whitespace and CRLF between messages", () => {
    const bytes = Buffer.concat([
      Buffer.from("\r\n  \n"),
      encodeMessage(messages[0], "content-length"),
      Buffer.from(JSON.stringify(messages[1]) + "\r\n\n"),
      Buffer.from("content-length: 2\r\nX-Other: ignored\r\n\r\n{}"),
      encodeMessage(messages[2], "ndjson"),
    ]);
    const { out, errors } = feed(new MessageReader(), bytes, 4);
    assert.deepEqual(errors, []);
    assert.deepEqual(out, [messages[0], messages[1], {}, messages[2]]);
  });

  test("NDJSON: a bad line is reported and skipped", () => {
    const bytes = Buffer.from(`{"a":1}\n{not json}\n{"b":2}\n`);
    const { out, errors } = feed(new MessageReader(), bytes, 3);
    assert.deepEqual(out, [{ a: 1 }, { b: 2 }]);
    assert.equal(errors.length, 1);
    const again = new MessageReader().push(bytes);
    assert.deepEqual(again.items.map((i) => (i.error ? "error" : i.message)), [{ a: 1 }, "error", { b: 2 }], "in stream order");
    assert.equal(errors[0].fatal, false);
    assert.equal(errors[0].raw, "{not json}");
  });

  test("a header block without Content-Length cannot be resynchronised", () => {
    const reader = new MessageReader();
    const { errors } = feed(reader, Buffer.from("X-Nothing: 1\r\n\r\n{}"), 100);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].fatal, true);
    assert.deepEqual(reader.push(Buffer.from(`{"a":1}\n`)), { messages: [], errors: [], items: [] });
  });

  test("an incomplete message waits for the rest", () => {
    const reader = new MessageReader();
    const bytes = Buffer.from(encodeMessage(messages[0], "content-length"));
    assert.deepEqual(reader.push(bytes.subarray(0, bytes.length - 1)).messages, []);
    assert.equal(reader.pendingBytes, bytes.length - 1);
    assert.deepEqual(reader.push(bytes.subarray(bytes.length - 1)).messages, [messages[0]]);
    assert.equal(reader.pendingBytes, 0);
  });
});
