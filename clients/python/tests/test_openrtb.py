"""OpenRTB Native 1.2 against the real binary (contract section 10, docs/openrtb.md):
``load_ad(..., ad_response_string=..., native_request=...)`` from a bare, wrapped or bid
response, ``1013`` naming the place (``ReceivedInvalidResponseError.field``), ``export_ad`` and
its round trip, and the ``trackingURLs`` and ``tracker`` events of an ad that came from OpenRTB.

Every test runs over stdio, TCP and a Unix socket, each in both framings (the ``net`` fixture);
every reply is validated against ``schemas/`` (``exportAd`` against ``OpenRTBNativeResponse``).
The mock bidder (``HTTPClient.auction``) is tested in ``test_http.py``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import SCHEMAS, run
from helpers import CUSTOM_FORMAT, NATIVE_UNIT, unique

import native_ads
from native_ads import (
    AdLoadError,
    Client,
    InvalidParams,
    NoFillError,
    ReceivedInvalidResponseError,
    WrongAdKind,
)

#: What a response string is for: it names the ad and need not be an ad unit of the store.
RTB_UNIT = "/openrtb/test"


def rtb_native(tag: str) -> dict[str, Any]:
    """A Native 1.2 response with typed assets and trackers whose URLs are unique to ``tag``."""
    t = f"https://t.example/{tag}"
    return {
        "ver": "1.2",
        "assets": [
            {"id": 1, "title": {"text": f"Headline {tag}"}},
            {"id": 2, "img": {"type": 1, "url": f"https://cdn.example/{tag}/icon.png", "w": 80, "h": 80}},
            {"id": 3, "img": {"type": 3, "url": f"https://cdn.example/{tag}/main.png", "w": 600, "h": 300}},
            {
                "id": 4,
                "data": {"type": 2, "value": "The body text."},
                "link": {"url": f"https://adv.example/{tag}/body", "clicktrackers": [f"{t}/body-click", f"{t}/click"]},
            },
            {"id": 5, "data": {"type": 1, "value": "ACME"}},
            {"id": 6, "data": {"type": 3, "value": "4.5"}},
            {"id": 7, "data": {"type": 12, "value": "Buy now"}},
            {"id": 8, "data": {"type": 6, "value": "$1.99"}},
            {"id": 9, "data": {"type": 8, "value": "+1 555 0100"}},
        ],
        "link": {"url": f"https://adv.example/{tag}", "clicktrackers": [f"{t}/click"]},
        "imptrackers": [f"{t}/imp", f"{t}/imp"],
        "eventtrackers": [
            {"event": 1, "method": 1, "url": f"{t}/ev-imp"},
            {"event": 1, "method": 2, "url": f"{t}/ev-js"},
            {"event": 2, "method": 1, "url": f"{t}/ev-viewable"},
        ],
        "privacy": f"https://adv.example/{tag}/privacy",
    }


#: A Native 1.2 request: a required title, a main image and a description, as a bidder sends.
NATIVE_REQUEST: dict[str, Any] = {
    "ver": "1.2",
    "assets": [
        {"id": 1, "required": 1, "title": {"len": 25}},
        {"id": 2, "img": {"type": 3, "wmin": 300, "hmin": 150}},
        {"id": 3, "data": {"type": 2, "len": 90}},
    ],
}

#: A response to NATIVE_REQUEST whose image and data leave their type out (the spec's embedded
#: responses do): the request's assets type them by id.
UNTYPED_RESPONSE: dict[str, Any] = {
    "ver": "1.2",
    "link": {"url": "https://adv.example/untyped"},
    "assets": [
        {"id": 1, "title": {"text": "Untyped"}},
        {"id": 2, "img": {"url": "https://cdn.example/untyped.png"}},
        {"id": 3, "data": {"value": "Typed by the request."}},
    ],
}


def load_one(client: Client, response: Any, **kw: Any) -> native_ads.Ad:
    text = response if isinstance(response, str) else json.dumps(response)
    result = client.load_ad(RTB_UNIT, ad_response_string=text, **kw)
    assert len(result["ads"]) >= 1
    return result["ads"][0]


# ---------------------------------------------------------------------------------------------
# Loading response strings


def test_load_a_bare_native_response_maps_its_assets(net: Any) -> None:
    tag = unique("bare")
    native = rtb_native(tag)
    result = net.client.load_ad(RTB_UNIT, ad_response_string=json.dumps(native))
    [ad] = result["ads"]
    assert ad["kind"] == "native"
    assert ad["headline"] == f"Headline {tag}"
    assert ad["body"] == "The body text."
    assert ad["advertiser"] == "ACME"
    assert ad["starRating"] == 4.5
    assert ad["callToAction"] == "Buy now"
    assert ad["price"] == "$1.99"
    assert ad["store"] is None
    assert ad["extraAssets"] == {"phone": "+1 555 0100"}
    assert ad["icon"] is not None and ad["icon"]["url"] == f"https://cdn.example/{tag}/icon.png"
    assert (ad["icon"]["width"], ad["icon"]["height"]) == (80, 80)
    assert [(i["url"], i["width"], i["height"]) for i in ad["images"]] == [
        (f"https://cdn.example/{tag}/main.png", 600, 300)
    ]
    assert ad["images"][0]["mimeType"] == "image/png"  # drawn at the stated size, never fetched
    # an indirect (programmatic) ad: AdChoices to the response's privacy URL
    assert ad["adChoices"] is not None and ad["adChoices"]["clickURL"] == native["privacy"]
    info = result["responseInfo"]
    assert info["loadedAdNetworkResponseInfo"] is not None
    assert info["loadedAdNetworkResponseInfo"]["adNetworkClassName"] == "OpenRTB"
    assert info["loadedAdNetworkResponseInfo"]["adSourceName"] == "OpenRTB Native 1.2"
    assert len(info["adNetworkInfoArray"]) == 1
    assert ad["responseInfo"] == info
    # the wrapped form (before 1.1) loads the same ad
    wrapped = load_one(net.client, {"native": native}, options={"disableImageLoading": True})
    assert (wrapped["headline"], wrapped["body"], wrapped["images"][0]["url"]) == (
        ad["headline"],
        ad["body"],
        ad["images"][0]["url"],
    )
    assert "data" not in wrapped["images"][0]


def test_native_request_types_untyped_assets_as_object_or_string(net: Any) -> None:
    c = net.client
    text = json.dumps(UNTYPED_RESPONSE)
    for native_request in (NATIVE_REQUEST, json.dumps(NATIVE_REQUEST)):
        ad = c.load_ad(RTB_UNIT, ad_response_string=text, native_request=native_request)["ads"][0]
        assert ad["headline"] == "Untyped"
        assert ad["body"] == "Typed by the request."
        # no w/h in the response: the request asset's wmin/hmin
        assert [(i["url"], i["width"], i["height"]) for i in ad["images"]] == [
            ("https://cdn.example/untyped.png", 300, 150)
        ]
    # without the request the untyped image cannot be placed
    with pytest.raises(ReceivedInvalidResponseError) as caught:
        c.load_ad(RTB_UNIT, ad_response_string=text)
    assert caught.value.field == "native.assets[1].img.type"


def test_load_a_bid_response_highest_price_first(net: Any) -> None:
    def bid(headline: str, price: float, as_string: bool) -> dict[str, Any]:
        native = {"link": {"url": "https://adv.example/bid"}, "assets": [{"id": 1, "title": {"text": headline}}]}
        adm: Any = json.dumps({"native": native}) if as_string else native
        return {"id": headline, "impid": "1", "price": price, "adm": adm}

    bid_response = {
        "id": unique("auction"),
        "seatbid": [
            {"seat": "low-seat", "bid": [bid("Low", 1.0, True)]},
            {"seat": "high-seat", "bid": [bid("High", 2.5, False), bid("Middle", 1.5, True)]},
        ],
        "cur": "USD",
    }
    result = net.client.load_ad(
        RTB_UNIT, ad_response_string=json.dumps(bid_response), options={"numberOfAds": 3, "disableImageLoading": True}
    )
    assert [a["headline"] for a in result["ads"]] == ["High", "Middle", "Low"]
    info = result["responseInfo"]
    assert info["loadedAdNetworkResponseInfo"] is not None
    assert info["loadedAdNetworkResponseInfo"]["adSourceName"] == "high-seat"  # the winning bid's seat
    assert all(a["responseInfo"] == info for a in result["ads"])
    # one ad by default: the best bid
    assert load_one(net.client, bid_response)["headline"] == "High"
    # a bid response without bids: no fill, the response info saying so
    with pytest.raises(NoFillError) as nofill:
        net.client.load_ad(RTB_UNIT, ad_response_string=json.dumps({"id": "empty", "seatbid": [], "nbr": 2}))
    assert nofill.value.code == 1001
    assert nofill.value.response_info is not None
    [entry] = nofill.value.response_info["adNetworkInfoArray"]
    assert entry["adNetworkClassName"] == "OpenRTB" and entry["error"] is not None


@pytest.mark.parametrize(
    ("response", "field"),
    [
        ("not JSON", "adResponseString"),
        ("[1, 2]", "adResponseString"),
        (json.dumps({"native": {"assets": [{"id": 1, "title": {"text": "x"}}]}}), "native.link"),
        (json.dumps({"link": {"url": "https://e.example/"}, "assets": []}), "native.assets"),
        (
            json.dumps(
                {
                    "link": {"url": "https://e.example/"},
                    "assets": [{"id": 1, "title": {"text": "x"}}, {"id": 2, "img": {"type": 3}}],
                }
            ),
            "native.assets[1].img.url",
        ),
        (
            json.dumps(
                {"link": {"url": "https://e.example/"}, "assets": [{"id": 1, "data": {"type": 2, "value": "no title"}}]}
            ),
            "native.assets",
        ),
        (json.dumps({"id": "r", "seatbid": [{"bid": [{"impid": "1", "price": 1}]}]}), "seatbid[0].bid[0].adm"),
        (
            json.dumps(
                {
                    "id": "r",
                    "seatbid": [
                        {
                            "bid": [
                                {
                                    "price": 2,
                                    "adm": json.dumps(
                                        {
                                            "link": {"url": "https://e.example/"},
                                            "assets": [{"id": 1, "title": {"text": "ok"}}],
                                        }
                                    ),
                                },
                                {
                                    "price": 1,
                                    "adm": json.dumps(
                                        {"native": {"assets": [{"id": 1, "title": {"text": "x"}}], "link": {}}}
                                    ),
                                },
                            ]
                        }
                    ],
                }
            ),
            "seatbid[0].bid[1].adm.native.link.url",
        ),
    ],
    ids=[
        "not-json",
        "not-object",
        "no-link",
        "no-assets",
        "img-without-url",
        "no-title",
        "bid-without-adm",
        "bad-second-bid",
    ],
)
def test_an_unmappable_response_string_fails_with_1013_naming_the_place(net: Any, response: str, field: str) -> None:
    with pytest.raises(ReceivedInvalidResponseError) as caught:
        net.client.load_ad(RTB_UNIT, ad_response_string=response)
    e = caught.value
    assert isinstance(e, AdLoadError)
    assert (e.code, e.gad_error_code, e.name) == (1013, 13, "receivedInvalidResponse")
    assert e.field == field, e.message
    assert field in e.message and e.method == "loadAd"
    # response info like every failed load: its one entry carries the error
    assert e.response_info is not None
    assert e.response_info["loadedAdNetworkResponseInfo"] is None
    [entry] = e.response_info["adNetworkInfoArray"]
    assert entry["adNetworkClassName"] == "OpenRTB"
    assert entry["error"] is not None and entry["error"]["code"] == 13


# ---------------------------------------------------------------------------------------------
# exportAd


def test_export_ad_round_trip_of_an_inventory_ad(net: Any) -> None:
    c = net.client
    options: native_ads.AdLoaderOptions = {"shouldRequestMultipleImages": True, "disableImageLoading": True}
    ad = c.load_ad(NATIVE_UNIT, options=options)["ads"][0]
    exported = c.export_ad(ad["adId"])
    assert exported == c.export_ad(ad["adId"], "openrtb-native-1.2")
    assert exported["ver"] == "1.2"
    assets = exported["assets"]
    assert [a["id"] for a in assets] == list(range(1, len(assets) + 1))
    assert assets[0]["title"]["text"] == ad["headline"]
    for asset in assets:  # every img and data typed: it loads back without a request
        for kind in ("img", "data"):
            if kind in asset:
                assert isinstance(asset[kind].get("type"), int), asset
    back = c.load_ad(RTB_UNIT, ad_response_string=json.dumps(exported), options=options)["ads"][0]
    for key in ("headline", "body", "callToAction", "store", "price", "advertiser", "starRating", "extraAssets"):
        assert back[key] == ad[key], key
    assert [(i["url"], i["width"], i["height"]) for i in back["images"]] == [
        (i["url"], i["width"], i["height"]) for i in ad["images"]
    ]
    assert ad["icon"] is not None and back["icon"] is not None
    assert (back["icon"]["url"], back["icon"]["width"], back["icon"]["height"]) == (
        ad["icon"]["url"],
        ad["icon"]["width"],
        ad["icon"]["height"],
    )
    # the copy exports as the original did
    assert c.export_ad(back["adId"])["assets"] == exported["assets"]


def test_export_ad_of_a_response_string_ad_keeps_its_trackers(net: Any) -> None:
    tag = unique("export")
    native = rtb_native(tag)
    ad = load_one(net.client, native, options={"disableImageLoading": True})
    exported = net.client.export_ad(ad["adId"])
    assert exported["link"]["url"] == native["link"]["url"]
    assert exported["link"]["clicktrackers"] == native["link"]["clicktrackers"]
    assert exported["imptrackers"][0] == f"https://t.example/{tag}/imp"
    assert [t.get("url") for t in exported["eventtrackers"]] == [t["url"] for t in native["eventtrackers"]]
    assert exported["privacy"] == native["privacy"]
    assert {a["data"]["value"] for a in exported["assets"] if "data" in a} >= {"The body text.", "+1 555 0100"}


def test_export_ad_refuses_custom_native_ads_and_other_formats(net: Any) -> None:
    c = net.client
    custom = c.load_ad(NATIVE_UNIT, ad_types=["customNative"], custom_native_ad_format_ids=[CUSTOM_FORMAT])
    with pytest.raises(WrongAdKind) as wrong:
        c.export_ad(custom["ads"][0]["adId"])
    assert wrong.value.code == 2003 and wrong.value.ad_id == custom["ads"][0]["adId"]
    ad = c.load_ad(NATIVE_UNIT, options={"disableImageLoading": True})["ads"][0]
    with pytest.raises(InvalidParams) as bad:
        c.export_ad(ad["adId"], "openrtb-native-1.1")
    assert bad.value.field == "format"


# ---------------------------------------------------------------------------------------------
# Trackers


def test_tracking_urls_on_impression_and_clicks(net: Any) -> None:
    c = net.client
    tag = unique("track")
    t = f"https://t.example/{tag}"
    ad = load_one(c, rtb_native(tag), options={"disableImageLoading": True})
    ad_id = ad["adId"]
    # imptrackers, then the image-pixel impression event trackers; a URL listed twice once
    assert c.record_impression(ad_id) == {"recorded": True, "trackingURLs": [f"{t}/imp", f"{t}/ev-imp"]}
    assert c.record_impression(ad_id) == {"recorded": False, "reason": "alreadyRecorded", "trackingURLs": []}
    # the response link's click trackers, with every recorded click
    headline = c.perform_click_on_asset(ad_id, "headline")
    assert headline == {
        "recorded": True,
        "action": "landingPage",
        "url": f"https://adv.example/{tag}",
        "trackingURLs": [f"{t}/click"],
    }
    # an asset's own link: its URL, its click trackers first
    body = c.perform_click_on_asset(ad_id, "body")
    assert body["url"] == f"https://adv.example/{tag}/body"
    assert body["trackingURLs"] == [f"{t}/body-click", f"{t}/click"]
    assert c.perform_click_on_asset(ad_id, "headline")["trackingURLs"] == [f"{t}/click"]
    # AdChoices is not an ad click
    adchoices = c.perform_click_on_asset(ad_id, "_adChoices")
    assert (adchoices["recorded"], adchoices["trackingURLs"]) == (False, [])

    # the log: each handed-out URL right after what it belongs to
    events = c.get_events(ad_id=ad_id)["events"]
    brief = [(e["type"], e["event"], e.get("trigger"), e.get("url"), e["assetKey"]) for e in events]
    tracker = ("tracker", "tracker")
    assert brief == [
        ("adEvent", "didRecordImpression", None, None, None),
        (*tracker, "impression", f"{t}/imp", None),
        (*tracker, "impression", f"{t}/ev-imp", None),
        ("adEvent", "didRecordClick", None, None, "headline"),
        (*tracker, "click", f"{t}/click", "headline"),
        ("adEvent", "willPresentScreen", None, None, None),
        ("adEvent", "didRecordClick", None, None, "body"),
        (*tracker, "click", f"{t}/body-click", "body"),
        (*tracker, "click", f"{t}/click", "body"),
        ("adEvent", "willPresentScreen", None, None, None),
        ("adEvent", "didRecordClick", None, None, "headline"),
        (*tracker, "click", f"{t}/click", "headline"),
        ("adEvent", "willPresentScreen", None, None, None),
    ]
    only = c.get_events(ad_id=ad_id, event="tracker")["events"]
    assert [e["url"] for e in only] == [e[3] for e in brief if e[0] == "tracker"]
    assert all(e["type"] == "tracker" for e in only)


def test_ads_not_from_openrtb_answer_without_tracking_urls(net: Any) -> None:
    c = net.client
    ad = c.load_ad(NATIVE_UNIT, options={"disableImageLoading": True})["ads"][0]
    assert c.record_impression(ad["adId"]) == {"recorded": True}
    assert "trackingURLs" not in c.perform_click_on_asset(ad["adId"], "headline")
    assert c.get_events(ad_id=ad["adId"], event="tracker")["events"] == []


def _report_visibility_documents_tracking_urls() -> bool:
    path = SCHEMAS / "openrpc.json"
    if not path.exists():
        return False
    doc = json.loads(path.read_text(encoding="utf-8"))
    method = next(m for m in doc["methods"] if m["name"] == "reportVisibility")
    schema = method["result"]["schema"]
    return "trackingURLs" in schema.get("properties", {}) or "$ref" in schema


@pytest.mark.skipif(
    not _report_visibility_documents_tracking_urls(),
    reason="schemas/openrpc.json's reportVisibility result has no trackingURLs (additionalProperties: false), "
    "though the server answers it for ads from OpenRTB",
)
def test_report_visibility_hands_out_the_impression_trackers(net: Any) -> None:
    c = net.client
    tag = unique("visible")
    t = f"https://t.example/{tag}"
    ad = load_one(c, rtb_native(tag), options={"disableImageLoading": True})
    c.register_ad_view(ad["adId"], clickable_assets=["headline"])
    assert c.report_visibility(ad["adId"], 0) == {
        "impressionRecorded": False,
        "reason": "notVisible",
        "trackingURLs": [],
    }
    assert c.report_visibility(ad["adId"], 10) == {
        "impressionRecorded": True,
        "trackingURLs": [f"{t}/imp", f"{t}/ev-imp"],
    }


def test_a_store_creative_written_in_openrtb_serves_ads_with_its_trackers(net: Any) -> None:
    c = net.client
    tag = unique("store")
    native = rtb_native(tag)
    creative_id, unit_id = f"rtb-{tag}", f"/openrtb/{tag}"
    assert c.store_put_creative({"id": creative_id, "openrtb": native, "eCPM": 2.5, "priority": 1})["replaced"] is False
    c.store_put_ad_unit({"id": unit_id, "creatives": [creative_id]})
    try:
        ad = c.load_ad(unit_id, options={"disableImageLoading": True})["ads"][0]
        assert ad["headline"] == f"Headline {tag}"
        assert ad["adChoices"] is not None and ad["adChoices"]["clickURL"] == native["privacy"]
        assert c.record_impression(ad["adId"])["trackingURLs"] == [
            f"https://t.example/{tag}/imp",
            f"https://t.example/{tag}/ev-imp",
        ]
        # its assets must be typed (there is no request): refused, naming the place
        with pytest.raises(InvalidParams) as refused:
            c.store_put_creative({"id": f"{creative_id}-bad", "openrtb": UNTYPED_RESPONSE})
        assert refused.value.field == "creative.openrtb.assets[1].img.type"
    finally:
        c.store_remove("adUnit", unit_id)
        c.store_remove("creative", creative_id)


# ---------------------------------------------------------------------------------------------
# asyncio


def test_async_response_strings_export_and_trackers(net: Any) -> None:
    async def body() -> None:
        c = await net.aclient()
        try:
            tag = unique("async")
            ad = (await c.load_ad(RTB_UNIT, ad_response_string=json.dumps(rtb_native(tag))))["ads"][0]
            impression = await c.record_impression(ad["adId"])
            assert impression["trackingURLs"] == [f"https://t.example/{tag}/imp", f"https://t.example/{tag}/ev-imp"]
            exported = await c.export_ad(ad["adId"])
            again = await c.load_ad(RTB_UNIT, ad_response_string=json.dumps(exported))
            assert again["ads"][0]["headline"] == ad["headline"]
            with pytest.raises(ReceivedInvalidResponseError) as caught:
                await c.load_ad(RTB_UNIT, ad_response_string=json.dumps(UNTYPED_RESPONSE))
            assert caught.value.field == "native.assets[1].img.type"
        finally:
            await net.aclose()

    run(body())
