// native-ads client for Node.js 20+: see README.md.
export { NativeAdsClient, } from "./client.js";
export { AdapterError, AdLoadError, AdObjectError, ConnectionClosedError, ErrorCodes, InvalidParamsError, NativeAdsError, RequestCancelledError, RequestTimeoutError, kindOfCode, } from "./errors.js";
export { encodeMessage, FramingError, MessageReader } from "./framing.js";
export * from "./types.js";
