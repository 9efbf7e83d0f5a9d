"""Typed shapes of what goes over the wire (contract version 1, docs/wire-format.md).

Results are the decoded JSON itself (a ``dict`` at run time), described by ``TypedDict``s so
that a type checker knows every field. Keys keep their wire spelling (``adId``,
``responseInfo``). Fields marked ``NotRequired`` are absent from some replies (kind-specific
fields, optional reasons); fields typed ``X | None`` are always present and may be ``null``.
A newer server may add fields: code should ignore keys it does not know.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

# --------------------------------------------------------------------------------------------
# Literals

Framing = Literal["ndjson", "content-length"]
AdKind = Literal["native", "customNative"]
MediaAspectRatio = Literal["unknown", "any", "landscape", "portrait", "square"]
AdChoicesPosition = Literal["topRight", "topLeft", "bottomRight", "bottomLeft"]
ClickAction = Literal["customClickHandler", "deepLink", "landingPage", "adChoices", "adapter", "none"]
VideoAction = Literal["play", "pause", "stop", "mute", "unmute"]
VideoEventName = Literal["didPlay", "didPause", "didEnd", "didMute", "didUnmute"]
FullScreenEventName = Literal["willPresentScreen", "willDismissScreen", "didDismissScreen"]
AdEventName = Literal[
    "didRecordImpression",
    "didRecordClick",
    "didMute",
    "willPresentScreen",
    "willDismissScreen",
    "didDismissScreen",
]
PlaybackState = Literal["stopped", "playing", "paused", "ended"]
StoreItemKind = Literal["format", "creative", "adUnit"]
ExportFormat = Literal["openrtb-native-1.2"]
"""``exportAd``'s ``format``: the one there is."""
EventType = Literal["adEvent", "videoEvent", "tracker"]
TrackerTrigger = Literal["impression", "click"]

# --------------------------------------------------------------------------------------------
# Requests


class AdLoaderOptions(TypedDict, total=False):
    """``loadAd``'s ``options``: every field optional (defaults in the contract)."""

    disableImageLoading: bool
    shouldRequestMultipleImages: bool
    mediaAspectRatio: MediaAspectRatio
    adChoicesPosition: AdChoicesPosition
    startMuted: bool
    customControlsRequested: bool
    clickToExpandRequested: bool
    numberOfAds: int


class AdRequestOptions(TypedDict, total=False):
    """``loadAd``'s ``request``: targeting and test flags."""

    isTestRequest: bool
    keywords: list[str]
    contentURL: str
    customTargeting: dict[str, str | list[str]]
    seed: int


# --------------------------------------------------------------------------------------------
# Ads


class Image(TypedDict):
    url: str
    scale: float
    width: int
    height: int
    data: NotRequired[str]
    """Base64 of the image bytes; absent when the ad was loaded with ``disableImageLoading``."""
    mimeType: NotRequired[str]


class AdNetworkError(TypedDict):
    code: int
    domain: str
    message: str


class AdNetworkInfo(TypedDict):
    adNetworkClassName: str
    adSourceName: str
    latency: float
    """Seconds."""
    error: AdNetworkError | None


class ResponseInfo(TypedDict):
    responseIdentifier: str
    loadedAdNetworkResponseInfo: AdNetworkInfo | None
    adNetworkInfoArray: list[AdNetworkInfo]
    isTestRequest: NotRequired[bool]


class VideoController(TypedDict):
    isMuted: bool
    customControlsEnabled: bool
    clickToExpandEnabled: bool
    playbackState: NotRequired[PlaybackState]


class MediaContent(TypedDict):
    aspectRatio: float
    hasVideoContent: bool
    duration: float
    currentTime: float
    mainImage: Image | None
    videoController: NotRequired[VideoController]


class AdChoices(TypedDict):
    position: AdChoicesPosition
    image: Image
    clickURL: str
    attribution: NotRequired[str]


class Ad(TypedDict):
    """A loaded ad (``loadAd``'s ``ads[]``). Kind-specific fields are absent for the other kind."""

    adId: str
    kind: AdKind
    # native only
    headline: NotRequired[str]
    body: NotRequired[str | None]
    callToAction: NotRequired[str | None]
    store: NotRequired[str | None]
    price: NotRequired[str | None]
    advertiser: NotRequired[str | None]
    starRating: NotRequired[float | None]
    icon: NotRequired[Image | None]
    images: NotRequired[list[Image]]
    extraAssets: NotRequired[dict[str, Any]]
    # customNative only
    formatID: NotRequired[str]
    availableAssetKeys: NotRequired[list[str]]
    # both
    mediaContent: MediaContent
    adChoices: AdChoices | None
    muteThisAdReasons: NotRequired[list[str]]
    responseInfo: ResponseInfo
    expiresAt: str
    """RFC 3339 UTC."""


class LoadAdResult(TypedDict):
    ads: list[Ad]
    responseInfo: ResponseInfo


# --------------------------------------------------------------------------------------------
# Results of the ad methods


class ClickResult(TypedDict):
    recorded: bool
    action: ClickAction
    url: str | None
    reason: NotRequired[str]
    trackingURLs: NotRequired[list[str]]
    """For an ad that came from OpenRTB only: the click trackers the caller fetches, each once
    (``[]`` when nothing was recorded). Absent for every other ad."""


class ImpressionResult(TypedDict):
    recorded: bool
    reason: NotRequired[str]
    trackingURLs: NotRequired[list[str]]
    """For an ad that came from OpenRTB only: the impression trackers the caller fetches, each
    once (``[]`` when nothing was recorded). Absent for every other ad."""


class CustomClickHandlerResult(TypedDict):
    enabled: bool


class ReleaseResult(TypedDict):
    released: bool


class RegisterAdViewResult(TypedDict):
    registered: bool
    clickableAssets: list[str]
    nonclickableAssets: list[str]


class UnregisterAdViewResult(TypedDict):
    unregistered: bool


class VisibilityResult(TypedDict):
    impressionRecorded: bool
    reason: NotRequired[str]
    trackingURLs: NotRequired[list[str]]
    """As :class:`ImpressionResult`'s, when this report records the impression."""


class ScreenDismissedResult(TypedDict):
    dismissed: bool


class MuteResult(TypedDict):
    muted: bool


class VideoState(TypedDict):
    videoController: VideoController
    currentTime: float
    duration: float


class VideoControlResult(TypedDict):
    applied: bool
    reason: NotRequired[str]
    videoController: NotRequired[VideoController]
    currentTime: NotRequired[float]
    duration: NotRequired[float]


class Event(TypedDict):
    """One entry of the event log (``getEvents``).

    A tracker handed to the caller (an ad from OpenRTB) is logged right after the impression or
    click it belongs to as ``type`` and ``event`` ``"tracker"``, with ``trigger`` and ``url``
    (and the clicked ``assetKey`` for a click tracker).
    """

    sequence: int
    time: str
    adId: str
    type: EventType
    event: str
    assetKey: str | None
    reason: NotRequired[str]
    trigger: NotRequired[TrackerTrigger]
    """For a tracker: what it was handed out for."""
    url: NotRequired[str]
    """For a tracker: the URL handed to the caller."""


class EventsResult(TypedDict):
    events: list[Event]
    lastSequence: int


# --------------------------------------------------------------------------------------------
# OpenRTB Native 1.2 (docs/openrtb.md; schemas/openrtb-native-1.2-response.schema.json and
# -request.schema.json). Every field is optional here: OpenRTB readers ignore members they do
# not know, and the server says what is missing with 1013 and the place.


class OpenRTBTitle(TypedDict, total=False):
    text: str
    len: int
    ext: dict[str, Any]


class OpenRTBImage(TypedDict, total=False):
    type: int
    """1 icon (2, the legacy logo, too), 3 main, 500+ exchange-specific; optional in a response
    when ``nativeRequest`` types the asset by its id."""
    url: str
    w: int
    h: int
    ext: dict[str, Any]


class OpenRTBData(TypedDict, total=False):
    type: int
    """1 sponsored, 2 desc, 3 rating, 4 likes, 5 downloads, 6 price, 7 saleprice, 8 phone,
    9 address, 10 desc2, 11 displayurl, 12 ctatext, 500+."""
    len: int
    value: str
    ext: dict[str, Any]


class OpenRTBVideo(TypedDict, total=False):
    vasttag: str


class OpenRTBLink(TypedDict, total=False):
    url: str
    clicktrackers: list[str]
    fallback: str
    ext: dict[str, Any]


class OpenRTBEventTracker(TypedDict, total=False):
    event: int
    """1 impression, 2 viewable-mrc50, 3 viewable-mrc100, 4 viewable-video50."""
    method: int
    """1 image pixel, 2 JavaScript."""
    url: str
    ext: dict[str, Any]


class OpenRTBAsset(TypedDict, total=False):
    """One asset of a Native response: exactly one of ``title``, ``img``, ``video``, ``data``."""

    id: int
    required: int
    title: OpenRTBTitle
    img: OpenRTBImage
    video: OpenRTBVideo
    data: OpenRTBData
    link: OpenRTBLink
    ext: dict[str, Any]


class OpenRTBNativeExtension(TypedDict, total=False):
    """``ext`` of a Native response: what OpenRTB has no type for."""

    store: str
    extraAssets: dict[str, str]
    deepLinks: list[str]


class OpenRTBNativeResponse(TypedDict, total=False):
    """An OpenRTB Native 1.2 response (bare): what ``exportAd`` answers and ``loadAd``'s
    ``adResponseString`` holds (as JSON, bare, as ``{"native": ...}`` or in a bid's ``adm``)."""

    ver: str
    assets: list[OpenRTBAsset]
    assetsurl: str
    dcourl: str
    link: OpenRTBLink
    imptrackers: list[str]
    jstracker: str
    eventtrackers: list[OpenRTBEventTracker]
    privacy: str
    ext: OpenRTBNativeExtension


class OpenRTBTitleRequest(TypedDict, total=False):
    len: int


class OpenRTBImageRequest(TypedDict, total=False):
    type: int
    w: int
    wmin: int
    h: int
    hmin: int
    mimes: list[str]


class OpenRTBVideoRequest(TypedDict, total=False):
    mimes: list[str]
    minduration: int
    maxduration: int


class OpenRTBDataRequest(TypedDict, total=False):
    type: int
    len: int


class OpenRTBAssetRequest(TypedDict, total=False):
    id: int
    required: int
    title: OpenRTBTitleRequest
    img: OpenRTBImageRequest
    video: OpenRTBVideoRequest
    data: OpenRTBDataRequest


class OpenRTBEventTrackerRequest(TypedDict, total=False):
    event: int
    methods: list[int]


class OpenRTBNativeRequest(TypedDict, total=False):
    """An OpenRTB Native 1.2 request: ``loadAd``'s ``nativeRequest`` (its assets type the
    response's untyped ones by ``id``), and what the bidder reads from ``imp[].native.request``."""

    ver: str
    assets: list[OpenRTBAssetRequest]
    eventtrackers: list[OpenRTBEventTrackerRequest]
    privacy: int
    plcmtcnt: int


class OpenRTBBid(TypedDict, total=False):
    """A bid of a bid response (``seatbid[].bid[]``): ``adm`` holds a Native response as JSON."""

    id: str
    impid: str
    price: float
    adm: str | OpenRTBNativeResponse | dict[str, Any]
    crid: str
    ext: dict[str, Any]


class OpenRTBSeatBid(TypedDict, total=False):
    seat: str
    bid: list[OpenRTBBid]


class OpenRTBNoBid(TypedDict):
    """``ext.noBid[]`` of the mock bidder's response: an impression without a bid."""

    impid: str
    nbr: int
    reason: NotRequired[str]


class OpenRTBBidResponseExt(TypedDict, total=False):
    noBid: list[OpenRTBNoBid]


class OpenRTBBidResponse(TypedDict, total=False):
    """An OpenRTB 2.x bid response: what ``POST /openrtb2/auction`` answers (and what a
    ``loadAd`` ``adResponseString`` may hold)."""

    id: str
    bidid: str
    seatbid: list[OpenRTBSeatBid]
    cur: str
    nbr: int
    ext: OpenRTBBidResponseExt


OpenRTBBidRequest = dict[str, Any]
"""An OpenRTB 2.6 bid request (``{"id", "imp": [{"id", "tagid", "bidfloor", "native":
{"request": ...}}], "site" | "app": {...}}``), as JSON."""


# --------------------------------------------------------------------------------------------
# The store


class FormatAsset(TypedDict):
    name: str
    type: Literal["text", "image", "video"]
    required: NotRequired[bool]


class Format(TypedDict):
    id: str
    assets: list[FormatAsset]


class StoreImage(TypedDict):
    url: str
    width: int
    height: int
    scale: NotRequired[float]
    mimeType: NotRequired[str]
    data: NotRequired[str]


class Creative(TypedDict, total=False):
    """A store creative (``schemas/store.schema.json`` is the full definition). ``openrtb`` (a
    Native 1.2 response) takes the place of ``kind``, ``assets``, ``video``, ``landingPageURL``
    and ``deepLinks``."""

    id: str
    kind: AdKind
    formatID: str
    priority: int
    eCPM: float
    assets: dict[str, Any]
    landingPageURL: str
    deepLinks: list[str]
    indirect: bool
    adChoices: dict[str, Any]
    customClickAction: bool
    muteThisAdReasons: list[str]
    video: dict[str, Any]
    targeting: dict[str, Any]
    openrtb: OpenRTBNativeResponse


class WaterfallSource(TypedDict, total=False):
    type: Literal["customEvent", "inventory"]
    adapterClassName: str
    parameter: str
    eCPM: float
    timeoutMs: int
    label: str


class AdUnit(TypedDict):
    id: str
    creatives: NotRequired[list[str]]
    waterfall: NotRequired[list[WaterfallSource]]
    deadlineMs: NotRequired[int]


class CreativeSummary(TypedDict):
    id: str
    kind: AdKind
    formatID: NotRequired[str]


class DefineFormatResult(TypedDict):
    formatID: str
    replaced: bool


class PutCreativeResult(TypedDict):
    creativeID: str
    replaced: bool


class PutAdUnitResult(TypedDict):
    adUnitID: str
    replaced: bool


class RemoveResult(TypedDict):
    removed: bool


class StoreListResult(TypedDict):
    formats: list[Format]
    creatives: list[CreativeSummary]
    adUnits: list[AdUnit]


class InspectorSnapshot(TypedDict):
    """``inspector.watch``: the live ads (each an Ad with ``loadedBy`` and ``adUnitID``) and
    the last events of the log."""

    ads: list[dict[str, Any]]
    events: list[Event]
    lastSequence: int


# --------------------------------------------------------------------------------------------
# Mediation


class RegisterAdapterResult(TypedDict):
    registered: bool


class UnregisterAdapterResult(TypedDict):
    unregistered: bool


class ReportResult(TypedDict):
    """``adapter.report*`` answered as requests."""

    recorded: bool


class MappedAdMedia(TypedDict, total=False):
    aspectRatio: float
    hasVideoContent: bool
    duration: float


class MappedAdChoices(TypedDict):
    image: StoreImage
    clickURL: str


class MappedAd(TypedDict, total=False):
    """What an adapter answers ``adapter.loadNativeAd`` with (docs/mediation.md, MappedAd).

    ``headline`` is required; everything else is optional.
    """

    headline: str
    body: str
    callToAction: str
    icon: StoreImage
    images: list[StoreImage]
    starRating: float
    store: str
    price: str
    advertiser: str
    extraAssets: dict[str, str]
    adChoices: MappedAdChoices
    media: MappedAdMedia
    handlesUserClicks: bool
    handlesUserImpressions: bool
    landingPageURL: str
    deepLinks: list[str]


class AdapterCredentials(TypedDict):
    settings: dict[str, str]


class AdConfiguration(TypedDict):
    credentials: AdapterCredentials
    options: dict[str, Any]
    isTestRequest: bool | None


class LoadNativeAdParams(TypedDict):
    """The params of the server's ``adapter.loadNativeAd`` request."""

    loadId: str
    adapterClassName: str
    adConfiguration: AdConfiguration


# --------------------------------------------------------------------------------------------
# Notifications (server -> client)


class AdEvent(TypedDict):
    """``adEvent``: sent to the connection that loaded the ad."""

    adId: str
    event: AdEventName
    assetKey: str | None
    reason: NotRequired[str]


class CustomClick(TypedDict):
    """``customClick``: a click handled by this connection's custom click handler."""

    adId: str
    assetID: str


class VideoEvent(TypedDict):
    """``videoEvent``."""

    adId: str
    event: VideoEventName


class AdapterAdNotification(TypedDict):
    """``adapter.didRecordImpression``, ``adapter.handleImpression``, ``adapter.didUntrackView``."""

    loadId: str
    adId: str


class AdapterClickNotification(TypedDict):
    """``adapter.didRecordClickOnAsset``, ``adapter.handleClick``."""

    loadId: str
    adId: str
    assetKey: str


class AdapterRenderNotification(TypedDict):
    """``adapter.didRender``."""

    loadId: str
    adId: str
    clickableAssets: list[str]
    nonclickableAssets: list[str]


NotificationParams = (
    AdEvent
    | CustomClick
    | VideoEvent
    | AdapterAdNotification
    | AdapterClickNotification
    | AdapterRenderNotification
    | dict[str, Any]
)

JSONObject = dict[str, Any]
