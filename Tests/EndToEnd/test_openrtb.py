"""OpenRTB Native 1.2 (contract section 10, docs/openrtb.md): `loadAd` with `adResponseString`
(bare and wrapped Native responses, OpenRTB 2.x bid responses), the asset mapping, `nativeRequest`
typing untyped assets by id (the IAB spec's section 6 examples), image sizes, VAST durations,
AdChoices and response info, `1013` failures naming the exact place, the trackers handed to the
caller (`trackingURLs`, `tracker` events in the log), deep links and fallbacks, `exportAd` and
its round trip, and store creatives written in OpenRTB.

Most tests share one private server with the built-in inventory (a response string needs no
store); the tests that show what holds on every transport use `conn`."""
from __future__ import annotations

import copy
import json
import os
import threading

import pytest

from e2e_support import (
    ADCHOICES_PAGE,
    ADMOB_UNIT,
    BACKFILL_UNIT,
    MEDIATION_UNIT,
    MISSING,
    NATIVE_UNIT,
    RFC3339_MILLIS,
    VIDEO_UNIT,
    Server,
    assert_ad_not_found,
    assert_error,
    assert_invalid_params,
    check_any_image,
    check_mediated_ad,
    check_response_info,
    creative_image,
    is_int,
    load_ads,
    load_custom,
    load_one,
    mediated_load,
    run_once,
    start_private,
    write_json,
)

RS_UNIT = "/e2e/openrtb/not-in-the-store"
DEFAULT_SOURCE = "OpenRTB Native 1.2"
NETWORK_CLASS = "OpenRTB"
EXPORT_FORMAT = "openrtb-native-1.2"
TEXT_KEYS = ("headline", "body", "callToAction", "store", "price", "advertiser")


# ------------------------------------------------------------------------------------------
# Fixtures and helpers


@pytest.fixture(scope="module")
def rtb_server(tmp_path_factory):
    srv = start_private(str(tmp_path_factory.mktemp("openrtb")))
    yield srv
    srv.stop()


@pytest.fixture
def rconn(rtb_server):
    """A connection to the module's server (built-in inventory; response strings need no store)."""
    assert rtb_server.alive(), rtb_server.describe()
    c = rtb_server.stdio
    c.sync()
    return c


def as_string(response) -> str:
    return response if isinstance(response, str) else json.dumps(response)


def rs_params(response, native_request=MISSING, unit=RS_UNIT, **params) -> dict:
    p = {"adUnitID": unit, "adResponseString": as_string(response)}
    if native_request is not MISSING:
        p["nativeRequest"] = native_request
    p.update(params)
    return p


def rs_load(c, response, native_request=MISSING, unit=RS_UNIT, **params) -> dict:
    """loadAd with adResponseString that must succeed; every ad shape-checked. Returns the result."""
    p = rs_params(response, native_request, unit, **params)
    resp = c.request("loadAd", p)
    assert "result" in resp, f"the response string should load: {json.dumps(resp)[:3000]}"
    result = resp["result"]
    assert isinstance(result, dict) and isinstance(result.get("ads"), list) and result["ads"], result
    check_response_info(result.get("responseInfo"))
    loaded = not ((params.get("options") or {}).get("disableImageLoading") or False)
    for ad in result["ads"]:
        check_mediated_ad(ad, loaded=loaded)
        assert ad["kind"] == "native", ad
    return result


def rs_one(c, response, native_request=MISSING, unit=RS_UNIT, **params) -> dict:
    ads = rs_load(c, response, native_request, unit, **params)["ads"]
    assert len(ads) == 1, [a["headline"] for a in ads]
    return ads[0]


def rs_error(c, response, native_request=MISSING, unit=RS_UNIT, **params) -> dict:
    p = rs_params(response, native_request, unit, **params)
    resp = c.request("loadAd", p)
    assert "error" in resp, f"the load should have failed: {json.dumps(resp)[:2000]}"
    return resp["error"]


def assert_invalid_response(err: dict, field: str | tuple[str, ...], contains: str | None = None) -> dict:
    """1013 receivedInvalidResponse naming the place in data.field and in the message, with the
    response info of a failed load (one OpenRTB entry carrying the error)."""
    fields = (field,) if isinstance(field, str) else field
    assert err.get("code") == 1013, f"expected 1013, got {err!r}"
    data = err.get("data")
    assert isinstance(data, dict), err
    assert data.get("gadErrorCode") == 13 and data.get("name") == "receivedInvalidResponse", err
    assert data.get("field") in fields, f"expected data.field in {fields}: {err!r}"
    message = err.get("message")
    assert isinstance(message, str) and message.startswith("Invalid ad response: " + data["field"]), (
        f"the message should be 'Invalid ad response: {data['field']} ...': {message!r}")
    if contains is not None:
        assert contains in message, f"the message should say {contains!r}: {message!r}"
    ri = data.get("responseInfo")
    check_response_info(ri)
    assert ri["loadedAdNetworkResponseInfo"] is None, ri
    assert len(ri["adNetworkInfoArray"]) == 1, ri
    entry = ri["adNetworkInfoArray"][0]
    assert entry["adNetworkClassName"] == NETWORK_CLASS, entry
    assert entry["error"] is not None, entry
    return err


def ad_source(ad: dict) -> str:
    ri = ad["responseInfo"]
    assert len(ri["adNetworkInfoArray"]) == 1, ri
    entry = ri["adNetworkInfoArray"][0]
    assert entry["adNetworkClassName"] == NETWORK_CLASS and entry["error"] is None, entry
    assert ri["loadedAdNetworkResponseInfo"] == entry, ri
    return entry["adSourceName"]


def img_tuple(img):
    return None if img is None else (img["url"], img["width"], img["height"])


def check_tracker_event(e: dict) -> dict:
    assert isinstance(e, dict), e
    assert is_int(e.get("sequence")) and e["sequence"] >= 1, e
    assert isinstance(e.get("time"), str) and RFC3339_MILLIS.match(e["time"]), e
    assert isinstance(e.get("adId"), str), e
    assert e.get("type") == "tracker" and e.get("event") == "tracker", e
    assert e.get("trigger") in ("impression", "click"), e
    assert isinstance(e.get("url"), str) and e["url"], e
    assert "assetKey" in e and (e["assetKey"] is None or isinstance(e["assetKey"], str)), e
    if e["trigger"] == "impression":
        assert e["assetKey"] is None, e
    return e


def events_of(c, **filters) -> list[dict]:
    """getEvents (tracker entries allowed; e2e_support.get_events knows adEvent and videoEvent
    only), sequences increasing."""
    result = c.call("getEvents", filters)
    assert isinstance(result, dict) and isinstance(result.get("events"), list), result
    events = result["events"]
    for e in events:
        assert e.get("type") in ("adEvent", "videoEvent", "tracker"), e
        if e["type"] == "tracker":
            check_tracker_event(e)
    seqs = [e["sequence"] for e in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs), seqs
    return events


def log_lines(c, ad_id: str) -> list[tuple]:
    """The ad's log as (event, assetKey) for ad events and ("tracker", trigger, url, assetKey)."""
    out = []
    for e in events_of(c, adId=ad_id):
        if e["type"] == "tracker":
            out.append(("tracker", e["trigger"], e["url"], e["assetKey"]))
        else:
            out.append((e["event"], e["assetKey"]))
    return out


def click(c, ad_id, key, schemes=None):
    params = {"adId": ad_id, "key": key}
    if schemes is not None:
        params["openableURLSchemes"] = schemes
    return c.call("performClickOnAsset", params)


def no_tracker_notifications(c) -> None:
    c.barrier()
    for n in c.notifications:
        params = n.get("params") or {}
        assert "tracker" not in n.get("method", "").lower(), n
        assert params.get("event") != "tracker" and "trackingURLs" not in params, n


# ------------------------------------------------------------------------------------------
# Responses used by the tests

LANDING = "https://adv.example/landing"
VAST_15 = ('<VAST version="3.0"><Ad id="1"><InLine><AdSystem>e2e</AdSystem><AdTitle>t</AdTitle><Creatives>'
           '<Creative><Linear><Duration>00:00:15</Duration><MediaFiles><MediaFile delivery="progressive" '
           'type="video/mp4" width="640" height="360">https://cdn.example/v.mp4</MediaFile></MediaFiles>'
           '</Linear></Creative></Creatives></InLine></Ad></VAST>')


def vast(duration: str | None) -> str:
    d = f"<Duration>{duration}</Duration>" if duration is not None else ""
    return (f'<VAST version="4.0"><Ad><InLine><Creatives><Creative><Linear>{d}</Linear></Creative>'
            f'</Creatives></InLine></Ad></VAST>')


def minimal(headline="Minimal headline", url=LANDING, **extra) -> dict:
    r = {"ver": "1.2", "link": {"url": url}, "assets": [{"id": 1, "title": {"text": headline}}]}
    r.update(extra)
    return r


# Trackers: the impression gets imptrackers, then event 1 / method 1 pixels; each URL once.
TRACKED = {
    "ver": "1.2",
    "link": {"url": LANDING, "clicktrackers": ["https://t.example/click1", "https://t.example/click2"]},
    "assets": [
        {"id": 1, "required": 1, "title": {"text": "Tracked headline"}},
        {"id": 2, "img": {"type": 1, "url": "https://cdn.example/tracked-icon.png", "w": 80, "h": 80}},
        {"id": 3, "img": {"type": 3, "url": "https://cdn.example/tracked-main.png", "w": 1200, "h": 627}},
        {"id": 4, "data": {"type": 1, "value": "Tracked Brand"}},
        {"id": 5, "data": {"type": 2, "value": "A body with trackers."}},
        {"id": 6, "data": {"type": 12, "value": "Shop now"},
         "link": {"url": "https://adv.example/cta",
                  "clicktrackers": ["https://t.example/cta-click", "https://t.example/click1"]}},
    ],
    "imptrackers": ["https://t.example/imp1", "https://t.example/imp2"],
    "eventtrackers": [
        {"event": 1, "method": 1, "url": "https://t.example/ev-imp"},
        {"event": 1, "method": 1, "url": "https://t.example/imp1"},
        {"event": 1, "method": 2, "url": "https://t.example/tracker.js"},
        {"event": 2, "method": 1, "url": "https://t.example/viewable50"},
        {"event": 3, "method": 1, "url": "https://t.example/viewable100"},
    ],
    "jstracker": "<script src=\"https://t.example/js-imp.js\"></script>",
    "privacy": "https://privacy.example/why",
}
TRACKED_IMP = ["https://t.example/imp1", "https://t.example/imp2", "https://t.example/ev-imp"]
TRACKED_CLICK = ["https://t.example/click1", "https://t.example/click2"]
TRACKED_CTA_CLICK = ["https://t.example/cta-click", "https://t.example/click1", "https://t.example/click2"]

# Every asset of the mapping table, typed (no request needed).
EVERY_ASSET = {
    "ver": "1.2",
    "link": {"url": LANDING},
    "assets": [
        {"id": 1, "title": {"text": "Every asset"}},
        {"id": 2, "title": {"text": "Second title"}},
        {"id": 3, "img": {"type": 1, "url": "https://cdn.example/icon.png", "w": 64, "h": 64}},
        {"id": 4, "img": {"type": 2, "url": "https://cdn.example/logo.png", "w": 40, "h": 20}},
        {"id": 5, "img": {"type": 3, "url": "https://cdn.example/main1.png", "w": 1200, "h": 627}},
        {"id": 6, "img": {"type": 3, "url": "https://cdn.example/main2.png", "w": 600, "h": 600}},
        {"id": 7, "img": {"type": 501, "url": "https://cdn.example/custom501.png", "w": 30, "h": 30}},
        {"id": 8, "data": {"type": 1, "value": "Brand A"}},
        {"id": 9, "data": {"type": 1, "value": "Brand B"}},
        {"id": 10, "data": {"type": 2, "value": "The description."}},
        {"id": 11, "data": {"type": 3, "value": "4.5"}},
        {"id": 12, "data": {"type": 4, "value": "1,234 likes"}},
        {"id": 13, "data": {"type": 5, "value": "10M downloads"}},
        {"id": 14, "data": {"type": 6, "value": "$0.99"}},
        {"id": 15, "data": {"type": 7, "value": "$0.49"}},
        {"id": 16, "data": {"type": 8, "value": "+1 555 0100"}},
        {"id": 17, "data": {"type": 9, "value": "1 Main St, Springfield"}},
        {"id": 18, "data": {"type": 10, "value": "More description."}},
        {"id": 19, "data": {"type": 11, "value": "adv.example"}},
        {"id": 20, "data": {"type": 12, "value": "Install"}},
        {"id": 21, "data": {"type": 501, "value": "custom data"}},
        {"id": 22, "data": {"type": 4, "value": "99 likes more"}},
    ],
    "ext": {"store": "App Store", "extraAssets": {"promo": "Spring sale", "badge": "New"}},
}
EVERY_EXTRA = {
    "headline.2": "Second title",
    "icon.2": "https://cdn.example/logo.png",
    "img501": "https://cdn.example/custom501.png",
    "advertiser.2": "Brand B",
    "likes": "1,234 likes",
    "likes.2": "99 likes more",
    "downloads": "10M downloads",
    "salePrice": "$0.49",
    "phone": "+1 555 0100",
    "address": "1 Main St, Springfield",
    "desc2": "More description.",
    "displayURL": "adv.example",
    "data501": "custom data",
    "promo": "Spring sale",
    "badge": "New",
}

# The IAB spec's section 6.1 and 6.2 examples (quotes straightened, "eventtrackers" spelled as
# section 4.1 spells it, and the link's stray space removed).
SPEC_61_REQUEST = {
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
SPEC_61_RESPONSE = {
    "native": {
        "link": {"url": "http://i.am.a/URL"},
        "assets": [
            {"id": 123, "required": 1, "title": {"text": "Learn about this awesome thing"}},
            {"id": 124, "required": 1, "img": {"url": "http://www.myads.com/thumbnail1.png"}},
            {"id": 128, "required": 1, "img": {"url": "http://www.myads.com/largethumb1.png"}},
            {"id": 126, "required": 1, "data": {"value": "My Brand"}},
            {"id": 127, "required": 1,
             "data": {"value": "Learn all about this awesome story of someone using my product."}},
        ],
        "eventtrackers": [
            {"event": 1, "method": 2, "url": "http://www.mytracker.com/tracker.js"},
            {"event": 2, "method": 1, "url": "http://www.mytracker.com/tracker.php"},
        ],
        "privacy": "http://www.myprivacyurl.com",
    }
}
SPEC_62_REQUEST = {
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
SPEC_62_RESPONSE = {
    "native": {
        "link": {"url": "http://i.am.a/URL"},
        "assets": [
            {"id": 4, "video": {"vasttag": "<VAST version='2.0'></VAST>"}},
            {"id": 123, "required": 1, "title": {"text": "Watch this awesome thing"}},
            {"id": 124, "required": 1, "img": {"url": "http://www.myads.com/thumbnail1.png"}},
            {"id": 128, "required": 1, "img": {"url": "http://www.myads.com/largethumb1.png"}},
            {"id": 126, "required": 1, "data": {"value": "My Brand"}},
            {"id": 127, "required": 1,
             "data": {"value": "Watch all about this awesome story of someone using my product."}},
        ],
    }
}


def bid(price, native, *, bid_id, crid="c", adm_as="string", wrap=False):
    body = {"native": native} if wrap else native
    return {"id": bid_id, "impid": "1", "price": price, "crid": crid,
            "adm": json.dumps(body) if adm_as == "string" else body}


# ------------------------------------------------------------------------------------------
# Loading: the shapes of a response string


def test_a_bare_native_response_loads_as_an_indirect_openrtb_ad(conn):
    ad = rs_one(conn, minimal("Hello OpenRTB"))
    assert ad["headline"] == "Hello OpenRTB"
    for k in ("body", "callToAction", "store", "price", "advertiser", "starRating", "icon"):
        assert ad[k] is None, (k, ad[k])
    assert ad["images"] == [] and ad["extraAssets"] == {}
    assert ad["mediaContent"]["hasVideoContent"] is False and ad["mediaContent"]["mainImage"] is None
    assert ad_source(ad) == DEFAULT_SOURCE
    ac = ad["adChoices"]
    assert ac is not None and ac["position"] == "topRight" and ac["clickURL"] == ADCHOICES_PAGE, ac
    assert conn.call("stringForKey", adId=ad["adId"], key="headline") == "Hello OpenRTB"
    assert click(conn, ad["adId"], "headline") == {"recorded": True, "action": "landingPage", "url": LANDING,
                                                   "trackingURLs": []}


def test_a_wrapped_native_response_loads_the_same(rconn):
    bare = rs_one(rconn, EVERY_ASSET)
    wrapped = rs_one(rconn, {"native": EVERY_ASSET})
    for k in TEXT_KEYS + ("starRating", "extraAssets"):
        assert bare[k] == wrapped[k], k
    assert img_tuple(bare["icon"]) == img_tuple(wrapped["icon"])
    assert ad_source(wrapped) == DEFAULT_SOURCE


def test_the_unit_need_not_be_in_the_store_and_may_be_one(rconn):
    for unit in (RS_UNIT, "/no/such/unit/anywhere", NATIVE_UNIT):
        ad = rs_one(rconn, minimal(f"for {unit}"), unit=unit)
        assert ad["headline"] == f"for {unit}", "a response string serves its own ad, not the unit's"


@pytest.mark.parametrize("adm_as,wrap", [("string", False), ("string", True), ("object", False),
                                         ("object", True)], ids=["string", "string-wrapped", "object",
                                                                 "object-wrapped"])
def test_a_bid_response_loads_the_native_response_of_its_bid(rconn, adm_as, wrap):
    response = {"id": "resp-1", "cur": "USD", "seatbid": [{"seat": "dsp-seat-7", "bid": [
        bid(1.25, minimal("From the adm"), bid_id="b-1", adm_as=adm_as, wrap=wrap)]}]}
    ad = rs_one(rconn, response)
    assert ad["headline"] == "From the adm"
    assert ad_source(ad) == "dsp-seat-7"


def test_a_bid_without_seat_is_named_after_openrtb_native(rconn):
    response = {"id": "resp-2", "seatbid": [{"bid": [bid(1.0, minimal("No seat"), bid_id="b")]}]}
    assert ad_source(rs_one(rconn, response)) == DEFAULT_SOURCE


def test_bids_are_served_highest_price_first_up_to_number_of_ads(rconn):
    response = {"id": "resp-3", "seatbid": [
        {"seat": "seat-a", "bid": [bid(1.0, minimal("one dollar"), bid_id="a1"),
                                   bid(2.0, minimal("two dollars"), bid_id="a2")]},
        {"seat": "seat-b", "bid": [bid(3.0, minimal("three dollars"), bid_id="b1"),
                                   bid(0.5, minimal("half a dollar"), bid_id="b2")]},
    ]}
    one = rs_load(rconn, response)["ads"]
    assert [a["headline"] for a in one] == ["three dollars"]
    two = rs_load(rconn, response, options={"numberOfAds": 2})["ads"]
    assert [a["headline"] for a in two] == ["three dollars", "two dollars"]
    # The ads of one load share its response info: the winning bid's seat.
    assert [ad_source(a) for a in two] == ["seat-b", "seat-b"]
    assert len({a["responseInfo"]["responseIdentifier"] for a in two}) == 1
    every = rs_load(rconn, response, options={"numberOfAds": 5})["ads"]
    assert [a["headline"] for a in every] == ["three dollars", "two dollars", "one dollar", "half a dollar"]
    assert [ad_source(a) for a in every] == ["seat-b"] * 4
    assert len({a["adId"] for a in every}) == 4


def test_a_native_response_is_one_ad_whatever_number_of_ads_says(rconn):
    ads = rs_load(rconn, minimal("single"), options={"numberOfAds": 3})["ads"]
    assert [a["headline"] for a in ads] == ["single"]


@pytest.mark.parametrize("response", [
    {"id": "resp-nobid", "nbr": 8},
    {"id": "resp-nobid", "seatbid": [], "nbr": 8},
    {"id": "resp-nobid", "seatbid": [{"seat": "s", "bid": []}], "nbr": 8},
], ids=["nbr-only", "empty-seatbid", "empty-bids"])
def test_a_bid_response_without_bids_is_no_fill_with_its_nbr(rconn, response):
    err = rs_error(rconn, response)
    assert_error(err, 1001)
    assert err["data"]["name"] == "noFill" and err["data"]["gadErrorCode"] == 1, err
    check_response_info(err["data"]["responseInfo"])
    [entry] = err["data"]["responseInfo"]["adNetworkInfoArray"]
    assert entry["error"]["code"] == 1 and "nbr 8" in entry["error"]["message"], entry


def test_ad_types_must_include_native(rconn):
    err = rs_error(rconn, minimal(), adTypes=["customNative"], customNativeAdFormatIDs=["10063170"])
    assert err["code"] in (1000, -32602), err
    assert rs_one(rconn, minimal("both"), adTypes=["native", "customNative"],
                  customNativeAdFormatIDs=["10063170"])["headline"] == "both"


@pytest.mark.parametrize("params,field", [({"adResponseString": 5}, "adResponseString"),
                                          ({"adResponseString": {"native": {}}}, "adResponseString"),
                                          ({"adResponseString": "{}", "nativeRequest": 5}, "nativeRequest"),
                                          ({"adResponseString": "{}", "nativeRequest": [1]}, "nativeRequest")])
def test_params_of_the_wrong_type_are_invalid_params(rconn, params, field):
    assert_invalid_params(rconn.error("loadAd", dict(params, adUnitID=RS_UNIT)), field)


# ------------------------------------------------------------------------------------------
# How assets map


def test_every_asset_type_maps_to_its_place(rconn):
    ad = rs_one(rconn, EVERY_ASSET, options={"shouldRequestMultipleImages": True})
    assert ad["headline"] == "Every asset"
    assert ad["advertiser"] == "Brand A"
    assert ad["body"] == "The description."
    assert ad["starRating"] == 4.5
    assert ad["price"] == "$0.99"
    assert ad["callToAction"] == "Install"
    assert ad["store"] == "App Store"
    check_any_image(ad["icon"], 64, 64)
    assert ad["icon"]["url"] == "https://cdn.example/icon.png"
    assert [img_tuple(i) for i in ad["images"]] == [("https://cdn.example/main1.png", 1200, 627),
                                                    ("https://cdn.example/main2.png", 600, 600)]
    assert img_tuple(ad["mediaContent"]["mainImage"]) == ("https://cdn.example/main1.png", 1200, 627)
    assert ad["extraAssets"] == EVERY_EXTRA
    for key, value in (("headline", "Every asset"), ("advertiser", "Brand A"), ("store", "App Store"),
                       ("price", "$0.99"), ("callToAction", "Install"), ("body", "The description.")):
        assert rconn.call("stringForKey", adId=ad["adId"], key=key) == value, key
    assert img_tuple(rconn.call("imageForKey", adId=ad["adId"], key="icon")) == img_tuple(ad["icon"])
    assert img_tuple(rconn.call("imageForKey", adId=ad["adId"], key="image")) == img_tuple(ad["images"][0])


def test_without_multiple_images_only_the_first_main_image_is_served(rconn):
    ad = rs_one(rconn, EVERY_ASSET)
    assert [img_tuple(i) for i in ad["images"]] == [("https://cdn.example/main1.png", 1200, 627)]


@pytest.mark.parametrize("data_type,key", [(4, "likes"), (5, "downloads"), (7, "salePrice"), (8, "phone"),
                                           (9, "address"), (10, "desc2"), (11, "displayURL"), (500, "data500"),
                                           (501, "data501"), (1234, "data1234")])
def test_data_types_without_an_ad_place_are_extra_assets(rconn, data_type, key):
    r = minimal(assets=[{"id": 1, "title": {"text": "t"}}, {"id": 2, "data": {"type": data_type, "value": "v1"}}])
    ad = rs_one(rconn, r)
    assert ad["extraAssets"] == {key: "v1"}
    for k in ("body", "callToAction", "store", "price", "advertiser", "starRating"):
        assert ad[k] is None, k


@pytest.mark.parametrize("data_type,key", [(1, "advertiser"), (2, "body"), (6, "price"), (12, "callToAction")])
def test_data_types_with_an_ad_place(rconn, data_type, key):
    r = minimal(assets=[{"id": 1, "title": {"text": "t"}}, {"id": 7, "data": {"type": data_type, "value": "val"}},
                        {"id": 8, "data": {"type": data_type, "value": "again"}}])
    ad = rs_one(rconn, r)
    assert ad[key] == "val"
    assert ad["extraAssets"] == {f"{key}.2": "again"}


@pytest.mark.parametrize("img_type,place", [(1, "icon"), (2, "icon"), (3, "images"), (500, "img500"),
                                            (777, "img777")])
def test_image_types_map_to_icon_images_or_extra_assets(rconn, img_type, place):
    url = f"https://cdn.example/type{img_type}.png"
    r = minimal(assets=[{"id": 1, "title": {"text": "t"}},
                        {"id": 2, "img": {"type": img_type, "url": url, "w": 90, "h": 45}}])
    ad = rs_one(rconn, r)
    if place == "icon":
        assert img_tuple(ad["icon"]) == (url, 90, 45) and ad["images"] == [] and ad["extraAssets"] == {}
    elif place == "images":
        assert [img_tuple(i) for i in ad["images"]] == [(url, 90, 45)] and ad["icon"] is None
        assert img_tuple(ad["mediaContent"]["mainImage"]) == (url, 90, 45)
    else:
        assert ad["extraAssets"] == {place: url} and ad["icon"] is None and ad["images"] == []


def test_repeated_one_value_assets_are_numbered_in_extra_assets(rconn):
    assets = [{"id": 1, "title": {"text": "first"}}, {"id": 2, "title": {"text": "second"}},
              {"id": 3, "title": {"text": "third"}},
              {"id": 4, "img": {"type": 1, "url": "https://cdn.example/i1.png", "w": 10, "h": 10}},
              {"id": 5, "img": {"type": 1, "url": "https://cdn.example/i2.png", "w": 10, "h": 10}},
              {"id": 6, "data": {"type": 1, "value": "s1"}}, {"id": 7, "data": {"type": 1, "value": "s2"}},
              {"id": 8, "data": {"type": 1, "value": "s3"}}]
    ad = rs_one(rconn, minimal(assets=assets))
    assert ad["headline"] == "first" and ad["advertiser"] == "s1"
    assert ad["icon"]["url"] == "https://cdn.example/i1.png"
    assert ad["extraAssets"] == {"headline.2": "second", "headline.3": "third", "icon.2": "https://cdn.example/i2.png",
                                 "advertiser.2": "s2", "advertiser.3": "s3"}


@pytest.mark.parametrize("value,rating", [("4.5", 4.5), ("3.4 stars out of 5", 3.4), ("5", 5), ("0", 0),
                                          ("2 stars", 2), ("4.25/5", 4.25)])
def test_a_rating_is_the_leading_number_of_its_value(rconn, value, rating):
    r = minimal(assets=[{"id": 1, "title": {"text": "t"}}, {"id": 2, "data": {"type": 3, "value": value}}])
    ad = rs_one(rconn, r)
    assert ad["starRating"] == pytest.approx(rating)
    assert ad["extraAssets"] == {}


def test_ext_store_and_ext_extra_assets(rconn):
    r = minimal(ext={"store": "Google Play", "extraAssets": {"promo": "50% off", "Badge Text": "New!"}})
    ad = rs_one(rconn, r)
    assert ad["store"] == "Google Play"
    assert ad["extraAssets"] == {"promo": "50% off", "Badge Text": "New!"}
    assert rconn.call("stringForKey", adId=ad["adId"], key="store") == "Google Play"


def test_unknown_members_are_ignored_everywhere(rconn):
    r = minimal("Unknown members", ext={"vendor": {"x": [1, 2]}}, somethingNew={"a": 1})
    r["link"]["somethingElse"] = 5
    r["assets"][0]["title"]["ext"] = {"k": "v"}
    r["assets"][0]["futureField"] = True
    r["assets"].append({"id": 2, "data": {"type": 2, "value": "b", "ext": {"q": 1}}, "ext": {"z": None}})
    ad = rs_one(rconn, {"native": r, "unknownTop": 1})
    assert ad["headline"] == "Unknown members" and ad["body"] == "b"


def test_assetsurl_and_dcourl_are_never_fetched_the_assets_are_used(rconn):
    r = minimal("The embedded assets", assetsurl="https://adserver.example/getad123nativejson.php",
                dcourl="https://adserver.example/dco")
    assert rs_one(rconn, r)["headline"] == "The embedded assets"


def test_options_apply_to_response_string_ads(rconn):
    ad = rs_one(rconn, TRACKED, options={"disableImageLoading": True, "adChoicesPosition": "bottomLeft"})
    check_any_image(ad["icon"], 80, 80, loaded=False)
    check_any_image(ad["images"][0], 1200, 627, loaded=False)
    assert ad["adChoices"]["position"] == "bottomLeft"
    check_any_image(ad["adChoices"]["image"], loaded=False)
    loaded = rs_one(rconn, TRACKED)
    check_any_image(loaded["icon"], 80, 80, loaded=True)


# ------------------------------------------------------------------------------------------
# nativeRequest: untyped assets take the type of the request asset with their id


@pytest.mark.parametrize("form", ["object", "string"])
def test_the_spec_social_example_loads_with_its_request(rconn, form):
    req = SPEC_61_REQUEST if form == "object" else json.dumps(SPEC_61_REQUEST)
    ad = rs_one(rconn, SPEC_61_RESPONSE, native_request=req)
    assert ad["headline"] == "Learn about this awesome thing"
    assert ad["advertiser"] == "My Brand"
    assert ad["body"] == "Learn all about this awesome story of someone using my product."
    assert img_tuple(ad["icon"]) == ("http://www.myads.com/thumbnail1.png", 50, 50)
    assert [img_tuple(i) for i in ad["images"]] == [("http://www.myads.com/largethumb1.png", 836, 627)]
    assert ad["mediaContent"]["hasVideoContent"] is False
    assert ad["adChoices"]["clickURL"] == "http://www.myprivacyurl.com"
    assert ad["extraAssets"] == {}
    assert click(rconn, ad["adId"], "headline")["url"] == "http://i.am.a/URL"
    # Neither tracker of the example is an image pixel of the impression.
    assert rconn.call("recordImpression", adId=ad["adId"]) == {"recorded": True, "trackingURLs": []}


@pytest.mark.parametrize("form", ["object", "string"])
def test_the_spec_video_example_loads_with_its_request(rconn, form):
    req = SPEC_62_REQUEST if form == "object" else json.dumps(SPEC_62_REQUEST)
    ad = rs_one(rconn, SPEC_62_RESPONSE, native_request=req)
    assert ad["headline"] == "Watch this awesome thing"
    assert ad["advertiser"] == "My Brand"
    assert ad["body"] == "Watch all about this awesome story of someone using my product."
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is True and mc["duration"] == 0, mc
    assert isinstance(mc.get("videoController"), dict), mc
    assert img_tuple(mc["mainImage"]) == ("http://www.myads.com/largethumb1.png", 836, 627)
    assert img_tuple(ad["icon"]) == ("http://www.myads.com/thumbnail1.png", 50, 50)
    assert ad["adChoices"]["clickURL"] == ADCHOICES_PAGE, "the example's response has no privacy URL"


def test_the_spec_example_without_its_request_cannot_place_its_images(rconn):
    err = rs_error(rconn, SPEC_61_RESPONSE)
    assert_invalid_response(err, "native.assets[1].img.type", "native.assets[1].img.type is required")


def test_untyped_data_takes_its_type_from_the_request(rconn):
    req = {"ver": "1.2", "assets": [{"id": 1, "title": {"len": 90}}, {"id": 2, "data": {"type": 12}},
                                    {"id": 3, "data": {"type": 3}}, {"id": 4, "data": {"type": 6}},
                                    {"id": 5, "data": {"type": 11}}, {"id": 6, "img": {"type": 2, "w": 20, "h": 10}}]}
    r = minimal("typed by id", assets=[{"id": 1, "title": {"text": "typed by id"}},
                                       {"id": 2, "data": {"value": "Buy"}},
                                       {"id": 3, "data": {"value": "3.5"}},
                                       {"id": 4, "data": {"value": "Free"}},
                                       {"id": 5, "data": {"value": "shop.example"}},
                                       {"id": 6, "img": {"url": "https://cdn.example/logo.png"}}])
    ad = rs_one(rconn, r, native_request=req)
    assert (ad["callToAction"], ad["starRating"], ad["price"]) == ("Buy", 3.5, "Free")
    assert ad["extraAssets"] == {"displayURL": "shop.example"}
    assert img_tuple(ad["icon"]) == ("https://cdn.example/logo.png", 20, 10)


# ------------------------------------------------------------------------------------------
# Image sizes, video, AdChoices


def test_image_sizes_given_in_the_response_are_kept(rconn):
    req = {"ver": "1.2", "assets": [{"id": 1, "title": {"len": 90}}, {"id": 2, "img": {"type": 3, "w": 640, "h": 360}}]}
    r = minimal(assets=[{"id": 1, "title": {"text": "t"}},
                        {"id": 2, "img": {"url": "https://cdn.example/s.png", "w": 1000, "h": 500}}])
    ad = rs_one(rconn, r, native_request=req)
    check_any_image(ad["images"][0], 1000, 500)


def test_image_sizes_come_from_the_request_w_h_else_wmin_hmin(rconn):
    req = {"ver": "1.2", "assets": [
        {"id": 1, "title": {"len": 90}},
        {"id": 2, "img": {"type": 3, "w": 640, "h": 360, "wmin": 300, "hmin": 200}},
        {"id": 3, "img": {"type": 1, "wmin": 72, "hmin": 48}},
        {"id": 4, "img": {"type": 3, "wmin": 400, "hmin": 300}},
    ]}
    r = minimal(assets=[{"id": 1, "title": {"text": "t"}},
                        {"id": 2, "img": {"url": "https://cdn.example/a.png"}},
                        {"id": 3, "img": {"url": "https://cdn.example/b.png"}},
                        {"id": 4, "img": {"url": "https://cdn.example/c.png"}}])
    ad = rs_one(rconn, r, native_request=req, options={"shouldRequestMultipleImages": True})
    check_any_image(ad["images"][0], 640, 360)
    check_any_image(ad["images"][1], 400, 300)
    check_any_image(ad["icon"], 72, 48)


def test_without_sizes_anywhere_the_iab_recommended_sizes_apply(rconn):
    r = minimal(assets=[{"id": 1, "title": {"text": "t"}},
                        {"id": 2, "img": {"type": 1, "url": "https://cdn.example/icon.png"}},
                        {"id": 3, "img": {"type": 3, "url": "https://cdn.example/main.png"}}])
    ad = rs_one(rconn, r)
    check_any_image(ad["icon"], 50, 50)
    check_any_image(ad["images"][0], 1198, 627)
    check_any_image(ad["mediaContent"]["mainImage"], 1198, 627)


@pytest.mark.parametrize("duration,seconds", [("00:00:15", 15), ("00:01:02", 62), ("01:00:00", 3600),
                                              ("00:00:12.500", 12.5), (None, 0)])
def test_video_duration_comes_from_the_vast_duration(rconn, duration, seconds):
    r = minimal(assets=[{"id": 1, "title": {"text": "video"}}, {"id": 2, "video": {"vasttag": vast(duration)}},
                        {"id": 3, "img": {"type": 3, "url": "https://cdn.example/poster.png", "w": 640, "h": 360}}])
    ad = rs_one(rconn, r)
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is True
    assert mc["duration"] == pytest.approx(seconds)
    assert img_tuple(mc["mainImage"]) == ("https://cdn.example/poster.png", 640, 360)


def test_a_full_vast_inline_ad_gives_its_linear_duration(rconn):
    r = minimal(assets=[{"id": 1, "title": {"text": "video"}}, {"id": 2, "video": {"vasttag": VAST_15}}])
    mc = rs_one(rconn, r)["mediaContent"]
    assert mc["hasVideoContent"] is True and mc["duration"] == 15


@pytest.mark.parametrize("position", ["topRight", "topLeft", "bottomRight", "bottomLeft"])
def test_adchoices_goes_to_the_privacy_url_in_the_requested_corner(rconn, position):
    ad = rs_one(rconn, TRACKED, options={"adChoicesPosition": position})
    ac = ad["adChoices"]
    assert ac["position"] == position and ac["clickURL"] == "https://privacy.example/why", ac
    assert rconn.call("imageForKey", adId=ad["adId"], key="_adChoices") == ac["image"]
    assert click(rconn, ad["adId"], "_adChoices") == {"recorded": False, "action": "adChoices",
                                                      "url": "https://privacy.example/why", "trackingURLs": []}


# ------------------------------------------------------------------------------------------
# 1013: invalid responses name the exact place

DELETE = object()


def base_response() -> dict:
    return {"ver": "1.2", "link": {"url": LANDING},
            "assets": [{"id": 1, "title": {"text": "T"}},
                       {"id": 2, "img": {"type": 3, "url": "https://cdn.example/m.png", "w": 100, "h": 100}},
                       {"id": 3, "data": {"type": 2, "value": "B"}},
                       {"id": 4, "video": {"vasttag": vast("00:00:05")}}]}


def broken(path, value, *, wrap=False) -> dict:
    r = base_response()
    obj = r
    for k in path[:-1]:
        obj = obj[k]
    if value is DELETE:
        del obj[path[-1]]
    else:
        obj[path[-1]] = copy.deepcopy(value)
    return {"native": r} if wrap else r


def bid_response(*bids, seat="s") -> dict:
    return {"id": "resp-bad", "seatbid": [{"seat": seat, "bid": list(bids)}]}


A = "assets"
INVALID = [
    ("not-json", "{\"native\": ", "adResponseString", None),
    ("empty-string", "", "adResponseString", None),
    ("array", "[1, 2]", "adResponseString", None),
    ("string", "\"a native ad\"", "adResponseString", None),
    ("number", "42", "adResponseString", None),
    ("null", "null", "adResponseString", None),
    ("link-missing", broken(("link",), DELETE), "native.link", None),
    ("link-not-object", broken(("link",), LANDING), "native.link", None),
    ("link-url-missing", broken(("link", "url"), DELETE), "native.link.url", None),
    ("link-url-number", broken(("link", "url"), 5), "native.link.url", None),
    ("assets-missing", broken((A,), DELETE), "native.assets", None),
    ("assets-empty", broken((A,), []), "native.assets", None),
    ("assets-not-array", broken((A,), {"id": 1}), "native.assets", None),
    ("no-title", broken((A, 0), {"id": 1, "data": {"type": 2, "value": "no title"}}), "native.assets",
     "must hold a title asset (the headline)"),
    ("asset-with-nothing", broken((A, 1), {"id": 2}), "native.assets[1]", None),
    ("asset-with-two", broken((A, 1), {"id": 2, "img": {"type": 3, "url": "https://x.example/a.png"},
                                       "data": {"type": 2, "value": "v"}}), "native.assets[1]", None),
    ("img-url-missing", broken((A, 1, "img", "url"), DELETE), "native.assets[1].img.url", "is required"),
    ("img-url-number", broken((A, 1, "img", "url"), 7), "native.assets[1].img.url", None),
    ("title-text-missing", broken((A, 0, "title", "text"), DELETE), "native.assets[0].title.text", None),
    ("title-text-number", broken((A, 0, "title", "text"), 12), "native.assets[0].title.text", None),
    ("data-value-missing", broken((A, 2, "data", "value"), DELETE), "native.assets[2].data.value", None),
    ("data-value-object", broken((A, 2, "data", "value"), {"v": 1}), "native.assets[2].data.value", None),
    ("vasttag-missing", broken((A, 3, "video", "vasttag"), DELETE), "native.assets[3].video.vasttag", None),
    ("vasttag-number", broken((A, 3, "video", "vasttag"), 1), "native.assets[3].video.vasttag", None),
    ("img-w-zero", broken((A, 1, "img", "w"), 0), "native.assets[1].img.w", None),
    ("img-w-negative", broken((A, 1, "img", "w"), -3), "native.assets[1].img.w", None),
    ("img-w-too-big", broken((A, 1, "img", "w"), 8193), "native.assets[1].img.w", None),
    ("img-w-string", broken((A, 1, "img", "w"), "100"), "native.assets[1].img.w", None),
    ("img-w-fraction", broken((A, 1, "img", "w"), 1.5), "native.assets[1].img.w", None),
    ("img-h-zero", broken((A, 1, "img", "h"), 0), "native.assets[1].img.h", None),
    ("img-untyped", broken((A, 1, "img", "type"), DELETE), "native.assets[1].img.type", "is required"),
    ("data-untyped", broken((A, 2, "data", "type"), DELETE), "native.assets[2].data.type", "is required"),
    ("rating-words", broken((A, 2, "data"), {"type": 3, "value": "great"}), "native.assets[2].data.value", None),
    ("rating-above-5", broken((A, 2, "data"), {"type": 3, "value": "7"}), "native.assets[2].data.value", None),
    ("rating-negative", broken((A, 2, "data"), {"type": 3, "value": "-1"}), "native.assets[2].data.value", None),
    ("wrapped-link-missing", broken(("link",), DELETE, wrap=True), "native.link", None),
    ("wrapped-assets-empty", broken((A,), [], wrap=True), "native.assets", None),
    ("assetsurl-only", {"ver": "1.2", "assetsurl": "https://adserver.example/assets.json",
                        "link": {"url": LANDING}}, "native.assets", None),
    ("dcourl-only", {"ver": "1.2", "dcourl": "https://adserver.example/dco", "link": {"url": LANDING}},
     "native.assets", None),
    ("adm-not-json", bid_response({"id": "b", "impid": "1", "price": 1, "adm": "{nope"}),
     "seatbid[0].bid[0].adm", None),
    ("adm-array", bid_response({"id": "b", "impid": "1", "price": 1, "adm": "[1]"}), "seatbid[0].bid[0].adm", None),
    ("adm-missing", bid_response({"id": "b", "impid": "1", "price": 1}), "seatbid[0].bid[0].adm", None),
    ("adm-link-url-missing", bid_response(bid(1.0, base_response(), bid_id="ok"),
                                          bid(2.0, broken(("link", "url"), DELETE), bid_id="bad")),
     "seatbid[0].bid[1].adm.native.link.url", None),
    ("adm-wrapped-assets-empty", bid_response(bid(1.0, broken((A,), []), bid_id="w", wrap=True)),
     "seatbid[0].bid[0].adm.native.assets", None),
    ("adm-object-img-url", {"id": "r", "seatbid": [
        {"seat": "a", "bid": [bid(1.0, base_response(), bid_id="a1")]},
        {"seat": "b", "bid": [bid(2.0, broken((A, 1, "img", "url"), DELETE), bid_id="b1", adm_as="object")]}]},
     "seatbid[1].bid[0].adm.native.assets[1].img.url", None),
]


def test_the_base_of_the_invalid_responses_is_valid(rconn):
    ad = rs_one(rconn, base_response())
    assert ad["headline"] == "T" and ad["body"] == "B" and ad["mediaContent"]["duration"] == 5
    assert rs_one(rconn, {"native": base_response()})["headline"] == "T"


@pytest.mark.parametrize("name,response,field,contains", INVALID, ids=[c[0] for c in INVALID])
def test_an_invalid_response_fails_with_1013_naming_the_place(rconn, name, response, field, contains):
    err = rs_error(rconn, response)
    assert_invalid_response(err, field, contains)


def test_an_untyped_asset_whose_id_the_request_does_not_have_fails(rconn):
    req = {"ver": "1.2", "assets": [{"id": 1, "title": {"len": 90}}, {"id": 9, "img": {"type": 3}}]}
    r = minimal(assets=[{"id": 1, "title": {"text": "t"}}, {"id": 2, "img": {"url": "https://cdn.example/x.png"}}])
    err = rs_error(rconn, r, native_request=req)
    assert_invalid_response(err, ("native.assets[1].img.type", "native.assets[1].id"))
    # With the id the request names it loads.
    r["assets"][1]["id"] = 9
    assert rs_one(rconn, r, native_request=req)["images"][0]["url"] == "https://cdn.example/x.png"


def test_the_documented_example_message(rconn):
    r = base_response()
    r["assets"].insert(2, {"id": 5, "img": {"type": 1, "w": 10, "h": 10}})
    err = rs_error(rconn, {"native": r})
    assert_invalid_response(err, "native.assets[2].img.url")
    assert err["message"] == "Invalid ad response: native.assets[2].img.url is required", err


# ------------------------------------------------------------------------------------------
# Trackers


def test_trackers_are_handed_out_with_the_impression_and_every_recorded_click(conn):
    ad = rs_one(conn, TRACKED)
    ad_id = ad["adId"]
    assert conn.call("recordImpression", adId=ad_id) == {"recorded": True, "trackingURLs": TRACKED_IMP}
    assert conn.call("recordImpression", adId=ad_id) == {"recorded": False, "reason": "alreadyRecorded",
                                                         "trackingURLs": []}
    assert click(conn, ad_id, "callToAction") == {"recorded": True, "action": "landingPage",
                                                  "url": "https://adv.example/cta", "trackingURLs": TRACKED_CTA_CLICK}
    assert click(conn, ad_id, "headline") == {"recorded": True, "action": "landingPage", "url": LANDING,
                                              "trackingURLs": TRACKED_CLICK}
    assert click(conn, ad_id, "headline")["trackingURLs"] == TRACKED_CLICK, "every recorded click hands them out"
    assert click(conn, ad_id, "icon")["trackingURLs"] == TRACKED_CLICK
    # Ad events only: the trackers are no notification.
    conn.barrier()
    notified = [(e["event"], e["assetKey"]) for e in conn.ad_events(ad_id) if e["event"].startswith("didRecord")]
    assert notified == [("didRecordImpression", None), ("didRecordClick", "callToAction"),
                        ("didRecordClick", "headline"), ("didRecordClick", "headline"), ("didRecordClick", "icon")]
    no_tracker_notifications(conn)


def test_tracker_events_follow_the_impression_and_the_click_they_belong_to(rconn):
    ad = rs_one(rconn, TRACKED)
    ad_id = ad["adId"]
    rconn.call("recordImpression", adId=ad_id)
    click(rconn, ad_id, "callToAction")
    expected = ([("didRecordImpression", None)] + [("tracker", "impression", u, None) for u in TRACKED_IMP]
                + [("didRecordClick", "callToAction")]
                + [("tracker", "click", u, "callToAction") for u in TRACKED_CTA_CLICK]
                + [("willPresentScreen", None)])
    assert log_lines(rconn, ad_id) == expected
    trackers = events_of(rconn, adId=ad_id, event="tracker")
    assert [(e["trigger"], e["url"]) for e in trackers] == (
        [("impression", u) for u in TRACKED_IMP] + [("click", u) for u in TRACKED_CTA_CLICK])
    assert all(e["adId"] == ad_id for e in trackers)
    seqs = [e["sequence"] for e in events_of(rconn, adId=ad_id)]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "nothing else came between them"
    # The unfiltered tracker list holds this ad's trackers too, and only trackers.
    everyone = events_of(rconn, event="tracker", limit=10000)
    assert all(e["type"] == "tracker" for e in everyone)
    assert [e["sequence"] for e in everyone if e["adId"] == ad_id] == [e["sequence"] for e in trackers]
    no_tracker_notifications(rconn)


def test_a_second_click_logs_its_trackers_again(rconn):
    ad = rs_one(rconn, TRACKED)
    click(rconn, ad["adId"], "headline")
    rconn.call("reportScreenDismissed", adId=ad["adId"])
    click(rconn, ad["adId"], "headline")
    lines = [x for x in log_lines(rconn, ad["adId"]) if x[0] in ("didRecordClick", "tracker")]
    one = [("didRecordClick", "headline")] + [("tracker", "click", u, "headline") for u in TRACKED_CLICK]
    assert lines == one + one


def test_report_visibility_hands_out_the_impression_trackers(conn):
    ad = rs_one(conn, TRACKED)
    ad_id = ad["adId"]
    conn.call("registerAdView", adId=ad_id, clickableAssets=["headline"], nonclickableAssets=["body", "mediaView"])
    assert conn.call("reportVisibility", adId=ad_id, visiblePixels=0) == {
        "impressionRecorded": False, "reason": "notVisible", "trackingURLs": []}
    assert conn.call("reportVisibility", adId=ad_id, visiblePixels=10) == {
        "impressionRecorded": True, "trackingURLs": TRACKED_IMP}
    assert conn.call("reportVisibility", adId=ad_id, visiblePixels=10) == {
        "impressionRecorded": False, "reason": "alreadyRecorded", "trackingURLs": []}
    assert conn.call("recordImpression", adId=ad_id) == {"recorded": False, "reason": "alreadyRecorded",
                                                         "trackingURLs": []}
    # A click that is not recorded hands out nothing.
    assert click(conn, ad_id, "body") == {"recorded": False, "action": "none", "url": None, "reason": "notClickable",
                                          "trackingURLs": []}
    assert click(conn, ad_id, "headline")["trackingURLs"] == TRACKED_CLICK
    lines = log_lines(conn, ad_id)
    assert lines[:1 + len(TRACKED_IMP)] == [("didRecordImpression", None)] + [
        ("tracker", "impression", u, None) for u in TRACKED_IMP]
    assert [x for x in lines if x[0] == "tracker" and x[1] == "click"] == [
        ("tracker", "click", u, "headline") for u in TRACKED_CLICK]


def test_an_openrtb_ad_without_trackers_still_answers_tracking_urls(rconn):
    ad = rs_one(rconn, minimal("untracked"))
    assert rconn.call("recordImpression", adId=ad["adId"]) == {"recorded": True, "trackingURLs": []}
    assert click(rconn, ad["adId"], "headline")["trackingURLs"] == []
    assert [e for e in events_of(rconn, adId=ad["adId"]) if e["type"] == "tracker"] == []


def test_only_image_pixels_of_the_impression_event_are_fetched(rconn):
    r = minimal(eventtrackers=[{"event": 1, "method": 2, "url": "https://t.example/js1.js"},
                               {"event": 2, "method": 1, "url": "https://t.example/v50"},
                               {"event": 3, "method": 1, "url": "https://t.example/v100"},
                               {"event": 4, "method": 1, "url": "https://t.example/video"},
                               {"event": 1, "method": 1, "url": "https://t.example/pixel"},
                               {"event": 1, "method": 500, "customdata": {"k": "v"}}],
                jstracker="<script>track()</script>", imptrackers=["https://t.example/pixel", "https://t.example/a"])
    ad = rs_one(rconn, r)
    assert rconn.call("recordImpression", adId=ad["adId"])["trackingURLs"] == ["https://t.example/pixel",
                                                                             "https://t.example/a"]


@pytest.mark.parametrize("unit", [NATIVE_UNIT, BACKFILL_UNIT, ADMOB_UNIT])
def test_ordinary_inventory_ads_answer_without_tracking_urls(conn, unit):
    ad = load_one(conn, unit)
    ad_id = ad["adId"]
    assert conn.call("recordImpression", adId=ad_id) == {"recorded": True}
    assert conn.call("recordImpression", adId=ad_id) == {"recorded": False, "reason": "alreadyRecorded"}
    result = click(conn, ad_id, "headline")
    assert set(result) == {"recorded", "action", "url"}, result
    other = load_one(conn, unit)
    conn.call("registerAdView", adId=other["adId"], clickableAssets=["headline"], nonclickableAssets=[])
    assert conn.call("reportVisibility", adId=other["adId"], visiblePixels=1) == {"impressionRecorded": True}
    logged = conn.call("getEvents", {"adId": ad_id})["events"]
    assert all(e["type"] != "tracker" for e in logged), logged


def test_in_a_fleet_the_impression_trackers_are_handed_out_once(fleet_factory):
    servers = fleet_factory(3)
    conns = [s.connect() for s in servers]
    ad = rs_one(conns[0], TRACKED)
    ad_id = ad["adId"]
    results = [None] * len(conns)
    start = threading.Barrier(len(conns))

    def record(i):
        start.wait()
        results[i] = conns[i].call("recordImpression", adId=ad_id)

    threads = [threading.Thread(target=record, args=(i,)) for i in range(len(conns))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    recorded = [r for r in results if r["recorded"]]
    assert recorded == [{"recorded": True, "trackingURLs": TRACKED_IMP}], results
    assert sorted(results, key=lambda r: r["recorded"])[:-1] == [
        {"recorded": False, "reason": "alreadyRecorded", "trackingURLs": []}] * (len(conns) - 1), results
    assert click(conns[2], ad_id, "callToAction")["trackingURLs"] == TRACKED_CTA_CLICK
    for c in conns:
        trackers = [(e["trigger"], e["url"], e["assetKey"]) for e in events_of(c, adId=ad_id, event="tracker")]
        assert trackers == [("impression", u, None) for u in TRACKED_IMP] + [
            ("click", u, "callToAction") for u in TRACKED_CTA_CLICK], c.name


# ------------------------------------------------------------------------------------------
# Links: deep links, fallbacks, asset links


DEEP = {"url": "myapp://item/42", "fallback": "https://adv.example/item/42"}


@pytest.mark.parametrize("link,ext,schemes,action,url", [
    (DEEP, None, ["myapp"], "deepLink", "myapp://item/42"),
    (DEEP, None, ["other", "myapp"], "deepLink", "myapp://item/42"),
    (DEEP, None, [], "landingPage", "https://adv.example/item/42"),
    (DEEP, None, None, "landingPage", "https://adv.example/item/42"),
    ({"url": "myapp://item/42"}, None, [], "landingPage", "myapp://item/42"),
    ({"url": "myapp://item/42"}, None, ["myapp"], "deepLink", "myapp://item/42"),
    ({"url": "https://adv.example/p"}, {"deepLinks": ["other://x"]}, ["other"], "deepLink", "other://x"),
    ({"url": "https://adv.example/p"}, {"deepLinks": ["other://x"]}, [], "landingPage", "https://adv.example/p"),
    (DEEP, {"deepLinks": ["other://x"]}, ["other"], "deepLink", "other://x"),
    (DEEP, {"deepLinks": ["other://x"]}, ["other", "myapp"], "deepLink", "myapp://item/42"),
    (DEEP, {"deepLinks": ["other://x"]}, ["third"], "landingPage", "https://adv.example/item/42"),
    ({"url": "http://adv.example/plain"}, None, ["http"], "landingPage", "http://adv.example/plain"),
    ({"url": "https://adv.example/secure"}, None, ["https"], "landingPage", "https://adv.example/secure"),
], ids=["deep-openable", "deep-openable-second", "deep-not-openable", "deep-no-schemes", "deep-no-fallback",
        "deep-no-fallback-openable", "ext-deep-openable", "ext-deep-not-openable", "ext-after-link-url",
        "link-url-first", "nothing-openable", "http-is-a-landing-page", "https-is-a-landing-page"])
def test_link_url_fallback_and_ext_deep_links(rconn, link, ext, schemes, action, url):
    r = minimal(url=link["url"])
    r["link"] = dict(link)
    if ext:
        r["ext"] = ext
    ad = rs_one(rconn, r)
    assert click(rconn, ad["adId"], "headline", schemes) == {"recorded": True, "action": action, "url": url,
                                                             "trackingURLs": []}


def test_an_asset_link_applies_to_clicks_on_that_asset(rconn):
    r = minimal("asset links", assets=[
        {"id": 1, "title": {"text": "asset links"}},
        {"id": 2, "data": {"type": 12, "value": "Get it"},
         "link": {"url": "ctaapp://buy", "fallback": "https://adv.example/buy",
                  "clicktrackers": ["https://t.example/cta"]}},
        {"id": 3, "img": {"type": 1, "url": "https://cdn.example/i.png", "w": 10, "h": 10},
         "link": {"url": "https://adv.example/from-icon"}},
        {"id": 4, "data": {"type": 2, "value": "Body"}}])
    r["link"]["clicktrackers"] = ["https://t.example/main"]
    ad = rs_one(rconn, r)
    a = ad["adId"]
    assert click(rconn, a, "callToAction", ["ctaapp"]) == {
        "recorded": True, "action": "deepLink", "url": "ctaapp://buy",
        "trackingURLs": ["https://t.example/cta", "https://t.example/main"]}
    assert click(rconn, a, "callToAction", []) == {
        "recorded": True, "action": "landingPage", "url": "https://adv.example/buy",
        "trackingURLs": ["https://t.example/cta", "https://t.example/main"]}
    assert click(rconn, a, "icon") == {"recorded": True, "action": "landingPage",
                                       "url": "https://adv.example/from-icon", "trackingURLs": ["https://t.example/main"]}
    assert click(rconn, a, "body") == {"recorded": True, "action": "landingPage", "url": LANDING,
                                       "trackingURLs": ["https://t.example/main"]}
    assert click(rconn, a, "3002", ["ctaapp"])["url"] == "ctaapp://buy", "an asset id aliases its name"


# ------------------------------------------------------------------------------------------
# exportAd


def export(c, ad_id) -> dict:
    result = c.call("exportAd", adId=ad_id, format=EXPORT_FORMAT)
    assert isinstance(result, dict), result
    assert result.get("ver") == "1.2", result
    assets = result.get("assets")
    assert isinstance(assets, list) and assets, result
    assert [a.get("id") for a in assets] == list(range(1, len(assets) + 1)), "asset ids from 1, in order"
    for a in assets:
        kinds = [k for k in ("title", "img", "video", "data") if k in a]
        assert len(kinds) == 1, a
        if "img" in a:
            img = a["img"]
            assert is_int(img.get("type")) and isinstance(img.get("url"), str), a
            if img["type"] in (1, 3):
                assert is_int(img.get("w")) and is_int(img.get("h")), a
        if "data" in a:
            d = a["data"]
            assert is_int(d.get("type")) and isinstance(d.get("value"), str), a
            assert is_int(d.get("len")) and d["len"] >= len(d["value"]), a
        if "title" in a:
            assert isinstance(a["title"].get("text"), str), a
        if "video" in a:
            assert isinstance(a["video"].get("vasttag"), str), a
    assert isinstance(result.get("link"), dict) and isinstance(result["link"].get("url"), str), result
    return result


def kind_of(asset) -> tuple:
    if "title" in asset:
        return ("title",)
    if "img" in asset:
        return ("img", asset["img"]["type"])
    if "video" in asset:
        return ("video",)
    return ("data", asset["data"]["type"])


def data_values(exported) -> dict:
    return {a["data"]["type"]: a["data"]["value"] for a in exported["assets"] if "data" in a}


def assert_same_assets(orig, back):
    for k in TEXT_KEYS:
        assert back[k] == orig[k], (k, orig[k], back[k])
    if orig["starRating"] is None:
        assert back["starRating"] is None
    else:
        assert back["starRating"] == pytest.approx(orig["starRating"])
    assert img_tuple(back["icon"]) == img_tuple(orig["icon"])
    assert [img_tuple(i) for i in back["images"]] == [img_tuple(i) for i in orig["images"]]
    assert back["extraAssets"] == orig["extraAssets"]
    om, bm = orig["mediaContent"], back["mediaContent"]
    assert bm["hasVideoContent"] == om["hasVideoContent"]
    assert bm["duration"] == pytest.approx(om["duration"])
    assert img_tuple(bm["mainImage"]) == img_tuple(om["mainImage"])


SCHEMES = ["market", "itms-apps", "myapp", "other", "ctaapp", "gadexample"]


def assert_same_clicks(c, orig, back, keys=("headline",)):
    for key in keys:
        for schemes in ([], SCHEMES):
            o = click(c, orig["adId"], key, schemes)
            b = click(c, back["adId"], key, schemes)
            assert (b["action"], b["url"]) == (o["action"], o["url"]), (key, schemes, o, b)
            if "trackingURLs" in o:
                assert b["trackingURLs"] == o["trackingURLs"], (key, o, b)


def round_trip(c, ad, **load_params):
    exported = export(c, ad["adId"])
    back = rs_one(c, exported, **load_params)
    assert_same_assets(ad, back)
    return exported, back


def test_export_of_an_inventory_app_install_ad(rconn):
    ad = load_one(rconn, NATIVE_UNIT, options={"shouldRequestMultipleImages": True})
    assert ad["headline"] == "Flood-It! 2"
    e = export(rconn, ad["adId"])
    kinds = [kind_of(a) for a in e["assets"]]
    assert kinds[:4] == [("title",), ("img", 1), ("img", 3), ("img", 3)], kinds
    assert all(k[0] == "data" for k in kinds[4:]), "the title, the icon, each image, then the data"
    assert e["assets"][0]["title"]["text"] == "Flood-It! 2"
    icon = e["assets"][1]["img"]
    assert (icon["url"], icon["w"], icon["h"]) == (ad["icon"]["url"], 128, 128)
    assert [(a["img"]["url"], a["img"]["w"], a["img"]["h"]) for a in e["assets"][2:4]] == [
        img_tuple(i) for i in ad["images"]]
    data = data_values(e)
    assert data[2] == ad["body"] and data[12] == "Install" and data[6] == "Free"
    assert float(data[3]) == 4.5
    assert 1 not in data, "the ad has no advertiser"
    assert e["link"] == {"url": "market://details?id=com.labpixies.flood",
                         "fallback": "https://play.google.com/store/apps/details?id=com.labpixies.flood"}
    assert e.get("ext", {}).get("store") == "Google Play"
    assert "privacy" not in e, "a direct-sold ad has no AdChoices"


def test_export_of_a_backfill_ad_carries_its_adchoices_page_as_privacy(rconn):
    ad = load_one(rconn, BACKFILL_UNIT)
    e = export(rconn, ad["adId"])
    assert e["privacy"] == ADCHOICES_PAGE
    assert e["link"] == {"url": "itms-apps://apps.apple.com/app/id000000001",
                         "fallback": "https://apps.apple.com/app/id000000001"}
    assert e["ext"]["store"] == "App Store"
    back = rs_one(rconn, e)
    assert back["adChoices"]["clickURL"] == ADCHOICES_PAGE


def test_export_of_a_video_ad_has_a_vast_tag_with_its_duration(rconn):
    ad = load_one(rconn, ADMOB_UNIT)
    assert ad["mediaContent"]["hasVideoContent"] is True and ad["mediaContent"]["duration"] == 30
    e = export(rconn, ad["adId"])
    kinds = [kind_of(a) for a in e["assets"]]
    videos = [a for a in e["assets"] if "video" in a]
    assert len(videos) == 1 and "<Duration>" in videos[0]["video"]["vasttag"], videos
    order = [k[0] if k[0] != "img" else f"img{k[1]}" for k in kinds]
    rank = {"title": 0, "img1": 1, "img3": 2, "video": 3, "data": 4}
    assert [rank[k] for k in order] == sorted(rank[k] for k in order), f"title, icon, images, video, data: {order}"
    assert e["link"] == {"url": "https://developers.google.com/admob/ios/native/video-ads"}, "no deep link"
    assert e["privacy"] == ADCHOICES_PAGE
    back = rs_one(rconn, e)
    assert back["mediaContent"]["hasVideoContent"] is True and back["mediaContent"]["duration"] == 30


@pytest.mark.parametrize("unit", [NATIVE_UNIT, BACKFILL_UNIT, ADMOB_UNIT, VIDEO_UNIT])
def test_every_builtin_ad_round_trips_through_export(rconn, unit):
    ads = load_ads(rconn, unit, options={"numberOfAds": 5, "shouldRequestMultipleImages": True})["ads"]
    assert ads
    for ad in ads:
        _e, back = round_trip(rconn, ad, options={"shouldRequestMultipleImages": True})
        assert back["headline"] == ad["headline"]
        assert_same_clicks(rconn, ad, back)


def test_a_mediated_ad_round_trips_through_export(rconn):
    ad = mediated_load(rconn, MEDIATION_UNIT, request={"seed": 7})["ads"][0]
    round_trip(rconn, ad)


RICH = {
    "ver": "1.2",
    "link": {"url": "myapp://product/9", "fallback": "https://adv.example/product/9",
             "clicktrackers": ["https://t.example/rich-click"]},
    "assets": [
        {"id": 11, "title": {"text": "Rich response"}},
        {"id": 12, "img": {"type": 1, "url": "https://cdn.example/rich-icon.png", "w": 96, "h": 96}},
        {"id": 13, "img": {"type": 3, "url": "https://cdn.example/rich-1.png", "w": 1200, "h": 627}},
        {"id": 14, "img": {"type": 3, "url": "https://cdn.example/rich-2.png", "w": 627, "h": 627}},
        {"id": 15, "video": {"vasttag": vast("00:00:21")}},
        {"id": 16, "data": {"type": 1, "value": "Rich Brand"}},
        {"id": 17, "data": {"type": 2, "value": "Rich body text."}},
        {"id": 18, "data": {"type": 3, "value": "3.5"}},
        {"id": 19, "data": {"type": 6, "value": "$4.99"}},
        {"id": 20, "data": {"type": 12, "value": "Buy"},
         "link": {"url": "https://adv.example/buy", "clicktrackers": ["https://t.example/rich-cta"]}},
        {"id": 21, "data": {"type": 4, "value": "42 likes"}},
    ],
    "imptrackers": ["https://t.example/rich-imp"],
    "eventtrackers": [{"event": 1, "method": 1, "url": "https://t.example/rich-ev"},
                      {"event": 1, "method": 2, "url": "https://t.example/rich.js"},
                      {"event": 2, "method": 1, "url": "https://t.example/rich-view"}],
    "privacy": "https://privacy.example/rich",
    "ext": {"store": "Google Play", "extraAssets": {"promo": "Today only"}, "deepLinks": ["other://product/9"]},
}


def test_export_of_a_response_string_ad_keeps_its_link_trackers_privacy_and_ext(rconn):
    ad = rs_one(rconn, RICH, options={"shouldRequestMultipleImages": True})
    e = export(rconn, ad["adId"])
    kinds = [kind_of(a) for a in e["assets"]]
    assert kinds[:5] == [("title",), ("img", 1), ("img", 3), ("img", 3), ("video",)], kinds
    assert all(k[0] == "data" for k in kinds[5:]), kinds
    values = data_values(e)
    assert float(values[3]) == 3.5
    assert {t: v for t, v in values.items() if t != 3} == {1: "Rich Brand", 2: "Rich body text.", 6: "$4.99",
                                                           12: "Buy", 4: "42 likes"}
    assert e["link"]["url"] == "myapp://product/9" and e["link"]["fallback"] == "https://adv.example/product/9"
    assert e["link"].get("clicktrackers") == ["https://t.example/rich-click"]
    cta = next(a for a in e["assets"] if "data" in a and a["data"]["type"] == 12)
    assert cta.get("link", {}).get("url") == "https://adv.example/buy", cta
    assert cta["link"].get("clicktrackers") == ["https://t.example/rich-cta"], cta
    assert e["privacy"] == "https://privacy.example/rich"
    ext = e["ext"]
    assert ext["store"] == "Google Play"
    assert ext["extraAssets"] == {"promo": "Today only"}, "likes has an IAB type: it travels as data type 4"
    assert ext["deepLinks"] == ["other://product/9"]
    # The trackers that are not fetched are kept too.
    trackers = {(t["event"], t["method"], t.get("url")) for t in e.get("eventtrackers", [])}
    assert (2, 1, "https://t.example/rich-view") in trackers and (1, 2, "https://t.example/rich.js") in trackers, e
    imp_urls = set(e.get("imptrackers", [])) | {u for ev, m, u in trackers if (ev, m) == (1, 1)}
    assert imp_urls == {"https://t.example/rich-imp", "https://t.example/rich-ev"}


def test_a_response_string_ad_round_trips_with_its_trackers(rconn):
    for response in (RICH, EVERY_ASSET, TRACKED):
        ad = rs_one(rconn, response, options={"shouldRequestMultipleImages": True})
        _e, back = round_trip(rconn, ad, options={"shouldRequestMultipleImages": True})
        assert back["adChoices"]["clickURL"] == ad["adChoices"]["clickURL"]
        o = rconn.call("recordImpression", adId=ad["adId"])
        b = rconn.call("recordImpression", adId=back["adId"])
        assert b == o, (o, b)
        keys = ["headline", "callToAction"] if ad["callToAction"] else ["headline"]
        assert_same_clicks(rconn, ad, back, keys)


def test_export_ad_errors(rconn):
    assert_ad_not_found(rconn.error("exportAd", {"adId": "no-such-ad", "format": EXPORT_FORMAT}))
    ad = load_one(rconn, NATIVE_UNIT)
    rconn.call("releaseAd", adId=ad["adId"])
    assert_ad_not_found(rconn.error("exportAd", {"adId": ad["adId"], "format": EXPORT_FORMAT}))
    custom = load_custom(rconn)
    err = assert_error(rconn.error("exportAd", {"adId": custom["adId"], "format": EXPORT_FORMAT}), 2003)
    assert err.get("data", {}).get("name", "wrongAdKind") == "wrongAdKind", err
    live = load_one(rconn, NATIVE_UNIT)
    for fmt in ("openrtb-native-1.1", "json", "", 12, ["openrtb-native-1.2"]):
        assert_invalid_params(rconn.error("exportAd", {"adId": live["adId"], "format": fmt}), "format")
    assert_invalid_params(rconn.error("exportAd", {"format": EXPORT_FORMAT}), "adId")


# ------------------------------------------------------------------------------------------
# Store creatives written in OpenRTB

STORE_RTB = {
    "ver": "1.2",
    "link": {"url": "storeapp://deal/1", "fallback": "https://adv.example/deal/1",
             "clicktrackers": ["https://t.example/store-click"]},
    "assets": [
        {"id": 1, "title": {"text": "Store OpenRTB creative"}},
        {"id": 2, "img": {"type": 3, "url": "https://cdn.example/store-main.png", "w": 1200, "h": 627}},
        {"id": 3, "img": {"type": 1, "url": "https://cdn.example/store-icon.png", "w": 64, "h": 64}},
        {"id": 4, "data": {"type": 2, "value": "Written in OpenRTB."}},
        {"id": 5, "data": {"type": 12, "value": "Get the deal"}},
        {"id": 6, "data": {"type": 3, "value": "4"}},
    ],
    "imptrackers": ["https://t.example/store-imp"],
    "eventtrackers": [{"event": 1, "method": 1, "url": "https://t.example/store-ev"},
                      {"event": 2, "method": 1, "url": "https://t.example/store-view"}],
    "privacy": "https://privacy.example/store",
    "ext": {"store": "Google Play"},
}
STORE_IMP = ["https://t.example/store-imp", "https://t.example/store-ev"]
STORE_UNIT = "/e2e/openrtb/store"
PLAIN_UNIT = "/e2e/openrtb/plain"
MUTE_UNIT = "/e2e/openrtb/mute"


def openrtb_store() -> dict:
    plain = {"id": "plain-1", "kind": "native", "priority": 1, "eCPM": 1.0,
             "assets": {"headline": "Plain creative", "icon": creative_image("plain-1", "icon", 32, 32)},
             "landingPageURL": "https://example.com/plain"}
    return {"formats": [], "creatives": [
        plain,
        {"id": "rtb-1", "openrtb": STORE_RTB, "eCPM": 2.5, "priority": 3, "indirect": True},
        {"id": "rtb-mute", "openrtb": minimal("Mutable OpenRTB", imptrackers=["https://t.example/mute-imp"]),
         "eCPM": 1.0, "priority": 1, "indirect": True, "muteThisAdReasons": ["Irrelevant"]},
    ], "adUnits": [{"id": STORE_UNIT, "creatives": ["rtb-1", "plain-1"]},
                   {"id": PLAIN_UNIT, "creatives": ["plain-1"]},
                   {"id": MUTE_UNIT, "creatives": ["rtb-mute"]}]}


@pytest.fixture(scope="module")
def store_server(tmp_path_factory):
    d = tmp_path_factory.mktemp("openrtb-store")
    path = write_json(str(d / "openrtb-store.json"), openrtb_store())
    srv = Server(str(d), stdio=True, args=["--store", path])
    srv.stdio.server = srv
    yield srv
    srv.stop()


@pytest.fixture
def sconn(store_server):
    assert store_server.alive(), store_server.describe()
    c = store_server.stdio
    c.sync()
    return c


def store_load(c, unit, **params):
    p = {"adUnitID": unit}
    p.update(params)
    resp = c.request("loadAd", p)
    assert "result" in resp, resp
    for ad in resp["result"]["ads"]:
        check_mediated_ad(ad)
    return resp["result"]["ads"]


def test_a_store_file_creative_written_in_openrtb_is_served_with_its_trackers(sconn):
    (ad,) = store_load(sconn, STORE_UNIT)
    assert ad["headline"] == "Store OpenRTB creative"
    assert ad["body"] == "Written in OpenRTB." and ad["callToAction"] == "Get the deal"
    assert ad["starRating"] == 4 and ad["store"] == "Google Play"
    assert img_tuple(ad["icon"]) == ("https://cdn.example/store-icon.png", 64, 64)
    assert [img_tuple(i) for i in ad["images"]] == [("https://cdn.example/store-main.png", 1200, 627)]
    assert ad["adChoices"]["clickURL"] == "https://privacy.example/store"
    a = ad["adId"]
    assert sconn.call("recordImpression", adId=a) == {"recorded": True, "trackingURLs": STORE_IMP}
    assert click(sconn, a, "headline", ["storeapp"]) == {"recorded": True, "action": "deepLink",
                                                        "url": "storeapp://deal/1",
                                                        "trackingURLs": ["https://t.example/store-click"]}
    assert click(sconn, a, "headline") == {"recorded": True, "action": "landingPage",
                                           "url": "https://adv.example/deal/1",
                                           "trackingURLs": ["https://t.example/store-click"]}
    trackers = [(e["trigger"], e["url"]) for e in events_of(sconn, adId=a, event="tracker")]
    assert trackers == [("impression", u) for u in STORE_IMP] + [("click", "https://t.example/store-click")] * 2


def test_a_store_openrtb_creative_ranks_as_any_creative(sconn):
    ads = store_load(sconn, STORE_UNIT, options={"numberOfAds": 2})
    assert [a["headline"] for a in ads] == ["Store OpenRTB creative", "Plain creative"]
    assert sconn.call("recordImpression", adId=ads[1]["adId"]) == {"recorded": True}, "the plain one has no trackers"


def test_a_muted_openrtb_ad_hands_out_nothing(sconn):
    (ad,) = store_load(sconn, MUTE_UNIT)
    assert ad.get("muteThisAdReasons") == ["Irrelevant"]
    assert sconn.call("muteThisAd", adId=ad["adId"], reason="Irrelevant") == {"muted": True}
    imp = sconn.call("recordImpression", adId=ad["adId"])
    assert imp["recorded"] is False and imp["trackingURLs"] == [], imp
    c = click(sconn, ad["adId"], "headline")
    assert c["recorded"] is False and c["trackingURLs"] == [], c


def test_store_put_creative_takes_an_openrtb_creative(sconn):
    creative = {"id": "rtb-put-1", "openrtb": TRACKED, "eCPM": 1.5, "priority": 1, "indirect": True}
    assert sconn.call("store.putCreative", creative=creative) == {"creativeID": "rtb-put-1", "replaced": False}
    sconn.call("store.putAdUnit", adUnit={"id": "/e2e/openrtb/put", "creatives": ["rtb-put-1"]})
    (ad,) = store_load(sconn, "/e2e/openrtb/put")
    assert ad["headline"] == "Tracked headline" and ad["callToAction"] == "Shop now"
    assert sconn.call("recordImpression", adId=ad["adId"])["trackingURLs"] == TRACKED_IMP
    assert click(sconn, ad["adId"], "callToAction")["trackingURLs"] == TRACKED_CTA_CLICK
    assert "rtb-put-1" in {c["id"] for c in sconn.call("store.list")["creatives"]}
    # An export of a stored OpenRTB ad loads back the same.
    _e, back = round_trip(sconn, ad)


def bad_rtb(path, value) -> dict:
    r = copy.deepcopy(STORE_RTB)
    obj = r
    for k in path[:-1]:
        obj = obj[k]
    if value is DELETE:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value
    return r


BAD_STORE_RTB = [
    ((A, 1, "img", "url"), DELETE, "openrtb.assets[1].img.url"),
    ((A, 1, "img", "type"), DELETE, "openrtb.assets[1].img.type"),
    ((A, 3, "data", "type"), DELETE, "openrtb.assets[3].data.type"),
    ((A, 1, "img", "w"), 0, "openrtb.assets[1].img.w"),
    ((A, 0), {"id": 1, "data": {"type": 2, "value": "no title"}}, "openrtb.assets"),
    ((A, 5, "data", "value"), "excellent", "openrtb.assets[5].data.value"),
    (("link",), DELETE, "openrtb.link"),
    (("link", "url"), DELETE, "openrtb.link.url"),
    ((A,), [], "openrtb.assets"),
]


BAD_STORE_IDS = [f"{c[2]}:{'missing' if c[1] is DELETE else json.dumps(c[1])[:20]}" for c in BAD_STORE_RTB]


@pytest.mark.parametrize("path,value,place", BAD_STORE_RTB, ids=BAD_STORE_IDS)
def test_a_bad_openrtb_creative_in_a_store_file_stops_start_up_naming_the_place(tmp_path, path, value, place):
    store = openrtb_store()
    store["creatives"][1]["openrtb"] = bad_rtb(path, value)
    file = write_json(str(tmp_path / "bad-openrtb.json"), store)
    proc = run_once(["--store", file])
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1, f"exit {proc.returncode}: {err[-1000:]}"
    assert proc.stdout == b""
    assert file in err and f"creatives[1].{place}" in err, err


def test_the_openrtb_store_file_is_valid(tmp_path):
    file = write_json(str(tmp_path / "good-openrtb.json"), openrtb_store())
    proc = run_once(["--store", file])
    assert proc.returncode == 0, proc.stderr.decode()[-1000:]


@pytest.mark.parametrize("path,value,place", BAD_STORE_RTB, ids=BAD_STORE_IDS)
def test_store_put_creative_checks_an_openrtb_creative_naming_the_param_path(sconn, path, value, place):
    creative = {"id": "rtb-bad-put", "openrtb": bad_rtb(path, value), "eCPM": 1.0, "priority": 1}
    assert_invalid_params(sconn.error("store.putCreative", {"creative": creative}), f"creative.{place}")
    assert "rtb-bad-put" not in {c["id"] for c in sconn.call("store.list")["creatives"]}


# ------------------------------------------------------------------------------------------
# The schemas: what loadAd reads and exportAd writes, what nativeRequest reads


SCHEMAS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schemas"))


def schema_validator(name: str):
    jsonschema = pytest.importorskip("jsonschema")
    path = os.path.join(SCHEMAS, name)
    if not os.path.isfile(path):
        pytest.fail(f"{path} does not exist (docs/openrtb.md names it)")
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def assert_valid(validator, doc, what):
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, f"{what}: " + "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


VALID_RESPONSES = {"tracked": TRACKED, "every-asset": EVERY_ASSET, "rich": RICH, "store": STORE_RTB,
                   "spec-6.1": SPEC_61_RESPONSE["native"], "spec-6.2": SPEC_62_RESPONSE["native"],
                   "spec-6.1-wrapped": SPEC_61_RESPONSE, "minimal-wrapped": {"native": minimal()}}


@pytest.mark.parametrize("name", list(VALID_RESPONSES))
def test_the_responses_the_tests_load_validate_against_the_response_schema(name):
    assert_valid(schema_validator("openrtb-native-1.2-response.schema.json"), VALID_RESPONSES[name], name)


@pytest.mark.parametrize("name,request_", [("spec-6.1", SPEC_61_REQUEST), ("spec-6.2", SPEC_62_REQUEST)])
def test_the_spec_requests_validate_against_the_request_schema(name, request_):
    assert_valid(schema_validator("openrtb-native-1.2-request.schema.json"), request_, name)


def test_exports_validate_against_the_response_schema(rconn):
    v = schema_validator("openrtb-native-1.2-response.schema.json")
    ads = (load_ads(rconn, NATIVE_UNIT, options={"numberOfAds": 2})["ads"] + [load_one(rconn, ADMOB_UNIT)]
           + [rs_one(rconn, RICH), rs_one(rconn, EVERY_ASSET)])
    for ad in ads:
        assert_valid(v, export(rconn, ad["adId"]), ad["headline"])


def test_the_openrtb_store_validates_against_the_store_schema():
    assert_valid(schema_validator("store.schema.json"), openrtb_store(), "the OpenRTB store")


# ------------------------------------------------------------------------------------------
# The limit on what one response string may hold (--max-response-assets)


def many_assets(n: int, title: str = "many") -> dict:
    return {"link": {"url": "https://example.com/"},
            "assets": [{"id": 1, "title": {"text": title}}]
            + [{"id": i + 2, "data": {"type": 10, "value": f"extra {i}"}} for i in range(n - 1)]}


def test_a_response_string_holds_at_most_the_default_number_of_assets(rconn):
    assert rs_one(rconn, many_assets(32))["extraAssets"]["desc2.31"] == "extra 30"
    assert_invalid_response(rs_error(rconn, many_assets(33)), "native.assets",
                            contains="at most 32 in all")


@pytest.fixture(scope="module")
def small_limit_server(tmp_path_factory):
    srv = start_private(str(tmp_path_factory.mktemp("openrtb-limit")), args=["--max-response-assets", "3"])
    yield srv
    srv.stop()


def test_the_asset_limit_is_configurable_and_counts_every_bid(small_limit_server):
    c = small_limit_server.stdio
    assert rs_one(c, many_assets(3))["headline"] == "many"
    assert_invalid_response(rs_error(c, many_assets(4)), "native.assets", contains="at most 3 in all")
    two_bids = {"id": "r", "seatbid": [{"seat": "s", "bid": [
        {"id": "1", "price": 1, "adm": json.dumps(many_assets(2, "first"))},
        {"id": "2", "price": 2, "adm": json.dumps(many_assets(2, "second"))}]}]}
    assert_invalid_response(rs_error(c, two_bids), "seatbid[0].bid[1].adm.native.assets",
                            contains="at most 3 in all")
    one_each = {"id": "r", "seatbid": [{"seat": "s", "bid": [
        {"id": "1", "price": 1, "adm": json.dumps(many_assets(1, "first"))},
        {"id": "2", "price": 2, "adm": json.dumps(many_assets(2, "second"))}]}]}
    assert [a["headline"] for a in rs_load(c, one_each, options={"numberOfAds": 2})["ads"]] == ["second", "first"]


def test_the_asset_limit_must_be_a_positive_integer(tmp_path):
    from e2e_support import BIN
    import subprocess
    for bad in ("0", "-1", "many"):
        done = subprocess.run([BIN, "--max-response-assets", bad], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=30)
        assert done.returncode != 0 and b"--max-response-assets" in done.stderr, done
