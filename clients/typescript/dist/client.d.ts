import { type Framing } from "./framing.js";
import type { AbortSignalLike, AdapterFullScreenEvent, AdapterLoad, AdapterReportResult, AdapterVideoEvent, AdUnit, AdViewAssets, ClickResult, ClientEventMap, Creative, DefineFormatResult, ExportFormat, Format, GetEventsParams, GetEventsResult, Image, JsonObject, LoadAdParams, LoadAdResult, MappedAd, MuteThisAdResult, OpenRpcDocument, OpenRTBNativeResponse, PerformClickOptions, PutAdUnitResult, PutCreativeResult, RecordImpressionResult, RegisterAdapterResult, RegisterAdViewResult, ReleaseAdResult, ReportScreenDismissedResult, ReportVisibilityResult, RequestId, SetCustomClickHandlerResult, StoreItemKind, StoreListResult, InspectorSnapshot, StoreRemoveResult, UnregisterAdapterResult, UnregisterAdViewResult, VideoAction, VideoControlResult, VideoState } from "./types.js";
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
export declare type AdapterHandler = (load: AdapterLoad) => MappedAd | null | undefined | Promise<MappedAd | null | undefined>;
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
export declare type ServerRequestHandler = (params: unknown, id: RequestId, signal: AbortSignalLike) => unknown | Promise<unknown>;
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
export declare class NativeAdsClient {
    /** The framing this connection uses. */
    readonly framing: Framing;
    /** For a spawned server started with `listen`: where it serves TCP. */
    readonly tcpAddress: TcpAddress | undefined;
    /** For a spawned server started with `unix`: the socket path it reported. */
    readonly unixPath: string | undefined;
    private readonly transport;
    private readonly reader;
    private readonly options;
    private nextId;
    private readonly pending;
    /** Requests this client cancelled (aborted, timed out): id → method, to drop their answers. */
    private readonly abandoned;
    /** The server's requests being answered: id → the controller of their handler's signal. */
    private readonly serving;
    private shutdownAnswered;
    private exitSent;
    private readonly listeners;
    private readonly requestHandlers;
    private readonly adapters;
    private closeError;
    private isClosed;
    private closing;
    private constructor();
    /**
     * Starts `path --stdio [args]` and connects to its stdin/stdout. `close()` then ends the
     * server: `shutdown`, `exit`, stdin closed, the process awaited (see {@link close}).
     */
    static spawn(options: SpawnOptions): Promise<NativeAdsClient>;
    /** Connects over TCP (`port`, `host`) or to a Unix domain socket (`socketPath`). */
    static connect(options: ConnectOptions): Promise<NativeAdsClient>;
    /** True once the connection is closed (by `close()` or by the server). */
    get closed(): boolean;
    /** A spawned server's process id. */
    get pid(): number | undefined;
    /** A spawned server's exit code once it exited (null when killed by a signal). */
    get exitCode(): number | null | undefined;
    /** The last 16 KiB a spawned server wrote to stderr ("" for TCP connections). */
    get stderr(): string;
    /**
     * Closes the connection. A server this client spawned is ended the LSP way: `shutdown` (its
     * answer awaited at most `closeTimeoutMs`), `exit`, stdin closed, and the process awaited (at
     * most `closeTimeoutMs`; it exits 0); only a process that lingers gets SIGTERM, then SIGKILL.
     * A server that does not know `shutdown` (`-32601`) is ended by stdin EOF alone (and SIGTERM
     * when it also serves TCP or a Unix socket, since it then outlives its stdin). For a socket,
     * closes it. Requests still waiting are rejected with {@link ConnectionClosedError}. The
     * server releases the ads this connection loaded and unregisters its adapters.
     */
    close(): Promise<void>;
    /**
     * `shutdown` (contract section 8): the server finishes what is in flight, and from then on
     * answers every request of this connection but `exit` with -32600. Resolves with its result
     * (null). `close()` sends it for you.
     */
    shutdown(options?: RequestOptions): Promise<null>;
    /**
     * `exit` (a notification): on a spawned server's stdio, ends the process (status 0 after
     * `shutdown`, 1 without); on a TCP or Unix socket connection, closes that connection only.
     * Call `close()` after it all the same (it then only waits).
     */
    exit(): void;
    private closeConnection;
    /** `shutdown` then `exit` to a spawned server that is still there; true once `exit` went out
     * (the server then ends by itself). */
    private endSpawnedServer;
    /**
     * Sends a request and resolves with its result (rejects with a NativeAdsError). `options`:
     * an AbortSignal that cancels it, a timeout (see {@link RequestOptions}).
     */
    request<T = unknown>(method: string, params?: object, options?: RequestOptions): Promise<T>;
    /** Gives up on a pending request: rejects it with `error`, sends `$/cancelRequest` for it,
     * and remembers its id so that its late answer (-32800, or a result that raced) is dropped. */
    private cancelPending;
    /** Sends a notification (never answered). */
    notify(method: string, params?: object): void;
    /** Answers the server's requests named `method` (the client answers `adapter.loadNativeAd`
     * itself, see {@link serveAdapter}). */
    handleRequest(method: string, handler: ServerRequestHandler): void;
    /** Listens to a notification (`adEvent`, `customClick`, `videoEvent`, `adapter.*`), to every
     * notification (`notification`), or to the client's `close`, `protocolError`, `error`. */
    on<K extends keyof ClientEventMap>(name: K, listener: (payload: ClientEventMap[K]) => void): this;
    on(name: string, listener: (payload: any) => void): this;
    /** Like `on`, for the next one only. */
    once<K extends keyof ClientEventMap>(name: K, listener: (payload: ClientEventMap[K]) => void): this;
    once(name: string, listener: (payload: any) => void): this;
    /** Removes a listener added with `on` or `once`. */
    off(name: string, listener: (payload: any) => void): this;
    /**
     * Resolves with the next `name` notification that satisfies `predicate`. Call it *before* the
     * request that causes the notification: the server writes notifications caused by a request
     * before that request's reply.
     */
    waitFor<K extends keyof ClientEventMap>(name: K, predicate?: (payload: ClientEventMap[K]) => boolean, timeoutMs?: number): Promise<ClientEventMap[K]>;
    waitFor(name: string, predicate?: (payload: any) => boolean, timeoutMs?: number): Promise<any>;
    /** Loads 1 to `numberOfAds` ads (from the store, or from an OpenRTB `adResponseString`).
     * Rejects with {@link AdLoadError} (1000–1999; 1013 with `field` for a response string that
     * cannot be mapped). */
    loadAd(params: LoadAdParams, options?: RequestOptions): Promise<LoadAdResult>;
    /** A loaded system-defined native ad as an OpenRTB Native 1.2 response object (every asset
     * typed, so that `loadAd({adUnitID, adResponseString: JSON.stringify(it)})` loads it back).
     * Rejects with an {@link AdObjectError} 2003 (`wrongAdKind`) for a custom native ad. */
    exportAd(adId: string, format?: ExportFormat, options?: RequestOptions): Promise<OpenRTBNativeResponse>;
    /** A text asset, or null when the ad has no such text asset. */
    stringForKey(adId: string, key: string, options?: RequestOptions): Promise<string | null>;
    /** An image asset (`icon`, `image`, a custom format's image asset, `_adChoices`), or null. */
    imageForKey(adId: string, key: string, options?: RequestOptions): Promise<Image | null>;
    /** Clicks an asset; says what the caller should open. */
    performClickOnAsset(adId: string, key: string, options?: PerformClickOptions, requestOptions?: RequestOptions): Promise<ClickResult>;
    /** Records the impression: `recorded` true the first time only. */
    recordImpression(adId: string, options?: RequestOptions): Promise<RecordImpressionResult>;
    /** Enables this connection's custom click handler for a custom-format ad (`customClick`). */
    setCustomClickHandler(adId: string, enabled: boolean, options?: RequestOptions): Promise<SetCustomClickHandlerResult>;
    /** Releases the ad: every later call naming it gets 2001. */
    releaseAd(adId: string, options?: RequestOptions): Promise<ReleaseAdResult>;
    /** Registers the native ad view: which assets are clickable. */
    registerAdView(adId: string, assets?: AdViewAssets, options?: RequestOptions): Promise<RegisterAdViewResult>;
    unregisterAdView(adId: string, options?: RequestOptions): Promise<UnregisterAdViewResult>;
    /** Reports what is on screen; the first visible pixel of a registered ad records its impression. */
    reportVisibility(adId: string, visiblePixels: number, options?: RequestOptions): Promise<ReportVisibilityResult>;
    /** The user came back from what a click opened (`willDismissScreen`, `didDismissScreen`). */
    reportScreenDismissed(adId: string, options?: RequestOptions): Promise<ReportScreenDismissedResult>;
    /** Mutes the ad (one of its `muteThisAdReasons`, or none). */
    muteThisAd(adId: string, reason?: string, options?: RequestOptions): Promise<MuteThisAdResult>;
    /** play / pause / stop / mute / unmute (applies only with custom controls enabled). */
    videoControl(adId: string, action: VideoAction, options?: RequestOptions): Promise<VideoControlResult>;
    /** The video state, or null for an ad without video. */
    getVideoState(adId: string, options?: RequestOptions): Promise<VideoState | null>;
    /** The process's event log, oldest first. */
    getEvents(filter?: GetEventsParams, options?: RequestOptions): Promise<GetEventsResult>;
    storeDefineFormat(format: Format, options?: RequestOptions): Promise<DefineFormatResult>;
    storePutCreative(creative: Creative, options?: RequestOptions): Promise<PutCreativeResult>;
    storePutAdUnit(adUnit: AdUnit, options?: RequestOptions): Promise<PutAdUnitResult>;
    storeRemove(kind: StoreItemKind, id: string, options?: RequestOptions): Promise<StoreRemoveResult>;
    storeList(options?: RequestOptions): Promise<StoreListResult>;
    /**
     * `inspector.watch`: the process's live ads and recent events now; from then on this
     * connection receives `inspector.adLoaded`, `inspector.loadFailed`, `inspector.adReleased`,
     * `inspector.event` and `inspector.storeChanged` notifications (subscribe with `on`). It is
     * what the inspector page at `GET /` of `--http` shows.
     */
    inspectorWatch(options?: RequestOptions): Promise<InspectorSnapshot>;
    /** `rpc.discover`: the service's OpenRPC document. */
    discover(options?: RequestOptions): Promise<OpenRpcDocument>;
    /** `formats.schema`: the JSON Schema (draft 2020-12) of an ad format, `"native"` or a
     * custom format ID (built-in or defined with `storeDefineFormat`). */
    formatSchema(formatID: string, options?: RequestOptions): Promise<JsonObject>;
    /** `mediation.registerAdapter`: this connection answers that class's loads. Prefer
     * {@link serveAdapter}, which also installs the handler. */
    registerAdapter(adapterClassName: string, options?: RequestOptions): Promise<RegisterAdapterResult>;
    /** `mediation.unregisterAdapter` (and stop answering that class's loads). */
    unregisterAdapter(adapterClassName: string, options?: RequestOptions): Promise<UnregisterAdapterResult>;
    /**
     * Serves a mediation adapter class over this connection: registers it and answers each
     * `adapter.loadNativeAd` for it with `handler(load)`'s mapped ad (`{"ad": ...}`), or with an
     * error when the handler throws (an {@link AdapterError} keeps its code, domain and
     * `networkError`; anything else is `-32603` with its message) or returns null (no fill).
     * The service's notifications about the ads it mapped arrive as `adapter.*` events.
     */
    serveAdapter(adapterClassName: string, handler: AdapterHandler): Promise<AdapterRegistration>;
    /** `adapter.reportImpression`: the network recorded the impression of an ad this connection
     * mapped (counted once). */
    reportImpression(adId: string, options?: RequestOptions): Promise<AdapterReportResult>;
    /** `adapter.reportClick`: the network handled a click on an ad this connection mapped. */
    reportClick(adId: string, options?: RequestOptions): Promise<AdapterReportResult>;
    /** `adapter.reportVideoEvent`: becomes the app's `videoEvent`. */
    reportVideoEvent(adId: string, event: AdapterVideoEvent, options?: RequestOptions): Promise<AdapterReportResult>;
    /** `adapter.reportFullScreen`: becomes the app's `adEvent`. */
    reportFullScreen(adId: string, event: AdapterFullScreenEvent, options?: RequestOptions): Promise<AdapterReportResult>;
    private send;
    private onData;
    private dispatch;
    private emitNotification;
    private emit;
    private answerServerRequest;
    private answerAdapterLoad;
    private onClosed;
    private closedMessage;
}
