/** How messages are delimited on a connection. */
export declare type Framing = "ndjson" | "content-length";
/** Encodes one JSON-RPC message (or batch) for the wire. */
export declare function encodeMessage(message: unknown, framing: Framing): Uint8Array;
/** One complete message, or the error that took its place. */
export declare type ReadItem = {
    message: unknown;
    error?: undefined;
} | {
    error: FramingError;
    message?: undefined;
};
/** What `MessageReader.push` returns. */
export interface ReadResult {
    messages: unknown[];
    errors: FramingError[];
    /** Messages and errors in the order they came. */
    items: ReadItem[];
}
/** A message the reader could not use. `fatal` means the stream cannot be resynchronised. */
export declare class FramingError extends Error {
    readonly fatal: boolean;
    readonly raw: string | undefined;
    constructor(message: string, fatal: boolean, raw?: string);
}
/**
 * Splits a byte stream into JSON messages. Either framing is accepted, message by message: a
 * message starting with `{` or `[` is a line of NDJSON, anything else is a `Content-Length`
 * header block (the server answers in the framing the client uses, but the reader does not
 * need to know which).
 */
export declare class MessageReader {
    private buffer;
    /** Where to resume looking for the end of the current message (bytes already scanned). */
    private scanFrom;
    private failed;
    /** Adds bytes; returns the complete messages they finish (parsed), the errors for the
     * messages that were not valid JSON, and both in stream order (`items`). After a fatal error
     * the reader stops. */
    push(chunk: Uint8Array): ReadResult;
    /** Bytes received but not yet part of a complete message. */
    get pendingBytes(): number;
    private consume;
    private fail;
    private parse;
}
