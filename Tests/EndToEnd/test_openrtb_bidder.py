"""The mock OpenRTB bidder (docs/openrtb.md "The mock bidder: POST /openrtb2/auction"): OpenRTB
2.6 bid requests with Native 1.2 impressions filled from the store, over `--http`.

The module's server serves a store of its own (written into the test's directory):

    /e2e/bidder/main         custom-top   customNative p100 (never bids: not system-defined)
                             bid-full     p5 eCPM 2.5: every text, rating 4.5, icon 128x128,
                                          images 1200x627 and 600x300, likes, displayURL
                             bid-video    p3 eCPM 4.0: headline, body, advertiser, icon 128x128,
                                          image 1280x720, 12 s of video
                             bid-small    p1 eCPM 0.5: a headline only
    /e2e/bidder/rtb          bid-rtb      an OpenRTB creative with trackers and a privacy URL
    /e2e/bidder/targeted     tg-cars (keywords Cars), tg-url (contentURLs), tg-open
    /e2e/bidder/custom-only  custom-top
    /e2e/bidder/ecpm         e-low p2 eCPM 1.0, e-high p2 eCPM 2.0
"""
from __future__ import annotations

import json
import os

import pytest

from e2e_support import (
    Server,
    check_any_image,
    check_mediated_ad,
    creative_image,
    dumps,
    write_json,
)
from http_support import http_exchange, request_bytes

MAIN = "/e2e/bidder/main"
RTB = "/e2e/bidder/rtb"
TARGETED = "/e2e/bidder/targeted"
CUSTOM_ONLY = "/e2e/bidder/custom-only"
ECPM = "/e2e/bidder/ecpm"
AUCTION = "/openrtb2/auction"
SEAT = "native-ads"

FULL_HEADLINE = "Acme Super Widget Pro Max Edition"
FULL_BODY = "The widget that does everything you ever wanted, and then some more."
FULL_LANDING = "https://acme.example/widget"
FULL_ICON = creative_image("bid-full", "icon", 128, 128)
FULL_IMAGES = [creative_image("bid-full", "image1", 1200, 627), creative_image("bid-full", "image2", 600, 300)]
VIDEO_ICON = creative_image("bid-video", "icon", 128, 128)
VIDEO_IMAGE = creative_image("bid-video", "image1", 1280, 720)

RTB_CREATIVE = {
    "ver": "1.2",
    "link": {"url": "https://rtb.example/land", "clicktrackers": ["https://t.example/rtb-click"]},
    "assets": [
        {"id": 1, "title": {"text": "RTB creative headline"}},
        {"id": 2, "img": {"type": 3, "url": "https://cdn.example/rtb-main.png", "w": 1200, "h": 627}},
        {"id": 3, "img": {"type": 1, "url": "https://cdn.example/rtb-icon.png", "w": 100, "h": 100}},
        {"id": 4, "data": {"type": 2, "value": "RTB body text"}},
        {"id": 5, "data": {"type": 12, "value": "Buy"}},
    ],
    "imptrackers": ["https://t.example/rtb-imp"],
    "eventtrackers": [
        {"event": 1, "method": 1, "url": "https://t.example/rtb-ev1-img"},
        {"event": 1, "method": 2, "url": "https://t.example/rtb-ev1.js"},
        {"event": 2, "method": 1, "url": "https://t.example/rtb-ev2-img"},
    ],
    "privacy": "https://privacy.example/rtb",
}


def bidder_store() -> dict:
    def native(cid, priority, ecpm, assets, **extra):
        c = {"id": cid, "kind": "native", "priority": priority, "eCPM": ecpm, "assets": assets,
             "landingPageURL": f"https://example.com/{cid}"}
        c.update(extra)
        return c

    return {
        "formats": [{"id": "900700", "assets": [{"name": "Title", "type": "text", "required": True}]}],
        "creatives": [
            {"id": "custom-top", "kind": "customNative", "formatID": "900700", "priority": 100, "eCPM": 9.0,
             "assets": {"Title": "A custom format ad"}, "landingPageURL": "https://example.com/custom"},
            native("bid-full", 5, 2.5, {
                "headline": FULL_HEADLINE, "body": FULL_BODY, "callToAction": "Install Now",
                "advertiser": "Acme Corp", "price": "$1.99", "store": "Google Play", "starRating": 4.5,
                "icon": FULL_ICON, "images": FULL_IMAGES,
                "extraAssets": {"likes": "12k likes", "displayURL": "acme.example"}},
                landingPageURL=FULL_LANDING, deepLinks=["acme://widget"]),
            native("bid-video", 3, 4.0, {
                "headline": "Video Widget Launch", "body": "Watch the launch.", "advertiser": "Acme Video",
                "icon": VIDEO_ICON, "images": [VIDEO_IMAGE]},
                video={"duration": 12, "aspectRatio": 1.7777777777777777}),
            native("bid-small", 1, 0.5, {"headline": "Small"}),
            {"id": "bid-rtb", "openrtb": RTB_CREATIVE, "eCPM": 3.0, "priority": 1, "indirect": True},
            native("tg-cars", 10, 1.0, {"headline": "Cars ad"}, targeting={"keywords": ["Cars"]}),
            native("tg-url", 9, 1.0, {"headline": "Autos page ad"},
                   targeting={"contentURLs": ["https://news.example/autos/"]}),
            native("tg-open", 1, 0.8, {"headline": "Open ad"}),
            native("e-low", 2, 1.0, {"headline": "Lower eCPM"}),
            native("e-high", 2, 2.0, {"headline": "Higher eCPM"}),
        ],
        "adUnits": [
            {"id": MAIN, "creatives": ["custom-top", "bid-full", "bid-video", "bid-small"]},
            {"id": RTB, "creatives": ["bid-rtb"]},
            {"id": TARGETED, "creatives": ["tg-cars", "tg-url", "tg-open"]},
            {"id": CUSTOM_ONLY, "creatives": ["custom-top"]},
            {"id": ECPM, "creatives": ["e-low", "e-high"]},
        ],
    }


def start_bidder(tmp_path_factory, name: str, store: dict, *args: str) -> Server:
    """A server on TCP and HTTP serving `store` (written into a directory of its own)."""
    d = tmp_path_factory.mktemp(name)
    path = write_json(str(d / f"{name}-store.json"), store)
    return Server(str(d), stdio=False, tcp=True, http=True, args=["--store", path, *args], spread=False)


@pytest.fixture(scope="module")
def bidder(tmp_path_factory):
    srv = start_bidder(tmp_path_factory, "bidder", bidder_store())
    yield srv
    srv.stop()


@pytest.fixture
def port(bidder):
    assert bidder.alive(), bidder.describe()
    return bidder.http_port


@pytest.fixture
def rpc(bidder):
    c = bidder.connect()
    yield c
    c.close()


# ------------------------------------------------------------------------------------------
# Helpers

# The IAB spec's section 6.1 and 6.2 requests (quotes straightened, "eventtrackers" spelled as
# section 4.1 spells it).
SPEC_61 = {
    "ver": "1.2", "context": 2, "contextsubtype": 20, "plcmttype": 11, "plcmtcnt": 1, "aurlsupport": 0,
    "privacy": 1,
    "eventtrackers": [{"event": 1, "methods": [1, 2]}, {"event": 2, "methods": [1]}],
    "assets": [
        {"id": 123, "required": 1, "title": {"len": 140}},
        {"id": 128, "required": 0, "img": {"wmin": 836, "hmin": 627, "type": 3}},
        {"id": 124, "required": 1, "img": {"wmin": 50, "hmin": 50, "type": 1}},
        {"id": 126, "required": 1, "data": {"type": 1, "len": 25}},
        {"id": 127, "required": 1, "data": {"type": 2, "len": 140}},
    ],
}
SPEC_62 = {
    "ver": "1.2", "context": 1, "contextsubtype": 10, "plcmttype": 11, "plcmtcnt": 1, "aurlsupport": 0,
    "privacy": 1,
    "eventtrackers": [{"event": 1, "methods": [1, 2]}, {"event": 2, "methods": [1]}],
    "assets": [
        {"id": 4, "video": {"linearity": 1, "minduration": 15, "maxduration": 30, "protocols": [2, 3],
                            "mimes": ["video/mp4"]}},
        {"id": 123, "required": 1, "title": {"len": 140}},
        {"id": 128, "required": 0, "img": {"wmin": 836, "hmin": 627, "type": 3}},
        {"id": 124, "required": 1, "img": {"wmin": 50, "hmin": 50, "type": 1}},
        {"id": 126, "required": 1, "data": {"type": 1, "len": 25}},
        {"id": 127, "required": 1, "data": {"type": 2, "len": 140}},
    ],
}
TITLE = {"id": 1, "required": 1, "title": {"len": 140}}
VIDEO = {"id": 4, "required": 1, "video": {"mimes": ["video/mp4"], "minduration": 1, "maxduration": 60,
                                           "protocols": [2, 3, 5, 6]}}


def native_request(*assets, **extra) -> dict:
    r = {"ver": "1.2", "assets": list(assets)}
    r.update(extra)
    return r


def imp(imp_id, tagid, request, *, as_object=False, bidfloor=None, **extra) -> dict:
    i = {"id": imp_id, "tagid": tagid,
         "native": {"ver": "1.2", "request": request if as_object or isinstance(request, str) else json.dumps(request)}}
    if bidfloor is not None:
        i["bidfloor"] = bidfloor
        i["bidfloorcur"] = "USD"
    i.update(extra)
    return i


def bid_request(*imps, id="req-1", **extra) -> dict:
    r = {"id": id, "imp": list(imps), "site": {"page": "https://publisher.example/article"}, "tmax": 200}
    r.update(extra)
    return r


def auction(port, body, *, headers=None, host=None):
    data = body if isinstance(body, bytes) else dumps(body)
    return http_exchange(port, request_bytes("POST", AUCTION, port, body=data, headers=headers, host=host))[0]


def bid_response(port, body) -> dict:
    """An auction that must answer 200 with a bid response; its shape checked."""
    r = auction(port, body)
    assert r.status == 200, (r.status, r.headers, r.body[:2000])
    resp = r.json()
    assert isinstance(resp, dict), resp
    if isinstance(body, dict):
        assert resp.get("id") == body["id"], resp
    assert isinstance(resp.get("bidid"), str) and resp["bidid"], resp
    assert resp.get("cur") == "USD", resp
    seatbid = resp.get("seatbid")
    assert isinstance(seatbid, list) and len(seatbid) == 1 and seatbid[0].get("seat") == SEAT, resp
    bids = seatbid[0].get("bid")
    assert isinstance(bids, list) and bids, resp
    for b in bids:
        assert isinstance(b.get("id"), str) and b["id"], b
        assert isinstance(b.get("impid"), str), b
        assert isinstance(b.get("price"), (int, float)) and not isinstance(b["price"], bool), b
        assert isinstance(b.get("crid"), str), b
        assert isinstance(b.get("adm"), str), "adm is the Native response as a JSON string"
    assert len({b["id"] for b in bids}) == len(bids), "bid ids are distinct"
    return resp


def bids_by_imp(resp) -> dict:
    bids = resp["seatbid"][0]["bid"]
    out = {b["impid"]: b for b in bids}
    assert len(out) == len(bids), "one bid an impression"
    return out


def only_bid(port, body) -> dict:
    resp = bid_response(port, body)
    bids = resp["seatbid"][0]["bid"]
    assert len(bids) == 1, bids
    assert not (resp.get("ext") or {}).get("noBid"), resp
    return bids[0]


def adm(b) -> dict:
    native = json.loads(b["adm"])
    assert isinstance(native, dict), native
    if "native" in native and "assets" not in native:
        native = native["native"]
    assert isinstance(native.get("assets"), list) and native["assets"], native
    assert isinstance(native.get("link"), dict) and isinstance(native["link"].get("url"), str), native
    return native


def answer(b) -> dict:
    """The adm's assets by id (each id once)."""
    assets = adm(b)["assets"]
    out = {a.get("id"): a for a in assets}
    assert len(out) == len(assets), f"asset ids repeat: {assets}"
    for a in assets:
        if "img" in a:
            assert isinstance(a["img"].get("type"), int), f"img carries its type: {a}"
        if "data" in a:
            assert isinstance(a["data"].get("type"), int), f"data carries its type: {a}"
    return out


def no_bid_entries(resp) -> dict:
    """ext.noBid as {impression id: entry}."""
    entries = (resp.get("ext") or {}).get("noBid")
    assert isinstance(entries, list), resp
    out = {}
    for e in entries:
        assert isinstance(e, dict) and isinstance(e.get("nbr"), int), e
        key = e.get("impid", e.get("id"))
        assert isinstance(key, str), e
        out[key] = e
    return out


def no_bid(port, body) -> dict:
    """An auction where nothing bids: 204, no body, the reasons in X-OpenRTB-No-Bid."""
    r = auction(port, body)
    assert r.status == 204, (r.status, r.headers, r.body[:2000])
    assert r.body == b"", r
    header = r.header("x-openrtb-no-bid")
    assert header is not None, r.headers
    reasons = {}
    for part in header.split(";"):
        k, sep, v = part.strip().partition("=")
        assert sep and k and v.isdigit(), header
        reasons[k] = int(v)
    return reasons | {"_header": header}


def load_adm(rpc, text, unit=MAIN, **params) -> dict:
    p = {"adUnitID": unit, "adResponseString": text}
    p.update(params)
    resp = rpc.request("loadAd", p)
    assert "result" in resp, f"the adm should load with no nativeRequest: {json.dumps(resp)[:2000]}"
    ads = resp["result"]["ads"]
    for ad in ads:
        check_mediated_ad(ad)
    return ads


def strings_in(obj) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in strings_in(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in strings_in(v)]
    return []


# ------------------------------------------------------------------------------------------
# The spec's requests


def test_the_spec_social_request_gets_the_best_creatives_bid(port, rpc):
    b = only_bid(port, bid_request(imp("1", MAIN, SPEC_61)))
    assert (b["impid"], b["crid"], b["price"]) == ("1", "bid-full", 2.5)
    a = answer(b)
    assert set(a) == {123, 124, 126, 127, 128}, "every asset the creative has, by the request's ids"
    assert a[123]["title"]["text"] == FULL_HEADLINE
    assert a[124]["img"]["type"] == 1
    assert (a[124]["img"]["url"], a[124]["img"]["w"], a[124]["img"]["h"]) == (FULL_ICON["url"], 128, 128)
    assert a[128]["img"]["type"] == 3
    assert (a[128]["img"]["url"], a[128]["img"]["w"], a[128]["img"]["h"]) == (FULL_IMAGES[0]["url"], 1200, 627)
    assert a[126]["data"] == {**a[126]["data"], "type": 1, "value": "Acme Corp"}
    assert a[127]["data"] == {**a[127]["data"], "type": 2, "value": FULL_BODY}
    # The adm loads back as it is: its assets are typed.
    (ad,) = load_adm(rpc, b["adm"])
    assert ad["headline"] == FULL_HEADLINE and ad["advertiser"] == "Acme Corp" and ad["body"] == FULL_BODY
    check_any_image(ad["icon"], 128, 128)
    assert ad["icon"]["url"] == FULL_ICON["url"]
    assert [(i["url"], i["width"], i["height"]) for i in ad["images"]] == [(FULL_IMAGES[0]["url"], 1200, 627)]
    click = rpc.call("performClickOnAsset", adId=ad["adId"], key="headline")
    assert (click["action"], click["url"]) == ("landingPage", FULL_LANDING), click
    click = rpc.call("performClickOnAsset", adId=ad["adId"], key="headline", openableURLSchemes=["acme"])
    assert (click["action"], click["url"]) == ("deepLink", "acme://widget"), click


def test_the_spec_video_request_leaves_out_an_optional_video_the_creative_lacks(port):
    b = only_bid(port, bid_request(imp("1", MAIN, SPEC_62)))
    assert b["crid"] == "bid-full", "the video is optional: the best creative bids without one"
    a = answer(b)
    assert 4 not in a and set(a) == {123, 124, 126, 127, 128}


def test_a_required_video_is_met_by_video_content(port, rpc):
    req = native_request(TITLE, VIDEO, {"id": 2, "img": {"type": 3, "wmin": 600, "hmin": 300}})
    b = only_bid(port, bid_request(imp("v", MAIN, req)))
    assert (b["impid"], b["crid"], b["price"]) == ("v", "bid-video", 4.0)
    a = answer(b)
    assert isinstance(a[4]["video"]["vasttag"], str) and "<Duration>" in a[4]["video"]["vasttag"], a[4]
    assert (a[2]["img"]["url"], a[2]["img"]["w"], a[2]["img"]["h"]) == (VIDEO_IMAGE["url"], 1280, 720)
    (ad,) = load_adm(rpc, b["adm"])
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is True and mc["duration"] == 12, mc
    assert ad["headline"] == "Video Widget Launch"


def test_the_native_request_may_be_an_object(port):
    as_string = only_bid(port, bid_request(imp("1", MAIN, SPEC_61)))
    as_object = only_bid(port, bid_request(imp("1", MAIN, SPEC_61, as_object=True)))
    assert adm(as_object) == adm(as_string)
    assert as_object["crid"] == "bid-full"


# ------------------------------------------------------------------------------------------
# Which creative meets the request


@pytest.mark.parametrize("assets,crid", [
    ([TITLE], "bid-full"),
    ([TITLE, {"id": 2, "required": 1, "img": {"type": 1, "wmin": 100, "hmin": 100}}], "bid-full"),
    ([TITLE, VIDEO, {"id": 2, "required": 1, "img": {"type": 1, "wmin": 128, "hmin": 128}}], "bid-video"),
    ([TITLE, {"id": 2, "required": 1, "img": {"type": 3, "wmin": 1250, "hmin": 700}}], "bid-video"),
    ([TITLE, {"id": 2, "required": 1, "img": {"wmin": 1250, "hmin": 700}}], "bid-video"),
    ([TITLE, {"id": 2, "required": 1, "img": {"type": 3, "w": 600, "h": 300}}], "bid-full"),
    ([TITLE, {"id": 2, "required": 1, "img": {"type": 3, "w": 1280, "h": 720}}], "bid-video"),
    ([{"id": 9, "required": 1, "data": {"type": 2}}, {"id": 1, "required": 0, "title": {"len": 50}}], "bid-full"),
], ids=["title", "icon", "video-and-icon", "big-main-image", "untyped-image-is-main", "exact-size",
        "exact-size-of-the-other", "data-only"])
def test_the_best_creative_that_meets_every_required_asset_bids(port, assets, crid):
    b = only_bid(port, bid_request(imp("1", MAIN, native_request(*assets))))
    assert b["crid"] == crid
    assert set(answer(b)) >= {a["id"] for a in assets if a.get("required")}


@pytest.mark.parametrize("assets", [
    [TITLE, {"id": 2, "required": 1, "img": {"type": 1, "wmin": 200, "hmin": 200}}],
    [TITLE, {"id": 2, "required": 1, "img": {"type": 3, "w": 1200, "h": 600}}],
    [TITLE, {"id": 2, "required": 1, "img": {"type": 3, "wmin": 2000, "hmin": 100}}],
    [TITLE, VIDEO, {"id": 3, "required": 1, "data": {"type": 6}}],
    [TITLE, {"id": 3, "required": 1, "data": {"type": 8}}],
    [TITLE, {"id": 3, "required": 1, "data": {"type": 5}}],
], ids=["icon-too-small", "no-exact-size", "image-too-wide", "video-and-price", "phone", "downloads"])
def test_no_creative_meeting_the_required_assets_is_501(port, assets):
    reasons = no_bid(port, bid_request(imp("1", MAIN, native_request(*assets))))
    assert reasons == {"1": 501, "_header": "1=501"}


def test_a_unit_of_custom_formats_only_has_no_creative_to_bid(port):
    assert no_bid(port, bid_request(imp("1", CUSTOM_ONLY, native_request(TITLE)))) == {"1": 501, "_header": "1=501"}


def test_the_exact_image_answered_is_the_one_that_meets(port):
    b = only_bid(port, bid_request(imp("1", MAIN, native_request(
        TITLE, {"id": 2, "required": 1, "img": {"type": 3, "w": 600, "h": 300}}))))
    img = answer(b)[2]["img"]
    assert (img["type"], img["url"], img["w"], img["h"]) == (3, FULL_IMAGES[1]["url"], 600, 300)


@pytest.mark.parametrize("data_type,value", [(1, "Acme Corp"), (2, FULL_BODY), (6, "$1.99"), (12, "Install Now"),
                                             (4, "12k likes"), (11, "acme.example")])
def test_a_data_asset_is_met_by_the_asset_its_type_maps_to(port, data_type, value):
    b = only_bid(port, bid_request(imp("1", MAIN, native_request(
        TITLE, {"id": 7, "required": 1, "data": {"type": data_type}}))))
    assert b["crid"] == "bid-full"
    assert answer(b)[7]["data"]["type"] == data_type
    assert answer(b)[7]["data"]["value"] == value


def test_a_rating_is_answered_as_its_number(port, rpc):
    b = only_bid(port, bid_request(imp("1", MAIN, native_request(TITLE, {"id": 3, "required": 1,
                                                                         "data": {"type": 3}}))))
    d = answer(b)[3]["data"]
    assert d["type"] == 3 and float(d["value"]) == 4.5, d
    (ad,) = load_adm(rpc, b["adm"])
    assert ad["starRating"] == 4.5


def test_optional_assets_are_answered_when_the_creative_has_them(port):
    req = native_request(TITLE, {"id": 6, "required": 0, "data": {"type": 6}},
                         {"id": 8, "required": 0, "data": {"type": 8}},
                         {"id": 9, "required": 0, "img": {"type": 1, "wmin": 50, "hmin": 50}},
                         {"id": 10, "required": 0, "data": {"type": 3}})
    b = only_bid(port, bid_request(imp("1", MAIN, req)))
    a = answer(b)
    assert set(a) == {1, 6, 9, 10}, "the creative has no phone number (type 8)"
    assert a[6]["data"]["value"] == "$1.99"
    assert a[9]["img"]["type"] == 1


def test_text_is_cut_to_the_requested_len(port, rpc):
    req = native_request({"id": 1, "required": 1, "title": {"len": 10}},
                         {"id": 2, "required": 1, "data": {"type": 2, "len": 20}},
                         {"id": 3, "required": 0, "data": {"type": 12, "len": 7}},
                         {"id": 4, "required": 0, "data": {"type": 1, "len": 90}})
    a = answer(only_bid(port, bid_request(imp("1", MAIN, req))))
    assert a[1]["title"]["text"] == FULL_HEADLINE[:10]
    assert a[2]["data"]["value"] == FULL_BODY[:20]
    assert a[3]["data"]["value"] == "Install"
    assert a[4]["data"]["value"] == "Acme Corp", "a text within its len is whole"


# ------------------------------------------------------------------------------------------
# bidfloor, price, ids


@pytest.mark.parametrize("floor,crid,price", [(None, "bid-full", 2.5), (0.5, "bid-full", 2.5), (2.5, "bid-full", 2.5),
                                              (2.51, "bid-video", 4.0), (4.0, "bid-video", 4.0)])
def test_the_best_creative_reaching_the_floor_bids_its_ecpm(port, floor, crid, price):
    b = only_bid(port, bid_request(imp("1", MAIN, native_request(TITLE), bidfloor=floor)))
    assert (b["crid"], b["price"]) == (crid, price)


def test_creatives_that_meet_but_none_reaching_the_floor_is_502(port):
    assert no_bid(port, bid_request(imp("1", MAIN, native_request(TITLE), bidfloor=4.01))) == {
        "1": 502, "_header": "1=502"}


def test_the_same_request_gets_the_same_response(port):
    body = bid_request(imp("a", MAIN, SPEC_61), imp("b", MAIN, SPEC_61), imp("c", RTB, native_request(TITLE)),
                       id="det-1")
    first = bid_response(port, body)
    second = bid_response(port, body)
    assert first == second, "the bidder is deterministic: ids included"
    bids = bids_by_imp(first)
    assert set(bids) == {"a", "b", "c"}
    assert bids["a"]["crid"] == bids["b"]["crid"] == "bid-full"
    assert bids["a"]["id"] != bids["b"]["id"]
    assert bids["c"]["crid"] == "bid-rtb" and bids["c"]["price"] == 3.0


# ------------------------------------------------------------------------------------------
# No bid: ext.noBid, 204 and its header


def test_a_mixed_response_lists_the_impressions_without_a_bid(port):
    body = bid_request(
        imp("1", MAIN, native_request(TITLE)),
        imp("2", "/e2e/bidder/no-such-unit", native_request(TITLE)),
        imp("3", MAIN, native_request(TITLE, {"id": 2, "required": 1, "img": {"type": 1, "wmin": 999, "hmin": 999}})),
        imp("4", MAIN, native_request(TITLE), bidfloor=50),
        {"id": "5", "tagid": MAIN, "banner": {"w": 300, "h": 250}},
        imp("6", MAIN, {"ver": "1.2"}),
        imp("7", MAIN, native_request({"id": 1, "required": 1, "title": {"len": 20}, "img": {"type": 3}})),
        imp("8", MAIN, native_request(TITLE, VIDEO)),
        imp("9", MAIN, "{not json"),
        id="mixed-1",
    )
    resp = bid_response(port, body)
    bids = bids_by_imp(resp)
    assert {k: b["crid"] for k, b in bids.items()} == {"1": "bid-full", "8": "bid-video"}
    entries = no_bid_entries(resp)
    assert {k: e["nbr"] for k, e in entries.items()} == {"2": 500, "3": 501, "4": 502, "5": 503, "6": 2, "7": 2,
                                                         "9": 2}
    assert any("assets" in s for s in strings_in(entries["6"])), f"the message names the place: {entries['6']}"
    assert any("assets[0]" in s for s in strings_in(entries["7"])), f"the message names the place: {entries['7']}"


def test_a_response_where_every_impression_bids_has_no_no_bid_list(port):
    resp = bid_response(port, bid_request(imp("1", MAIN, native_request(TITLE)), imp("2", RTB, native_request(TITLE))))
    assert not (resp.get("ext") or {}).get("noBid"), resp


def test_nothing_bidding_is_204_with_the_reasons_in_a_header(port):
    reasons = no_bid(port, bid_request(
        imp("1", MAIN, native_request(TITLE, {"id": 2, "required": 1, "img": {"type": 1, "wmin": 999, "hmin": 1}})),
        imp("2", "/e2e/bidder/nowhere", native_request(TITLE))))
    assert reasons == {"1": 501, "2": 500, "_header": "1=501; 2=500"}


@pytest.mark.parametrize("imp_obj,nbr", [
    (imp("1", "/e2e/bidder/nowhere", native_request(TITLE)), 500),
    ({"id": "1", "tagid": MAIN, "banner": {"w": 320, "h": 50}}, 503),
    ({"id": "1", "tagid": MAIN, "native": {"ver": "1.2"}}, 2),
    (imp("1", MAIN, {"ver": "1.2"}), 2),
    (imp("1", MAIN, "[1, 2]"), 2),
], ids=["unknown-tagid", "no-native", "native-without-request", "no-assets", "request-not-an-object"])
def test_each_no_bid_reason_alone(port, imp_obj, nbr):
    assert no_bid(port, bid_request(imp_obj)) == {"1": nbr, "_header": f"1={nbr}"}


@pytest.mark.parametrize("body,error", [
    (b"{not json", None),
    (b"[1, 2]", None),
    (b"\"a bid request\"", None),
    (dumps({"imp": [imp("1", MAIN, native_request(TITLE))]}), None),
    (dumps({"id": "bad-1"}), None),
    (dumps({"id": "bad-1", "imp": "one"}), None),
    (dumps({"id": "bad-1", "imp": [{"tagid": MAIN, "native": {"request": "{}"}}]}), "imp[0].id is required"),
    (dumps({"id": "bad-1", "imp": [imp("1", MAIN, native_request(TITLE)), {"tagid": MAIN}]}), "imp[1].id is required"),
], ids=["not-json", "array", "string", "no-id", "no-imp", "imp-not-array", "imp-without-id", "second-imp-without-id"])
def test_a_body_that_is_no_bid_request_is_400(port, body, error):
    r = auction(port, body)
    assert r.status == 400, (r.status, r.body[:500])
    reply = r.json()
    assert reply.get("nbr") == 2, reply
    assert isinstance((reply.get("ext") or {}).get("error"), str), reply
    if error is not None:
        assert reply["ext"]["error"] == error, reply
        assert reply.get("id") == "bad-1", reply
    assert "id" in reply, reply


# ------------------------------------------------------------------------------------------
# Targeting


@pytest.mark.parametrize("extra,crid", [
    ({"site": {"page": "https://publisher.example/", "keywords": "boats,cars"}}, "tg-cars"),
    ({"site": {"page": "https://news.example/autos/today"}}, "tg-url"),
    ({"app": {"bundle": "com.example.app", "keywords": "CARS"}}, "tg-cars"),
    ({"site": {"page": "https://publisher.example/"}}, "tg-open"),
], ids=["site-keywords", "site-page", "app-keywords", "no-targeting"])
def test_targeting_is_matched_against_site_and_app(port, extra, crid):
    body = bid_request(imp("1", TARGETED, native_request(TITLE)))
    body.pop("site")
    body.update(extra)
    assert only_bid(port, body)["crid"] == crid


def test_among_equal_priorities_the_higher_ecpm_bids(port):
    b = only_bid(port, bid_request(imp("1", ECPM, native_request(TITLE))))
    assert (b["crid"], b["price"]) == ("e-high", 2.0)
    b = only_bid(port, bid_request(imp("1", ECPM, native_request(TITLE), bidfloor=1.5)))
    assert b["crid"] == "e-high"


# ------------------------------------------------------------------------------------------
# Trackers and privacy in the adm


@pytest.mark.parametrize("offered,expected", [
    (None, []),
    ([{"event": 1, "methods": [1]}], [(1, 1, "https://t.example/rtb-ev1-img")]),
    ([{"event": 1, "methods": [2]}], [(1, 2, "https://t.example/rtb-ev1.js")]),
    ([{"event": 1, "methods": [1, 2]}, {"event": 2, "methods": [1]}],
     [(1, 1, "https://t.example/rtb-ev1-img"), (1, 2, "https://t.example/rtb-ev1.js"),
      (2, 1, "https://t.example/rtb-ev2-img")]),
    ([{"event": 3, "methods": [1]}], []),
], ids=["none-offered", "impression-pixel", "impression-js", "the-spec-examples-offer", "other-event"])
def test_eventtrackers_are_those_the_request_offers(port, offered, expected):
    extra = {} if offered is None else {"eventtrackers": offered}
    native = adm(only_bid(port, bid_request(imp("1", RTB, native_request(TITLE, **extra)))))
    got = [(t["event"], t["method"], t.get("url")) for t in native.get("eventtrackers") or []]
    assert got == expected
    assert native.get("imptrackers") == ["https://t.example/rtb-imp"], native


def test_the_adm_hands_out_its_trackers_when_loaded(port, rpc):
    b = only_bid(port, bid_request(imp("1", RTB, native_request(TITLE, eventtrackers=[{"event": 1, "methods": [1]}]))))
    (ad,) = load_adm(rpc, b["adm"])
    assert ad["headline"] == "RTB creative headline"
    assert rpc.call("recordImpression", adId=ad["adId"]) == {
        "recorded": True, "trackingURLs": ["https://t.example/rtb-imp", "https://t.example/rtb-ev1-img"]}


@pytest.mark.parametrize("privacy,expected", [(1, "https://privacy.example/rtb"), (0, None), (None, None)])
def test_privacy_only_when_the_request_allows_it(port, privacy, expected):
    extra = {} if privacy is None else {"privacy": privacy}
    native = adm(only_bid(port, bid_request(imp("1", RTB, native_request(TITLE, **extra)))))
    assert native.get("privacy") == expected, native


def test_the_whole_bid_response_loads_as_an_ad_response_string(port, rpc):
    body = bid_request(imp("1", MAIN, native_request(TITLE)), imp("2", RTB, native_request(TITLE)),
                       imp("3", MAIN, native_request(TITLE, VIDEO)))
    r = auction(port, body)
    assert r.status == 200, r
    ads = load_adm(rpc, r.body.decode("utf-8"), options={"numberOfAds": 5})
    assert [a["headline"] for a in ads] == ["Video Widget Launch", "RTB creative headline", FULL_HEADLINE], (
        "highest price first: 4.0, 3.0, 2.5")
    for ad in ads:
        info = ad["responseInfo"]["adNetworkInfoArray"]
        assert [(e["adNetworkClassName"], e["adSourceName"]) for e in info] == [("OpenRTB", SEAT)]


# ------------------------------------------------------------------------------------------
# HTTP rules


def test_the_auction_keeps_the_http_host_and_origin_rules(port):
    body = bid_request(imp("1", MAIN, native_request(TITLE)))
    assert auction(port, body, headers={"Origin": "https://evil.example"}).status == 403
    assert auction(port, body, host="evil.example").status == 403
    assert auction(port, body, headers={"Origin": f"http://127.0.0.1:{port}"}).status == 200



def test_the_auction_keeps_the_http_size_content_type_and_method_rules(server_factory, tmp_path):
    path = write_json(str(tmp_path / "bidder-store.json"), bidder_store())
    srv = server_factory(stdio=False, http=True, args=["--store", path, "--max-message-bytes", 2000], spread=False)
    p = srv.http_port
    small = dumps(bid_request(imp("1", MAIN, native_request(TITLE))))
    big = dumps(bid_request(imp("1", MAIN, native_request(TITLE)), ext={"pad": "x" * 3000}))
    (r,) = http_exchange(p, request_bytes("POST", AUCTION, p, body=big))
    assert r.status == 413, r
    (r,) = http_exchange(p, request_bytes("POST", AUCTION, p, body=small, content_type="text/plain"))
    assert r.status == 415, r
    for method in ("PUT", "DELETE"):
        (r,) = http_exchange(p, request_bytes(method, AUCTION, p, body=small))
        assert r.status == 405, (method, r)
    (r,) = http_exchange(p, request_bytes("GET", AUCTION, p, content_type=None))
    assert r.status == 405, r
    # Within the limits the same server bids.
    (r,) = http_exchange(p, request_bytes("POST", AUCTION, p, body=small))
    assert r.status == 200 and r.json()["seatbid"][0]["bid"][0]["crid"] == "bid-full", r

# ------------------------------------------------------------------------------------------
# The adm is a response of the schema loadAd reads


def test_every_adm_validates_against_the_response_schema(port):
    jsonschema = pytest.importorskip("jsonschema")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schemas",
                        "openrtb-native-1.2-response.schema.json")
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    v = jsonschema.validators.validator_for(schema)(schema)
    body = bid_request(imp("1", MAIN, SPEC_61), imp("2", MAIN, SPEC_62), imp("3", MAIN, native_request(TITLE, VIDEO)),
                       imp("4", RTB, native_request(TITLE, privacy=1, eventtrackers=[{"event": 1, "methods": [1, 2]}])))
    for b in bid_response(port, body)["seatbid"][0]["bid"]:
        errors = [f"{list(e.path)}: {e.message}" for e in v.iter_errors(json.loads(b["adm"]))]
        assert not errors, (b["impid"], errors[:5])


# ------------------------------------------------------------------------------------------
# Limits: --max-auction-imps, and --max-response-assets for a native request's assets


@pytest.fixture(scope="module")
def limited_bidder(tmp_path_factory):
    d = tmp_path_factory.mktemp("bidder-limits")
    path = write_json(str(d / "bidder-store.json"), bidder_store())
    srv = Server(str(d), stdio=False, tcp=True, http=True, spread=False,
                 args=["--store", path, "--max-auction-imps", "2", "--max-response-assets", "2"])
    yield srv
    srv.stop()


TITLE_ONLY = native_request({"id": 1, "required": 1, "title": {"len": 25}})


def test_a_bid_request_holds_at_most_max_auction_imps_impressions(limited_bidder):
    port = limited_bidder.http_port
    ok = auction(port, bid_request(imp("1", MAIN, TITLE_ONLY), imp("2", MAIN, TITLE_ONLY)))
    assert ok.status == 200, (ok.status, ok.body[:500])
    assert len(json.loads(ok.body)["seatbid"][0]["bid"]) == 2
    over = auction(port, bid_request(*[imp(str(i), MAIN, TITLE_ONLY) for i in range(3)], id="too-many"))
    assert over.status == 400, (over.status, over.body[:500])
    body = json.loads(over.body)
    assert body["id"] == "too-many" and body["nbr"] == 2, body
    assert body["ext"]["error"].startswith("imp holds more impressions") and "at most 2" in body["ext"]["error"], body


def test_the_default_impression_limit_is_64(port):
    ok = auction(port, bid_request(*[imp(str(i), MAIN, TITLE_ONLY) for i in range(64)]))
    assert ok.status == 200, (ok.status, ok.body[:300])
    over = auction(port, bid_request(*[imp(str(i), MAIN, TITLE_ONLY) for i in range(65)]))
    assert over.status == 400 and "at most 64" in json.loads(over.body)["ext"]["error"], over.body[:300]


def test_a_native_request_asks_for_at_most_max_response_assets(limited_bidder):
    port = limited_bidder.http_port
    two = native_request({"id": 1, "required": 1, "title": {"len": 25}}, {"id": 2, "data": {"type": 2}})
    three = native_request({"id": 1, "required": 1, "title": {"len": 25}}, {"id": 2, "data": {"type": 2}},
                           {"id": 3, "data": {"type": 1}})
    mixed = auction(port, bid_request(imp("ok", MAIN, two), imp("big", MAIN, three)))
    assert mixed.status == 200, (mixed.status, mixed.body[:500])
    body = json.loads(mixed.body)
    assert [b["impid"] for b in body["seatbid"][0]["bid"]] == ["ok"]
    [no_bid] = body["ext"]["noBid"]
    assert no_bid["impid"] == "big" and no_bid["nbr"] == 2, no_bid
    assert no_bid["reason"].startswith("imp[1].native.request.assets asks for more assets"), no_bid


def test_load_ad_native_request_assets_are_bounded_too(limited_bidder):
    c = limited_bidder.connect()
    three = native_request({"id": 1, "title": {"len": 25}}, {"id": 2, "data": {"type": 2}},
                           {"id": 3, "data": {"type": 1}})
    response = {"link": {"url": "https://x.example/"}, "assets": [{"id": 1, "title": {"text": "t"}}]}
    err = c.error("loadAd", {"adUnitID": "/x", "adResponseString": json.dumps(response), "nativeRequest": three})
    assert err["code"] == -32602 and err["data"]["field"] == "nativeRequest.assets", err
    c.close()
