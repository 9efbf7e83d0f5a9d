// Errors: every JSON-RPC error the server answers is rejected as a NativeAdsError (or one of its
// subclasses, told apart by `kind` as well as by `instanceof`).
/** JSON-RPC and application error codes (contract section 3, docs/wire-format.md). */
export const ErrorCodes = {
    parseError: -32700,
    invalidRequest: -32600,
    methodNotFound: -32601,
    invalidParams: -32602,
    internalError: -32603,
    messageTooLarge: -32001,
    tooManyConnections: -32002,
    /** Client-side: the connection closed before the answer. */
    connectionClosed: -32000,
    /** Client-side: no answer within `requestTimeoutMs`. */
    requestTimeout: -32099,
    /** The server's answer to a request cancelled with `$/cancelRequest` (contract section 8). */
    requestCancelled: -32800,
    // Load errors: 1000 + GADErrorCode
    loadInvalidRequest: 1000,
    loadNoFill: 1001,
    loadNetworkError: 1002,
    loadServerError: 1003,
    loadTimeout: 1005,
    loadMediationAdapterError: 1008,
    loadInternalError: 1011,
    loadInvalidArgument: 1012,
    /** An `adResponseString` that cannot be mapped (`AdLoadError.field` names the place). */
    loadReceivedInvalidResponse: 1013,
    // Errors about an ad object
    adNotFound: 2001,
    assetNotFound: 2002,
    wrongAdKind: 2003,
    muteNotOffered: 2004,
};
/** A JSON-RPC error from the server (or a client-side failure of a request). */
export class NativeAdsError extends Error {
    code;
    data;
    kind;
    /** The method of the request that failed, when known. */
    method;
    constructor(code, message, data, options) {
        super(message);
        this.name = "NativeAdsError";
        this.code = code;
        this.data = data;
        this.kind = options?.kind ?? kindOfCode(code);
        this.method = options?.method;
    }
    /** The error object as it travels on the wire. */
    toJSON() {
        const out = { code: this.code, message: this.message };
        if (this.data !== undefined)
            out.data = this.data;
        return out;
    }
    /** Builds the right subclass for a JSON-RPC error object. */
    static fromResponse(error, method) {
        const code = typeof error.code === "number" ? error.code : ErrorCodes.internalError;
        const message = typeof error.message === "string" ? error.message : String(error.message);
        const opts = method === undefined ? undefined : { method };
        switch (kindOfCode(code)) {
            case "load":
                return new AdLoadError(code, message, error.data, opts);
            case "ad":
                return new AdObjectError(code, message, error.data, opts);
            case "invalidParams":
                return new InvalidParamsError(code, message, error.data, opts);
            case "cancelled":
                return new RequestCancelledError(message, { ...opts, data: error.data });
            default:
                return new NativeAdsError(code, message, error.data, opts);
        }
    }
}
/** `kind` for a code. */
export function kindOfCode(code) {
    if (code >= 1000 && code <= 1999)
        return "load";
    if (code >= 2001 && code <= 2999)
        return "ad";
    if (code === ErrorCodes.invalidParams)
        return "invalidParams";
    if (code === ErrorCodes.connectionClosed)
        return "closed";
    if (code === ErrorCodes.requestTimeout)
        return "timeout";
    if (code === ErrorCodes.requestCancelled)
        return "cancelled";
    if (code >= -32768 && code <= -32000)
        return "protocol";
    return "other";
}
function dataObject(data) {
    return typeof data === "object" && data !== null && !Array.isArray(data) ? data : {};
}
/** An ad that failed to load: code `1000 + GADErrorCode`. */
export class AdLoadError extends NativeAdsError {
    kind = "load";
    /** The GADErrorCode (`code - 1000`). */
    gadErrorCode;
    /** camelCase name of the GADErrorCode (`noFill`, `invalidRequest`, ...). */
    errorName;
    /** The response info of the failed load: every ad source tried, with its error. */
    responseInfo;
    /** `data.field`: the place that is wrong, when the server names one (1013
     * `receivedInvalidResponse`: `native.assets[2].img.url`, `seatbid[0].bid[1].adm.native.link.url`,
     * `adResponseString` itself). */
    field;
    constructor(code, message, data, options) {
        super(code, message, data, { ...options, kind: "load" });
        this.name = "AdLoadError";
        const d = dataObject(data);
        this.gadErrorCode = typeof d.gadErrorCode === "number" ? d.gadErrorCode : code - 1000;
        this.errorName = typeof d.name === "string" ? d.name : "";
        this.responseInfo = d.responseInfo ?? undefined;
        this.field = typeof d.field === "string" ? d.field : undefined;
    }
}
/** An error about an ad object: 2001 adNotFound, 2002 assetNotFound, 2003 wrongAdKind,
 * 2004 muteNotOffered. */
export class AdObjectError extends NativeAdsError {
    kind = "ad";
    /** `adNotFound`, `assetNotFound`, `wrongAdKind`, `muteNotOffered`. */
    errorName;
    adId;
    /** The asset key, for `assetNotFound`. */
    key;
    constructor(code, message, data, options) {
        super(code, message, data, { ...options, kind: "ad" });
        this.name = "AdObjectError";
        const d = dataObject(data);
        this.errorName = typeof d.name === "string" ? d.name : "";
        this.adId = typeof d.adId === "string" ? d.adId : undefined;
        this.key = typeof d.key === "string" ? d.key : undefined;
    }
}
/** -32602: params that do not decode; `field` names the offending one (`options.numberOfAds`). */
export class InvalidParamsError extends NativeAdsError {
    kind = "invalidParams";
    field;
    constructor(code, message, data, options) {
        super(code, message, data, { ...options, kind: "invalidParams" });
        this.name = "InvalidParamsError";
        const d = dataObject(data);
        this.field = typeof d.field === "string" ? d.field : undefined;
    }
}
/** The connection closed (or the server exited) before the answer came. */
export class ConnectionClosedError extends NativeAdsError {
    kind = "closed";
    constructor(message = "Connection closed", options) {
        super(ErrorCodes.connectionClosed, message, options?.data, { kind: "closed", method: options?.method });
        this.name = "ConnectionClosedError";
    }
}
/** -32800 `Request cancelled`: the server's answer to a request that was cancelled with
 * `$/cancelRequest` by someone else than this client's `signal` or timeout (those reject with
 * the signal's reason or a {@link RequestTimeoutError}, and their late answers are dropped). */
export class RequestCancelledError extends NativeAdsError {
    kind = "cancelled";
    constructor(message = "Request cancelled", options) {
        super(ErrorCodes.requestCancelled, message, options?.data, { kind: "cancelled", method: options?.method });
        this.name = "RequestCancelledError";
    }
}
/** No answer within the request's `timeoutMs` (or the client's `requestTimeoutMs`): the client
 * cancelled the request (`$/cancelRequest`) and drops its late answer. */
export class RequestTimeoutError extends NativeAdsError {
    kind = "timeout";
    constructor(method, timeoutMs) {
        super(ErrorCodes.requestTimeout, `no answer to ${method} within ${timeoutMs} ms`, undefined, {
            kind: "timeout",
            method,
        });
        this.name = "RequestTimeoutError";
    }
}
/**
 * Thrown by a mediation adapter handler (`serveAdapter`) to fail a load: the service records
 * `code`, `message` and `domain` in that source's `AdNetworkInfo.error`; `networkError: true`
 * makes the final result `1002 networkError` when nothing else fills.
 */
export class AdapterError extends Error {
    code;
    domain;
    networkError;
    constructor(message, options) {
        super(message);
        this.name = "AdapterError";
        this.code = options?.code ?? 1;
        this.domain = options?.domain;
        this.networkError = options?.networkError ?? false;
    }
    /** The network has no ad (code 1 unless given). */
    static noFill(message = "No ad to show", options) {
        return new AdapterError(message, { code: 1, ...options });
    }
    /** The network could not be reached (code 2 unless given); marked as a network error. */
    static networkError(message = "Network error", options) {
        return new AdapterError(message, { code: 2, ...options, networkError: true });
    }
    /** The JSON-RPC error object sent back for `adapter.loadNativeAd`. */
    toJSON() {
        const data = { networkError: this.networkError };
        if (this.domain !== undefined)
            data.domain = this.domain;
        return { code: this.code, message: this.message, data };
    }
}
