import type { JsonRpcErrorObject, ResponseInfo } from "./types.js";
/**
 * What kind of error:
 * - `load`: the ad failed to load (codes 1000–1999, `1000 + GADErrorCode`): {@link AdLoadError}
 * - `ad`: an error about an ad object (2001 adNotFound, 2002 assetNotFound, 2003 wrongAdKind,
 *   2004 muteNotOffered): {@link AdObjectError}
 * - `invalidParams`: -32602, with the offending `field`: {@link InvalidParamsError}
 * - `protocol`: the other JSON-RPC reserved and server codes (-32700, -32600, -32601, -32603,
 *   -32001, -32002)
 * - `closed`: the connection closed before the answer came: {@link ConnectionClosedError}
 * - `timeout`: no answer within the request's `timeoutMs` (or the client's `requestTimeoutMs`):
 *   {@link RequestTimeoutError}; the request was cancelled with `$/cancelRequest`
 * - `cancelled`: -32800 `Request cancelled`, the server's answer to a request that a
 *   `$/cancelRequest` cancelled: {@link RequestCancelledError} (the client drops the answers to
 *   the requests it cancels itself; a request aborted with its `signal` rejects with the
 *   signal's reason instead)
 * - `other`: any other code
 */
export declare type NativeAdsErrorKind = "load" | "ad" | "invalidParams" | "protocol" | "closed" | "timeout" | "cancelled" | "other";
/** JSON-RPC and application error codes (contract section 3, docs/wire-format.md). */
export declare const ErrorCodes: {
    readonly parseError: -32700;
    readonly invalidRequest: -32600;
    readonly methodNotFound: -32601;
    readonly invalidParams: -32602;
    readonly internalError: -32603;
    readonly messageTooLarge: -32001;
    readonly tooManyConnections: -32002;
    /** Client-side: the connection closed before the answer. */
    readonly connectionClosed: -32000;
    /** Client-side: no answer within `requestTimeoutMs`. */
    readonly requestTimeout: -32099;
    /** The server's answer to a request cancelled with `$/cancelRequest` (contract section 8). */
    readonly requestCancelled: -32800;
    readonly loadInvalidRequest: 1000;
    readonly loadNoFill: 1001;
    readonly loadNetworkError: 1002;
    readonly loadServerError: 1003;
    readonly loadTimeout: 1005;
    readonly loadMediationAdapterError: 1008;
    readonly loadInternalError: 1011;
    readonly loadInvalidArgument: 1012;
    /** An `adResponseString` that cannot be mapped (`AdLoadError.field` names the place). */
    readonly loadReceivedInvalidResponse: 1013;
    readonly adNotFound: 2001;
    readonly assetNotFound: 2002;
    readonly wrongAdKind: 2003;
    readonly muteNotOffered: 2004;
};
/** A JSON-RPC error from the server (or a client-side failure of a request). */
export declare class NativeAdsError extends Error {
    readonly code: number;
    readonly data: unknown;
    readonly kind: NativeAdsErrorKind;
    /** The method of the request that failed, when known. */
    readonly method: string | undefined;
    constructor(code: number, message: string, data?: unknown, options?: {
        kind?: NativeAdsErrorKind;
        method?: string;
    });
    /** The error object as it travels on the wire. */
    toJSON(): JsonRpcErrorObject;
    /** Builds the right subclass for a JSON-RPC error object. */
    static fromResponse(error: JsonRpcErrorObject, method?: string): NativeAdsError;
}
/** `kind` for a code. */
export declare function kindOfCode(code: number): NativeAdsErrorKind;
/** An ad that failed to load: code `1000 + GADErrorCode`. */
export declare class AdLoadError extends NativeAdsError {
    readonly kind: "load";
    /** The GADErrorCode (`code - 1000`). */
    readonly gadErrorCode: number;
    /** camelCase name of the GADErrorCode (`noFill`, `invalidRequest`, ...). */
    readonly errorName: string;
    /** The response info of the failed load: every ad source tried, with its error. */
    readonly responseInfo: ResponseInfo | undefined;
    /** `data.field`: the place that is wrong, when the server names one (1013
     * `receivedInvalidResponse`: `native.assets[2].img.url`, `seatbid[0].bid[1].adm.native.link.url`,
     * `adResponseString` itself). */
    readonly field: string | undefined;
    constructor(code: number, message: string, data?: unknown, options?: {
        method?: string;
    });
}
/** An error about an ad object: 2001 adNotFound, 2002 assetNotFound, 2003 wrongAdKind,
 * 2004 muteNotOffered. */
export declare class AdObjectError extends NativeAdsError {
    readonly kind: "ad";
    /** `adNotFound`, `assetNotFound`, `wrongAdKind`, `muteNotOffered`. */
    readonly errorName: string;
    readonly adId: string | undefined;
    /** The asset key, for `assetNotFound`. */
    readonly key: string | undefined;
    constructor(code: number, message: string, data?: unknown, options?: {
        method?: string;
    });
}
/** -32602: params that do not decode; `field` names the offending one (`options.numberOfAds`). */
export declare class InvalidParamsError extends NativeAdsError {
    readonly kind: "invalidParams";
    readonly field: string | undefined;
    constructor(code: number, message: string, data?: unknown, options?: {
        method?: string;
    });
}
/** The connection closed (or the server exited) before the answer came. */
export declare class ConnectionClosedError extends NativeAdsError {
    readonly kind: "closed";
    constructor(message?: string, options?: {
        method?: string;
        data?: unknown;
    });
}
/** -32800 `Request cancelled`: the server's answer to a request that was cancelled with
 * `$/cancelRequest` by someone else than this client's `signal` or timeout (those reject with
 * the signal's reason or a {@link RequestTimeoutError}, and their late answers are dropped). */
export declare class RequestCancelledError extends NativeAdsError {
    readonly kind: "cancelled";
    constructor(message?: string, options?: {
        method?: string;
        data?: unknown;
    });
}
/** No answer within the request's `timeoutMs` (or the client's `requestTimeoutMs`): the client
 * cancelled the request (`$/cancelRequest`) and drops its late answer. */
export declare class RequestTimeoutError extends NativeAdsError {
    readonly kind: "timeout";
    constructor(method: string, timeoutMs: number);
}
/**
 * Thrown by a mediation adapter handler (`serveAdapter`) to fail a load: the service records
 * `code`, `message` and `domain` in that source's `AdNetworkInfo.error`; `networkError: true`
 * makes the final result `1002 networkError` when nothing else fills.
 */
export declare class AdapterError extends Error {
    readonly code: number;
    readonly domain: string | undefined;
    readonly networkError: boolean;
    constructor(message: string, options?: {
        code?: number;
        domain?: string;
        networkError?: boolean;
    });
    /** The network has no ad (code 1 unless given). */
    static noFill(message?: string, options?: {
        code?: number;
        domain?: string;
    }): AdapterError;
    /** The network could not be reached (code 2 unless given); marked as a network error. */
    static networkError(message?: string, options?: {
        code?: number;
        domain?: string;
    }): AdapterError;
    /** The JSON-RPC error object sent back for `adapter.loadNativeAd`. */
    toJSON(): JsonRpcErrorObject;
}
