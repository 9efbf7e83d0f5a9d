// NativeAdsClient: one JSON-RPC 2.0 connection to a native-ads server (its stdio, TCP, or a Unix
// domain socket).
import { AdapterError, ConnectionClosedError, ErrorCodes, NativeAdsError, RequestTimeoutError, } from "./errors.js";
import { encodeMessage, MessageReader } from "./framing.js";
import { SocketTransport, SpawnTransport } from "./transport.js";
/** How many cancelled request ids a client remembers, to drop their late answers quietly (the
 * oldest are forgotten first; a forgotten one's answer is reported as a `protocolError`). */
const ABANDONED_LIMIT = 10000;
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
    /** For a spawned server started with `unix`: the socket path it reported. */
    unixPath;
    transport;
    reader = new MessageReader();
    options;
    nextId = 1;
    pending = new Map();
    /** Requests this client cancelled (aborted, timed out): id → method, to drop their answers. */
    abandoned = new Map();
    /** The server's requests being answered: id → the controller of their handler's signal. */
    serving = new Map();
    shutdownAnswered = false;
    exitSent = false;
    listeners = new Map();
    requestHandlers = new Map();
    adapters = new Map();
    closeError;
    isClosed = false;
    closing;
    constructor(transport, options, tcpAddress, unixPath) {
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
    static async spawn(options) {
        checkFraming(options.framing);
        const args = [...(options.args ?? [])];
        if (!args.includes("--stdio"))
            args.unshift("--stdio");
        if (options.listen !== undefined)
            args.push("--tcp", options.listen);
        if (options.unix !== undefined)
            args.push("--unix", options.unix);
        const servesSocket = (flag) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
        if ((options.watchParent ?? true) && !servesSocket("--parent-pid"))
            args.push("--parent-pid", String(process.pid));
        const transport = await SpawnTransport.start({
            path: options.path,
            args,
            env: options.env,
            cwd: options.cwd,
            stderr: options.stderr ?? "pipe",
            servesTcp: servesSocket("--tcp") || servesSocket("--unix"),
        });
        let address;
        let unixPath;
        try {
            const startTimeoutMs = options.startTimeoutMs ?? 10000;
            if (options.listen !== undefined) {
                const m = await transport.waitForStderr(/listening on (?!unix:)(\S+):(\d+)\r?\n/, startTimeoutMs);
                address = { host: m[1], port: Number(m[2]) };
            }
            if (options.unix !== undefined) {
                const m = await transport.waitForStderr(/listening on unix:(.+?)\r?\n/, startTimeoutMs);
                unixPath = m[1];
            }
        }
        catch (error) {
            transport.child.kill("SIGKILL");
            throw error;
        }
        const client = new NativeAdsClient(transport, options, address, unixPath);
        transport.attach({ data: (chunk) => client.onData(chunk), closed: (error) => client.onClosed(error) });
        return client;
    }
    /** Connects over TCP (`port`, `host`) or to a Unix domain socket (`socketPath`). */
    static async connect(options) {
        checkFraming(options.framing);
        let target;
        if (options.socketPath !== undefined) {
            if (options.port !== undefined)
                throw new TypeError("connect: give either port (TCP) or socketPath (Unix), not both");
            target = { path: options.socketPath };
        }
        else if (options.port !== undefined) {
            target = { host: options.host ?? "127.0.0.1", port: options.port };
        }
        else {
            throw new TypeError("connect: give port (TCP) or socketPath (a Unix domain socket)");
        }
        const transport = await SocketTransport.open(target, options.connectTimeoutMs ?? 10000);
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
     * Closes the connection. A server this client spawned is ended the LSP way: `shutdown` (its
     * answer awaited at most `closeTimeoutMs`), `exit`, stdin closed, and the process awaited (at
     * most `closeTimeoutMs`; it exits 0); only a process that lingers gets SIGTERM, then SIGKILL.
     * A server that does not know `shutdown` (`-32601`) is ended by stdin EOF alone (and SIGTERM
     * when it also serves TCP or a Unix socket, since it then outlives its stdin). For a socket,
     * closes it. Requests still waiting are rejected with {@link ConnectionClosedError}. The
     * server releases the ads this connection loaded and unregisters its adapters.
     */
    close() {
        return this.closeConnection(true);
    }
    /**
     * `shutdown` (contract section 8): the server finishes what is in flight, and from then on
     * answers every request of this connection but `exit` with -32600. Resolves with its result
     * (null). `close()` sends it for you.
     */
    async shutdown(options) {
        const result = await this.request("shutdown", undefined, options);
        this.shutdownAnswered = true;
        return result;
    }
    /**
     * `exit` (a notification): on a spawned server's stdio, ends the process (status 0 after
     * `shutdown`, 1 without); on a TCP or Unix socket connection, closes that connection only.
     * Call `close()` after it all the same (it then only waits).
     */
    exit() {
        this.notify("exit");
        this.exitSent = true;
    }
    closeConnection(graceful) {
        if (!this.closing) {
            this.closing = (async () => {
                const timeoutMs = this.options.closeTimeoutMs ?? 5000;
                if (this.transport instanceof SpawnTransport) {
                    const exitSent = graceful ? await this.endSpawnedServer(timeoutMs) : false;
                    await this.transport.close(timeoutMs, { exitSent });
                }
                else {
                    await this.transport.close(timeoutMs);
                }
                this.onClosed();
            })();
        }
        return this.closing;
    }
    /** `shutdown` then `exit` to a spawned server that is still there; true once `exit` went out
     * (the server then ends by itself). */
    async endSpawnedServer(timeoutMs) {
        if (this.exitSent)
            return true;
        if (this.isClosed || this.exitCode !== undefined)
            return false;
        if (!this.shutdownAnswered) {
            try {
                await this.shutdown({ timeoutMs });
            }
            catch (error) {
                if (error instanceof ConnectionClosedError)
                    return false;
                if (error instanceof NativeAdsError && error.code === ErrorCodes.methodNotFound)
                    return false; // an older server
                // timed out, or refused: `exit` still ends the process
            }
        }
        if (this.isClosed)
            return false;
        try {
            this.exit();
        }
        catch {
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
    request(method, params, options = {}) {
        if (this.isClosed) {
            return Promise.reject(new ConnectionClosedError(this.closedMessage(), { method }));
        }
        const signal = options.signal;
        if (signal?.aborted)
            return Promise.reject(abortReason(signal));
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? 0;
            const timer = timeoutMs > 0 ? setTimeout(() => this.cancelPending(id, new RequestTimeoutError(method, timeoutMs)), timeoutMs) : undefined;
            const onAbort = () => this.cancelPending(id, abortReason(signal));
            signal?.addEventListener("abort", onAbort, { once: true });
            const cleanup = () => {
                if (timer)
                    clearTimeout(timer);
                signal?.removeEventListener("abort", onAbort);
            };
            this.pending.set(id, { method, resolve: resolve, reject, cleanup });
            const message = { jsonrpc: "2.0", id, method };
            if (params !== undefined)
                message.params = params;
            this.send(message);
        });
    }
    /** Gives up on a pending request: rejects it with `error`, sends `$/cancelRequest` for it,
     * and remembers its id so that its late answer (-32800, or a result that raced) is dropped. */
    cancelPending(id, error) {
        const pending = this.pending.get(id);
        if (!pending)
            return;
        this.pending.delete(id);
        pending.cleanup();
        this.abandoned.set(id, pending.method);
        if (this.abandoned.size > ABANDONED_LIMIT)
            this.abandoned.delete(this.abandoned.keys().next().value);
        if (!this.isClosed)
            this.send({ jsonrpc: "2.0", method: "$/cancelRequest", params: { id } });
        pending.reject(error);
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
    /** Loads 1 to `numberOfAds` ads (from the store, or from an OpenRTB `adResponseString`).
     * Rejects with {@link AdLoadError} (1000–1999; 1013 with `field` for a response string that
     * cannot be mapped). */
    loadAd(params, options) {
        return this.request("loadAd", params, options);
    }
    /** A loaded system-defined native ad as an OpenRTB Native 1.2 response object (every asset
     * typed, so that `loadAd({adUnitID, adResponseString: JSON.stringify(it)})` loads it back).
     * Rejects with an {@link AdObjectError} 2003 (`wrongAdKind`) for a custom native ad. */
    exportAd(adId, format = "openrtb-native-1.2", options) {
        return this.request("exportAd", { adId, format }, options);
    }
    /** A text asset, or null when the ad has no such text asset. */
    stringForKey(adId, key, options) {
        return this.request("stringForKey", { adId, key }, options);
    }
    /** An image asset (`icon`, `image`, a custom format's image asset, `_adChoices`), or null. */
    imageForKey(adId, key, options) {
        return this.request("imageForKey", { adId, key }, options);
    }
    /** Clicks an asset; says what the caller should open. */
    performClickOnAsset(adId, key, options, requestOptions) {
        return this.request("performClickOnAsset", { adId, key, ...options }, requestOptions);
    }
    /** Records the impression: `recorded` true the first time only. */
    recordImpression(adId, options) {
        return this.request("recordImpression", { adId }, options);
    }
    /** Enables this connection's custom click handler for a custom-format ad (`customClick`). */
    setCustomClickHandler(adId, enabled, options) {
        return this.request("setCustomClickHandler", { adId, enabled }, options);
    }
    /** Releases the ad: every later call naming it gets 2001. */
    releaseAd(adId, options) {
        return this.request("releaseAd", { adId }, options);
    }
    // -------------------------------------------------------------------------------------------
    // Ad view, viewability, full screen, Mute This Ad, video (contract section 7)
    /** Registers the native ad view: which assets are clickable. */
    registerAdView(adId, assets = {}, options) {
        return this.request("registerAdView", { adId, ...assets }, options);
    }
    unregisterAdView(adId, options) {
        return this.request("unregisterAdView", { adId }, options);
    }
    /** Reports what is on screen; the first visible pixel of a registered ad records its impression. */
    reportVisibility(adId, visiblePixels, options) {
        return this.request("reportVisibility", { adId, visiblePixels }, options);
    }
    /** The user came back from what a click opened (`willDismissScreen`, `didDismissScreen`). */
    reportScreenDismissed(adId, options) {
        return this.request("reportScreenDismissed", { adId }, options);
    }
    /** Mutes the ad (one of its `muteThisAdReasons`, or none). */
    muteThisAd(adId, reason, options) {
        return this.request("muteThisAd", reason === undefined ? { adId } : { adId, reason }, options);
    }
    /** play / pause / stop / mute / unmute (applies only with custom controls enabled). */
    videoControl(adId, action, options) {
        return this.request("videoControl", { adId, action }, options);
    }
    /** The video state, or null for an ad without video. */
    getVideoState(adId, options) {
        return this.request("getVideoState", { adId }, options);
    }
    /** The process's event log, oldest first. */
    getEvents(filter = {}, options) {
        return this.request("getEvents", filter, options);
    }
    // -------------------------------------------------------------------------------------------
    // The store
    storeDefineFormat(format, options) {
        return this.request("store.defineFormat", { format }, options);
    }
    storePutCreative(creative, options) {
        return this.request("store.putCreative", { creative }, options);
    }
    storePutAdUnit(adUnit, options) {
        return this.request("store.putAdUnit", { adUnit }, options);
    }
    storeRemove(kind, id, options) {
        return this.request("store.remove", { kind, id }, options);
    }
    storeList(options) {
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
    inspectorWatch(options) {
        return this.request("inspector.watch", {}, options);
    }
    // -------------------------------------------------------------------------------------------
    // Discovery
    /** `rpc.discover`: the service's OpenRPC document. */
    discover(options) {
        return this.request("rpc.discover", undefined, options);
    }
    /** `formats.schema`: the JSON Schema (draft 2020-12) of an ad format, `"native"` or a
     * custom format ID (built-in or defined with `storeDefineFormat`). */
    formatSchema(formatID, options) {
        return this.request("formats.schema", { formatID }, options);
    }
    // -------------------------------------------------------------------------------------------
    // Mediation: the adapter role (docs/mediation.md)
    /** `mediation.registerAdapter`: this connection answers that class's loads. Prefer
     * {@link serveAdapter}, which also installs the handler. */
    registerAdapter(adapterClassName, options) {
        return this.request("mediation.registerAdapter", { adapterClassName }, options);
    }
    /** `mediation.unregisterAdapter` (and stop answering that class's loads). */
    unregisterAdapter(adapterClassName, options) {
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
    reportImpression(adId, options) {
        return this.request("adapter.reportImpression", { adId }, options);
    }
    /** `adapter.reportClick`: the network handled a click on an ad this connection mapped. */
    reportClick(adId, options) {
        return this.request("adapter.reportClick", { adId }, options);
    }
    /** `adapter.reportVideoEvent`: becomes the app's `videoEvent`. */
    reportVideoEvent(adId, event, options) {
        return this.request("adapter.reportVideoEvent", { adId, event }, options);
    }
    /** `adapter.reportFullScreen`: becomes the app's `adEvent`. */
    reportFullScreen(adId, event, options) {
        return this.request("adapter.reportFullScreen", { adId, event }, options);
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
                    void this.closeConnection(false);
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
            // The late answer of a request this client cancelled: dropped, quietly.
            if (typeof id === "number" && this.abandoned.delete(id))
                return;
            const error = m.error;
            const description = error ? `error ${error.code} ${error.message}` : "a result";
            this.emit("protocolError", Object.assign(new Error(`the server sent ${description} for no waiting request (id ${JSON.stringify(id)})`), {
                response: m,
            }));
            return;
        }
        this.pending.delete(id);
        pending.cleanup();
        if (m.error !== undefined && m.error !== null) {
            pending.reject(NativeAdsError.fromResponse(m.error, pending.method));
        }
        else {
            pending.resolve(m.result);
        }
    }
    emitNotification(method, params) {
        if (method === "$/cancelRequest") {
            // the server gave up a request it sent us (the app cancelled the load it serves)
            const id = params?.id;
            if (id !== undefined)
                this.serving.get(id)?.abort();
        }
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
            const controller = new AbortController();
            this.serving.set(id, controller);
            try {
                const result = await handler(params, id, controller.signal);
                reply = { jsonrpc: "2.0", id, result: result === undefined ? null : result };
            }
            catch (error) {
                reply = { jsonrpc: "2.0", id, error: errorObject(error) };
            }
            finally {
                if (this.serving.get(id) === controller)
                    this.serving.delete(id);
            }
            if (controller.signal.aborted)
                return; // cancelled by the server: it ignores any answer now
        }
        if (!this.isClosed)
            this.send(reply);
    }
    async answerAdapterLoad(params, id, signal) {
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
            signal,
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
            p.cleanup();
            p.reject(new ConnectionClosedError(this.closedMessage(), { method: p.method }));
        }
        this.emit("close", error ? { error } : {});
    }
    closedMessage() {
        const why = this.closeError ? `: ${this.closeError.message}` : "";
        return `Connection closed (${this.transport.description})${why}`;
    }
}
/** What a request aborted with `signal` rejects with: its reason, else an `AbortError`. */
function abortReason(signal) {
    if (signal.reason !== undefined)
        return signal.reason;
    const error = new Error("This operation was aborted");
    error.name = "AbortError";
    return error;
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
