import { type ChildProcess } from "node:child_process";
export interface TransportEvents {
    data(chunk: Buffer): void;
    /** The transport can carry nothing more (called once). */
    closed(error?: Error): void;
}
export interface Transport {
    write(data: Uint8Array): void;
    /** Graceful close: stop sending, let the peer finish, resolve when fully closed. */
    close(timeoutMs: number): Promise<void>;
    readonly description: string;
}
export interface SpawnTransportOptions {
    path: string;
    args: string[];
    env?: Record<string, string | undefined>;
    cwd?: string;
    stderr: "pipe" | "inherit" | "ignore";
    /** Also serving TCP or a Unix socket: stdin EOF does not stop the server, so close() sends
     * SIGTERM (unless `exit` was sent, which ends the process by itself). */
    servesTcp: boolean;
}
/** How `SpawnTransport.close` ends the process. */
export interface SpawnCloseOptions {
    /** `exit` went out (after `shutdown`): the process ends by itself once stdin is closed too;
     * SIGTERM only if it lingers past the timeout. */
    exitSent?: boolean;
}
/** A server process spoken to over its stdin/stdout. */
export declare class SpawnTransport implements Transport {
    private readonly options;
    readonly child: ChildProcess;
    readonly description: string;
    private stderrTail;
    private stderrWaiters;
    private exited;
    /** The process ended and its stdio streams closed (all of its stderr was read). */
    private streamsClosed;
    private exitInfo;
    private isClosed;
    private events;
    private constructor();
    /** Starts the process; resolves once it runs (rejects when it cannot be started). */
    static start(options: SpawnTransportOptions): Promise<SpawnTransport>;
    /** Connects the transport to its reader; bytes that arrive before are not lost (the
     * streams are paused until a 'data' listener exists). */
    attach(events: TransportEvents): void;
    get pid(): number | undefined;
    /** The last 16 KiB the server wrote to stderr (when `stderr` is "pipe"). */
    get stderr(): string;
    get exitCode(): number | null | undefined;
    /** Resolves with the first match of `pattern` in stderr (rejects if the process exits). */
    waitForStderr(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
    write(data: Uint8Array): void;
    close(timeoutMs: number, options?: SpawnCloseOptions): Promise<void>;
    private onStderr;
    private finish;
}
/** Where a socket connects: a TCP host and port, or a Unix domain socket's path. */
export declare type SocketTarget = {
    host: string;
    port: number;
} | {
    path: string;
};
/** A TCP or Unix domain socket connection to a running server. */
export declare class SocketTransport implements Transport {
    private readonly socket;
    readonly description: string;
    private isClosed;
    private closedPromise;
    private resolveClosed;
    private events;
    private lastError;
    private constructor();
    static open(target: SocketTarget, timeoutMs: number): Promise<SocketTransport>;
    attach(events: TransportEvents): void;
    write(data: Uint8Array): void;
    close(timeoutMs: number): Promise<void>;
    private finish;
}
/** Resolves true when `promise` did not settle within `ms` (false when it did); the timer is
 * cleared either way, so it never keeps the process alive. */
export declare function timesOut(promise: Promise<unknown>, ms: number): Promise<boolean>;
