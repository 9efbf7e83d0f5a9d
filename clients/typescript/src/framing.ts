// Framing: newline-delimited JSON or LSP-style `Content-Length` headers (docs/wire-format.md).
//
// Everything is bytes: `Content-Length` counts bytes of UTF-8, so the reader buffers Buffers and
// only decodes a message once all of its bytes are there (a multi-byte character split across
// two reads is never decoded in halves).

/** How messages are delimited on a connection. */
export type Framing = "ndjson" | "content-length";

/** Encodes one JSON-RPC message (or batch) for the wire. */
export function encodeMessage(message: unknown, framing: Framing): Uint8Array {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  if (framing === "ndjson") return Buffer.concat([body, NEWLINE]);
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "utf8"), body]);
}

const NEWLINE = Buffer.from("\n", "utf8");
const HEADER_END = Buffer.from("\r\n\r\n", "utf8");
const MAX_HEADER_BYTES = 8192;

/** One complete message, or the error that took its place. */
export type ReadItem = { message: unknown; error?: undefined } | { error: FramingError; message?: undefined };

/** What `MessageReader.push` returns. */
export interface ReadResult {
  messages: unknown[];
  errors: FramingError[];
  /** Messages and errors in the order they came. */
  items: ReadItem[];
}

/** A message the reader could not use. `fatal` means the stream cannot be resynchronised. */
export class FramingError extends Error {
  readonly fatal: boolean;
  readonly raw: string | undefined;
  constructor(message: string, fatal: boolean, raw?: string) {
    super(message);
    this.name = "FramingError";
    this.fatal = fatal;
    this.raw = raw;
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Splits a byte stream into JSON messages. Either framing is accepted, message by message: a
 * message starting with `{` or `[` is a line of NDJSON, anything else is a `Content-Length`
 * header block (the server answers in the framing the client uses, but the reader does not
 * need to know which).
 */
export class MessageReader {
  private buffer: Buffer = Buffer.alloc(0);
  /** Where to resume looking for the end of the current message (bytes already scanned). */
  private scanFrom = 0;
  private failed = false;

  /** Adds bytes; returns the complete messages they finish (parsed), the errors for the
   * messages that were not valid JSON, and both in stream order (`items`). After a fatal error
   * the reader stops. */
  push(chunk: Uint8Array): ReadResult {
    const messages: unknown[] = [];
    const errors: FramingError[] = [];
    const items: ReadItem[] = [];
    const result = { messages, errors, items };
    if (this.failed) return result;
    this.buffer = this.buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      let start = 0;
      while (start < this.buffer.length && isSpace(this.buffer[start]!)) start++;
      if (start > 0) {
        this.buffer = this.buffer.subarray(start);
        this.scanFrom = Math.max(0, this.scanFrom - start);
      }
      if (this.buffer.length === 0) break;
      const first = this.buffer[0]!;
      if (first === 0x7b /* { */ || first === 0x5b /* [ */) {
        const end = this.buffer.indexOf(0x0a, this.scanFrom);
        if (end < 0) {
          this.scanFrom = this.buffer.length;
          break;
        }
        const text = this.buffer.toString("utf8", 0, end);
        this.consume(end + 1);
        this.parse(text, result);
      } else {
        const headerEnd = this.buffer.indexOf(HEADER_END, Math.max(0, this.scanFrom - 3));
        if (headerEnd < 0) {
          if (this.buffer.length > MAX_HEADER_BYTES) {
            this.fail(result, "header block longer than 8 KiB");
            break;
          }
          this.scanFrom = this.buffer.length;
          break;
        }
        const header = this.buffer.toString("latin1", 0, headerEnd);
        let length: number | undefined;
        for (const line of header.split("\r\n")) {
          const colon = line.indexOf(":");
          if (colon < 0) continue;
          if (line.slice(0, colon).trim().toLowerCase() !== "content-length") continue;
          const value = line.slice(colon + 1).trim();
          if (/^[0-9]+$/.test(value)) length = Number(value);
        }
        if (length === undefined) {
          this.fail(result, `header block without a usable Content-Length: ${JSON.stringify(header)}`);
          break;
        }
        const bodyStart = headerEnd + HEADER_END.length;
        if (this.buffer.length < bodyStart + length) {
          // Wait for the body; the header is known, no need to rescan it.
          this.scanFrom = headerEnd;
          break;
        }
        const text = this.buffer.toString("utf8", bodyStart, bodyStart + length);
        this.consume(bodyStart + length);
        this.parse(text, result);
      }
    }
    return result;
  }

  /** Bytes received but not yet part of a complete message. */
  get pendingBytes(): number {
    return this.buffer.length;
  }

  private consume(n: number): void {
    this.buffer = this.buffer.subarray(n);
    this.scanFrom = 0;
  }

  private fail(result: ReadResult, message: string): void {
    this.failed = true;
    this.buffer = Buffer.alloc(0);
    const error = new FramingError(message, true);
    result.errors.push(error);
    result.items.push({ error });
  }

  private parse(text: string, result: ReadResult): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (e) {
      const error = new FramingError(`invalid JSON: ${(e as Error).message}`, false, text);
      result.errors.push(error);
      result.items.push({ error });
      return;
    }
    result.messages.push(message);
    result.items.push({ message });
  }
}
