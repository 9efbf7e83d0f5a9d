// Minimal ambient declarations for the parts of Node.js (20+) this client uses.
//
// The package is compiled with Debian's `tsc` and has no `@types/node` (no npm registry): these
// declarations describe exactly the Node APIs that `src/` calls, nothing more. They are used only
// to compile; the published `.d.ts` files in `dist/` do not refer to any Node type, so consumers
// need neither this file nor `@types/node`.

declare type BufferEncoding = "utf8" | "utf-8" | "base64" | "latin1" | "ascii" | "hex";

declare class Buffer extends Uint8Array {
  static alloc(size: number): Buffer;
  static from(text: string, encoding?: BufferEncoding): Buffer;
  static from(bytes: Uint8Array | readonly number[]): Buffer;
  static concat(list: readonly Uint8Array[], totalLength?: number): Buffer;
  static byteLength(text: string, encoding?: BufferEncoding): number;
  static isBuffer(value: unknown): value is Buffer;
  subarray(start?: number, end?: number): Buffer;
  indexOf(value: number | string | Uint8Array, byteOffset?: number): number;
  toString(encoding?: BufferEncoding, start?: number, end?: number): string;
}

declare type TimerHandle = { unref(): TimerHandle; ref(): TimerHandle };
declare function setTimeout(callback: () => void, ms?: number): TimerHandle;
declare function clearTimeout(handle: TimerHandle | undefined): void;
declare function queueMicrotask(callback: () => void): void;

declare class AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}
declare class AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare const process: {
  readonly env: Record<string, string | undefined>;
  readonly platform: string;
  readonly pid: number;
};

declare module "node:net" {
  export interface Socket {
    write(data: Uint8Array | string, callback?: (error?: Error | null) => void): boolean;
    end(callback?: () => void): this;
    destroy(error?: Error): this;
    setNoDelay(noDelay?: boolean): this;
    readonly destroyed: boolean;
    on(event: "data", listener: (chunk: Buffer) => void): this;
    on(event: "error", listener: (error: Error) => void): this;
    on(event: "close", listener: (hadError: boolean) => void): this;
    on(event: "end" | "connect", listener: () => void): this;
    once(event: "connect" | "end", listener: () => void): this;
    once(event: "error", listener: (error: Error) => void): this;
    once(event: "close", listener: (hadError: boolean) => void): this;
    removeListener(event: string, listener: (...args: any[]) => void): this;
  }
  export function createConnection(options: { host?: string; port: number } | { path: string }): Socket;
}

declare module "node:child_process" {
  interface Writable {
    write(data: Uint8Array | string, callback?: (error?: Error | null) => void): boolean;
    end(callback?: () => void): void;
    readonly destroyed: boolean;
    on(event: "error", listener: (error: Error) => void): this;
  }
  interface Readable {
    on(event: "data", listener: (chunk: Buffer) => void): this;
    on(event: "end" | "close", listener: () => void): this;
    on(event: "error", listener: (error: Error) => void): this;
  }
  export interface ChildProcess {
    readonly pid?: number;
    readonly stdin: Writable | null;
    readonly stdout: Readable | null;
    readonly stderr: Readable | null;
    readonly exitCode: number | null;
    readonly signalCode: string | null;
    kill(signal?: string): boolean;
    on(event: "exit", listener: (code: number | null, signal: string | null) => void): this;
    on(event: "error", listener: (error: Error) => void): this;
    on(event: "spawn", listener: () => void): this;
    once(event: "exit", listener: (code: number | null, signal: string | null) => void): this;
    once(event: "close", listener: (code: number | null, signal: string | null) => void): this;
    once(event: "error", listener: (error: Error) => void): this;
    once(event: "spawn", listener: () => void): this;
    removeListener(event: string, listener: (...args: any[]) => void): this;
  }
  export function spawn(
    command: string,
    args: readonly string[],
    options: {
      stdio: readonly ("pipe" | "inherit" | "ignore")[];
      env?: Record<string, string | undefined>;
      cwd?: string;
    },
  ): ChildProcess;
}
