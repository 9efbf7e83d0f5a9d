// NativeAdsClient: one JSON-RPC 2.0 connection to a native-ads server (its stdio, TCP, or a Unix
// domain socket).

import {
  AdapterError,
  ConnectionClosedError,
  ErrorCodes,
  NativeAdsError,
  RequestTimeoutError,
} from "./errors.js";
import { encodeMessage, MessageReader, type Framing } from "./framing.js";
import { SocketTransport, SpawnTransport, type SocketTarget, type Transport } from "./transport.js";
import type {
  AbortSignalLike,
  AdapterFullScreenEvent,
  AdapterLoad,
  AdapterLoadParams,
  AdapterReportResult,
  AdapterVideoEvent,
  AdUnit,
  AdViewAssets,
  ClickResult,
  ClientEventMap,
  Creative,
  DefineFormatResult,
  ExportFormat,
  Format,
  GetEventsParams,
  GetEventsResult,
  Image,
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcRequest,
  LoadAdParams,
  LoadAdResult,
  MappedAd,
  MuteThisAdResult,
  OpenRpcDocument,
  OpenRTBNativeResponse,
  PerformClickOptions,
  PutAdUnitResult,
  PutCreativeResult,
  RecordImpressionResult,
  RegisterAdapterResult,
  RegisterAdViewResult,
  ReleaseAdResult,
  ReportScreenDismissedResult,
  ReportVisibilityResult,
  RequestId,
  SetCustomClickHandlerResult,
  StoreItemKind,
  StoreListResult,
  InspectorSnapshot,
  StoreRemoveResult,
  UnregisterAdapterResult,
  UnregisterAdViewResult,
  VideoAction,
  VideoControlResult,
  VideoState,
} from "./types.js";

/** Per-request options: the last argument of every method. */
export interface RequestOptions {
  /**
   * Aborting it cancels the request: the client sends `$/cancelRequest {"id"}` (the server stops
   * the work and answers `-32800`, an answer the client drops, as it drops a result that raced
   * the cancellation) and the promise rejects with `signal.reason` (an `AbortError`
   * `DOMException` for a plain `abort()`). A signal aborted already rejects at once, and
   * nothing is sent.
   */
  signal?: AbortSignalLike;
  /** Reject with {@link RequestTimeoutError} (and cancel the request the same way) when no
   * answer came within this many ms; overrides the client's `requestTimeoutMs` (0: none). */
  timeoutMs?: number;
}

/** Options common to every connection. */
export interface ConnectionOptions {
  /** How this connection frames its messages (the server answers in the same). Default "ndjson". */
  framing?: Framing;
  /** Reject (and cancel, see {@link RequestOptions.timeoutMs}) a request that gets no answer
   * within this many ms (default 0: wait forever). */
  requestTimeoutMs?: number;
  /** How long `close()` waits at each step of ending a spawned server (the `shutdown` answer,
   * the process's exit) before forcing it, or for a socket to close (default 5000 ms). */
  closeTimeoutMs?: number;
  /** Called with every message sent and received (parsed), e.g. to log or validate them. */
  trace?: (direction: "send" | "receive", message: unknown) => void;
}

/** `NativeAdsClient.spawn`: start a server and speak to it over its stdin/stdout. */
export interface SpawnOptions extends ConnectionOptions {
  /** The `native-ads` executable. */
  path: string;
  /** Extra arguments (`--seed 1`, `--store FILE`...); `--stdio` is added when missing. */
  args?: string[];
  /** Also serve TCP at this address (`"127.0.0.1:0"` picks a free port): `spawn` then waits
   * for the server's `listening on HOST:PORT` and sets {@link NativeAdsClient.tcpAddress}. */
  listen?: string;
  /** Also serve a Unix domain socket at this path (`--unix PATH`): `spawn` then waits for the
   * server's `listening on unix:PATH` and sets {@link NativeAdsClient.unixPath}. */
  unix?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** The server's stderr: kept (the last 16 KiB, see {@link NativeAdsClient.stderr}), passed
   * through, or dropped. Default "pipe". */
  stderr?: "pipe" | "inherit" | "ignore";
  /** How long to wait for the process to start listening (default 10000 ms). */
  startTimeoutMs?: number;
  /** Give the server `--parent-pid` (this process), so that it stops when this process ends,
   * even killed, instead of outliving it (default true; ignored when `args` name one). */
  watchParent?: boolean;
}

/** `NativeAdsClient.connect`: a TCP (`host`, `port`) or Unix domain socket (`socketPath`)
 * connection to a running server. */
export interface ConnectOptions extends ConnectionOptions {
  /** Default "127.0.0.1". */
  host?: string;
  /** The TCP port (`native-ads --tcp HOST:PORT`); give this or `socketPath`. */
  port?: number;
  /** A Unix domain socket (`native-ads --unix PATH`), instead of `host` and `port`. */
  socketPath?: string;
  /** Default 10000 ms. */
  connectTimeoutMs?: number;
}

/** Maps an `adapter.loadNativeAd` request to a native ad, or fails it (throw an
 * {@link AdapterError}; returning null or undefined is a no fill). */
export type AdapterHandler = (load: AdapterLoad) => MappedAd | null | undefined | Promise<MappedAd | null | undefined>;

/** A class this connection serves (`serveAdapter`). */
export interface AdapterRegistration {
  readonly adapterClassName: string;
  readonly registered: boolean;
  /** `mediation.unregisterAdapter`, and stop answering its loads. */
  unregister(): Promise<UnregisterAdapterResult>;
}

/** Answers a request the server sends to this client. Throw a NativeAdsError or AdapterError
 * (anything with `toJSON(): {code, message, data?}`) to answer with that error. `signal` is
 * aborted when the server cancels the request (`$/cancelRequest`); nothing is answered then. */
export type ServerRequestHandler = (params: unknown, id: RequestId, signal: AbortSignalLike) => unknown | Promise<unknown>;

type Listener = (payload: any) => void;

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** Clears the timer and the abort listener. */
  cleanup(): void;
}

/** How many cancelled request ids a client remembers, to drop their late answers quietly (the
 * oldest are forgotten first; a forgotten one's answer is reported as a `protocolError`). */
const ABANDONED_LIMIT = 10000;

/** The TCP address a spawned server listens on. */
export interface TcpAddress {
  host: string;
  port: number;
}

/**
 * A connection to a native-ads server. Create one with {@link NativeAdsClient.spawn} (a new
 * server process over stdio) or {@link NativeAdsClient.connect} (TCP). Each RPC method is an
 * async method; notifications are delivered to `on(name, listener)`; errors reject with
 * {@link NativeAdsError} and its subclasses.
 */
export class NativeAdsClient {
  /** The framing this connection uses. */
  readonly framing: Framing;
  /** For a spawned server started with `listen`: where it serves TCP. */
  readonly tcpAddress: TcpAddress | undefined;
  /** For a spawned server started with `unix`: the socket path it reported. */
  readonly unixPath: string | undefined;

  private readonly transport: Transport;
  private readonly reader = new MessageReader();
  private readonly options: ConnectionOptions;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Requests this client cancelled (aborted, timed out): id → method, to drop their answers. */
  private readonly abandoned = new Map<number, string>();
  /** The server's requests being answered: id → the controller of their handler's signal. */
  private readonly serving = new Map<RequestId, AbortController>();
  private shutdownAnswered = false;
  private exitSent = false;
  private readonly listeners = new Map<string, Listener[]>();
  private readonly requestHandlers = new Map<string, ServerRequestHandler>();
  private readonly adapters = new Map<string, AdapterHandler>();
  private closeError: Error | undefined;
  private isClosed = false;
  private closing: Promise<void> | undefined;

  private constructor(transport: Transport, options: ConnectionOptions, tcpAddress?: TcpAddress, unixPath?: string) {
    this.transport = transport;
    this.options = options;
    this.framing = options.framing ?? "ndjson";
    this.tcpAddress = tcpAddress;
    this.unixPath = unixPath;
    this.requestHandlers.set("adapter.loadNativeAd", (params, id, signal) => this.answerAdapterLoad(params, id, signal));
  }

  // -------------------------------------------------------------------------------------------
  // Connecting

  /**
   * Starts `path --stdio [args]` and connects to its stdin/stdout. `close()` then ends the
   * server: `shutdown`, `exit`, stdin closed, the process awaited (see {@link close}).
   */
  static async spawn(options: SpawnOptions): Promise<NativeAdsClient> {
    checkFraming(options.framing);
    const args = [...(options.args ?? [])];
    if (!args.includes("--stdio")) args.unshift("--stdio");
    if (options.listen !== undefined) args.push("--tcp", options.listen);
    if (options.unix !== undefined) args.push("--unix", options.unix);
    const servesSocket = (flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
    if ((options.watchParent ?? true) && !servesSocket("--parent-pid")) args.push("--parent-pid", String(process.pid));
    const transport = await SpawnTransport.start({
      path: options.path,
      args,
      env: options.env,
      cwd: options.cwd,
      stderr: options.stderr ?? "pipe",
      servesTcp: servesSocket("--tcp") || servesSocket("--unix"),
    });
    let address: TcpAddress | undefined;
    let unixPath: string | undefined;
    try {
      const startTimeoutMs = options.startTimeoutMs ?? 10000;
      if (options.listen !== undefined) {
        const m = await transport.waitForStderr(/listening on (?!unix:)(\S+):(\d+)\r?\n/, startTimeoutMs);
        address = { host: m[1]!, port: Number(m[2]) };
      }
      if (options.unix !== undefined) {
        const m = await transport.waitForStderr(/listening on unix:(.+?)\r?\n/, startTimeoutMs);
        unixPath = m[1]!;
      }
    } catch (error) {
      transport.child.kill("SIGKILL");
      throw error;
    }
    const client = new NativeAdsClient(transport, options, address, unixPath);
    transport.attach({ data: (chunk) => client.onData(chunk), closed: (error) => client.onClosed(error) });
    return client;
  }

  /** Connects over TCP (`port`, `host`) or to a Unix domain socket (`socketPath`). */
  static async connect(options: ConnectOptions): Promise<NativeAdsClient> {
    checkFraming(options.framing);
    let target: SocketTarget;
    if (options.socketPath !== undefined) {
      if (options.port !== undefined) throw new TypeError("connect: give either port (TCP) or socketPath (Unix), not both");
      target = { path: options.socketPath };
    } else if (options.port !== undefined) {
      target = { host: options.host ?? "127.0.0.1", port: options.port };
    } else {
      throw new TypeError("connect: give port (TCP) or socketPath (a Unix domain socket)");
    }
    const transport = await SocketTransport.open(target, options.connectTimeoutMs ?? 10000);
    const client = new NativeAdsClient(transport, options);
    transport.attach({ data: (chunk) => client.onData(chunk), closed: (error) => client.onClosed(error) });
    return client;
  }

  /** True once the connection is closed (by `close()` or by the server). */
  get closed(): boolean {
    return this.isClosed;
  }

  /** A spawned server's process id. */
  get pid(): number | undefined {
    return this.transport instanceof SpawnTransport ? this.transport.pid : undefined;
  }

  /** A spawned server's exit code once it exited (null when killed by a signal). */
  get exitCode(): number | null | undefined {
    return this.transport instanceof SpawnTransport ? this.transport.exitCode : undefined;
  }

  /** The last 16 KiB a spawned server wrote to stderr ("" for TCP connections). */
  get stderr(): string {
    return this.transport instanceof SpawnTransport ? this.transport.stderr : "";
  }

  /**
   * Closes the connection. A server this client spawned is ended the LSP way: `shutdown` (its
   * answer awaited at most `closeTimeoutMs`), `exit`, stdin closed, and the process awaited (at
   * most `closeTimeoutMs`; it exits 0); only a process that lingers gets SIGTERM, then SIGKILL.
   * A server that does not know `shutdown` (`-32601`) is ended by stdin EOF alone (and SIGTERM
   * when it also serves TCP or a Unix socket, since it then outlives its stdin). For a socket,
   * closes it. Requests still waiting are rejected with {@link ConnectionClosedError}. The
   * server releases the ads this connection loaded and unregisters its adapters.
   */
  close(): Promise<void> {
    return this.closeConnection(true);
  }

  /**
   * `shutdown` (contract section 8): the server finishes what is in flight, and from then on
   * answers every request of this connection but `exit` with -32600. Resolves with its result
   * (null). `close()` sends it for you.
   */
  async shutdown(options?: RequestOptions): Promise<null> {
    const result = await this.request<null>("shutdown", undefined, options);
    this.shutdownAnswered = true;
    return result;
  }

  /**
   * `exit` (a notification): on a spawned server's stdio, ends the process (status 0 after
   * `shutdown`, 1 without); on a TCP or Unix socket connection, closes that connection only.
   * Call `close()` after it all the same (it then only waits).
   */
  exit(): void {
    this.notify("exit");
    this.exitSent = true;
  }

  private closeConnection(graceful: boolean): Promise<void> {
    if (!this.closing) {
      this.closing = (async () => {
        const timeoutMs = this.options.closeTimeoutMs ?? 5000;
        if (this.transport instanceof SpawnTransport) {
          const exitSent = graceful ? await this.endSpawnedServer(timeoutMs) : false;
          await this.transport.close(timeoutMs, { exitSent });
        } else {
          await this.transport.close(timeoutMs);
        }
        this.onClosed();
      })();
    }
    return this.closing;
  }

  /** `shutdown` then `exit` to a spawned server that is still there; true once `exit` went out
   * (the server then ends by itself). */
  private async endSpawnedServer(timeoutMs: number): Promise<boolean> {
    if (this.exitSent) return true;
    if (this.isClosed || this.exitCode !== undefined) return false;
    if (!this.shutdownAnswered) {
      try {
        await this.shutdown({ timeoutMs });
      } catch (error) {
        if (error instanceof ConnectionClosedError) return false;
        if (error instanceof NativeAdsError && error.code === ErrorCodes.methodNotFound) return false; // an older server
        // timed out, or refused: `exit` still ends the process
      }
    }
    if (this.isClosed) return false;
    try {
      this.exit();
    } catch {
      return false;
    }
    return true;
  }

  // -------------------------------------------------------------------------------------------
  // Generic JSON-RPC

  /**
   * Sends a request and resolves with its result (rejects with a NativeAdsError). `options`:
   * an AbortSignal that cancels it, a timeout (see {@link RequestOptions}).
   */
  request<T = unknown>(method: string, params?: object, options: RequestOptions = {}): Promise<T> {
    if (this.isClosed) {
      return Promise.reject(new ConnectionClosedError(this.closedMessage(), { method }));
    }
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? 0;
      const timer =
        timeoutMs > 0 ? setTimeout(() => this.cancelPending(id, new RequestTimeoutError(method, timeoutMs)), timeoutMs) : undefined;
      const onAbort = () => this.cancelPending(id, abortReason(signal!));
      signal?.addEventListener("abort", onAbort, { once: true });
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject, cleanup });
      const message: JsonRpcRequest = { jsonrpc: "2.0", id, method };
      if (params !== undefined) message.params = params;
      this.send(message);
    });
  }

  /** Gives up on a pending request: rejects it with `error`, sends `$/cancelRequest` for it,
   * and remembers its id so that its late answer (-32800, or a result that raced) is dropped. */
  private cancelPending(id: number, error: unknown): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    pending.cleanup();
    this.abandoned.set(id, pending.method);
    if (this.abandoned.size > ABANDONED_LIMIT) this.abandoned.delete(this.abandoned.keys().next().value as number);
    if (!this.isClosed) this.send({ jsonrpc: "2.0", method: "$/cancelRequest", params: { id } });
    pending.reject(error);
  }

  /** Sends a notification (never answered). */
  notify(method: string, params?: object): void {
    if (this.isClosed) throw new ConnectionClosedError(this.closedMessage(), { method });
    const message: JsonRpcRequest = { jsonrpc: "2.0", method };
    if (params !== undefined) message.params = params;
    this.send(message);
  }

  /** Answers the server's requests named `method` (the client answers `adapter.loadNativeAd`
   * itself, see {@link serveAdapter}). */
  handleRequest(method: string, handler: ServerRequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  // -------------------------------------------------------------------------------------------
  // Notifications and events

  /** Listens to a notification (`adEvent`, `customClick`, `videoEvent`, `adapter.*`), to every
   * notification (`notification`), or to the client's `close`, `protocolError`, `error`. */
  on<K extends keyof ClientEventMap>(name: K, listener: (payload: ClientEventMap[K]) => void): this;
  on(name: string, listener: (payload: any) => void): this;
  on(name: string, listener: Listener): this {
    const list = this.listeners.get(name) ?? [];
    list.push(listener);
    this.listeners.set(name, list);
    return this;
  }

  /** Like `on`, for the next one only. */
  once<K extends keyof ClientEventMap>(name: K, listener: (payload: ClientEventMap[K]) => void): this;
  once(name: string, listener: (payload: any) => void): this;
  once(name: string, listener: Listener): this {
    const wrapper: Listener & { original?: Listener } = (payload) => {
      this.off(name, wrapper);
      listener(payload);
    };
    wrapper.original = listener;
    return this.on(name, wrapper);
  }

  /** Removes a listener added with `on` or `once`. */
  off(name: string, listener: (payload: any) => void): this {
    const list = this.listeners.get(name);
    if (!list) return this;
    const i = list.findIndex((l) => l === listener || (l as { original?: Listener }).original === listener);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.listeners.delete(name);
    return this;
  }

  /**
   * Resolves with the next `name` notification that satisfies `predicate`. Call it *before* the
   * request that causes the notification: the server writes notifications caused by a request
   * before that request's reply.
   */
  waitFor<K extends keyof ClientEventMap>(
    name: K,
    predicate?: (payload: ClientEventMap[K]) => boolean,
    timeoutMs?: number,
  ): Promise<ClientEventMap[K]>;
  waitFor(name: string, predicate?: (payload: any) => boolean, timeoutMs?: number): Promise<any>;
  waitFor(name: string, predicate?: (payload: any) => boolean, timeoutMs = 10000): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        this.off(name, listener);
        this.off("close", onClose);
      };
      const listener: Listener = (payload) => {
        if (predicate && !predicate(payload)) return;
        cleanup();
        resolve(payload);
      };
      const onClose: Listener = () => {
        if (name === "close") return;
        cleanup();
        reject(new ConnectionClosedError(`${this.closedMessage()} while waiting for ${name}`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${name} notification within ${timeoutMs} ms`));
      }, timeoutMs);
      this.on(name, listener);
      this.on("close", onClose);
    });
  }

  // -------------------------------------------------------------------------------------------
  // The ad loader and ads (contract section 4)

  /** Loads 1 to `numberOfAds` ads (from the store, or from an OpenRTB `adResponseString`).
   * Rejects with {@link AdLoadError} (1000–1999; 1013 with `field` for a response string that
   * cannot be mapped). */
  loadAd(params: LoadAdParams, options?: RequestOptions): Promise<LoadAdResult> {
    return this.request("loadAd", params, options);
  }

  /** A loaded system-defined native ad as an OpenRTB Native 1.2 response object (every asset
   * typed, so that `loadAd({adUnitID, adResponseString: JSON.stringify(it)})` loads it back).
   * Rejects with an {@link AdObjectError} 2003 (`wrongAdKind`) for a custom native ad. */
  exportAd(adId: string, format: ExportFormat = "openrtb-native-1.2", options?: RequestOptions): Promise<OpenRTBNativeResponse> {
    return this.request("exportAd", { adId, format }, options);
  }

  /** A text asset, or null when the ad has no such text asset. */
  stringForKey(adId: string, key: string, options?: RequestOptions): Promise<string | null> {
    return this.request("stringForKey", { adId, key }, options);
  }

  /** An image asset (`icon`, `image`, a custom format's image asset, `_adChoices`), or null. */
  imageForKey(adId: string, key: string, options?: RequestOptions): Promise<Image | null> {
    return this.request("imageForKey", { adId, key }, options);
  }

  /** Clicks an asset; says what the caller should open. */
  performClickOnAsset(
    adId: string,
    key: string,
    options?: PerformClickOptions,
    requestOptions?: RequestOptions,
  ): Promise<ClickResult> {
    return this.request("performClickOnAsset", { adId, key, ...options }, requestOptions);
  }

  /** Records the impression: `recorded` true the first time only. */
  recordImpression(adId: string, options?: RequestOptions): Promise<RecordImpressionResult> {
    return this.request("recordImpression", { adId }, options);
  }

  /** Enables this connection's custom click handler for a custom-format ad (`customClick`). */
  setCustomClickHandler(adId: string, enabled: boolean, options?: RequestOptions): Promise<SetCustomClickHandlerResult> {
    return this.request("setCustomClickHandler", { adId, enabled }, options);
  }

  /** Releases the ad: every later call naming it gets 2001. */
  releaseAd(adId: string, options?: RequestOptions): Promise<ReleaseAdResult> {
    return this.request("releaseAd", { adId }, options);
  }

  // -------------------------------------------------------------------------------------------
  // Ad view, viewability, full screen, Mute This Ad, video (contract section 7)

  /** Registers the native ad view: which assets are clickable. */
  registerAdView(adId: string, assets: AdViewAssets = {}, options?: RequestOptions): Promise<RegisterAdViewResult> {
    return this.request("registerAdView", { adId, ...assets }, options);
  }

  unregisterAdView(adId: string, options?: RequestOptions): Promise<UnregisterAdViewResult> {
    return this.request("unregisterAdView", { adId }, options);
  }

  /** Reports what is on screen; the first visible pixel of a registered ad records its impression. */
  reportVisibility(adId: string, visiblePixels: number, options?: RequestOptions): Promise<ReportVisibilityResult> {
    return this.request("reportVisibility", { adId, visiblePixels }, options);
  }

  /** The user came back from what a click opened (`willDismissScreen`, `didDismissScreen`). */
  reportScreenDismissed(adId: string, options?: RequestOptions): Promise<ReportScreenDismissedResult> {
    return this.request("reportScreenDismissed", { adId }, options);
  }

  /** Mutes the ad (one of its `muteThisAdReasons`, or none). */
  muteThisAd(adId: string, reason?: string, options?: RequestOptions): Promise<MuteThisAdResult> {
    return this.request("muteThisAd", reason === undefined ? { adId } : { adId, reason }, options);
  }

  /** play / pause / stop / mute / unmute (applies only with custom controls enabled). */
  videoControl(adId: string, action: VideoAction, options?: RequestOptions): Promise<VideoControlResult> {
    return this.request("videoControl", { adId, action }, options);
  }

  /** The video state, or null for an ad without video. */
  getVideoState(adId: string, options?: RequestOptions): Promise<VideoState | null> {
    return this.request("getVideoState", { adId }, options);
  }

  /** The process's event log, oldest first. */
  getEvents(filter: GetEventsParams = {}, options?: RequestOptions): Promise<GetEventsResult> {
    return this.request("getEvents", filter, options);
  }

  // -------------------------------------------------------------------------------------------
  // The store

  storeDefineFormat(format: Format, options?: RequestOptions): Promise<DefineFormatResult> {
    return this.request("store.defineFormat", { format }, options);
  }

  storePutCreative(creative: Creative, options?: RequestOptions): Promise<PutCreativeResult> {
    return this.request("store.putCreative", { creative }, options);
  }

  storePutAdUnit(adUnit: AdUnit, options?: RequestOptions): Promise<PutAdUnitResult> {
    return this.request("store.putAdUnit", { adUnit }, options);
  }

  storeRemove(kind: StoreItemKind, id: string, options?: RequestOptions): Promise<StoreRemoveResult> {
    return this.request("store.remove", { kind, id }, options);
  }

  storeList(options?: RequestOptions): Promise<StoreListResult> {
    return this.request("store.list", {}, options);
  }

  // -------------------------------------------------------------------------------------------
  // Inspector

  /**
   * `inspector.watch`: the process's live ads and recent events now; from then on this
   * connection receives `inspector.adLoaded`, `inspector.loadFailed`, `inspector.adReleased`,
   * `inspector.event` and `inspector.storeChanged` notifications (subscribe with `on`). It is
   * what the inspector page at `GET /` of `--http` shows.
   */
  inspectorWatch(options?: RequestOptions): Promise<InspectorSnapshot> {
    return this.request("inspector.watch", {}, options);
  }

  // -------------------------------------------------------------------------------------------
  // Discovery

  /** `rpc.discover`: the service's OpenRPC document. */
  discover(options?: RequestOptions): Promise<OpenRpcDocument> {
    return this.request("rpc.discover", undefined, options);
  }

  /** `formats.schema`: the JSON Schema (draft 2020-12) of an ad format, `"native"` or a
   * custom format ID (built-in or defined with `storeDefineFormat`). */
  formatSchema(formatID: string, options?: RequestOptions): Promise<JsonObject> {
    return this.request("formats.schema", { formatID }, options);
  }

  // -------------------------------------------------------------------------------------------
  // Mediation: the adapter role (docs/mediation.md)

  /** `mediation.registerAdapter`: this connection answers that class's loads. Prefer
   * {@link serveAdapter}, which also installs the handler. */
  registerAdapter(adapterClassName: string, options?: RequestOptions): Promise<RegisterAdapterResult> {
    return this.request("mediation.registerAdapter", { adapterClassName }, options);
  }

  /** `mediation.unregisterAdapter` (and stop answering that class's loads). */
  unregisterAdapter(adapterClassName: string, options?: RequestOptions): Promise<UnregisterAdapterResult> {
    this.adapters.delete(adapterClassName);
    return this.request("mediation.unregisterAdapter", { adapterClassName }, options);
  }

  /**
   * Serves a mediation adapter class over this connection: registers it and answers each
   * `adapter.loadNativeAd` for it with `handler(load)`'s mapped ad (`{"ad": ...}`), or with an
   * error when the handler throws (an {@link AdapterError} keeps its code, domain and
   * `networkError`; anything else is `-32603` with its message) or returns null (no fill).
   * The service's notifications about the ads it mapped arrive as `adapter.*` events.
   */
  async serveAdapter(adapterClassName: string, handler: AdapterHandler): Promise<AdapterRegistration> {
    this.adapters.set(adapterClassName, handler);
    let result: RegisterAdapterResult;
    try {
      result = await this.registerAdapter(adapterClassName);
    } catch (error) {
      if (this.adapters.get(adapterClassName) === handler) this.adapters.delete(adapterClassName);
      throw error;
    }
    return {
      adapterClassName,
      registered: result.registered,
      unregister: () => this.unregisterAdapter(adapterClassName),
    };
  }

  /** `adapter.reportImpression`: the network recorded the impression of an ad this connection
   * mapped (counted once). */
  reportImpression(adId: string, options?: RequestOptions): Promise<AdapterReportResult> {
    return this.request("adapter.reportImpression", { adId }, options);
  }

  /** `adapter.reportClick`: the network handled a click on an ad this connection mapped. */
  reportClick(adId: string, options?: RequestOptions): Promise<AdapterReportResult> {
    return this.request("adapter.reportClick", { adId }, options);
  }

  /** `adapter.reportVideoEvent`: becomes the app's `videoEvent`. */
  reportVideoEvent(adId: string, event: AdapterVideoEvent, options?: RequestOptions): Promise<AdapterReportResult> {
    return this.request("adapter.reportVideoEvent", { adId, event }, options);
  }

  /** `adapter.reportFullScreen`: becomes the app's `adEvent`. */
  reportFullScreen(adId: string, event: AdapterFullScreenEvent, options?: RequestOptions): Promise<AdapterReportResult> {
    return this.request("adapter.reportFullScreen", { adId, event }, options);
  }

  // -------------------------------------------------------------------------------------------
  // Internals

  private send(message: unknown): void {
    this.options.trace?.("send", message);
    this.transport.write(encodeMessage(message, this.framing));
  }

  private onData(chunk: Buffer): void {
    for (const item of this.reader.push(chunk).items) {
      if (item.error) {
        this.emit("protocolError", item.error);
        if (item.error.fatal) void this.closeConnection(false);
        continue;
      }
      const message = item.message;
      this.options.trace?.("receive", message);
      if (Array.isArray(message)) message.forEach((m) => this.dispatch(m));
      else this.dispatch(message);
    }
  }

  private dispatch(message: unknown): void {
    if (typeof message !== "object" || message === null) {
      this.emit("protocolError", new Error(`unexpected message from the server: ${JSON.stringify(message)}`));
      return;
    }
    const m = message as Record<string, unknown>;
    if (typeof m.method === "string") {
      if ("id" in m) void this.answerServerRequest(m.method, m.params, m.id as RequestId);
      else this.emitNotification(m.method, m.params);
      return;
    }
    const id = m.id;
    const pending = typeof id === "number" ? this.pending.get(id) : undefined;
    if (!pending) {
      // The late answer of a request this client cancelled: dropped, quietly.
      if (typeof id === "number" && this.abandoned.delete(id)) return;
      const error = m.error as JsonRpcErrorObject | undefined;
      const description = error ? `error ${error.code} ${error.message}` : "a result";
      this.emit(
        "protocolError",
        Object.assign(new Error(`the server sent ${description} for no waiting request (id ${JSON.stringify(id)})`), {
          response: m,
        }),
      );
      return;
    }
    this.pending.delete(id as number);
    pending.cleanup();
    if (m.error !== undefined && m.error !== null) {
      pending.reject(NativeAdsError.fromResponse(m.error as JsonRpcErrorObject, pending.method));
    } else {
      pending.resolve(m.result);
    }
  }

  private emitNotification(method: string, params: unknown): void {
    if (method === "$/cancelRequest") {
      // the server gave up a request it sent us (the app cancelled the load it serves)
      const id = (params as { id?: RequestId } | null)?.id;
      if (id !== undefined) this.serving.get(id)?.abort();
    }
    this.emit(method, params);
    this.emit("notification", { method, params });
  }

  private emit(name: string, payload: unknown): void {
    const list = this.listeners.get(name);
    if (!list || list.length === 0) return;
    for (const listener of [...list]) {
      try {
        listener(payload);
      } catch (error) {
        if (name !== "error" && (this.listeners.get("error")?.length ?? 0) > 0) {
          this.emit("error", error);
        } else {
          // Nobody listens to "error": surface it the way EventEmitter would.
          setTimeout(() => {
            throw error;
          }, 0);
        }
      }
    }
  }

  private async answerServerRequest(method: string, params: unknown, id: RequestId): Promise<void> {
    const handler = this.requestHandlers.get(method);
    let reply: Record<string, unknown>;
    if (!handler) {
      reply = { jsonrpc: "2.0", id, error: { code: ErrorCodes.methodNotFound, message: "Method not found", data: { method } } };
    } else {
      const controller = new AbortController();
      this.serving.set(id, controller);
      try {
        const result = await handler(params, id, controller.signal);
        reply = { jsonrpc: "2.0", id, result: result === undefined ? null : result };
      } catch (error) {
        reply = { jsonrpc: "2.0", id, error: errorObject(error) };
      } finally {
        if (this.serving.get(id) === controller) this.serving.delete(id);
      }
      if (controller.signal.aborted) return; // cancelled by the server: it ignores any answer now
    }
    if (!this.isClosed) this.send(reply);
  }

  private async answerAdapterLoad(params: unknown, id: RequestId, signal: AbortSignalLike): Promise<{ ad: MappedAd }> {
    const p = params as AdapterLoadParams;
    const handler = this.adapters.get(p?.adapterClassName);
    if (!handler) {
      throw new AdapterError(`this connection serves no adapter class ${JSON.stringify(p?.adapterClassName)}`, {
        code: 8,
        domain: "com.native-ads.typescript",
      });
    }
    const load: AdapterLoad = {
      ...p,
      requestId: id,
      parameter: p.adConfiguration?.credentials?.settings?.parameter ?? "",
      signal,
    };
    const ad = await handler(load);
    if (ad === null || ad === undefined) throw AdapterError.noFill();
    return { ad };
  }

  private onClosed(error?: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closeError = error;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      p.cleanup();
      p.reject(new ConnectionClosedError(this.closedMessage(), { method: p.method }));
    }
    this.emit("close", error ? { error } : {});
  }

  private closedMessage(): string {
    const why = this.closeError ? `: ${this.closeError.message}` : "";
    return `Connection closed (${this.transport.description})${why}`;
  }
}

/** What a request aborted with `signal` rejects with: its reason, else an `AbortError`. */
function abortReason(signal: AbortSignalLike): unknown {
  if (signal.reason !== undefined) return signal.reason;
  const error = new Error("This operation was aborted");
  error.name = "AbortError";
  return error;
}

function checkFraming(framing: unknown): void {
  if (framing !== undefined && framing !== "ndjson" && framing !== "content-length") {
    throw new TypeError(`framing must be "ndjson" or "content-length", not ${JSON.stringify(framing)}`);
  }
}

function errorObject(error: unknown): JsonRpcErrorObject {
  if (error instanceof AdapterError || error instanceof NativeAdsError) return error.toJSON();
  const e = error as { toJSON?: () => unknown; message?: unknown };
  if (e && typeof e.toJSON === "function") {
    const j = e.toJSON() as JsonRpcErrorObject;
    if (j && typeof j.code === "number" && typeof j.message === "string") return j;
  }
  const message = e && typeof e.message === "string" ? e.message : String(error);
  return { code: ErrorCodes.internalError, message: `adapter failed: ${message}`, data: { domain: "com.native-ads.typescript" } };
}
