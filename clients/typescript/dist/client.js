// NativeAdsClient: one JSON-RPC 2.0 connection to a native-ads server (its stdio, or TCP).
import { AdapterError, ConnectionClosedError, ErrorCodes, NativeAdsError, RequestTimeoutError, } from "./errors.js";
import { encodeMessage, MessageReader } from "./framing.js";
import { SocketTransport, SpawnTransport } from "./transport.js";
/**
 * A connection to a native-ads server. Create one with {@link NativeAdsClient.spawn} (a new
 * server process over stdio) or {@link NativeAdsClient.connect} (TCP). Each RPC method is an
 * async method; notifications are delivered to `on(name, listener)`; errors reject with
 * {@link NativeAdsError} and its subclasses.
 */
export class NativeAdsClient {
    /** The framing this connection uses. */
    framing;
    /** For a spawned server started with `listen`: where it serves TCP. */
    tcpAddress;
    transport;
    reader = new MessageReader();
    options;
    nextId = 1;
    pending = new Map();
    listeners = new Map();
    requestHandlers = new Map();
    adapters = new Map();
    closeError;
    isClosed = false;
    closing;
    constructor(transport, options, tcpAddress) {
        this.transport = transport;
        this.options = options;
        this.framing = options.framing ?? "ndjson";
        this.tcpAddress = tcpAddress;
        this.requestHandlers.set("adapter.loadNativeAd", (params, id) => this.answerAdapterLoad(params, id));
    }
    // -------------------------------------------------------------------------------------------
    // Connecting
    /** Starts `path --stdio [args]` and connects to its stdin/stdout. */
    static async spawn(options) {
        checkFraming(options.framing);
        const args = [...(options.args ?? [])];
        if (!args.includes("--stdio"))
            args.unshift("--stdio");
        if (options.listen !== undefined)
            args.push("--tcp", options.listen);
        const transport = await SpawnTransport.start({
            path: options.path,
            args,
            env: options.env,
            cwd: options.cwd,
            stderr: options.stderr ?? "pipe",
            servesTcp: options.listen !== undefined || args.some((a) => a === "--tcp" || a.startsWith("--tcp=")),
        });
        let address;
        if (options.listen !== undefined) {
            try {
                const m = await transport.waitForStderr(/listening on (\S+):(\d+)/, options.startTimeoutMs ?? 10000);
                address = { host: m[1], port: Number(m[2]) };
            }
            catch (error) {
                transport.child.kill("SIGKILL");
                throw error;
            }
        }
        const client = new NativeAdsClient(transport, options, address);
        transport.attach({ data: (chunk) => client.onData(chunk), closed: (error) => client.onClosed(error) });
        return client;
    }
    /** Connects over TCP. */
    static async connect(options) {
        checkFraming(options.framing);
        const transport = await SocketTransport.open(options.host ?? "127.0.0.1", options.port, options.connectTimeoutMs ?? 10000);
        const client = new NativeAdsClient(transport, options);
        transport.attach({ data: (chunk) => client.onData(chunk), closed: (error) => client.onClosed(error) });
        return client;
    }
    /** True once the connection is closed (by `close()` or by the server). */
    get closed() {
        return this.isClosed;
    }
    /** A spawned server's process id. */
    get pid() {
        return this.transport instanceof SpawnTransport ? this.transport.pid : undefined;
    }
    /** A spawned server's exit code once it exited (null when killed by a signal). */
    get exitCode() {
        return this.transport instanceof SpawnTransport ? this.transport.exitCode : undefined;
    }
    /** The last 16 KiB a spawned server wrote to stderr ("" for TCP connections). */
    get stderr() {
        return this.transport instanceof SpawnTransport ? this.transport.stderr : "";
    }
    /**
     * Closes the connection: for a spawned server, ends its stdin and waits for it to exit (it
     * finishes what is in flight first); for TCP, closes the socket. Requests still waiting are
     * rejected with {@link ConnectionClosedError}. The server releases the ads this connection
     * loaded and unregisters its adapters.
     */
    close() {
        if (!this.closing) {
            this.closing = this.transport.close(this.options.closeTimeoutMs ?? 5000).then(() => this.onClosed());
        }
        return this.closing;
    }
    // -------------------------------------------------------------------------------------------
    // Generic JSON-RPC
    /** Sends a request and resolves with its result (rejects with a NativeAdsError). */
    request(method, params) {
        if (this.isClosed) {
            return Promise.reject(new ConnectionClosedError(this.closedMessage(), { method }));
        }
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            const timeoutMs = this.options.requestTimeoutMs ?? 0;
            const timer = timeoutMs > 0
                ? setTimeout(() => {
                    if (this.pending.delete(id))
                        reject(new RequestTimeoutError(method, timeoutMs));
                }, timeoutMs)
                : undefined;
            this.pending.set(id, { method, resolve: resolve, reject, timer });
            const message = { jsonrpc: "2.0", id, method };
            if (params !== undefined)
                message.params = params;
            this.send(message);
        });
    }
    /** Sends a notification (never answered). */
    notify(method, params) {
        if (this.isClosed)
            throw new ConnectionClosedError(this.closedMessage(), { method });
        const message = { jsonrpc: "2.0", method };
        if (params !== undefined)
            message.params = params;
        this.send(message);
    }
    /** Answers the server's requests named `method` (the client answers `adapter.loadNativeAd`
     * itself, see {@link serveAdapter}). */
    handleRequest(method, handler) {
        this.requestHandlers.set(method, handler);
    }
    on(name, listener) {
        const list = this.listeners.get(name) ?? [];
        list.push(listener);
        this.listeners.set(name, list);
        return this;
    }
    once(name, listener) {
        const wrapper = (payload) => {
            this.off(name, wrapper);
            listener(payload);
        };
        wrapper.original = listener;
        return this.on(name, wrapper);
    }
    /** Removes a listener added with `on` or `once`. */
    off(name, listener) {
        const list = this.listeners.get(name);
        if (!list)
            return this;
        const i = list.findIndex((l) => l === listener || l.original === listener);
        if (i >= 0)
            list.splice(i, 1);
        if (list.length === 0)
            this.listeners.delete(name);
        return this;
    }
    waitFor(name, predicate, timeoutMs = 10000) {
        return new Promise((resolve, reject) => {
            const cleanup = () => {
                clearTimeout(timer);
                this.off(name, listener);
                this.off("close", onClose);
            };
            const listener = (payload) => {
                if (predicate && !predicate(payload))
                    return;
                cleanup();
                resolve(payload);
            };
            const onClose = () => {
                if (name === "close")
                    return;
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
    /** Loads 1 to `numberOfAds` ads. Rejects with {@link AdLoadError} (1000–1999). */
    loadAd(params) {
        return this.request("loadAd", params);
    }
    /** A text asset, or null when the ad has no such text asset. */
    stringForKey(adId, key) {
        return this.request("stringForKey", { adId, key });
    }
    /** An image asset (`icon`, `image`, a custom format's image asset, `_adChoices`), or null. */
    imageForKey(adId, key) {
        return this.request("imageForKey", { adId, key });
    }
    /** Clicks an asset; says what the caller should open. */
    performClickOnAsset(adId, key, options) {
        return this.request("performClickOnAsset", { adId, key, ...options });
    }
    /** Records the impression: `recorded` true the first time only. */
    recordImpression(adId) {
        return this.request("recordImpression", { adId });
    }
    /** Enables this connection's custom click handler for a custom-format ad (`customClick`). */
    setCustomClickHandler(adId, enabled) {
        return this.request("setCustomClickHandler", { adId, enabled });
    }
    /** Releases the ad: every later call naming it gets 2001. */
    releaseAd(adId) {
        return this.request("releaseAd", { adId });
    }
    // -------------------------------------------------------------------------------------------
    // Ad view, viewability, full screen, Mute This Ad, video (contract section 7)
    /** Registers the native ad view: which assets are clickable. */
    registerAdView(adId, assets = {}) {
        return this.request("registerAdView", { adId, ...assets });
    }
    unregisterAdView(adId) {
        return this.request("unregisterAdView", { adId });
    }
    /** Reports what is on screen; the first visible pixel of a registered ad records its impression. */
    reportVisibility(adId, visiblePixels) {
        return this.request("reportVisibility", { adId, visiblePixels });
    }
    /** The user came back from what a click opened (`willDismissScreen`, `didDismissScreen`). */
    reportScreenDismissed(adId) {
        return this.request("reportScreenDismissed", { adId });
    }
    /** Mutes the ad (one of its `muteThisAdReasons`, or none). */
    muteThisAd(adId, reason) {
        return this.request("muteThisAd", reason === undefined ? { adId } : { adId, reason });
    }
    /** play / pause / stop / mute / unmute (applies only with custom controls enabled). */
    videoControl(adId, action) {
        return this.request("videoControl", { adId, action });
    }
    /** The video state, or null for an ad without video. */
    getVideoState(adId) {
        return this.request("getVideoState", { adId });
    }
    /** The process's event log, oldest first. */
    getEvents(filter = {}) {
        return this.request("getEvents", filter);
    }
    // -------------------------------------------------------------------------------------------
    // The store
    storeDefineFormat(format) {
        return this.request("store.defineFormat", { format });
    }
    storePutCreative(creative) {
        return this.request("store.putCreative", { creative });
    }
    storePutAdUnit(adUnit) {
        return this.request("store.putAdUnit", { adUnit });
    }
    storeRemove(kind, id) {
        return this.request("store.remove", { kind, id });
    }
    storeList() {
        return this.request("store.list", {});
    }
    // -------------------------------------------------------------------------------------------
    // Discovery
    /** `rpc.discover`: the service's OpenRPC document. */
    discover() {
        return this.request("rpc.discover");
    }
    /** `formats.schema`: the JSON Schema (draft 2020-12) of an ad format, `"native"` or a
     * custom format ID (built-in or defined with `storeDefineFormat`). */
    formatSchema(formatID) {
        return this.request("formats.schema", { formatID });
    }
    // -------------------------------------------------------------------------------------------
    // Mediation: the adapter role (docs/mediation.md)
    /** `mediation.registerAdapter`: this connection answers that class's loads. Prefer
     * {@link serveAdapter}, which also installs the handler. */
    registerAdapter(adapterClassName) {
        return this.request("mediation.registerAdapter", { adapterClassName });
    }
    /** `mediation.unregisterAdapter` (and stop answering that class's loads). */
    unregisterAdapter(adapterClassName) {
        this.adapters.delete(adapterClassName);
        return this.request("mediation.unregisterAdapter", { adapterClassName });
    }
    /**
     * Serves a mediation adapter class over this connection: registers it and answers each
     * `adapter.loadNativeAd` for it with `handler(load)`'s mapped ad (`{"ad": ...}`), or with an
     * error when the handler throws (an {@link AdapterError} keeps its code, domain and
     * `networkError`; anything else is `-32603` with its message) or returns null (no fill).
     * The service's notifications about the ads it mapped arrive as `adapter.*` events.
     */
    async serveAdapter(adapterClassName, handler) {
        this.adapters.set(adapterClassName, handler);
        let result;
        try {
            result = await this.registerAdapter(adapterClassName);
        }
        catch (error) {
            if (this.adapters.get(adapterClassName) === handler)
                this.adapters.delete(adapterClassName);
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
    reportImpression(adId) {
        return this.request("adapter.reportImpression", { adId });
    }
    /** `adapter.reportClick`: the network handled a click on an ad this connection mapped. */
    reportClick(adId) {
        return this.request("adapter.reportClick", { adId });
    }
    /** `adapter.reportVideoEvent`: becomes the app's `videoEvent`. */
    reportVideoEvent(adId, event) {
        return this.request("adapter.reportVideoEvent", { adId, event });
    }
    /** `adapter.reportFullScreen`: becomes the app's `adEvent`. */
    reportFullScreen(adId, event) {
        return this.request("adapter.reportFullScreen", { adId, event });
    }
    // -------------------------------------------------------------------------------------------
    // Internals
    send(message) {
        this.options.trace?.("send", message);
        this.transport.write(encodeMessage(message, this.framing));
    }
    onData(chunk) {
        for (const item of this.reader.push(chunk).items) {
            if (item.error) {
                this.emit("protocolError", item.error);
                if (item.error.fatal)
                    void this.close();
                continue;
            }
            const message = item.message;
            this.options.trace?.("receive", message);
            if (Array.isArray(message))
                message.forEach((m) => this.dispatch(m));
            else
                this.dispatch(message);
        }
    }
    dispatch(message) {
        if (typeof message !== "object" || message === null) {
            this.emit("protocolError", new Error(`unexpected message from the server: ${JSON.stringify(message)}`));
            return;
        }
        const m = message;
        if (typeof m.method === "string") {
            if ("id" in m)
                void this.answerServerRequest(m.method, m.params, m.id);
            else
                this.emitNotification(m.method, m.params);
            return;
        }
        const id = m.id;
        const pending = typeof id === "number" ? this.pending.get(id) : undefined;
        if (!pending) {
            const error = m.error;
            const description = error ? `error ${error.code} ${error.message}` : "a result";
            this.emit("protocolError", Object.assign(new Error(`the server sent ${description} for no waiting request (id ${JSON.stringify(id)})`), {
                response: m,
            }));
            return;
        }
        this.pending.delete(id);
        if (pending.timer)
            clearTimeout(pending.timer);
        if (m.error !== undefined && m.error !== null) {
            pending.reject(NativeAdsError.fromResponse(m.error, pending.method));
        }
        else {
            pending.resolve(m.result);
        }
    }
    emitNotification(method, params) {
        this.emit(method, params);
        this.emit("notification", { method, params });
    }
    emit(name, payload) {
        const list = this.listeners.get(name);
        if (!list || list.length === 0)
            return;
        for (const listener of [...list]) {
            try {
                listener(payload);
            }
            catch (error) {
                if (name !== "error" && (this.listeners.get("error")?.length ?? 0) > 0) {
                    this.emit("error", error);
                }
                else {
                    // Nobody listens to "error": surface it the way EventEmitter would.
                    setTimeout(() => {
                        throw error;
                    }, 0);
                }
            }
        }
    }
    async answerServerRequest(method, params, id) {
        const handler = this.requestHandlers.get(method);
        let reply;
        if (!handler) {
            reply = { jsonrpc: "2.0", id, error: { code: ErrorCodes.methodNotFound, message: "Method not found", data: { method } } };
        }
        else {
            try {
                const result = await handler(params, id);
                reply = { jsonrpc: "2.0", id, result: result === undefined ? null : result };
            }
            catch (error) {
                reply = { jsonrpc: "2.0", id, error: errorObject(error) };
            }
        }
        if (!this.isClosed)
            this.send(reply);
    }
    async answerAdapterLoad(params, id) {
        const p = params;
        const handler = this.adapters.get(p?.adapterClassName);
        if (!handler) {
            throw new AdapterError(`this connection serves no adapter class ${JSON.stringify(p?.adapterClassName)}`, {
                code: 8,
                domain: "com.native-ads.typescript",
            });
        }
        const load = {
            ...p,
            requestId: id,
            parameter: p.adConfiguration?.credentials?.settings?.parameter ?? "",
        };
        const ad = await handler(load);
        if (ad === null || ad === undefined)
            throw AdapterError.noFill();
        return { ad };
    }
    onClosed(error) {
        if (this.isClosed)
            return;
        this.isClosed = true;
        this.closeError = error;
        const pending = [...this.pending.values()];
        this.pending.clear();
        for (const p of pending) {
            if (p.timer)
                clearTimeout(p.timer);
            p.reject(new ConnectionClosedError(this.closedMessage(), { method: p.method }));
        }
        this.emit("close", error ? { error } : {});
    }
    closedMessage() {
        const why = this.closeError ? `: ${this.closeError.message}` : "";
        return `Connection closed (${this.transport.description})${why}`;
    }
}
function checkFraming(framing) {
    if (framing !== undefined && framing !== "ndjson" && framing !== "content-length") {
        throw new TypeError(`framing must be "ndjson" or "content-length", not ${JSON.stringify(framing)}`);
    }
}
function errorObject(error) {
    if (error instanceof AdapterError || error instanceof NativeAdsError)
        return error.toJSON();
    const e = error;
    if (e && typeof e.toJSON === "function") {
        const j = e.toJSON();
        if (j && typeof j.code === "number" && typeof j.message === "string")
            return j;
    }
    const message = e && typeof e.message === "string" ? e.message : String(error);
    return { code: ErrorCodes.internalError, message: `adapter failed: ${message}`, data: { domain: "com.native-ads.typescript" } };
}
