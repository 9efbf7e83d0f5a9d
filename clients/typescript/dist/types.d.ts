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
    /**
     * Load the ads of this response instead of the store's (as the SDK's
     * `loadWithAdResponseString`; `adUnitID` names what it is for and need not be in the store):
     * an OpenRTB Native 1.2 response (bare, or `{"native": ...}`) or an OpenRTB 2.x bid response
     * whose bids carry one in `adm`, as JSON. One that cannot be mapped rejects with an
     * {@link AdLoadError} of code 1013 (`receivedInvalidResponse`) whose `field` names the place.
     */
    adResponseString?: string;
    /** With `adResponseString`: the Native 1.2 request it answers (or its JSON), whose assets
     * type the response's untyped `img` and `data` assets by `id`. */
    nativeRequest?: OpenRTBNativeRequest | string;
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
    /** For an ad that came from OpenRTB only: the click trackers the caller fetches, each once
     * (the clicked asset's own, then the response link's; `[]` when nothing was recorded).
     * Absent for every other ad. */
    trackingURLs?: string[];
}
export interface PerformClickOptions {
    /** URL schemes the caller can open (e.g. `["myapp"]`); default none. */
    openableURLSchemes?: string[];
}
export interface RecordImpressionResult {
    recorded: boolean;
    reason?: NotRecordedReason;
    /** For an ad that came from OpenRTB only: the impression trackers the caller fetches, each
     * once (`imptrackers`, then image-pixel impression `eventtrackers`; `[]` when nothing was
     * recorded). Absent for every other ad. */
    trackingURLs?: string[];
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
    /** As {@link RecordImpressionResult.trackingURLs}, when this report records the impression. */
    trackingURLs?: string[];
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
export declare type EventType = "adEvent" | "videoEvent" | "tracker";
export declare type TrackerTrigger = "impression" | "click";
/**
 * One entry of the event log (`getEvents`). A tracker handed to the caller (an ad from
 * OpenRTB) is logged right after the impression or click it belongs to, with `type` and `event`
 * `"tracker"`, its `trigger` and `url` (and the clicked `assetKey` for a click tracker).
 */
export interface Event {
    sequence: number;
    /** RFC 3339 with milliseconds. */
    time: string;
    adId: string;
    type: EventType;
    event: AdEventName | VideoEventName | "tracker";
    assetKey: string | null;
    reason?: string;
    /** For a tracker: what it was handed out for. */
    trigger?: TrackerTrigger;
    /** For a tracker: the URL handed to the caller. */
    url?: string;
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
/** `exportAd`'s `format`: the one there is. */
export declare type ExportFormat = "openrtb-native-1.2";
export interface OpenRTBTitle {
    text: string;
    len?: number;
    ext?: JsonObject;
}
export interface OpenRTBImage {
    /** 1 icon (2, the legacy logo, too), 3 main, 500+ exchange-specific. Optional in a response
     * whose request (`nativeRequest`) types the asset by its id. */
    type?: number;
    url: string;
    w?: number;
    h?: number;
    ext?: JsonObject;
}
export interface OpenRTBData {
    /** 1 sponsored, 2 desc, 3 rating, 4 likes, 5 downloads, 6 price, 7 saleprice, 8 phone,
     * 9 address, 10 desc2, 11 displayurl, 12 ctatext, 500+. */
    type?: number;
    len?: number;
    value: string;
    ext?: JsonObject;
}
export interface OpenRTBVideo {
    /** The VAST XML. */
    vasttag: string;
}
export interface OpenRTBLink {
    /** Where a click goes; a deep link when its scheme is not http or https. */
    url: string;
    clicktrackers?: string[];
    /** Opened when the deep link in `url` cannot be. */
    fallback?: string;
    ext?: JsonObject;
}
export interface OpenRTBEventTracker {
    /** 1 impression, 2 viewable-mrc50, 3 viewable-mrc100, 4 viewable-video50. */
    event: number;
    /** 1 image pixel, 2 JavaScript. */
    method: number;
    url?: string;
    ext?: JsonObject;
}
/** One asset of a Native response: exactly one of `title`, `img`, `video`, `data`. */
export interface OpenRTBAsset {
    id?: number;
    required?: 0 | 1;
    title?: OpenRTBTitle;
    img?: OpenRTBImage;
    video?: OpenRTBVideo;
    data?: OpenRTBData;
    /** Applies to clicks on this asset. */
    link?: OpenRTBLink;
    ext?: JsonObject;
}
/** `ext` of a Native response: what OpenRTB has no type for. */
export interface OpenRTBNativeExtension {
    store?: string;
    extraAssets?: {
        [key: string]: string;
    };
    /** Deep links tried after `link.url`. */
    deepLinks?: string[];
}
/** An OpenRTB Native 1.2 response (bare): what `exportAd` answers, and what `loadAd`'s
 * `adResponseString` holds as JSON (bare, as `{"native": ...}`, or in a bid's `adm`). */
export interface OpenRTBNativeResponse {
    ver?: string;
    assets?: OpenRTBAsset[];
    /** Never fetched. */
    assetsurl?: string;
    /** Never fetched. */
    dcourl?: string;
    link: OpenRTBLink;
    imptrackers?: string[];
    jstracker?: string;
    eventtrackers?: OpenRTBEventTracker[];
    /** The page about the buyer's targeting: the AdChoices target. */
    privacy?: string;
    ext?: OpenRTBNativeExtension;
}
export interface OpenRTBAssetRequest {
    id: number;
    required?: 0 | 1;
    title?: {
        len: number;
    };
    img?: {
        type?: number;
        w?: number;
        wmin?: number;
        h?: number;
        hmin?: number;
        mimes?: string[];
    };
    video?: {
        mimes?: string[];
        minduration?: number;
        maxduration?: number;
    };
    data?: {
        type: number;
        len?: number;
    };
}
/** An OpenRTB Native 1.2 request: `loadAd`'s `nativeRequest`, and what the mock bidder
 * (`POST /openrtb2/auction`) reads from `imp[].native.request`. */
export interface OpenRTBNativeRequest {
    ver?: string;
    assets: OpenRTBAssetRequest[];
    eventtrackers?: {
        event: number;
        methods?: number[];
    }[];
    privacy?: 0 | 1;
    plcmtcnt?: number;
}
/** A bid of an OpenRTB 2.x bid response: `adm` holds a Native response (as JSON, the
 * standard, or as an object). */
export interface OpenRTBBid {
    id?: string;
    impid?: string;
    price: number;
    adm?: string | OpenRTBNativeResponse | {
        native: OpenRTBNativeResponse;
    };
    crid?: string;
    ext?: JsonObject;
}
/** An OpenRTB 2.x bid response (what the mock bidder answers; `ext.noBid` lists the
 * impressions without a bid, with their `nbr`). */
export interface OpenRTBBidResponse {
    id: string;
    bidid?: string;
    seatbid?: {
        seat?: string;
        bid: OpenRTBBid[];
    }[];
    cur?: string;
    nbr?: number;
    ext?: {
        noBid?: {
            impid: string;
            nbr: number;
            reason?: string;
        }[];
        [key: string]: unknown;
    };
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
/** A creative written as an OpenRTB Native 1.2 response: `openrtb` takes the place of `kind`,
 * `assets`, `video`, `landingPageURL` and `deepLinks` (its assets must be typed). */
export interface OpenRTBCreative extends Omit<CreativeCommon, "landingPageURL" | "deepLinks"> {
    openrtb: OpenRTBNativeResponse;
}
export interface CustomNativeCreative extends CreativeCommon {
    kind: "customNative";
    formatID: string;
    /** Text assets are strings, image assets images, video assets videos (as the format says). */
    assets: {
        [name: string]: string | StoreImage | StoreVideo;
    };
}
export declare type Creative = NativeCreative | CustomNativeCreative | OpenRTBCreative;
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
