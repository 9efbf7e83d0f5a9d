"""The OpenRTB review fixes (commit 25facff, docs/openrtb.md): each test shows one rule that the
commit before it (597d17e) broke.

* The bidder's `X-OpenRTB-No-Bid` percent-encodes impression ids (no id writes a header).
* `OPTIONS /openrtb2/auction` answers a CORS preflight; other methods are 405 `POST, OPTIONS`.
* The bidder checks many impressions against a large unit and still picks the best creative
  that meets every required asset (what each creative offers is read once per request).
* An invalid `bidfloor` or `tagid` is that impression's `nbr` 2, naming it.
* `minItems`: `imp: []`, a native request's `assets: []`, `loadAd`'s `nativeRequest` with
  `assets: []`, an ad unit's `waterfall: []` are refused.
* `ext.extraAssets` entries count into `--max-response-assets` (read in one pass: 10,000 load
  with a higher limit); a repeated key keeps its first place and last value.
* `--max-ad-trackers` (default 64) bounds one ad's trackers, a response string's and a store
  creative's written in openrtb.
* `--max-response-pixels` (default 4096 x 4096) bounds the drawn images of a response string.
* `exportAd` keeps extras named like IAB types (`data1`, `img3`) as extras, and universal links.
* `link.url` must not be empty (the response's and an asset's).
* The bidder's `adm` carries the `jstracker` only when the request offers it.
* `nativeRequest`: a `title` or `video` answering a request asset of another kind is refused;
  an untyped asset without an id says so.
* In a fleet, a bid request waits for the store to be caught up with (503 when Redis cannot be
  read), the requests pipelined behind it waiting their turn.
"""
from __future__ import annotations

import json
import re
import socket
import time
import urllib.parse

import pytest

from e2e_support import (
    WAIT,
    assert_invalid_params,
    dumps,
    run_once,
    start_private,
    wait_until,
    write_json,
)
from http_support import ResponseReader, connect, http_exchange, request_bytes
from test_openrtb import (  # noqa: F401 (rconn and rtb_server are fixtures)
    assert_invalid_response, assert_same_assets, click, export, rconn, rs_error, rs_load, rs_one, rtb_server)
from test_openrtb_bidder import (
    AUCTION,
    TITLE,
    adm,
    answer,
    auction,
    bid_request,
    bid_response,
    bids_by_imp,
    imp,
    native_request,
    no_bid,
    no_bid_entries,
    only_bid,
    port,  # noqa: F401 (a fixture: this module's bidder's HTTP port)
    start_bidder,
)

ORIGIN = "http://localhost:3000"
NOWHERE = "/e2e/limits/nowhere"
RANK = "/e2e/limits/rank"
MANY = "/e2e/limits/many"
JS = "/e2e/limits/js"
MANY_COUNT = 3000
PHONE = {"id": 8, "required": 1, "data": {"type": 8}}
VAST = ('<VAST version="4.0"><Ad><InLine><Creatives><Creative><Linear><Duration>00:00:09</Duration>'
        '</Linear></Creative></Creatives></InLine></Ad></VAST>')


# ------------------------------------------------------------------------------------------
# Servers


def native(cid, priority, ecpm, assets, **extra) -> dict:
    c = {"id": cid, "kind": "native", "priority": priority, "eCPM": ecpm, "assets": assets,
         "landingPageURL": f"https://example.com/{cid}"}
    c.update(extra)
    return c


def icon(cid, side=64) -> dict:
    return {"url": f"https://cdn.example/{cid}-icon.png", "width": side, "height": side}


JS_TRACKER = '<script src="https://t.example/js-imp.js"></script>'
JS_RTB = {
    "ver": "1.2", "link": {"url": "https://js.example/"},
    "assets": [{"id": 1, "title": {"text": "JS creative"}}],
    "jstracker": JS_TRACKER,
    "eventtrackers": [{"event": 1, "method": 2, "url": "https://t.example/ev.js"},
                      {"event": 1, "method": 1, "url": "https://t.example/ev.png"}],
}


def limits_store() -> dict:
    """RANK: creatives in rank order, each meeting one more kind of request than the one
    before misses. MANY: MANY_COUNT creatives with a headline and a body, none with a phone
    number (data type 8); m-best outranks the others."""
    rank = [
        native("r-top", 10, 1.0, {"headline": "Top: headline only"}),
        native("r-icon", 9, 1.0, {"headline": "Has an icon", "icon": icon("r-icon")}),
        native("r-phone", 8, 1.0, {"headline": "Has a phone", "icon": icon("r-phone"),
                                   "extraAssets": {"phone": "+1 555 0100"}}),
        native("r-body", 7, 9.0, {"headline": "Has a body", "body": "The body of r-body",
                                  "icon": icon("r-body", 200), "extraAssets": {"phone": "+1 555 0199"}}),
        native("r-types", 6, 1.0, {"headline": "Has typed extras",
                                   "extraAssets": {"data501": "x501", "data64": "x64", "data63": "x63"}}),
    ]
    many = [native(f"m-{i:04d}", 1, 1.0 + (i % 13) / 10, {"headline": f"Many {i}", "body": f"Body {i}"})
            for i in range(MANY_COUNT - 1)]
    many.append(native("m-best", 2, 0.1, {"headline": "Many: the best", "body": "Best body"}))
    return {
        "formats": [],
        "creatives": rank + many + [{"id": "js-rtb", "openrtb": JS_RTB, "eCPM": 1.0, "priority": 1}],
        "adUnits": [{"id": RANK, "creatives": [c["id"] for c in rank]},
                    {"id": MANY, "creatives": [c["id"] for c in many]},
                    {"id": JS, "creatives": ["js-rtb"]}],
    }


@pytest.fixture(scope="module")
def bidder(tmp_path_factory):
    srv = start_bidder(tmp_path_factory, "bidder-limits", limits_store(), "--allow-origin", ORIGIN)
    yield srv
    srv.stop()


@pytest.fixture
def c(rconn):
    """A connection to a server of the default limits (test_openrtb's: built-in inventory)."""
    return rconn


@pytest.fixture(scope="module")
def roomy_server(tmp_path_factory):
    srv = start_private(str(tmp_path_factory.mktemp("limits-roomy")),
                        args=["--max-response-assets", "20000", "--max-ad-trackers", "200",
                              "--max-response-pixels", str(2 * 4096 * 4096)])
    yield srv
    srv.stop()


@pytest.fixture
def roomy(roomy_server):
    """A connection to a server with higher limits."""
    assert roomy_server.alive(), roomy_server.describe()
    roomy_server.stdio.sync()
    return roomy_server.stdio


def response(*assets, title="Limits", **extra) -> dict:
    r = {"ver": "1.2", "link": {"url": "https://adv.example/limits"},
         "assets": [{"id": 1, "title": {"text": title}}, *assets]}
    r.update(extra)
    return r


# ------------------------------------------------------------------------------------------
# 1. X-OpenRTB-No-Bid: ids percent-encoded, nothing a client sends writes a header


def raw_head(port: int, data: bytes) -> bytes:
    """The bytes of one response's head (status line and headers, without the blank line),
    read off a raw socket."""
    with connect(port) as s:
        s.sendall(data)
        buf = b""
        deadline = time.monotonic() + WAIT
        while b"\r\n\r\n" not in buf:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                raise AssertionError(f"no response head within {WAIT} s: {buf[:500]!r}") from None
            assert chunk, f"the connection closed inside the head: {buf[:500]!r}"
            buf += chunk
        return buf[: buf.index(b"\r\n\r\n")]


HOSTILE_IDS = ["1\r\nSet-Cookie: x=1", "imp 7", "a;b=c", "caf\u00e9", "tab\there", "100%", "Az09-._~", "\u00001"]


def test_no_bid_header_ids_are_percent_encoded_and_write_no_header(port):
    body = bid_request(*[imp(i, NOWHERE, native_request(TITLE)) for i in HOSTILE_IDS], id="hostile-ids")
    head = raw_head(port, request_bytes("POST", AUCTION, port, body=dumps(body)))
    assert re.fullmatch(rb"(?:[^\r\n]*\r\n)*[^\r\n]*", head), f"a CR or LF outside a line end: {head!r}"
    lines = head.split(b"\r\n")
    assert lines[0] == b"HTTP/1.1 204 No Content", lines[0]
    names = [line.split(b":", 1)[0].lower() for line in lines[1:]]
    assert b"set-cookie" not in names, head
    assert names.count(b"x-openrtb-no-bid") == 1, head
    (value,) = [line.split(b":", 1)[1].strip() for line in lines[1:]
                if line.lower().startswith(b"x-openrtb-no-bid:")]
    assert all(0x21 <= b <= 0x7E or b == 0x20 for b in value), f"only visible ASCII: {value!r}"
    expected = "; ".join(f"{urllib.parse.quote(i, safe='')}=500" for i in HOSTILE_IDS)
    assert value.decode("ascii") == expected
    assert value.startswith(b"1%0D%0ASet-Cookie%3A%20x%3D1=500; imp%207=500; a%3Bb%3Dc=500; caf%C3%A9=500; "
                            b"tab%09here=500; 100%25=500; Az09-._~=500; %001=500"), value
    entries = [e.rsplit("=", 1) for e in value.decode("ascii").split("; ")]
    assert [urllib.parse.unquote(k) for k, _ in entries] == HOSTILE_IDS, "each id decodes back to itself"


def test_the_no_bid_header_is_bounded_and_counts_what_it_leaves_out(port):
    ids = [f"{k:02d}-" + "i" * 200 for k in range(64)]
    body = bid_request(*[imp(i, NOWHERE, native_request(TITLE)) for i in ids], id="long-ids")
    head = raw_head(port, request_bytes("POST", AUCTION, port, body=dumps(body)))
    (value,) = [line.split(b":", 1)[1].strip() for line in head.split(b"\r\n")[1:]
                if line.lower().startswith(b"x-openrtb-no-bid:")]
    assert len(value) <= 4096, len(value)
    entries = value.decode("ascii").split("; ")
    listed, rest = entries[:-1], entries[-1]
    assert listed == [f"{i}=500" for i in ids[:len(listed)]], listed[:2]
    assert rest == f"*={64 - len(listed)}" and listed, entries[-2:]


# ------------------------------------------------------------------------------------------
# 2. CORS preflight of the bidder


def test_options_auction_answers_a_cors_preflight(port):
    (r,) = http_exchange(port, request_bytes(
        "OPTIONS", AUCTION, port, content_type=None,
        headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type"}))
    assert r.status == 204, r
    assert r.header("access-control-allow-methods") == "POST, OPTIONS", r.headers
    assert r.header("allow") == "POST, OPTIONS", r.headers
    assert r.header("access-control-allow-origin") == ORIGIN, r.headers
    assert "content-type" in r.header("access-control-allow-headers").lower(), r.headers
    assert r.body == b"" and r.header("content-length") is None, r
    # The page the preflight was for may then bid, and read the answer.
    bid = auction(port, bid_request(imp("1", RANK, native_request(TITLE))), headers={"Origin": ORIGIN})
    assert bid.status == 200 and bid.header("access-control-allow-origin") == ORIGIN, bid.headers


def test_a_preflight_from_another_origin_is_refused(port):
    (r,) = http_exchange(port, request_bytes(
        "OPTIONS", AUCTION, port, content_type=None,
        headers={"Origin": "http://localhost:3001", "Access-Control-Request-Method": "POST"}))
    assert r.status == 403, r


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
def test_other_methods_are_405_allowing_post_and_options(port, method):
    body = dumps(bid_request(imp("1", RANK, native_request(TITLE)))) if method in ("PUT", "PATCH") else None
    (r,) = http_exchange(port, request_bytes(method, AUCTION, port, body=body,
                                             content_type="application/json" if body else None))
    assert r.status == 405, r
    assert r.header("allow") == "POST, OPTIONS", r.headers


# ------------------------------------------------------------------------------------------
# 3. Many impressions against one large unit; the right winner


def test_64_impressions_against_a_unit_none_of_whose_creatives_meets_the_request(port):
    ids = [f"imp-{i}" for i in range(64)]
    reasons = no_bid(port, bid_request(*[imp(i, MANY, native_request(TITLE, PHONE)) for i in ids], id="many-1"))
    assert reasons.pop("_header") == "; ".join(f"{i}=501" for i in ids)
    assert reasons == {i: 501 for i in ids}


def test_a_large_unit_still_bids_its_best_creative_for_the_impression_it_meets(port):
    imps = [imp(f"p{i}", MANY, native_request(TITLE, PHONE)) for i in range(63)]
    imps.insert(40, imp("title", MANY, native_request(TITLE, {"id": 2, "required": 1, "data": {"type": 2}})))
    resp = bid_response(port, bid_request(*imps, id="many-2"))
    b = bids_by_imp(resp)["title"]
    assert (b["crid"], b["price"]) == ("m-best", 0.1), "priority 2 outranks the 2,999 of priority 1"
    a = answer(b)
    assert a[1]["title"]["text"] == "Many: the best" and a[2]["data"] == {**a[2]["data"], "type": 2,
                                                                          "value": "Best body"}
    entries = no_bid_entries(resp)
    assert set(entries) == {f"p{i}" for i in range(63)} and {e["nbr"] for e in entries.values()} == {501}


# Each impression of one request against RANK: the best-ranked creative that has every
# required asset, whatever the impressions before it asked for.
RANK_IMPS = [
    ("phone", [TITLE, PHONE], "r-phone", {8: ("data", 8, "+1 555 0100")}),
    ("title", [TITLE], "r-top", {1: ("title", "Top: headline only")}),
    ("icon", [TITLE, {"id": 2, "required": 1, "img": {"type": 1, "wmin": 64, "hmin": 64}}], "r-icon",
     {2: ("img", 1, "https://cdn.example/r-icon-icon.png", 64, 64)}),
    ("big-icon", [TITLE, {"id": 2, "required": 1, "img": {"type": 1, "wmin": 65, "hmin": 65}}], "r-body",
     {2: ("img", 1, "https://cdn.example/r-body-icon.png", 200, 200)}),
    ("body-and-phone", [TITLE, {"id": 3, "required": 1, "data": {"type": 2}}, PHONE], "r-body",
     {3: ("data", 2, "The body of r-body"), 8: ("data", 8, "+1 555 0199")}),
    ("data501", [TITLE, {"id": 5, "required": 1, "data": {"type": 501}}], "r-types", {5: ("data", 501, "x501")}),
    ("data64", [{"id": 5, "required": 1, "data": {"type": 64}}], "r-types", {5: ("data", 64, "x64")}),
    ("data63", [{"id": 5, "required": 1, "data": {"type": 63}}], "r-types", {5: ("data", 63, "x63")}),
    ("optional-phone", [TITLE, {"id": 8, "required": 0, "data": {"type": 8}}], "r-top", {}),
]


def asset_tuple(a: dict) -> tuple:
    if "title" in a:
        return ("title", a["title"]["text"])
    if "img" in a:
        return ("img", a["img"]["type"], a["img"]["url"], a["img"]["w"], a["img"]["h"])
    return ("data", a["data"]["type"], a["data"]["value"])


def test_each_impression_gets_the_best_ranked_creative_meeting_its_required_assets(port):
    body = bid_request(*[imp(name, RANK, native_request(*assets)) for name, assets, _, _ in RANK_IMPS],
                       imp("none", RANK, native_request(TITLE, {"id": 9, "required": 1, "data": {"type": 70}})),
                       id="rank-1")
    resp = bid_response(port, body)
    bids = bids_by_imp(resp)
    assert {k: b["crid"] for k, b in bids.items()} == {name: crid for name, _, crid, _ in RANK_IMPS}
    for name, assets, _, expected in RANK_IMPS:
        got = {i: asset_tuple(a) for i, a in answer(bids[name]).items()}
        for i, want in expected.items():
            assert got.get(i) == want, (name, got)
        assert set(got) <= {a["id"] for a in assets}, (name, got)
    assert 8 not in answer(bids["optional-phone"]), "r-top has no phone"
    assert {k: e["nbr"] for k, e in no_bid_entries(resp).items()} == {"none": 501}


# ------------------------------------------------------------------------------------------
# 4. bidfloor and tagid of the wrong kind: nbr 2 naming them

FLOOR_SENTINEL = 987654.125


@pytest.mark.parametrize("member,raw,problem", [
    ("bidfloor", '"abc"', "imp[1].bidfloor must be a number"),
    ("bidfloor", "-1", "imp[1].bidfloor must be at least 0"),
    ("bidfloor", "-0.01", "imp[1].bidfloor must be at least 0"),
    ("bidfloor", "1e999", "imp[1].bidfloor must be a number"),
    ("bidfloor", "true", "imp[1].bidfloor must be a number"),
    ("tagid", "5", "imp[1].tagid must be a string"),
    ("tagid", '["' + RANK + '"]', "imp[1].tagid must be a string"),
], ids=["string", "negative", "negative-fraction", "overflow", "bool", "tagid-number", "tagid-array"])
def test_an_invalid_bidfloor_or_tagid_is_that_impressions_nbr_2(port, member, raw, problem):
    bad = imp("bad", RANK, native_request(TITLE))
    bad[member] = FLOOR_SENTINEL
    text = dumps(bid_request(imp("good", RANK, native_request(TITLE)), bad, id="floor-1"))
    assert text.count(b"987654.125") == 1
    text = text.replace(b"987654.125", raw.encode())
    resp = bid_response(port, text)
    assert list(bids_by_imp(resp)) == ["good"]
    entries = no_bid_entries(resp)
    assert set(entries) == {"bad"} and entries["bad"]["nbr"] == 2, entries
    assert entries["bad"]["reason"] == problem, entries
    # Alone, it is a 204 whose header gives the reason.
    alone = dumps(bid_request(bad, id="floor-2")).replace(b"987654.125", raw.encode())
    assert no_bid(port, alone) == {"bad": 2, "_header": "bad=2"}


@pytest.mark.parametrize("floor", [0, 0.0, 1, 1.0])
def test_a_valid_bidfloor_up_to_the_ecpm_still_bids(port, floor):
    assert only_bid(port, bid_request(imp("1", RANK, native_request(TITLE), bidfloor=floor)))["crid"] == "r-top"


# ------------------------------------------------------------------------------------------
# 5. minItems


def test_a_bid_request_with_no_impressions_is_400(port):
    r = auction(port, {"id": "empty-imps", "imp": []})
    assert r.status == 400, (r.status, r.headers, r.body[:500])
    assert r.json() == {"id": "empty-imps", "nbr": 2, "ext": {"error": "imp must not be empty"}}


@pytest.mark.parametrize("as_object", [False, True], ids=["string", "object"])
def test_a_native_request_with_no_assets_is_nbr_2_naming_them(port, as_object):
    resp = bid_response(port, bid_request(imp("ok", RANK, native_request(TITLE)),
                                          imp("empty", RANK, native_request(), as_object=as_object)))
    assert list(bids_by_imp(resp)) == ["ok"]
    entries = no_bid_entries(resp)
    assert entries["empty"]["nbr"] == 2
    assert entries["empty"]["reason"] == "imp[1].native.request.assets must not be empty", entries


@pytest.mark.parametrize("form", ["object", "string"])
def test_load_ad_native_request_with_no_assets_is_invalid_params(c, form):
    req = native_request()
    err = rs_error(c, response(), req if form == "object" else json.dumps(req))
    assert_invalid_params(err, "nativeRequest.assets")
    assert "must not be empty" in err["message"], err


def test_store_put_ad_unit_refuses_an_empty_waterfall(c):
    unit = {"id": "/e2e/limits/empty-waterfall", "creatives": [], "waterfall": []}
    err = c.error("store.putAdUnit", {"adUnit": unit})
    assert_invalid_params(err, "adUnit.waterfall")
    assert err["message"] == "Invalid params: adUnit.waterfall must not be empty", err
    assert unit["id"] not in [u["id"] for u in c.call("store.list")["adUnits"]]


def test_a_store_file_unit_with_an_empty_waterfall_stops_start_up(tmp_path):
    store = {"formats": [], "creatives": [native("w-1", 1, 1.0, {"headline": "W"})],
             "adUnits": [{"id": "/e2e/limits/ok", "creatives": ["w-1"]},
                         {"id": "/e2e/limits/empty-waterfall", "creatives": ["w-1"], "waterfall": []}]}
    path = write_json(str(tmp_path / "empty-waterfall.json"), store)
    proc = run_once(["--store", path])
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1 and proc.stdout == b"", err
    assert f"{path}: adUnits[1].waterfall" in err and "must not be empty" in err, err


# ------------------------------------------------------------------------------------------
# 6. ext.extraAssets count as assets, read in one pass


def extras(n: int) -> dict:
    return {f"extra-{i:05d}": f"value {i}" for i in range(n)}


def test_ext_extra_assets_count_into_the_default_asset_limit(c):
    assert len(rs_one(c, response(ext={"extraAssets": extras(31)}))["extraAssets"]) == 31
    err = rs_error(c, response(ext={"extraAssets": extras(32)}))
    assert_invalid_response(err, "native.ext.extraAssets", contains="at most 32 in all")
    assert "--max-response-assets" in err["message"] and "extraAssets entries count" in err["message"], err
    # The assets and the extras count together.
    two_data = [{"id": 2, "data": {"type": 2, "value": "b"}}, {"id": 3, "data": {"type": 1, "value": "a"}}]
    assert_invalid_response(rs_error(c, response(*two_data, ext={"extraAssets": extras(30)})),
                            "native.ext.extraAssets", contains="at most 32 in all")


def test_ten_thousand_extra_assets_are_refused_by_default(c):
    err = rs_error(c, response(ext={"extraAssets": extras(10_000)}))
    assert_invalid_response(err, "native.ext.extraAssets", contains="--max-response-assets")


def test_ten_thousand_extra_assets_load_with_a_higher_limit(roomy):
    given = extras(10_000)
    ad = rs_one(roomy, response(ext={"extraAssets": given}))
    assert ad["extraAssets"] == given
    assert list(ad["extraAssets"]) == list(given), "in the order given"
    exported = export(roomy, ad["adId"])
    assert exported["ext"]["extraAssets"] == given


def test_a_repeated_extra_assets_key_keeps_its_first_place_and_last_value(c):
    r = response({"id": 2, "data": {"type": 4, "value": "12k likes"}})
    text = json.dumps(r)[:-1] + (', "ext": {"extraAssets": {"a": "first", "likes": "from ext", "b": "b",'
                                 ' "a": "last", "likes": "from ext again"}}}')
    assert text.count('"a":') == 2 and json.loads(text)["ext"]["extraAssets"]["a"] == "last"
    ad = rs_one(c, text)
    assert ad["extraAssets"] == {"likes": "12k likes", "a": "last", "b": "b"}, "the asset's value is kept"
    assert list(ad["extraAssets"]) == ["likes", "a", "b"]


# ------------------------------------------------------------------------------------------
# 7. --max-ad-trackers


def tracked(imp_n=0, event_n=0, click_n=0, asset_click_n=0, tag="t") -> dict:
    r = response({"id": 2, "data": {"type": 12, "value": "Go"},
                  **({"link": {"url": "https://adv.example/cta",
                               "clicktrackers": [f"https://t.example/{tag}/asset-click/{i}"
                                                 for i in range(asset_click_n)]}} if asset_click_n else {})})
    r["imptrackers"] = [f"https://t.example/{tag}/imp/{i}" for i in range(imp_n)]
    r["eventtrackers"] = [{"event": 1 + i % 2, "method": 1, "url": f"https://t.example/{tag}/ev/{i}"}
                          for i in range(event_n)]
    r["link"]["clicktrackers"] = [f"https://t.example/{tag}/click/{i}" for i in range(click_n)]
    return r


@pytest.mark.parametrize("counts", [(65, 0, 0, 0), (0, 65, 0, 0), (0, 0, 65, 0), (0, 0, 0, 65), (30, 20, 10, 5)],
                         ids=["imptrackers", "eventtrackers", "clicktrackers", "asset-clicktrackers", "together"])
def test_an_ad_with_65_trackers_is_refused_by_default(c, counts):
    err = rs_error(c, tracked(*counts))
    assert_invalid_response(err, "native", contains="carries 65 trackers")
    assert "at most 64 (--max-ad-trackers)" in err["message"], err


def test_an_ad_with_64_trackers_loads(c):
    ad = rs_one(c, tracked(29, 20, 10, 5))
    urls = c.call("recordImpression", adId=ad["adId"])["trackingURLs"]
    assert urls == [f"https://t.example/t/imp/{i}" for i in range(29)] + [
        f"https://t.example/t/ev/{i}" for i in range(0, 20, 2)], "event 1 pixels after the imptrackers"


def test_the_tracker_limit_is_per_ad_and_names_the_bid(c):
    ok = {"id": "r", "seatbid": [{"seat": "s", "bid": [
        {"id": "1", "price": 2, "adm": json.dumps(tracked(40, tag="a"))},
        {"id": "2", "price": 1, "adm": json.dumps(tracked(40, tag="b"))}]}]}
    assert len(rs_load(c, ok, options={"numberOfAds": 2})["ads"]) == 2, "40 + 40 trackers, in two ads"
    over = {"id": "r", "seatbid": [{"seat": "s", "bid": [
        {"id": "1", "price": 2, "adm": json.dumps(tracked(40, tag="a"))},
        {"id": "2", "price": 1, "adm": json.dumps(tracked(65, tag="b"))}]}]}
    assert_invalid_response(rs_error(c, over), "seatbid[0].bid[1].adm.native", contains="--max-ad-trackers")


def test_a_higher_tracker_limit_hands_out_every_tracker(roomy):
    ad = rs_one(roomy, tracked(100))
    assert roomy.call("recordImpression", adId=ad["adId"]) == {
        "recorded": True, "trackingURLs": [f"https://t.example/t/imp/{i}" for i in range(100)]}
    err = rs_error(roomy, tracked(150, 51))
    assert_invalid_response(err, "native", contains="carries 201 trackers")
    assert "at most 200 (--max-ad-trackers)" in err["message"], err


def rtb_creative(cid: str, n: int) -> dict:
    return {"id": cid, "openrtb": tracked(n, tag=cid), "eCPM": 1.0, "priority": 1}


def test_store_put_creative_refuses_an_openrtb_creative_with_too_many_trackers(c):
    err = c.error("store.putCreative", {"creative": rtb_creative("rtb-65", 65)})
    assert_invalid_params(err, "creative.openrtb")
    assert "carries 65 trackers" in err["message"] and "--max-ad-trackers" in err["message"], err
    assert "rtb-65" not in [x["id"] for x in c.call("store.list")["creatives"]]
    assert c.call("store.putCreative", creative=rtb_creative("rtb-64", 64)) == {
        "creativeID": "rtb-64", "replaced": False}


def test_store_put_creative_takes_the_configured_tracker_limit(roomy):
    assert roomy.call("store.putCreative", creative=rtb_creative("rtb-200", 200))["creativeID"] == "rtb-200"
    assert_invalid_params(roomy.error("store.putCreative", {"creative": rtb_creative("rtb-201", 201)}),
                          "creative.openrtb")


def test_a_store_file_creative_with_too_many_trackers_stops_start_up(tmp_path):
    store = {"formats": [], "creatives": [rtb_creative("rtb-ok", 64), rtb_creative("rtb-many", 65)],
             "adUnits": [{"id": "/e2e/limits/rtb", "creatives": ["rtb-ok", "rtb-many"]}]}
    path = write_json(str(tmp_path / "many-trackers.json"), store)
    proc = run_once(["--store", path])
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1 and proc.stdout == b"", err
    assert f"{path}: creatives[1].openrtb" in err and "--max-ad-trackers" in err, err
    proc = run_once(["--store", path, "--max-ad-trackers", "65"])
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-1000:]


@pytest.mark.parametrize("flag", ["--max-ad-trackers", "--max-response-pixels"])
@pytest.mark.parametrize("bad", ["0", "-1", "many"])
def test_the_new_limits_must_be_positive_integers(flag, bad):
    proc = run_once([flag, bad])
    assert proc.returncode != 0 and flag.encode() in proc.stderr, proc


# ------------------------------------------------------------------------------------------
# 8. --max-response-pixels


def img(asset_id, image_type, w, h, name=None) -> dict:
    return {"id": asset_id, "img": {"type": image_type, "url": f"https://cdn.example/{name or asset_id}.png",
                                    "w": w, "h": h}}


def test_the_images_of_a_response_string_have_at_most_4096_squared_pixels_by_default(c):
    (image,) = rs_one(c, response(img(2, 3, 4096, 4096)))["images"]
    assert (image["width"], image["height"]) == (4096, 4096), "exactly the limit"
    err = rs_error(c, response(img(2, 3, 4096, 4096), img(3, 3, 4096, 4096)))
    assert_invalid_response(err, "native.assets[2].img", contains="is 4096 x 4096")
    assert "at most 16777216 pixels in all (--max-response-pixels)" in err["message"], err
    # The icon counts too.
    assert_invalid_response(rs_error(c, response(img(2, 1, 1, 1), img(3, 3, 4096, 4096))), "native.assets[2].img",
                            contains="--max-response-pixels")


def test_the_pixel_limit_counts_every_bid(c):
    bid = lambda i, price: {"id": str(i), "price": price, "adm": json.dumps(response(img(2, 3, 4096, 2048)))}
    ok = {"id": "r", "seatbid": [{"seat": "s", "bid": [bid(1, 2), bid(2, 1)]}]}
    assert len(rs_load(c, ok, options={"numberOfAds": 2})["ads"]) == 2
    over = {"id": "r", "seatbid": [{"seat": "s", "bid": [bid(1, 2), bid(2, 1), bid(3, 3)]}]}
    assert_invalid_response(rs_error(c, over), "seatbid[0].bid[2].adm.native.assets[1].img",
                            contains="--max-response-pixels")


def test_a_higher_pixel_limit_loads_both_images(roomy):
    ad = rs_one(roomy, response(img(2, 3, 4096, 4096), img(3, 3, 4096, 4096)),
                options={"shouldRequestMultipleImages": True})
    assert [(i["width"], i["height"]) for i in ad["images"]] == [(4096, 4096)] * 2
    three = response(img(2, 3, 4096, 4096), img(3, 3, 4096, 4096), img(4, 1, 1, 1))
    assert_invalid_response(rs_error(roomy, three), "native.assets[3].img", contains="at most 33554432 pixels")


def test_a_second_icon_is_an_extra_url_and_does_not_count(server_factory):
    s = server_factory(stdio=True, args=["--max-response-pixels", "10000"]).stdio
    ad = rs_one(s, response(img(2, 1, 100, 100, "icon1"), img(3, 1, 100, 100, "icon2"),
                            img(4, 2, 100, 100, "logo")))
    assert (ad["icon"]["url"], ad["icon"]["width"]) == ("https://cdn.example/icon1.png", 100), "exactly the limit"
    assert ad["extraAssets"] == {"icon.2": "https://cdn.example/icon2.png", "icon.3": "https://cdn.example/logo.png"}
    assert_invalid_response(rs_error(s, response(img(2, 1, 100, 100), img(3, 1, 100, 100), img(4, 3, 1, 1))),
                            "native.assets[3].img", contains="at most 10000 pixels")


# ------------------------------------------------------------------------------------------
# 9. exportAd: extras named like IAB types, universal links

LOOKALIKES = {
    "data1": "not the advertiser", "data2": "not the body", "data3": "not a rating", "data4": "not likes",
    "data12": "not the call to action", "img1": "https://cdn.example/not-the-icon.png",
    "img2": "https://cdn.example/not-a-logo.png", "img3": "https://cdn.example/not-a-main-image.png",
}
TYPED = {"img501": "https://cdn.example/x501.png", "data501": "typed 501", "data13": "typed 13",
         "likes": "12 likes"}


def loaded_with_lookalikes(c, source: str) -> dict:
    given = {**LOOKALIKES, **TYPED}
    if source == "store":
        cid = "lookalikes"
        c.call("store.putCreative", creative=native(cid, 1, 1.0, {
            "headline": "Extras named like types", "body": "The body", "extraAssets": given}))
        c.call("store.putAdUnit", adUnit={"id": "/e2e/limits/lookalikes", "creatives": [cid]})
        (ad,) = c.call("loadAd", {"adUnitID": "/e2e/limits/lookalikes"})["ads"]
    else:
        ad = rs_one(c, response({"id": 2, "data": {"type": 2, "value": "The body"}},
                                title="Extras named like types", ext={"extraAssets": given}))
    assert ad["extraAssets"] == given, ad["extraAssets"]
    return ad


@pytest.mark.parametrize("source", ["store", "response-string"])
def test_extras_named_like_iab_types_survive_the_export_round_trip(c, source):
    ad = loaded_with_lookalikes(c, source)
    exported = export(c, ad["adId"])
    assert exported["ext"]["extraAssets"] == LOOKALIKES, "only the names the decoder gives are typed"
    typed = {(a["data"]["type"], a["data"]["value"]) for a in exported["assets"] if "data" in a}
    assert typed >= {(501, "typed 501"), (13, "typed 13"), (4, "12 likes")}, typed
    assert (501, TYPED["img501"]) in {(a["img"]["type"], a["img"]["url"]) for a in exported["assets"] if "img" in a}
    back = rs_one(c, exported)
    assert_same_assets(ad, back)
    assert back["extraAssets"] == {**LOOKALIKES, **TYPED}
    assert (back["headline"], back["body"]) == ("Extras named like types", "The body")
    assert (back["advertiser"], back["starRating"], back["callToAction"], back["icon"], back["images"]) == (
        None, None, None, None, []), "no lookalike took a place"


DEEP_LINK_CASES = {
    "universal-first": (["https://app.example/open/1", "myapp://item/1"],
                        {"url": "https://adv.example/u"}, ["https://app.example/open/1", "myapp://item/1"]),
    "custom-scheme-first": (["myapp://item/2", "https://app.example/open/2"],
                            {"url": "myapp://item/2", "fallback": "https://adv.example/u"},
                            ["https://app.example/open/2"]),
    "universal-only": (["https://app.example/open/3"], {"url": "https://adv.example/u"},
                       ["https://app.example/open/3"]),
}


@pytest.mark.parametrize("case", list(DEEP_LINK_CASES))
def test_deep_links_and_the_landing_page_survive_the_export_round_trip(c, case):
    deep_links, link, in_ext = DEEP_LINK_CASES[case]
    cid = f"links-{case}"
    c.call("store.putCreative", creative=native(cid, 1, 1.0, {"headline": f"Links {case}"},
                                                landingPageURL="https://adv.example/u", deepLinks=deep_links))
    c.call("store.putAdUnit", adUnit={"id": f"/e2e/limits/{cid}", "creatives": [cid]})
    (ad,) = c.call("loadAd", {"adUnitID": f"/e2e/limits/{cid}"})["ads"]
    exported = export(c, ad["adId"])
    back = rs_one(c, exported)
    for schemes in ([], ["https"], ["myapp"], ["myapp", "https"], ["other"]):
        o, b = click(c, ad["adId"], "headline", schemes), click(c, back["adId"], "headline", schemes)
        assert (b["action"], b["url"]) == (o["action"], o["url"]), (schemes, o, b)
    # What the clicks show: the landing page, and each deep link where its scheme opens.
    assert click(c, back["adId"], "headline", [])["url"] == "https://adv.example/u"
    for deep_link in deep_links:
        assert click(c, back["adId"], "headline", [deep_link.split(":", 1)[0]]) == {
            "recorded": True, "action": "deepLink", "url": deep_link, "trackingURLs": []}
    # How the export says so: a universal link never goes in link.url.
    assert exported["link"] == link, exported
    assert exported["ext"]["deepLinks"] == in_ext, exported


# ------------------------------------------------------------------------------------------
# 10. link.url must not be empty


@pytest.mark.parametrize("where,field", [("response", "native.link.url"), ("asset", "native.assets[1].link.url")])
def test_an_empty_link_url_is_refused(c, where, field):
    r = response({"id": 2, "data": {"type": 12, "value": "Go"}, "link": {"url": "https://adv.example/cta"}})
    target = r["link"] if where == "response" else r["assets"][1]["link"]
    target["url"] = ""
    assert_invalid_response(rs_error(c, r), field, contains="must not be empty")
    assert_invalid_response(rs_error(c, {"native": r}), field)


def test_an_empty_link_url_in_a_store_creative_is_refused(c):
    r = response()
    r["link"]["url"] = ""
    assert_invalid_params(c.error("store.putCreative", {"creative": {"id": "rtb-empty-link", "openrtb": r,
                                                                      "eCPM": 1.0}}), "creative.openrtb.link.url")


# ------------------------------------------------------------------------------------------
# 11. The bidder's jstracker only when the request offers it


@pytest.mark.parametrize("offered,has_js", [
    (None, True),
    ([{"event": 1, "methods": [2]}], True),
    ([{"event": 1, "methods": [1, 2]}, {"event": 2, "methods": [1]}], True),
    ([{"event": 1, "methods": [1]}], False),
    ([{"event": 2, "methods": [2]}], False),
    ([], False),
], ids=["none-offered", "impression-js", "impression-both", "impression-pixel-only", "other-event-js", "empty-list"])
def test_the_adm_carries_the_jstracker_only_when_offered(port, offered, has_js):
    extra = {} if offered is None else {"eventtrackers": offered}
    native_ = adm(only_bid(port, bid_request(imp("1", JS, native_request(TITLE, **extra)))))
    assert native_.get("jstracker") == (JS_TRACKER if has_js else None), native_


# ------------------------------------------------------------------------------------------
# 12. nativeRequest: the kind of the request asset an id names

KINDS_REQUEST = native_request(
    {"id": 1, "required": 1, "title": {"len": 90}},
    {"id": 2, "img": {"type": 3, "wmin": 100, "hmin": 100}},
    {"id": 3, "data": {"type": 2}},
    {"id": 4, "video": {"mimes": ["video/mp4"]}},
)


@pytest.mark.parametrize("asset,field,message", [
    ({"id": 2, "title": {"text": "a title for an image"}}, "native.assets[1].title",
     "answers asset 2 of nativeRequest, which is not a title"),
    ({"id": 3, "title": {"text": "a title for a data asset"}}, "native.assets[1].title",
     "answers asset 3 of nativeRequest, which is not a title"),
    ({"id": 3, "video": {"vasttag": VAST}}, "native.assets[1].video",
     "answers asset 3 of nativeRequest, which is not a video"),
    ({"id": 1, "video": {"vasttag": VAST}}, "native.assets[1].video",
     "answers asset 1 of nativeRequest, which is not a video"),
], ids=["title-for-img", "title-for-data", "video-for-data", "video-for-title"])
def test_an_asset_answering_a_request_asset_of_another_kind_is_refused(c, asset, field, message):
    r = {"ver": "1.2", "link": {"url": "https://adv.example/k"},
         "assets": [{"id": 1, "title": {"text": "Kinds"}}, asset]}
    err = rs_error(c, r, KINDS_REQUEST)
    assert_invalid_response(err, field)
    assert err["message"] == f"Invalid ad response: {field} {message}", err


def test_assets_answering_their_own_kinds_load(c):
    r = {"ver": "1.2", "link": {"url": "https://adv.example/k"},
         "assets": [{"id": 1, "title": {"text": "Kinds"}}, {"id": 4, "video": {"vasttag": VAST}},
                    {"id": 2, "img": {"url": "https://cdn.example/k.png"}}, {"id": 3, "data": {"value": "Body"}}]}
    ad = rs_one(c, r, KINDS_REQUEST)
    assert (ad["headline"], ad["body"], ad["mediaContent"]["duration"]) == ("Kinds", "Body", 9)
    assert [(i["url"], i["width"], i["height"]) for i in ad["images"]] == [("https://cdn.example/k.png", 100, 100)]


@pytest.mark.parametrize("asset,field", [
    ({"img": {"url": "https://cdn.example/no-id.png", "w": 10, "h": 10}}, "native.assets[1].img.type"),
    ({"data": {"value": "no id"}}, "native.assets[1].data.type"),
], ids=["img", "data"])
def test_an_untyped_asset_without_an_id_says_it_has_no_id(c, asset, field):
    r = {"ver": "1.2", "link": {"url": "https://adv.example/k"}, "assets": [{"id": 1, "title": {"text": "K"}}, asset]}
    err = rs_error(c, r, KINDS_REQUEST)
    assert_invalid_response(err, field, contains="and it has no id")
    assert "give loadAd the nativeRequest" not in err["message"], err
    # Without a nativeRequest, the hint is to give one.
    assert_invalid_response(rs_error(c, r), field, contains="give loadAd the nativeRequest")


# ------------------------------------------------------------------------------------------
# 13. A fleet's bidder bids from a store caught up with the last change acknowledged


def test_in_a_fleet_a_bid_request_sees_the_store_change_just_acknowledged(server_factory, redis_server, request):
    name = f"limits-catch-up-{request.node.name[:30]}-{time.monotonic_ns()}"
    a, b = [server_factory(stdio=False, tcp=True, http=True, spread=False,
                           args=["--redis", redis_server.url, "--fleet", name]) for _ in range(2)]
    ca = a.connect()
    unit = "/e2e/limits/fleet"
    body = lambda k: bid_request(imp("1", unit, native_request(TITLE)), id=f"fleet-{k}")
    for k in range(20):
        cid = f"fleet-{k}"
        assert ca.call("store.putCreative", creative=native(cid, 1, 1.0, {"headline": f"Round {k}"}))[
            "creativeID"] == cid
        assert ca.call("store.putAdUnit", adUnit={"id": unit, "creatives": [cid]})["adUnitID"] == unit
        # At once, on the other process: the unit as A just acknowledged it.
        b_bid = only_bid(b.http_port, body(k))
        assert (b_bid["crid"], answer(b_bid)[1]["title"]["text"]) == (cid, f"Round {k}"), k


def test_in_a_fleet_a_bid_request_is_503_while_the_store_cannot_be_read(server_factory, private_redis):
    name = f"limits-down-{time.monotonic_ns()}"
    a = server_factory(stdio=False, tcp=True, http=True, spread=False,
                       args=["--redis", private_redis.url, "--fleet", name, "--redis-timeout-ms", "300"])
    ca = a.connect()
    ca.call("store.putCreative", creative=native("down-1", 1, 1.0, {"headline": "Down"}))
    ca.call("store.putAdUnit", adUnit={"id": "/e2e/limits/down", "creatives": ["down-1"]})
    body = bid_request(imp("1", "/e2e/limits/down", native_request(TITLE)), id="down")
    assert only_bid(a.http_port, body)["crid"] == "down-1"
    private_redis.suspend()
    try:
        r = auction(a.http_port, body)
        assert r.status == 503, (r.status, r.headers, r.body[:500])
        reply = r.json()
        assert (reply["id"], reply["nbr"]) == ("down", 1), reply
        assert reply["ext"]["error"].startswith("the fleet's store is unavailable: "), reply
    finally:
        private_redis.resume()
    wait_until(lambda: auction(a.http_port, body).status == 200, what="the bidder to bid again once Redis answers")
    assert only_bid(a.http_port, body)["crid"] == "down-1"


def test_in_a_fleet_pipelined_requests_behind_a_bid_request_are_answered_in_order(server_factory, redis_server):
    name = f"limits-pipeline-{time.monotonic_ns()}"
    a = server_factory(stdio=False, tcp=True, http=True, spread=False,
                       args=["--redis", redis_server.url, "--fleet", name])
    a.connect().call("store.putAdUnit", adUnit={"id": "/e2e/limits/pipe", "creatives": []})
    p = a.http_port
    first = dumps(bid_request(imp("1", "/e2e/limits/pipe", native_request(TITLE)), id="pipe-1"))
    second = dumps(bid_request(imp("2", NOWHERE, native_request(TITLE)), id="pipe-2"))
    rpc = dumps({"jsonrpc": "2.0", "id": 7, "method": "store.list"})
    r1, r2, r3 = http_exchange(p, request_bytes("POST", AUCTION, p, body=first)
                               + request_bytes("POST", AUCTION, p, body=second)
                               + request_bytes("POST", "/rpc", p, body=rpc), count=3)
    assert (r1.status, r1.header("x-openrtb-no-bid")) == (204, "1=501"), r1
    assert (r2.status, r2.header("x-openrtb-no-bid")) == (204, "2=500"), r2
    assert r3.status == 200 and r3.json()["id"] == 7, r3


def _pipelined_then_half_closed(port: int, data: bytes) -> list:
    """Sends `data`, ends the input (SHUT_WR), and reads every response until the server closes."""
    with connect(port) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        reader = ResponseReader(sock)
        out = []
        while (r := reader.read()) is not None:
            out.append(r)
        return out


@pytest.mark.parametrize("fleet", [False, True], ids=["alone", "fleet"])
def test_requests_pipelined_behind_a_bid_are_answered_when_the_client_ends_its_input(
        server_factory, redis_server, fleet):
    args = ["--redis", redis_server.url, "--fleet", f"limits-halfclose-{time.monotonic_ns()}"] if fleet else []
    a = server_factory(stdio=False, tcp=True, http=True, spread=False, args=args)
    p = a.http_port
    first = dumps(bid_request(imp("1", NOWHERE, native_request(TITLE)), id="half-1"))
    rpc = dumps({"jsonrpc": "2.0", "id": 8, "method": "store.list"})
    second = dumps(bid_request(imp("2", NOWHERE, native_request(TITLE)), id="half-2"))
    responses = _pipelined_then_half_closed(p, request_bytes("POST", AUCTION, p, body=first)
                                            + request_bytes("POST", "/rpc", p, body=rpc)
                                            + request_bytes("POST", AUCTION, p, body=second))
    assert [(r.status, r.header("x-openrtb-no-bid")) for r in responses] == [
        (204, "1=500"), (200, None), (204, "2=500")], responses
    assert responses[1].json()["id"] == 8


def test_a_process_joining_a_fleet_takes_the_fleets_tracker_limit(server_factory, redis_server):
    """A store change fails the same way on every process: a joiner given another
    --max-ad-trackers holds changes to the fleet's."""
    name = f"limits-trackers-{time.monotonic_ns()}"
    a = server_factory(stdio=False, tcp=True, spread=False,
                       args=["--redis", redis_server.url, "--fleet", name, "--max-ad-trackers", "100"])
    a.connect().call("store.list")
    b = server_factory(stdio=False, tcp=True, spread=False, args=["--redis", redis_server.url, "--fleet", name])
    ca, cb = a.connect(), b.connect()
    assert ca.call("store.putCreative", creative=rtb_creative("fleet-80", 80))["creativeID"] == "fleet-80"
    assert cb.call("store.putCreative", creative=rtb_creative("fleet-90", 90))["creativeID"] == "fleet-90"
    for c in (ca, cb):
        listed = c.call("store.list")
        ids = {x if isinstance(x, str) else x.get("id") for x in listed.get("creatives", [])}
        assert {"fleet-80", "fleet-90"} <= ids, (c.name, listed)
    assert_invalid_params(cb.error("store.putCreative", {"creative": rtb_creative("fleet-101", 101)}),
                          "creative.openrtb")
