// Byte transports: a spawned server's stdin/stdout, or a socket (TCP or Unix domain). Internal.
import { spawn as spawnProcess } from "node:child_process";
import { createConnection } from "node:net";
const STDERR_TAIL_BYTES = 16 * 1024;
/** A server process spoken to over its stdin/stdout. */
export class SpawnTransport {
    options;
    child;
    description;
    stderrTail = "";
    stderrWaiters = [];
    exited;
    /** The process ended and its stdio streams closed (all of its stderr was read). */
    streamsClosed;
    exitInfo;
    isClosed = false;
    events;
    constructor(child, options) {
        this.options = options;
        this.child = child;
        this.description = `${options.path} ${options.args.join(" ")}`.trim();
        this.exited = new Promise((resolve) => {
            child.once("exit", (code, signal) => {
                this.exitInfo = { code, signal };
                resolve({ code, signal });
            });
        });
        this.streamsClosed = new Promise((resolve) => child.once("close", () => resolve()));
    }
    /** Starts the process; resolves once it runs (rejects when it cannot be started). */
    static start(options) {
        const child = spawnProcess(options.path, options.args, {
            stdio: ["pipe", "pipe", options.stderr],
            env: options.env,
            cwd: options.cwd,
        });
        const transport = new SpawnTransport(child, options);
        child.stderr?.on("data", (chunk) => transport.onStderr(chunk));
        return new Promise((resolve, reject) => {
            const onError = (error) => {
                child.removeListener("spawn", onSpawn);
                reject(new Error(`cannot start ${options.path}: ${error.message}`));
            };
            const onSpawn = () => {
                child.removeListener("error", onError);
                resolve(transport);
            };
            child.once("error", onError);
            child.once("spawn", onSpawn);
        });
    }
    /** Connects the transport to its reader; bytes that arrive before are not lost (the
     * streams are paused until a 'data' listener exists). */
    attach(events) {
        this.events = events;
        const child = this.child;
        child.stdout?.on("data", (chunk) => events.data(chunk));
        child.stdout?.on("end", () => {
            // Give the exit status a moment to arrive, so that a crash is reported as one.
            void timesOut(this.exited, 200).then(() => this.finish());
        });
        child.stdin?.on("error", () => {
            /* EPIPE when the server is gone: reported by stdout's end / exit. */
        });
        child.on("error", (error) => this.finish(error));
        child.on("exit", () => {
            // stdout normally ends first; make sure pending requests are not left waiting.
            setTimeout(() => this.finish(), 50);
        });
    }
    get pid() {
        return this.child.pid;
    }
    /** The last 16 KiB the server wrote to stderr (when `stderr` is "pipe"). */
    get stderr() {
        return this.stderrTail;
    }
    get exitCode() {
        return this.exitInfo?.code;
    }
    /** Resolves with the first match of `pattern` in stderr (rejects if the process exits). */
    waitForStderr(pattern, timeoutMs) {
        return new Promise((resolve, reject) => {
            let done = false;
            const check = (text) => {
                if (done)
                    return true;
                const m = text.match(pattern);
                if (m) {
                    done = true;
                    clearTimeout(timer);
                    resolve(m);
                    return true;
                }
                return false;
            };
            const timer = setTimeout(() => {
                if (done)
                    return;
                done = true;
                reject(new Error(`${this.options.path} did not print ${pattern} on stderr within ${timeoutMs} ms`));
            }, timeoutMs);
            if (check(this.stderrTail))
                return;
            this.stderrWaiters.push(check);
            void this.exited.then(async ({ code, signal }) => {
                // 'exit' may come before the last of stderr has been read: wait (bounded) for it
                await timesOut(this.streamsClosed, 1000);
                if (done)
                    return;
                done = true;
                clearTimeout(timer);
                reject(new Error(`${this.options.path} exited (${signal ?? `code ${code}`}) before printing ${pattern}; stderr: ${this.stderrTail.trim()}`));
            });
        });
    }
    write(data) {
        const stdin = this.child.stdin;
        if (this.isClosed || !stdin || stdin.destroyed)
            return;
        stdin.write(data);
    }
    async close(timeoutMs, options = {}) {
        if (this.exitInfo === undefined) {
            this.child.stdin?.end();
            if (this.options.servesTcp && !options.exitSent)
                this.child.kill("SIGTERM");
            const timedOut = await timesOut(this.exited, timeoutMs);
            if (timedOut && this.exitInfo === undefined) {
                this.child.kill("SIGTERM");
                const stillRunning = await timesOut(this.exited, 1000);
                if (stillRunning && this.exitInfo === undefined)
                    this.child.kill("SIGKILL");
                await this.exited;
            }
        }
        this.finish();
    }
    onStderr(chunk) {
        this.stderrTail += chunk.toString("utf8");
        if (this.stderrTail.length > STDERR_TAIL_BYTES)
            this.stderrTail = this.stderrTail.slice(-STDERR_TAIL_BYTES);
        this.stderrWaiters = this.stderrWaiters.filter((check) => !check(this.stderrTail));
    }
    finish(error) {
        if (this.isClosed)
            return;
        this.isClosed = true;
        const info = this.exitInfo;
        const why = error ??
            (info && info.code !== 0
                ? new Error(`server exited (${info.signal ?? `code ${info.code}`})${this.stderrTail ? `; stderr: ${this.stderrTail.trim().slice(-2000)}` : ""}`)
                : undefined);
        this.events?.closed(why);
    }
}
/** A TCP or Unix domain socket connection to a running server. */
export class SocketTransport {
    socket;
    description;
    isClosed = false;
    closedPromise;
    resolveClosed;
    events;
    lastError;
    constructor(socket, description) {
        this.socket = socket;
        this.description = description;
        this.closedPromise = new Promise((resolve) => (this.resolveClosed = resolve));
    }
    static open(target, timeoutMs) {
        const isUnix = "path" in target;
        const where = isUnix ? `unix:${target.path}` : `${target.host}:${target.port}`;
        const socket = isUnix ? createConnection({ path: target.path }) : createConnection({ host: target.host, port: target.port });
        if (!isUnix)
            socket.setNoDelay(true);
        const transport = new SocketTransport(socket, isUnix ? where : `tcp://${where}`);
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => {
                socket.destroy();
                reject(new Error(`cannot connect to ${where}: timed out after ${timeoutMs} ms`));
            }, timeoutMs);
            const onError = (error) => {
                clearTimeout(timer);
                reject(new Error(`cannot connect to ${where}: ${error.message}`));
            };
            socket.once("error", onError);
            socket.once("connect", () => {
                clearTimeout(timer);
                socket.removeListener("error", onError);
                resolve(transport);
            });
        });
    }
    attach(events) {
        this.events = events;
        this.socket.on("data", (chunk) => events.data(chunk));
        this.socket.on("error", (error) => {
            this.lastError = error;
        });
        this.socket.on("end", () => {
            // The server closed its side: nothing more will come.
            this.socket.end();
        });
        this.socket.on("close", () => {
            this.finish(this.lastError);
            this.resolveClosed();
        });
    }
    write(data) {
        if (this.isClosed || this.socket.destroyed)
            return;
        this.socket.write(data);
    }
    async close(timeoutMs) {
        if (!this.socket.destroyed) {
            this.socket.end();
            const timedOut = await timesOut(this.closedPromise, timeoutMs);
            if (timedOut)
                this.socket.destroy();
        }
        await this.closedPromise;
    }
    finish(error) {
        if (this.isClosed)
            return;
        this.isClosed = true;
        this.events?.closed(error);
    }
}
/** Resolves true when `promise` did not settle within `ms` (false when it did); the timer is
 * cleared either way, so it never keeps the process alive. */
export function timesOut(promise, ms) {
    return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(true), ms);
        const settle = () => {
            clearTimeout(timer);
            resolve(false);
        };
        promise.then(settle, settle);
    });
}
