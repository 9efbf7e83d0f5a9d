// native-ads client for Node.js 20+: see README.md.

export {
  NativeAdsClient,
  type AdapterHandler,
  type AdapterRegistration,
  type ConnectOptions,
  type ConnectionOptions,
  type RequestOptions,
  type ServerRequestHandler,
  type SpawnOptions,
  type TcpAddress,
} from "./client.js";
export {
  AdapterError,
  AdLoadError,
  AdObjectError,
  ConnectionClosedError,
  ErrorCodes,
  InvalidParamsError,
  NativeAdsError,
  RequestCancelledError,
  RequestTimeoutError,
  kindOfCode,
  type NativeAdsErrorKind,
} from "./errors.js";
export { encodeMessage, FramingError, MessageReader, type Framing, type ReadItem, type ReadResult } from "./framing.js";
export * from "./types.js";
