/** Any JSON value. */
export declare type JsonValue = null | boolean | number | string | JsonValue[] | {
    [key: string]: JsonValue;
};
/** A JSON object. */
export declare type JsonObject = {
    [key: string]: JsonValue;
};
/** The kinds of ad a loader can ask for. */
export declare type AdKind = "native" | "customNative";
export declare type MediaAspectRatio = "unknown" | "any" | "landscape" | "portrait" | "square";
export declare type AdChoicesPosition = "topRight" | "topLeft" | "bottomRight" | "bottomLeft";
/** An image asset. `data` (base64) and `mimeType` are absent when the ad was loaded with
 * `disableImageLoading`. */
export interface Image {
    url: string;
    scale: number;
    width: number;
    height: number;
    data?: string;
    mimeType?: string;
}
export declare type PlaybackState = "stopped" | "playing" | "paused" | "ended";
/** `mediaContent.videoController`, present when the ad has video content. */
export interface VideoController {
    isMuted: boolean;
    customControlsEnabled: boolean;
    clickToExpandEnabled: boolean;
    playbackState: PlaybackState;
}
export interface MediaContent {
    /** width/height of the media, 0 when unknown. */
    aspectRatio: number;
    hasVideoContent: boolean;
    /** Seconds. */
    duration: number;
    /** Seconds. */
    currentTime: number;
    mainImage: Image | null;
    videoController?: VideoController;
}
/** AdChoices of an indirect (backfill / network) ad. */
export interface AdChoices {
    position: AdChoicesPosition;
    image: Image;
    clickURL: string;
    attribution?: string;
}
/** `AdNetworkInfo.error`: what one ad source reported. */
export interface AdNetworkError {
    code: number;
    domain: string;
    message: string;
}
export interface AdNetworkInfo {
    adNetworkClassName: string;
    adSourceName: string;
    /** Seconds. */
    latency: number;
    error: AdNetworkError | null;
}
export interface ResponseInfo {
    responseIdentifier: string;
    loadedAdNetworkResponseInfo: AdNetworkInfo | null;
    adNetworkInfoArray: AdNetworkInfo[];
    /** Echo of `request.isTestRequest`, absent when the request did not say. */
    isTestRequest?: boolean;
}
interface AdCommon {
    /** Opaque, valid in the whole process until released. */
    adId: string;
    kind: AdKind;
    mediaContent: MediaContent;
    /** null for direct-sold ads. */
    adChoices: AdChoices | null;
    /** Present when the creative offers Mute This Ad. */
    muteThisAdReasons?: string[];
    responseInfo: ResponseInfo;
    /** RFC 3339 UTC. */
    expiresAt: string;
}
/** A system-defined native ad. Optional assets the creative lacks are `null`. */
export interface NativeAd extends AdCommon {
    kind: "native";
    headline: string;
    body: string | null;
    callToAction: string | null;
    store: string | null;
    price: string | null;
    advertiser: string | null;
    /** 0–5. */
    starRating: number | null;
    icon: Image | null;
    images: Image[];
    extraAssets: {
        [key: string]: string;
    };
}
/** A custom-format ad: its assets are read with `stringForKey` / `imageForKey`. */
export interface CustomNativeAd extends AdCommon {
    kind: "customNative";
    formatID: string;
    availableAssetKeys: string[];
}
export declare type Ad = NativeAd | CustomNativeAd;
export interface LoaderOptions {
    disableImageLoading?: boolean;
    shouldRequestMultipleImages?: boolean;
    mediaAspectRatio?: MediaAspectRatio;
    adChoicesPosition?: AdChoicesPosition;
    startMuted?: boolean;
    customControlsRequested?: boolean;
    clickToExpandRequested?: boolean;
    /** 1 by default; < 1 is invalidRequest, > 5 is clamped to 5. */
    numberOfAds?: number;
}
export interface AdRequestTargeting {
    isTestRequest?: boolean;
    keywords?: string[];
    contentURL?: string;
    customTargeting?: {
        [key: string]: string | string[];
    };
    /** Seed for deterministic mediation sources (`SampleCustomEvent`). */
    seed?: number;
}
export interface LoadAdParams {
    adUnitID: string;
    /** Default `["native"]`. */
    adTypes?: AdKind[];
    /** Required and non-empty when `customNative` is asked. */
    customNativeAdFormatIDs?: string[];
    options?: LoaderOptions;
    request?: AdRequestTargeting;
}
export interface LoadAdResult {
    ads: Ad[];
    responseInfo: ResponseInfo;
}
export declare type NotRecordedReason = "alreadyRecorded" | "expired" | "muted" | "notClickable" | "handledByAdapter" | (string & {});
export declare type ClickAction = "customClickHandler" | "deepLink" | "landingPage" | "adChoices" | "adapter" | "none";
export interface ClickResult {
    recorded: boolean;
    action: ClickAction;
    /** What the caller should open; null for the custom click handler and unrecorded clicks. */
    url: string | null;
    reason?: NotRecordedReason;
}
export interface PerformClickOptions {
    /** URL schemes the caller can open (e.g. `["myapp"]`); default none. */
    openableURLSchemes?: string[];
}
export interface RecordImpressionResult {
    recorded: boolean;
    reason?: NotRecordedReason;
}
export interface SetCustomClickHandlerResult {
    enabled: boolean;
}
export interface ReleaseAdResult {
    released: boolean;
}
/** Asset names of a system-defined ad (or the identifiers "3001"–"3010"). */
export declare type NativeAssetKey = "headline" | "callToAction" | "icon" | "body" | "advertiser" | "store" | "price" | "image" | "starRating" | "mediaView" | (string & {});
export interface AdViewAssets {
    clickableAssets?: NativeAssetKey[];
    nonclickableAssets?: NativeAssetKey[];
}
export interface RegisterAdViewResult {
    registered: boolean;
    /** Canonical names. */
    clickableAssets: string[];
    nonclickableAssets: string[];
}
export interface UnregisterAdViewResult {
    unregistered: boolean;
}
export interface ReportVisibilityResult {
    impressionRecorded: boolean;
    reason?: "notRegistered" | "notVisible" | "alreadyRecorded" | "expired" | "muted" | (string & {});
}
export interface ReportScreenDismissedResult {
    dismissed: boolean;
}
export interface MuteThisAdResult {
    muted: boolean;
}
export declare type VideoAction = "play" | "pause" | "stop" | "mute" | "unmute";
export interface VideoState {
    videoController: VideoController;
    currentTime: number;
    duration: number;
}
export interface VideoControlResult extends Partial<VideoState> {
    applied: boolean;
    reason?: "noVideo" | "customControlsNotEnabled" | "impressionNotRecorded" | "noChange" | (string & {});
}
export declare type AdEventName = "didRecordImpression" | "didRecordClick" | "didMute" | "willPresentScreen" | "willDismissScreen" | "didDismissScreen" | (string & {});
export declare type VideoEventName = "didPlay" | "didPause" | "didEnd" | "didMute" | "didUnmute";
/** Notification `adEvent`. */
export interface AdEventNotification {
    adId: string;
    event: AdEventName;
    assetKey: string | null;
    /** The mute reason, for `didMute` with a reason. */
    reason?: string;
}
/** Notification `customClick` (the custom click handler of a custom-format ad). */
export interface CustomClickNotification {
    adId: string;
    assetID: string;
}
/** Notification `videoEvent`. */
export interface VideoEventNotification {
    adId: string;
    event: VideoEventName;
}
/** One entry of the event log (`getEvents`). */
export interface Event {
    sequence: number;
    /** RFC 3339 with milliseconds. */
    time: string;
    adId: string;
    type: "adEvent" | "videoEvent";
    event: AdEventName | VideoEventName;
    assetKey: string | null;
    reason?: string;
}
export interface GetEventsParams {
    adId?: string;
    event?: string;
    /** Only events with a larger sequence. */
    since?: number;
    /** Default 1000, at most 10000. */
    limit?: number;
}
export interface GetEventsResult {
    events: Event[];
    lastSequence: number;
}
/** An image in the store or in a mapped ad. Without `data` the service generates a PNG. */
export interface StoreImage {
    url: string;
    width: number;
    height: number;
    scale?: number;
    mimeType?: string;
    data?: string;
}
export interface StoreVideo {
    duration: number;
    aspectRatio?: number;
    customControlsAllowed?: boolean;
    clickToExpandAllowed?: boolean;
    poster?: StoreImage;
}
export interface FormatAsset {
    name: string;
    type: "text" | "image" | "video";
    required?: boolean;
}
export interface Format {
    id: string;
    description?: string;
    assets: FormatAsset[];
}
export interface Targeting {
    customTargeting?: {
        [key: string]: string | string[];
    };
    keywords?: string[];
    contentURLs?: string[];
}
export interface NativeAssets {
    headline: string;
    body?: string;
    callToAction?: string;
    store?: string;
    price?: string;
    advertiser?: string;
    starRating?: number;
    icon?: StoreImage;
    images?: StoreImage[];
    extraAssets?: {
        [key: string]: string;
    };
}
interface CreativeCommon {
    id: string;
    description?: string;
    priority?: number;
    eCPM?: number;
    landingPageURL: string;
    deepLinks?: string[];
    customClickAction?: boolean;
    indirect?: boolean;
    adChoices?: {
        image?: StoreImage;
        clickURL?: string;
        attribution?: "Ad" | "Advertisement" | "Sponsored";
    };
    muteThisAdReasons?: string[];
    targeting?: Targeting;
}
export interface NativeCreative extends CreativeCommon {
    kind: "native";
    assets: NativeAssets;
    video?: StoreVideo;
}
export interface CustomNativeCreative extends CreativeCommon {
    kind: "customNative";
    formatID: string;
    /** Text assets are strings, image assets images, video assets videos (as the format says). */
    assets: {
        [name: string]: string | StoreImage | StoreVideo;
    };
}
export declare type Creative = NativeCreative | CustomNativeCreative;
export interface InventoryWaterfallSource {
    type: "inventory";
    eCPM?: number;
    label?: string;
}
export interface CustomEventWaterfallSource {
    type: "customEvent";
    adapterClassName: string;
    /** Reaches the adapter as `adConfiguration.credentials.settings.parameter`. */
    parameter?: string;
    eCPM?: number;
    /** Default 5000. */
    timeoutMs?: number;
    label?: string;
}
export declare type WaterfallSource = InventoryWaterfallSource | CustomEventWaterfallSource;
export interface AdUnit {
    id: string;
    description?: string;
    creatives?: string[];
    waterfall?: WaterfallSource[];
    deadlineMs?: number;
}
export interface DefineFormatResult {
    formatID: string;
    replaced: boolean;
}
export interface PutCreativeResult {
    creativeID: string;
    replaced: boolean;
}
export interface PutAdUnitResult {
    adUnitID: string;
    replaced: boolean;
}
export declare type StoreItemKind = "format" | "creative" | "adUnit";
export interface StoreRemoveResult {
    removed: boolean;
}
export interface StoreListResult {
    formats: Format[];
    creatives: {
        id: string;
        kind: AdKind;
        formatID?: string;
    }[];
    adUnits: AdUnit[];
}
/** `inspector.watch`: the live ads (each an Ad with `loadedBy` and `adUnitID`) and the last events. */
export interface InspectorSnapshot {
    ads: (Ad & {
        loadedBy: string;
        adUnitID: string | null;
    })[];
    events: Event[];
    lastSequence: number;
}
export interface RegisterAdapterResult {
    registered: boolean;
}
export interface UnregisterAdapterResult {
    unregistered: boolean;
}
/** The loader options as the service passes them to an adapter (every field filled in). */
export interface AdapterLoaderOptions {
    disableImageLoading: boolean;
    shouldRequestMultipleImages: boolean;
    mediaAspectRatio: MediaAspectRatio;
    adChoicesPosition: AdChoicesPosition;
    startMuted: boolean;
    customControlsRequested: boolean;
    clickToExpandRequested: boolean;
    numberOfAds: number;
}
/** Params of the server's request `adapter.loadNativeAd`. */
export interface AdapterLoadParams {
    loadId: string;
    adapterClassName: string;
    adConfiguration: {
        credentials: {
            settings: {
                parameter?: string;
                [key: string]: string | undefined;
            };
        };
        options: AdapterLoaderOptions;
        isTestRequest: boolean | null;
    };
}
/** What an adapter handler receives: the request's params plus conveniences. */
export interface AdapterLoad extends AdapterLoadParams {
    /** The JSON-RPC id of the server's request (`"native-ads:N"`). */
    requestId: string | number | null;
    /** `adConfiguration.credentials.settings.parameter` ("" when absent). */
    parameter: string;
    /** Aborted when the server cancels the request (`$/cancelRequest`: the app gave up its
     * load): stop working on it; whatever the handler returns then is not sent. */
    signal: AbortSignalLike;
}
/**
 * The part of an `AbortSignal` the client uses (structural, so that the declarations need no DOM
 * or Node types): any `AbortSignal` (`new AbortController().signal`, `AbortSignal.timeout(ms)`)
 * is one.
 */
export interface AbortSignalLike {
    readonly aborted: boolean;
    readonly reason?: unknown;
    addEventListener(type: "abort", listener: () => void, options?: {
        once?: boolean;
    }): void;
    removeEventListener(type: "abort", listener: () => void): void;
}
/** A network's ad mapped to the native shape (docs/mediation.md, MappedAd). */
export interface MappedAd {
    headline: string;
    body?: string;
    callToAction?: string;
    icon?: StoreImage;
    images?: StoreImage[];
    starRating?: number;
    store?: string;
    price?: string;
    advertiser?: string;
    extraAssets?: {
        [key: string]: string;
    };
    adChoices?: {
        image: StoreImage;
        clickURL: string;
        attribution?: string;
    };
    media?: {
        aspectRatio?: number;
        hasVideoContent?: boolean;
        duration?: number;
    };
    handlesUserClicks?: boolean;
    handlesUserImpressions?: boolean;
    landingPageURL?: string;
    deepLinks?: string[];
}
export interface AdapterReportResult {
    recorded: boolean;
}
export declare type AdapterVideoEvent = VideoEventName;
export declare type AdapterFullScreenEvent = "willPresentScreen" | "willDismissScreen" | "didDismissScreen";
/** `adapter.didRecordImpression`, `adapter.handleImpression`, `adapter.didUntrackView`. */
export interface AdapterAdNotification {
    loadId: string;
    adId: string;
}
/** `adapter.didRecordClickOnAsset`, `adapter.handleClick`. */
export interface AdapterClickNotification extends AdapterAdNotification {
    assetKey: string;
}
/** `adapter.didRender`. */
export interface AdapterRenderNotification extends AdapterAdNotification {
    clickableAssets: string[];
    nonclickableAssets: string[];
}
/** The notifications the server sends, by method name. */
export interface NotificationMap {
    adEvent: AdEventNotification;
    customClick: CustomClickNotification;
    videoEvent: VideoEventNotification;
    "adapter.didRecordImpression": AdapterAdNotification;
    "adapter.didRecordClickOnAsset": AdapterClickNotification;
    "adapter.handleImpression": AdapterAdNotification;
    "adapter.handleClick": AdapterClickNotification;
    "adapter.didRender": AdapterRenderNotification;
    "adapter.didUntrackView": AdapterAdNotification;
}
/** Every notification, whatever its method (listener name `"notification"`). */
export interface AnyNotification {
    method: string;
    params: unknown;
}
/** What `on()` can listen to: each notification by name, plus the client's own events. */
export interface ClientEventMap extends NotificationMap {
    /** Every notification from the server. */
    notification: AnyNotification;
    /** The connection closed (the error says why, when it was not `close()`). */
    close: {
        error?: Error;
    };
    /** A message from the server that could not be used (bad JSON, an unknown response id...). */
    protocolError: Error;
    /** A listener threw. */
    error: Error;
}
export declare type RequestId = string | number | null;
export interface JsonRpcErrorObject {
    code: number;
    message: string;
    data?: unknown;
}
export interface JsonRpcRequest {
    jsonrpc: "2.0";
    id?: RequestId;
    method: string;
    params?: unknown;
}
export interface JsonRpcResponse {
    jsonrpc: "2.0";
    id: RequestId;
    result?: unknown;
    error?: JsonRpcErrorObject;
}
export declare type JsonRpcMessage = JsonRpcRequest | JsonRpcResponse;
/** The OpenRPC document (`rpc.discover`), typed loosely. */
export interface OpenRpcDocument {
    openrpc: string;
    info: {
        title: string;
        version: string;
        [key: string]: unknown;
    };
    methods: {
        name: string;
        [key: string]: unknown;
    }[];
    components?: {
        [key: string]: unknown;
    };
    [key: string]: unknown;
}
export {};
