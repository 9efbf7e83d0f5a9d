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


class ImpressionResult(TypedDict):
    recorded: bool
    reason: NotRequired[str]


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
    """One entry of the event log (``getEvents``)."""

    sequence: int
    time: str
    adId: str
    type: Literal["adEvent", "videoEvent"]
    event: str
    assetKey: str | None
    reason: NotRequired[str]


class EventsResult(TypedDict):
    events: list[Event]
    lastSequence: int


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
    """A store creative (``schemas/store.schema.json`` is the full definition)."""

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
