"""Mediation (contract section 7 "Mediation", docs/mediation.md): waterfalls ordered by eCPM,
custom events served by external adapters over JSON-RPC (the `adapter.*` requests and
notifications), SampleCustomEvent, the built-in unit `native-ads/mediation/sample-waterfall`,
and the Python adapter example (clients/python/examples/adapter_example.py).

Most tests run one server with both stdio and TCP, an adapter connection (an ExternalAdapter
from e2e_support, answering `adapter.loadNativeAd` in background threads) and an app
connection. The waterfall units live in stores/mediation-waterfalls.json. Tests assert what
happened, never how fast: slow adapters are held on threading.Events the test releases, and
only latencies of timed-out sources are bounded below (by their timeout)."""
from __future__ import annotations

import base64
import itertools
import json
import os
import re
import subprocess
import sys
import threading
import time

import pytest

from e2e_support import (
    ADMOB_DOMAIN,
    BIN,
    CLOSE,
    GOOGLE_CLASS,
    MEDIATION_UNIT,
    NATIVE_UNIT,
    NEVER,
    SAMPLE_CLASS,
    SAMPLE_DOMAIN,
    SERVER_REQUEST_ID,
    STORE_SCHEMA,
    TCP_TRANSPORTS,
    TRANSPORTS,
    ExternalAdapter,
    after,
    assert_invalid_params,
    batch_requests,
    check_ad,
    check_any_image,
    check_load_request,
    fail,
    fill,
    get_events,
    load_one,
    make_png,
    mediated_load,
    mediated_load_error,
    network_entries,
    notes,
    png_size,
    raw_answer,
    run_once,
    split_transport,
    start_private,
    store_path,
    store_schema,
    twice,
    wait_ad_event,
    wait_video_event,
    write_json,
)

STORE = "mediation-waterfalls.json"
U_FIRST = "/e2e/mediation/first"
U_TIMEOUT = "/e2e/mediation/timeout"
U_ORDER = "/e2e/mediation/order"
U_MISSING = "/e2e/mediation/missing"
U_ALL_MISSING = "/e2e/mediation/all-missing"
U_DEADLINE = "/e2e/mediation/deadline"
U_SLOW = "/e2e/mediation/slow"
U_PRECEDENCE = "/e2e/mediation/precedence"
U_INFO = "/e2e/mediation/info"
U_EVENTS = "/e2e/mediation/events"
U_BACKFILL = "/e2e/mediation/backfill"
U_SAMPLE_ONLY = "/e2e/mediation/sample-only"
U_SAMPLE_EMPTY = "/e2e/mediation/sample-empty-parameter"

HOUSE = "Mediation house ad"
TARGETED = "Mediation targeted ad"
FALLBACK_KEYWORD = "mediation-fallback"
BACKFILL_HEADLINES = {"Backfill Puzzle Quest", "Backfill: Ten Tips for Better Sleep"}
EPS = 0.01  # seconds: the slack allowed below a timeout when checking a timed-out latency

EXAMPLE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python",
                                        "examples", "adapter_example.py"))


# ------------------------------------------------------------------------------------------
# Helpers


def start(server_factory, *, stdio_framing="ndjson", store=True, args=()):
    """A server on stdio, TCP and a Unix socket: the fixture store plus the built-in inventory.
    Its connections are all on one process of a suite's fleet: adapters serve the loads of the
    process they registered with."""
    a = ["--store", store_path(STORE), "--with-builtin"] if store else []
    a += [str(x) for x in args]
    return server_factory(stdio=True, tcp=True, unix=True, framing=stdio_framing, args=a, spread=False)


def connection(srv, transport, *, sync):
    kind, framing = split_transport(transport)
    if kind == "stdio":
        assert srv.stdio.framing == framing, "start the server with this stdio framing"
        c = srv.stdio
        if sync:
            c.sync()
        return c
    return srv.connect_to(kind, framing, sync=sync, name=f"{transport}-{len(srv.tcp_conns)}")


def open_pair(server_factory, adapter_transport="tcp-ndjson", app_transport=None, *, args=(), store=True):
    """(server, adapter connection (not synced; give it to ExternalAdapter), app connection)."""
    if app_transport is None:
        app_transport = "tcp-ndjson" if adapter_transport.startswith("stdio") else "stdio-ndjson"
    stdio_framing = "ndjson"
    for t in (adapter_transport, app_transport):
        if t.startswith("stdio"):
            stdio_framing = split_transport(t)[1]
    srv = start(server_factory, stdio_framing=stdio_framing, args=args, store=store)
    adapter_conn = connection(srv, adapter_transport, sync=False)
    app = connection(srv, app_transport, sync=True)
    return srv, adapter_conn, app


def mapped(tag, **kw):
    """A mapped native ad (docs/mediation.md "MappedAd") with every asset."""
    ad = {"headline": f"{tag} headline", "body": f"{tag} body", "callToAction": f"{tag} install",
          "icon": {"url": f"https://cdn.{tag}.example/icon.png", "width": 64, "height": 64},
          "images": [{"url": f"https://cdn.{tag}.example/main.png", "width": 1200, "height": 627}],
          "starRating": 4.0, "store": f"{tag} store", "price": "Free", "advertiser": f"{tag} advertiser",
          "extraAssets": {"network": tag}, "handlesUserClicks": False, "handlesUserImpressions": False,
          "landingPageURL": f"https://{tag}.example/landing"}
    ad.update(kw)
    return ad


def by_class(**actions):
    """A policy answering each adapter class with its action (classes not named never answer)."""
    return lambda params: actions.get(params.get("adapterClassName"), NEVER)


def nth(*actions):
    """A policy answering the first load with actions[0], the second with actions[1], ...; the
    last action repeats."""
    counter = itertools.count()
    lock = threading.Lock()

    def policy(_params):
        with lock:
            i = next(counter)
        return actions[min(i, len(actions) - 1)]

    return policy


def entries(ri):
    return ri["adNetworkInfoArray"]


def assert_entry(entry, cls, source, error=None, *, code=None, domain=None):
    """error: None for success, a dict for an exact error, or "any" (code/domain checked if given)."""
    assert (entry["adNetworkClassName"], entry["adSourceName"]) == (cls, source), entry
    if error is None:
        assert entry["error"] is None, entry
        return
    assert isinstance(entry["error"], dict), f"expected an error on {cls}: {entry!r}"
    if isinstance(error, dict):
        assert entry["error"] == error, entry
    if code is not None:
        assert entry["error"]["code"] == code, entry
    if domain is not None:
        assert entry["error"]["domain"] == domain, entry


def assert_missing_adapter_entry(entry, cls, source=None):
    assert_entry(entry, cls, source or cls, "any", code=8, domain=ADMOB_DOMAIN)
    assert entry["latency"] == 0, f"a skipped source has latency 0: {entry!r}"


def headline(result):
    return result["ads"][0]["headline"]


def wait_missing(app, unit, tries=50):
    """Loads `unit` until its first source (a closed connection's adapter) is reported missing."""
    for _ in range(tries):
        result = mediated_load(app, unit)
        first = entries(result["responseInfo"])[0]
        if first["error"] is not None and first["error"]["code"] == 8:
            return result
        assert first["error"] is not None and first["error"]["code"] == 102, first
        time.sleep(0.05)
    raise AssertionError(f"the closed connection's adapter stayed registered: {first!r}")


# ------------------------------------------------------------------------------------------
# The store: waterfall units


def test_the_mediation_fixture_store_validates_against_the_schema():
    schema = store_schema()
    if schema is None:
        pytest.skip(f"{STORE_SCHEMA} does not exist yet")
    jsonschema = pytest.importorskip("jsonschema")
    with open(store_path(STORE), encoding="utf-8") as f:
        doc = json.load(f)
    v = jsonschema.validators.validator_for(schema)(schema)
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def test_the_mediation_fixture_store_starts_a_server():
    proc = run_once(["--store", store_path(STORE)])
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-1000:]


def test_a_bad_waterfall_source_stops_start_up_naming_the_place(tmp_path):
    with open(store_path(STORE), encoding="utf-8") as f:
        store = json.load(f)
    store["adUnits"][0]["waterfall"][0]["type"] = "banana"
    path = write_json(str(tmp_path / "bad-waterfall.json"), store)
    proc = run_once(["--store", path])
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1 and proc.stdout == b"", err
    assert f"{path}: adUnits[0].waterfall[0].type:" in err, err


def test_store_put_ad_unit_defines_a_waterfall_at_run_time(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    adapter = ExternalAdapter(adapter_conn, "RpcNet", fill(mapped("rpcnet")))
    unit = {"id": "/e2e/mediation/rpc", "creatives": ["med-house"],
            "waterfall": [{"type": "inventory", "eCPM": 0.5},
                          {"type": "customEvent", "adapterClassName": "RpcNet", "parameter": "rpc-1", "eCPM": 2.0,
                           "timeoutMs": 5000, "label": "RPC network"}]}
    assert app.call("store.putAdUnit", adUnit=unit) == {"adUnitID": unit["id"], "replaced": False}
    result = mediated_load(app, unit["id"])
    assert headline(result) == "rpcnet headline"
    assert network_entries(result["responseInfo"]) == [("RpcNet", "RPC network")]
    check_load_request(adapter.loads[0], "RpcNet", "rpc-1")
    # The same validation as the file, naming the field.
    bad = dict(unit, waterfall=[{"type": "banana"}])
    assert_invalid_params(app.error("store.putAdUnit", {"adUnit": bad}), "adUnit.waterfall[0].type")


# ------------------------------------------------------------------------------------------
# Registering adapters


def test_registering_a_builtin_class_name_or_nothing_is_invalid_params(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    err = app.error("mediation.registerAdapter", {"adapterClassName": SAMPLE_CLASS})
    assert err["code"] == -32602, err
    assert_invalid_params(app.error("mediation.registerAdapter", {}), "adapterClassName")
    assert_invalid_params(app.error("mediation.unregisterAdapter", {}), "adapterClassName")


def test_unregistering_makes_the_class_missing_again(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    adapter = ExternalAdapter(adapter_conn, "MyNet", fill(mapped("mynet")))
    assert headline(mediated_load(app, U_FIRST)) == "mynet headline"
    assert adapter.unregister("MyNet") is True
    assert adapter.unregister("MyNet") is False
    result = mediated_load(app, U_FIRST)
    assert headline(result) == HOUSE
    assert_missing_adapter_entry(entries(result["responseInfo"])[0], "MyNet", "My network")
    assert len(adapter.loads) == 1, "an unregistered adapter is not asked"


def test_a_second_connection_takes_a_class_over_and_its_close_unregisters_it(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    first = ExternalAdapter(adapter_conn, "MyNet", fill(mapped("first")))
    second = ExternalAdapter(srv.connect("lsp", sync=False), "MyNet", fill(mapped("second")))
    assert headline(mediated_load(app, U_FIRST)) == "second headline"
    assert first.loads == [] and len(second.loads) == 1
    second.conn.close()
    # Its adapters go with it; the connection it took the class from does not get it back.
    # (A load racing the server's noticing of the close may still be sent there and fail
    # with 102; once the close is seen, the class is missing.)
    result = wait_missing(app, U_FIRST)
    assert headline(result) == HOUSE
    assert_missing_adapter_entry(entries(result["responseInfo"])[0], "MyNet", "My network")
    assert first.loads == []


# ------------------------------------------------------------------------------------------
# Filling, falling through


@pytest.mark.parametrize("adapter_transport", TRANSPORTS)
def test_the_first_source_fills_through_an_external_adapter(server_factory, adapter_transport):
    srv, adapter_conn, app = open_pair(server_factory, adapter_transport)
    ad_in = mapped("mynet")
    adapter = ExternalAdapter(adapter_conn, "MyNet", fill(ad_in))
    result = mediated_load(app, U_FIRST, options={"mediaAspectRatio": "landscape", "adChoicesPosition": "bottomLeft"},
                           request={"isTestRequest": True, "keywords": ["shoes"]})
    ad = result["ads"][0]
    for k in ("headline", "body", "callToAction", "store", "price", "advertiser", "starRating", "extraAssets"):
        assert ad[k] == ad_in[k], (k, ad[k])
    # Images without data get generated PNGs of their size; the URLs are the adapter's.
    check_any_image(ad["icon"], 64, 64)
    assert ad["icon"]["url"] == ad_in["icon"]["url"]
    assert [(i["url"], i["width"], i["height"]) for i in ad["images"]] == [
        (ad_in["images"][0]["url"], 1200, 627)]
    assert ad["adChoices"] is None, "a mapped ad without adChoices has none"
    # Only the first source was tried, and it filled.
    ri = result["responseInfo"]
    assert network_entries(ri) == [("MyNet", "My network")]
    assert_entry(entries(ri)[0], "MyNet", "My network", None)
    assert ri["loadedAdNetworkResponseInfo"] == entries(ri)[0]
    # What the adapter was asked.
    (request,) = adapter.requests
    assert request["method"] == "adapter.loadNativeAd"
    assert isinstance(request["id"], str) and SERVER_REQUEST_ID.match(request["id"]), request["id"]
    params = check_load_request(request["params"], "MyNet", "mynet-unit-1")
    cfg = params["adConfiguration"]
    assert cfg["isTestRequest"] is True
    assert cfg["options"].get("mediaAspectRatio") == "landscape", cfg["options"]
    assert cfg["options"].get("adChoicesPosition") == "bottomLeft", cfg["options"]
    assert adapter.unexpected == []
    # A second load is a new request with an id and loadId of its own.
    mediated_load(app, U_FIRST, request={"isTestRequest": False})
    second = adapter.requests[1]
    assert SERVER_REQUEST_ID.match(second["id"]) and second["id"] != request["id"]
    assert second["params"]["loadId"] != params["loadId"]
    assert second["params"]["adConfiguration"]["isTestRequest"] is False


def test_a_waterfall_unit_serves_one_ad_whatever_number_of_ads_says(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    adapter = ExternalAdapter(adapter_conn, "MyNet", fill(mapped("mynet")))
    result = mediated_load(app, U_FIRST, options={"numberOfAds": 3})  # asserts exactly one ad
    assert headline(result) == "mynet headline"
    assert len(adapter.loads) == 1
    err = app.error("loadAd", {"adUnitID": U_FIRST, "options": {"numberOfAds": 0}})
    assert err["code"] == 1000, err


def test_an_adapter_error_falls_through_to_the_next_source(server_factory):
    srv, adapter_conn, app = open_pair(server_factory, "stdio-lsp")
    adapter = ExternalAdapter(adapter_conn, "MyNet", fail(3, "no ads for you", "com.mynet"))
    result = mediated_load(app, U_FIRST)
    ad = result["ads"][0]
    assert ad["headline"] == HOUSE
    check_ad(ad)  # an inventory ad: the store's images
    ri = result["responseInfo"]
    assert_entry(entries(ri)[0], "MyNet", "My network", {"code": 3, "domain": "com.mynet", "message": "no ads for you"})
    assert_entry(entries(ri)[1], GOOGLE_CLASS, "Reservation", None)
    assert len(entries(ri)) == 2
    assert ri["loadedAdNetworkResponseInfo"] == entries(ri)[1]
    assert len(adapter.loads) == 1


def test_an_indirect_inventory_source_is_the_admob_network(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    ExternalAdapter(adapter_conn, "MyNet", fail())
    result = mediated_load(app, U_BACKFILL, options={"adChoicesPosition": "topLeft"})
    ad = result["ads"][0]
    assert ad["headline"] == "Mediation backfill ad"
    assert ad["adChoices"]["position"] == "topLeft"
    assert network_entries(result["responseInfo"]) == [("MyNet", "My network"), (GOOGLE_CLASS, "AdMob Network")]


def test_an_adapter_that_never_answers_times_out_and_the_next_source_fills(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    adapter = ExternalAdapter(adapter_conn, "MyNet", NEVER)
    result = mediated_load(app, U_TIMEOUT)
    assert headline(result) == HOUSE
    first, second = entries(result["responseInfo"])
    assert_entry(first, "MyNet", "My network", "any")
    assert first["latency"] >= 0.200 - EPS, f"a source that timed out after 200 ms: {first!r}"
    assert_entry(second, GOOGLE_CLASS, "Reservation", None)
    assert len(adapter.loads) == 1


def test_a_timed_out_source_carries_the_timeout_error_code(server_factory):
    """Interpretation: "a failure with a timeout error" is GADErrorCode 5 (timeout) in the SDK's
    domain, like the missing-adapter entry's code 8."""
    srv, adapter_conn, app = open_pair(server_factory)
    ExternalAdapter(adapter_conn, "MyNet", NEVER)
    result = mediated_load(app, U_TIMEOUT)
    assert_entry(entries(result["responseInfo"])[0], "MyNet", "My network", "any", code=5, domain=ADMOB_DOMAIN)


def test_a_missing_adapter_is_skipped_with_error_8_and_the_next_source_fills(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    adapter = ExternalAdapter(adapter_conn, "MyNet", fill(mapped("mynet")))
    result = mediated_load(app, U_MISSING)
    assert headline(result) == "mynet headline"
    ghost, mynet = entries(result["responseInfo"])
    assert_missing_adapter_entry(ghost, "GhostNet", "Ghost network")
    assert_entry(mynet, "MyNet", "MyNet", None)  # no label: the class name
    assert result["responseInfo"]["loadedAdNetworkResponseInfo"] == mynet
    assert adapter.load_classes() == ["MyNet"]


def test_sources_are_asked_by_ecpm_whatever_their_listing_order(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    codes = {"NetA": 11, "NetB": 12, "NetC": 13, "NetD": 14}
    adapter = ExternalAdapter(adapter_conn, list(codes),
                              by_class(**{c: fail(n, f"{c} failed", f"com.{c.lower()}") for c, n in codes.items()}))
    # Listed: inventory 0.5, NetA 1.0, NetB 3.0, NetC 2.0, NetD 2.0 (a tie with NetC, listed after it).
    err = mediated_load_error(app, U_ORDER, 1001)
    ri = err["data"]["responseInfo"]
    assert [e["adNetworkClassName"] for e in entries(ri)] == ["NetB", "NetC", "NetD", "NetA", GOOGLE_CLASS]
    for e in entries(ri)[:4]:
        c = e["adNetworkClassName"]
        assert_entry(e, c, c, {"code": codes[c], "domain": f"com.{c.lower()}", "message": f"{c} failed"})
    assert_entry(entries(ri)[4], GOOGLE_CLASS, "Reservation", "any", code=1)
    assert ri["loadedAdNetworkResponseInfo"] is None
    assert adapter.load_classes() == ["NetB", "NetC", "NetD", "NetA"]
    # The inventory, last, fills when its creative's keyword is asked.
    result = mediated_load(app, U_ORDER, request={"keywords": [FALLBACK_KEYWORD]})
    assert headline(result) == TARGETED
    assert [e["adNetworkClassName"] for e in entries(result["responseInfo"])] == [
        "NetB", "NetC", "NetD", "NetA", GOOGLE_CLASS]
    # The first fill stops the waterfall: NetC fills, NetD and NetA are not asked.
    adapter.policy = by_class(NetB=fail(12, "NetB failed", "com.netb"), NetC=fill(mapped("netc")))
    before = len(adapter.loads)
    result = mediated_load(app, U_ORDER, request={"keywords": [FALLBACK_KEYWORD]})
    assert headline(result) == "netc headline"
    assert [e["adNetworkClassName"] for e in entries(result["responseInfo"])] == ["NetB", "NetC"]
    assert adapter.load_classes()[before:] == ["NetB", "NetC"]


# ------------------------------------------------------------------------------------------
# Answers that come twice, late, or never (the connection closes)


TWICE_CASES = {
    "fill-then-fill": (twice(fill(mapped("one")), fill(mapped("two"))), "one headline", None),
    "fill-then-error": (twice(fill(mapped("one")), fail(3, "second thoughts", "com.mynet")), "one headline", None),
    "error-then-fill": (twice(fail(3, "first answer", "com.mynet"), fill(mapped("two"))), HOUSE,
                        {"code": 3, "domain": "com.mynet", "message": "first answer"}),
}


@pytest.mark.parametrize("case", list(TWICE_CASES))
def test_only_the_first_answer_counts(server_factory, case):
    action, expected_headline, expected_error = TWICE_CASES[case]
    srv, adapter_conn, app = open_pair(server_factory)
    adapter = ExternalAdapter(adapter_conn, "MyNet", nth(action, fill(mapped("later"))))
    result = mediated_load(app, U_FIRST)
    assert headline(result) == expected_headline
    assert_entry(entries(result["responseInfo"])[0], "MyNet", "My network", expected_error)
    adapter.wait_answers(2)
    assert adapter.replies_to_answers() == [], "responses are never answered"
    # The ad the first answer made is unchanged; a later load works as usual.
    ad_id = result["ads"][0]["adId"]
    assert app.call("stringForKey", adId=ad_id, key="headline") == expected_headline
    later = mediated_load(app, U_FIRST)
    assert headline(later) == "later headline"
    assert network_entries(later["responseInfo"]) == [("MyNet", "My network")]
    assert len(adapter.loads) == 2


def test_an_answer_after_the_timeout_is_ignored_and_leaves_no_state_behind(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    release = threading.Event()
    adapter = ExternalAdapter(adapter_conn, "MyNet", nth(after(release, fill(mapped("late"))), fill(mapped("fresh"))))
    result = mediated_load(app, U_TIMEOUT)
    house_id = result["ads"][0]["adId"]
    assert headline(result) == HOUSE
    assert_entry(entries(result["responseInfo"])[0], "MyNet", "My network", "any")
    # Now the adapter answers, after its source timed out and the load went on.
    release.set()
    adapter.wait_answers(1)
    assert adapter.replies_to_answers() == [], "a late answer gets no reply"
    assert app.call("stringForKey", adId=house_id, key="headline") == HOUSE
    app.barrier()
    assert app.notifications == [], f"the late answer reached the app: {app.notifications!r}"
    # A later load through the same adapter gets the adapter's new answer, not the late one.
    fresh = mediated_load(app, U_FIRST)
    assert headline(fresh) == "fresh headline"
    assert network_entries(fresh["responseInfo"]) == [("MyNet", "My network")]
    fresh_id = fresh["ads"][0]["adId"]
    second_load_id = adapter.loads[1]["loadId"]
    assert app.call("recordImpression", adId=fresh_id) == {"recorded": True}
    told = adapter_conn.wait_notification("adapter.didRecordImpression", lambda p: p.get("adId") == fresh_id)
    assert told["loadId"] == second_load_id
    # Everything the adapter was told is about the fresh ad.
    for method in ("adapter.didRecordImpression", "adapter.didRender", "adapter.didUntrackView",
                   "adapter.handleImpression", "adapter.handleClick", "adapter.didRecordClickOnAsset"):
        for p in adapter.notes(method):
            assert p.get("adId") == fresh_id and p.get("loadId") == second_load_id, (method, p)


@pytest.mark.parametrize("adapter_transport", TCP_TRANSPORTS + ["stdio-ndjson"])
def test_a_connection_closed_mid_load_fails_its_source_with_102_and_the_next_fills(server_factory, adapter_transport):
    srv, adapter_conn, app = open_pair(server_factory, adapter_transport)
    adapter = ExternalAdapter(adapter_conn, "MyNet", CLOSE)
    result = mediated_load(app, U_FIRST)  # MyNet's timeout is 5 s: the close, not the timeout, ends it
    assert adapter.closed_mid_load
    assert headline(result) == HOUSE
    first, second = entries(result["responseInfo"])
    assert_entry(first, "MyNet", "My network", "any", code=102)
    assert "closed" in first["error"]["message"], first
    assert_entry(second, GOOGLE_CLASS, "Reservation", None)
    # The closed connection's adapters are gone.
    later = mediated_load(app, U_FIRST)
    assert_missing_adapter_entry(entries(later["responseInfo"])[0], "MyNet", "My network")
    assert srv.alive()


def test_a_custom_event_without_timeout_ms_waits_5_seconds(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    adapter = ExternalAdapter(adapter_conn, "MyNet", NEVER)
    unit = {"id": "/e2e/mediation/default-timeout", "creatives": ["med-house"],
            "waterfall": [{"type": "customEvent", "adapterClassName": "MyNet", "parameter": "p", "eCPM": 2.0},
                          {"type": "inventory", "eCPM": 0.5}]}
    app.call("store.putAdUnit", adUnit=unit)
    result = mediated_load(app, unit["id"])
    assert headline(result) == HOUSE
    first = entries(result["responseInfo"])[0]
    assert_entry(first, "MyNet", "MyNet", "any")
    assert first["latency"] >= 5.0 - EPS, f"the default per-adapter timeout is 5000 ms: {first!r}"
    assert len(adapter.loads) == 1


# ------------------------------------------------------------------------------------------
# Mapped ads


def test_a_mapped_ad_with_an_error_fails_its_source_with_102_naming_the_field(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    no_headline = mapped("broken")
    del no_headline["headline"]
    bad_icon = mapped("broken", icon={"url": "https://cdn.broken.example/icon.png", "width": 0, "height": 64})
    bad_rating = mapped("broken", starRating=7)
    adapter = ExternalAdapter(adapter_conn, "MyNet", nth(fill(no_headline), fill(bad_icon), fill(bad_rating),
                                                          raw_answer({"jsonrpc": "2.0", "result": {"no": "ad"}})))
    for field in ("headline", "icon", "starRating", "ad"):
        result = mediated_load(app, U_FIRST)
        assert headline(result) == HOUSE, field
        first = entries(result["responseInfo"])[0]
        assert_entry(first, "MyNet", "My network", "any", code=102)
        assert field in first["error"]["message"], (field, first)
    assert len(adapter.loads) == 4


def test_mapped_images_keep_their_bytes_and_follow_the_image_options(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    icon_png = make_png(3, 2, (0x10, 0x20, 0x30))
    ad_in = mapped("imgs", icon={"url": "https://cdn.imgs.example/icon.png", "width": 3, "height": 2,
                                 "data": base64.b64encode(icon_png).decode()},
                   images=[{"url": "https://cdn.imgs.example/a.png", "width": 600, "height": 300},
                           {"url": "https://cdn.imgs.example/b.png", "width": 300, "height": 600}],
                   media={"aspectRatio": 2.0, "hasVideoContent": False, "duration": 0},
                   adChoices={"image": {"url": "https://cdn.imgs.example/adchoices.png", "width": 15, "height": 15},
                              "clickURL": "https://imgs.example/why-this-ad"})
    ExternalAdapter(adapter_conn, "MyNet", fill(ad_in))
    ad = mediated_load(app, U_FIRST, options={"shouldRequestMultipleImages": True,
                                              "adChoicesPosition": "bottomRight"})["ads"][0]
    assert base64.b64decode(ad["icon"]["data"]) == icon_png
    assert [(i["url"], i["width"], i["height"]) for i in ad["images"]] == [
        ("https://cdn.imgs.example/a.png", 600, 300), ("https://cdn.imgs.example/b.png", 300, 600)]
    for img in ad["images"]:
        check_any_image(img)  # generated PNGs of the stated sizes
    assert ad["mediaContent"]["aspectRatio"] == pytest.approx(2.0)
    assert ad["mediaContent"]["hasVideoContent"] is False
    ac = ad["adChoices"]
    assert ac["position"] == "bottomRight" and ac["clickURL"] == "https://imgs.example/why-this-ad"
    check_any_image(ac["image"], 15, 15)
    # With image loading disabled, URLs only.
    ad = mediated_load(app, U_FIRST, options={"disableImageLoading": True})["ads"][0]
    check_any_image(ad["icon"], 3, 2, loaded=False)
    for img in ad["images"]:
        check_any_image(img, loaded=False)
    assert ad["mediaContent"]["mainImage"] is None


def test_a_mapped_ad_opens_its_deep_links_and_landing_page(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    ad_in = mapped("links", deepLinks=["linksapp://item/7", "otherapp://x"])
    ExternalAdapter(adapter_conn, "MyNet", fill(ad_in))
    ad_id = mediated_load(app, U_EVENTS)["ads"][0]["adId"]
    assert app.call("performClickOnAsset", adId=ad_id, key="headline", openableURLSchemes=["otherapp", "linksapp"]) == {
        "recorded": True, "action": "deepLink", "url": "linksapp://item/7"}
    assert app.call("performClickOnAsset", adId=ad_id, key="body") == {
        "recorded": True, "action": "landingPage", "url": ad_in["landingPageURL"]}
    assert app.call("stringForKey", adId=ad_id, key="advertiser") == ad_in["advertiser"]
    check_any_image(app.call("imageForKey", adId=ad_id, key="icon"), 64, 64)


# ------------------------------------------------------------------------------------------
# The whole-load deadline and the final error


def test_the_unit_deadline_fails_the_load_with_1005_and_stops_the_waterfall(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    release = threading.Event()
    slow_policy = nth(after(release, fill(mapped("too-late"))), fill(mapped("slow")))
    adapter = ExternalAdapter(adapter_conn, ["SlowNet", "OtherNet"],
                              lambda p: slow_policy(p) if p["adapterClassName"] == "SlowNet"
                              else fill(mapped("other")))
    err = mediated_load_error(app, U_DEADLINE, 1005)  # deadlineMs 300; SlowNet's own timeout is 5 s
    ri = err["data"]["responseInfo"]
    (slow,) = entries(ri)
    assert_entry(slow, "SlowNet", "SlowNet", "any")
    assert slow["latency"] >= 0.300 - EPS, slow
    assert ri["loadedAdNetworkResponseInfo"] is None
    adapter.conn.barrier()
    assert adapter.load_classes() == ["SlowNet"], "the sources after the deadline are not tried"
    # SlowNet's answer after the deadline changes nothing; the next load is served as usual.
    release.set()
    adapter.wait_answers(1)
    assert adapter.replies_to_answers() == []
    app.barrier()
    assert app.notifications == []
    result = mediated_load(app, U_SLOW)  # the same adapters, without a 300 ms deadline to race
    assert headline(result) == "slow headline"
    assert network_entries(result["responseInfo"]) == [("SlowNet", "SlowNet")]


def test_the_server_deadline_applies_to_units_without_their_own(server_factory):
    srv, adapter_conn, app = open_pair(server_factory, args=["--mediation-deadline-ms", "300"])
    adapter = ExternalAdapter(adapter_conn, ["SlowNet", "OtherNet"],
                              by_class(SlowNet=NEVER, OtherNet=fill(mapped("other"))))
    err = mediated_load_error(app, U_SLOW, 1005)  # SlowNet's own timeout is 10 s
    (slow,) = entries(err["data"]["responseInfo"])
    assert_entry(slow, "SlowNet", "SlowNet", "any")
    assert slow["latency"] >= 0.300 - EPS, slow
    adapter.conn.barrier()
    assert adapter.load_classes() == ["SlowNet"]


NETWORK_DOWN = fail(2, "network down", "com.e2e.network", network_error=True)
PLAIN_ERROR = fail(3, "no inventory", "com.e2e.network")
PRECEDENCE_CASES = {
    # NetA (eCPM 3), NetB (eCPM 2), GhostNet (missing), inventory (no eligible creative)
    "network-error-first": ({"NetA": NETWORK_DOWN, "NetB": PLAIN_ERROR}, 1002),
    "network-error-second": ({"NetA": PLAIN_ERROR, "NetB": NETWORK_DOWN}, 1002),
    "network-error-and-missing": ({"NetA": NETWORK_DOWN}, 1002),
    "plain-errors": ({"NetA": PLAIN_ERROR, "NetB": PLAIN_ERROR}, 1001),
    "missing-adapters-and-inventory-no-fill": ({}, 1001),
    "error-and-missing": ({"NetA": PLAIN_ERROR}, 1001),
}


@pytest.mark.parametrize("case", list(PRECEDENCE_CASES))
def test_the_final_error_follows_the_documented_precedence(server_factory, case):
    actions, code = PRECEDENCE_CASES[case]
    srv, adapter_conn, app = open_pair(server_factory)
    adapter = ExternalAdapter(adapter_conn, list(actions), by_class(**actions))
    err = mediated_load_error(app, U_PRECEDENCE, code)
    ri = err["data"]["responseInfo"]
    assert [e["adNetworkClassName"] for e in entries(ri)] == ["NetA", "NetB", "GhostNet", GOOGLE_CLASS]
    for e in entries(ri)[:2]:
        c = e["adNetworkClassName"]
        if c in actions:
            expected = actions[c][1]
            assert e["error"] == {"code": expected["code"], "domain": expected["data"]["domain"],
                                  "message": expected["message"]}, e
        else:
            assert_missing_adapter_entry(e, c)
    assert_missing_adapter_entry(entries(ri)[2], "GhostNet")
    assert_entry(entries(ri)[3], GOOGLE_CLASS, "Reservation", "any", code=1)
    assert ri["loadedAdNetworkResponseInfo"] is None
    assert adapter.load_classes() == [c for c in ("NetA", "NetB") if c in actions]


def test_only_missing_adapters_is_a_mediation_adapter_error(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    err = mediated_load_error(app, U_ALL_MISSING, 1008)
    ri = err["data"]["responseInfo"]
    one, two = entries(ri)
    assert_missing_adapter_entry(one, "GhostOne")
    assert_missing_adapter_entry(two, "GhostTwo")
    assert ri["loadedAdNetworkResponseInfo"] is None


def test_response_info_tells_what_happened_to_every_source(server_factory):
    srv, adapter_conn, app = open_pair(server_factory, "tcp-lsp", "tcp-ndjson")
    adapter = ExternalAdapter(adapter_conn, ["ErrNet", "SlowNet", "GoodNet"],
                              by_class(ErrNet=fail(42, "boom", "com.errnet"), SlowNet=NEVER,
                                       GoodNet=fill(mapped("good"))))
    result = mediated_load(app, U_INFO)
    assert headline(result) == "good headline"
    ri = result["responseInfo"]
    ghost, err, slow, good = entries(ri)
    assert_missing_adapter_entry(ghost, "GhostNet", "Ghost network")
    assert_entry(err, "ErrNet", "ErrNet", {"code": 42, "domain": "com.errnet", "message": "boom"})
    assert_entry(slow, "SlowNet", "Slow network", "any")
    assert slow["latency"] >= 0.250 - EPS, slow
    assert_entry(good, "GoodNet", "Good network", None)
    assert ri["loadedAdNetworkResponseInfo"] == good
    assert all(e["latency"] >= 0 for e in entries(ri))
    assert adapter.load_classes() == ["ErrNet", "SlowNet", "GoodNet"], "the inventory, after the fill, is not tried"
    # Every load has a fresh response identifier.
    again = mediated_load(app, U_INFO)
    assert again["responseInfo"]["responseIdentifier"] != ri["responseIdentifier"]


# ------------------------------------------------------------------------------------------
# Impressions, clicks, rendering: who tracks what


@pytest.mark.parametrize("handles_impressions", [False, True], ids=["service-impressions", "adapter-impressions"])
@pytest.mark.parametrize("handles_clicks", [False, True], ids=["service-clicks", "adapter-clicks"])
def test_impressions_and_clicks_are_forwarded_exactly_once(server_factory, handles_clicks, handles_impressions):
    srv, adapter_conn, app = open_pair(server_factory)
    ad_in = mapped("track", handlesUserClicks=handles_clicks, handlesUserImpressions=handles_impressions)
    adapter = ExternalAdapter(adapter_conn, "MyNet", fill(ad_in))
    ad = mediated_load(app, U_EVENTS)["ads"][0]
    ad_id = ad["adId"]
    load_id = adapter.loads[0]["loadId"]
    ours = lambda p: p.get("adId") == ad_id  # noqa: E731

    app.call("registerAdView", adId=ad_id, clickableAssets=["headline", "callToAction"],
             nonclickableAssets=["body", "icon"])
    render = adapter_conn.wait_notification("adapter.didRender", ours)
    assert render == {"loadId": load_id, "adId": ad_id, "clickableAssets": ["headline", "callToAction"],
                      "nonclickableAssets": ["body", "icon"]}

    # Impressions.
    first = app.call("recordImpression", adId=ad_id)
    second = app.call("recordImpression", adId=ad_id)
    if not handles_impressions:
        assert first["recorded"] is True and second["recorded"] is False, (first, second)
        wait_ad_event(app, ad_id, "didRecordImpression")
        told = adapter_conn.wait_notification("adapter.didRecordImpression", ours)
        assert told == {"loadId": load_id, "adId": ad_id}
        # The adapter reporting too changes nothing: impressions count once.
        assert adapter.report("adapter.reportImpression", adId=ad_id)["result"] == {"recorded": False}
    else:
        assert first["recorded"] is False and second["recorded"] is False, (first, second)
        told = adapter_conn.wait_notification("adapter.handleImpression", ours)
        assert told == {"loadId": load_id, "adId": ad_id}
        app.barrier()
        assert app.ad_events(ad_id) == [], "nothing is recorded until the adapter reports it"
        assert adapter.report("adapter.reportImpression", adId=ad_id)["result"] == {"recorded": True}
        wait_ad_event(app, ad_id, "didRecordImpression")
        assert adapter.report("adapter.reportImpression", adId=ad_id)["result"] == {"recorded": False}

    # Clicks.
    for key in ("headline", "callToAction"):
        r = app.call("performClickOnAsset", adId=ad_id, key=key)
        if not handles_clicks:
            assert r == {"recorded": True, "action": "landingPage", "url": ad_in["landingPageURL"]}, r
            told = adapter_conn.wait_notification("adapter.didRecordClickOnAsset", ours)
            assert told == {"loadId": load_id, "adId": ad_id, "assetKey": key}
        else:
            assert r["recorded"] is False and r["action"] == "adapter", r
            told = adapter_conn.wait_notification("adapter.handleClick", ours)
            assert told == {"loadId": load_id, "adId": ad_id, "assetKey": key}
            assert adapter.report("adapter.reportClick", adId=ad_id)["result"] == {"recorded": True}
        wait_ad_event(app, ad_id, "didRecordClick")

    # Exactly what was recorded, in the log and on the wire.
    events = get_events(app, adId=ad_id)["events"]
    assert [e["event"] for e in events if e["event"] in ("didRecordImpression", "didRecordClick")] == [
        "didRecordImpression", "didRecordClick", "didRecordClick"], events
    app.barrier()
    sent = [e["event"] for e in app.ad_events(ad_id)]
    assert sent.count("didRecordImpression") == 1 and sent.count("didRecordClick") == 2, sent
    if not handles_clicks:
        assert [e["assetKey"] for e in events if e["event"] == "didRecordClick"] == ["headline", "callToAction"]

    # And exactly what the adapter was told.
    impressions = adapter.notes("adapter.didRecordImpression", ad_id)
    handled_impressions = adapter.notes("adapter.handleImpression", ad_id)
    clicks = [p["assetKey"] for p in adapter.notes("adapter.didRecordClickOnAsset", ad_id)]
    handled_clicks = [p["assetKey"] for p in adapter.notes("adapter.handleClick", ad_id)]
    if handles_impressions:
        assert impressions == [] and len(handled_impressions) >= 1
    else:
        assert len(impressions) == 1 and handled_impressions == []
    if handles_clicks:
        assert clicks == [] and handled_clicks == ["headline", "callToAction"]
    else:
        assert clicks == ["headline", "callToAction"] and handled_clicks == []

    # Unregistering the view untracks it.
    app.call("unregisterAdView", adId=ad_id)
    untrack = adapter_conn.wait_notification("adapter.didUntrackView", ours)
    assert untrack == {"loadId": load_id, "adId": ad_id}


def test_releasing_a_rendered_mediated_ad_untracks_its_view(server_factory):
    srv, adapter_conn, app = open_pair(server_factory, "stdio-ndjson")
    adapter = ExternalAdapter(adapter_conn, "MyNet", fill(mapped("rel")))
    ad_id = mediated_load(app, U_EVENTS)["ads"][0]["adId"]
    app.call("registerAdView", adId=ad_id, clickableAssets=["headline"], nonclickableAssets=[])
    adapter_conn.wait_notification("adapter.didRender", lambda p: p.get("adId") == ad_id)
    assert app.call("releaseAd", adId=ad_id) == {"released": True}
    untrack = adapter_conn.wait_notification("adapter.didUntrackView", lambda p: p.get("adId") == ad_id)
    assert untrack["loadId"] == adapter.loads[0]["loadId"]


def test_a_registered_mediated_ad_records_its_impression_on_the_first_visible_pixel(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    ExternalAdapter(adapter_conn, "MyNet", fill(mapped("vis")))
    ad_id = mediated_load(app, U_EVENTS)["ads"][0]["adId"]
    app.call("registerAdView", adId=ad_id, clickableAssets=["headline"], nonclickableAssets=[])
    assert app.call("reportVisibility", adId=ad_id, visiblePixels=1)["impressionRecorded"] is True
    assert app.call("reportVisibility", adId=ad_id, visiblePixels=50)["impressionRecorded"] is False
    wait_ad_event(app, ad_id, "didRecordImpression")
    adapter_conn.wait_notification("adapter.didRecordImpression", lambda p: p.get("adId") == ad_id)
    assert len(notes(adapter_conn, "adapter.didRecordImpression", ad_id)) == 1
    adapter_conn.barrier()
    assert len(notes(adapter_conn, "adapter.didRecordImpression", ad_id)) == 1


VIDEO_EVENTS = ["didPlay", "didPause", "didMute", "didUnmute", "didEnd"]
SCREEN_EVENTS = ["willPresentScreen", "willDismissScreen", "didDismissScreen"]


def test_adapter_video_and_full_screen_reports_reach_the_app(server_factory):
    srv, adapter_conn, app = open_pair(server_factory, "tcp-lsp", "stdio-lsp")
    ad_in = mapped("video", media={"aspectRatio": 16 / 9, "hasVideoContent": True, "duration": 12.5})
    adapter = ExternalAdapter(adapter_conn, "MyNet", fill(ad_in))
    ad = mediated_load(app, U_EVENTS)["ads"][0]
    ad_id = ad["adId"]
    mc = ad["mediaContent"]
    assert mc["hasVideoContent"] is True and mc["duration"] == 12.5
    assert mc["aspectRatio"] == pytest.approx(16 / 9, rel=1e-3)
    for i, event in enumerate(VIDEO_EVENTS):
        if i % 2 == 0:
            result = adapter.report("adapter.reportVideoEvent", adId=ad_id, event=event)["result"]
            assert isinstance(result, dict) and isinstance(result.get("recorded"), bool), result
        else:
            adapter_conn.notify("adapter.reportVideoEvent", {"adId": ad_id, "event": event})
        wait_video_event(app, ad_id, event)
    for event in SCREEN_EVENTS:
        result = adapter.report("adapter.reportFullScreen", adId=ad_id, event=event)["result"]
        assert isinstance(result, dict) and isinstance(result.get("recorded"), bool), result
        wait_ad_event(app, ad_id, event)
    log = get_events(app, adId=ad_id)["events"]
    assert [e["event"] for e in log if e["type"] == "videoEvent"] == VIDEO_EVENTS
    assert [e["event"] for e in log if e["event"] in SCREEN_EVENTS] == SCREEN_EVENTS
    # A bad event name is invalid params.
    err = adapter_conn.error("adapter.reportVideoEvent", {"adId": ad_id, "event": "didExplode"})
    assert_invalid_params(err, "event")


def test_only_the_connection_that_mapped_an_ad_may_report_on_it(server_factory):
    srv, adapter_conn, app = open_pair(server_factory)
    adapter = ExternalAdapter(adapter_conn, "MyNet", fill(mapped("own", handlesUserClicks=True,
                                                                   handlesUserImpressions=True)))
    other = ExternalAdapter(srv.connect("ndjson", sync=False), "OtherNet", NEVER)
    ad_id = mediated_load(app, U_EVENTS)["ads"][0]["adId"]
    reports = [("adapter.reportImpression", {"adId": ad_id}), ("adapter.reportClick", {"adId": ad_id}),
               ("adapter.reportVideoEvent", {"adId": ad_id, "event": "didPlay"}),
               ("adapter.reportFullScreen", {"adId": ad_id, "event": "willPresentScreen"})]
    for c in (app, other.conn):
        for method, params in reports:
            err = c.error(method, params)
            assert err["code"] == 2001, (c.name, method, err)
    # An ad the adapter did not map (an inventory ad), and an unknown ad.
    house_id = load_one(app, NATIVE_UNIT)["adId"]
    for ad in (house_id, "ad-no-such-ad"):
        err = adapter_conn.error("adapter.reportImpression", {"adId": ad})
        assert err["code"] == 2001, err
    assert get_events(app, adId=ad_id)["events"] == [], "nothing was recorded"
    # The mapping connection may.
    assert adapter.report("adapter.reportImpression", adId=ad_id)["result"] == {"recorded": True}


# ------------------------------------------------------------------------------------------
# The service keeps serving while an adapter takes its time


def test_the_server_keeps_answering_other_clients_while_an_adapter_takes_its_time(server_factory):
    srv, adapter_conn, app = open_pair(server_factory, "stdio-ndjson", "tcp-lsp")
    other = srv.connect("ndjson")
    release = threading.Event()
    adapter = ExternalAdapter(adapter_conn, ["SlowNet", "OtherNet"],
                              nth(after(release, fill(mapped("slow"))), fill(mapped("quick"))))
    earlier = load_one(other, NATIVE_UNIT)

    app.send({"jsonrpc": "2.0", "id": "held-load", "method": "loadAd", "params": {"adUnitID": U_SLOW}})
    adapter.wait_loads(1)
    # While SlowNet sits on that load, the other client is served: reads, plain loads, and a
    # load of the same waterfall (a second adapter request, answered at once).
    assert other.call("stringForKey", adId=earlier["adId"], key="headline") == earlier["headline"]
    assert load_one(other, NATIVE_UNIT)["headline"] == earlier["headline"]
    quick = mediated_load(other, U_SLOW)
    assert headline(quick) == "quick headline"
    assert other.call("store.list")["adUnits"]
    assert not release.is_set()
    # The adapter records an answer just after sending it: the server may have replied to the
    # other client before the adapter thread wrote it down, so wait for the record.
    assert [a["loadId"] for a in adapter.wait_answers(1)] == [adapter.loads[1]["loadId"]], \
        "the other client was answered before the slow adapter replied"
    with pytest.raises(TimeoutError):
        app.wait_reply("held-load", timeout=0.1)  # still held by the adapter, not by the server
    release.set()
    resp = app.wait_reply("held-load")
    assert "result" in resp, resp
    assert resp["result"]["ads"][0]["headline"] == "slow headline"
    assert network_entries(resp["result"]["responseInfo"]) == [("SlowNet", "SlowNet")]


# ------------------------------------------------------------------------------------------
# SampleCustomEvent and the built-in unit


def sample_batch(conn, seeds, unit=MEDIATION_UNIT, **options):
    opts = {"disableImageLoading": True}
    opts.update(options)
    calls = [("loadAd", {"adUnitID": unit, "options": opts, "request": {"seed": s}}) for s in seeds]
    out = []
    for i in range(0, len(calls), 100):
        out += batch_requests(conn, calls[i : i + 100])
    return out


def outcome(resp):
    """What a load did, without ids, identifiers and latencies."""
    def info(ri):
        return [(e["adNetworkClassName"], e["adSourceName"],
                 None if e["error"] is None else (e["error"]["code"], e["error"]["domain"], e["error"]["message"]))
                for e in ri["adNetworkInfoArray"]]

    if "error" in resp:
        return ("error", resp["error"]["code"], info(resp["error"]["data"]["responseInfo"]))
    ad = resp["result"]["ads"][0]
    assets = tuple(ad.get(k) for k in ("headline", "body", "callToAction", "store", "price", "advertiser",
                                       "starRating"))
    images = tuple((i["width"], i["height"]) for i in ad["images"])
    return ("ad", assets, images, json.dumps(ad["extraAssets"], sort_keys=True), info(ad["responseInfo"]))


def sample_filled(resp):
    return "result" in resp and resp["result"]["responseInfo"]["loadedAdNetworkResponseInfo"][
        "adNetworkClassName"] == SAMPLE_CLASS


def check_sample_style(ad):
    assert ad["extraAssets"] == {"DegreeOfAwesomeness": "Quite Awesome"}, ad["extraAssets"]
    if ad["price"] is not None:
        assert (ad["price"], ad["starRating"], ad["store"], ad["advertiser"]) == ("$0.99", 4.5, "Sample Store", None)
        return "app"
    assert (ad["advertiser"], ad["price"], ad["starRating"], ad["store"]) == ("Sample Advertiser", None, None, None)
    return "content"


@pytest.mark.timeout(240)
def test_a_seeded_run_of_1000_loads_is_the_same_on_two_servers_with_the_documented_fill_rate(server_factory):
    servers = [server_factory(stdio=True, args=["--seed", s]) for s in (11, 12)]
    runs = []
    for srv in servers:
        srv.stdio.sync()
        runs.append(sample_batch(srv.stdio, range(1000)))
    a, b = runs
    for seed, (ra, rb) in enumerate(zip(a, b)):
        assert outcome(ra) == outcome(rb), f"request.seed {seed} differs between the servers"
    fills = 0
    for seed, resp in enumerate(a):
        assert "result" in resp, f"the built-in unit falls back to backfill (seed {seed}): {resp!r}"
        ad = resp["result"]["ads"][0]
        ri = ad["responseInfo"]
        first = entries(ri)[0]
        assert (first["adNetworkClassName"], first["adSourceName"]) == (SAMPLE_CLASS, "Sample network"), first
        if sample_filled(resp):
            fills += 1
            assert len(entries(ri)) == 1
            check_sample_style(ad)
        else:
            assert first["error"]["code"] == 101 and first["error"]["domain"] == SAMPLE_DOMAIN, first
            assert first["error"]["message"], first
            assert network_entries(ri)[1] == (GOOGLE_CLASS, "AdMob Network")
            assert ad["headline"] in BACKFILL_HEADLINES
    assert 0.80 <= fills / 1000 <= 0.90, f"SampleCustomEvent filled {fills} of 1000"
    # The same seed later on the same server gives the same result.
    again = sample_batch(servers[0].stdio, range(100))
    assert [outcome(r) for r in again] == [outcome(r) for r in a[:100]]


def test_without_request_seed_the_server_seed_and_its_load_counter_decide(server_factory):
    def run(seed):
        srv = server_factory(stdio=True, args=["--seed", seed])
        srv.stdio.sync()
        calls = [("loadAd", {"adUnitID": MEDIATION_UNIT, "options": {"disableImageLoading": True}})] * 100
        return [outcome(r) for r in batch_requests(srv.stdio, calls)]

    a, b, other = run(5), run(5), run(6)
    assert a == b, "the same --seed gives the same sequence of loads"
    assert a != other, "another --seed gives another sequence"
    assert len({repr(o) for o in a}) > 1, "the per-server load counter moves the seed on"


@pytest.fixture(scope="module")
def sample_server(tmp_path_factory):
    srv = start_private(str(tmp_path_factory.mktemp("sample")), ["--store", store_path(STORE), "--with-builtin"])
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def sample_seeds(sample_server):
    """(filling seeds, failing seeds) among 0..199 on the built-in unit."""
    c = sample_server.stdio
    c.sync()
    resps = sample_batch(c, range(200))
    filled = [s for s, r in enumerate(resps) if sample_filled(r)]
    failed = [s for s, r in enumerate(resps) if not sample_filled(r)]
    assert filled and failed, "200 seeds at an 85% fill rate give both"
    return filled, failed


def test_the_builtin_unit_names_sample_custom_event_and_its_ads_come_in_two_styles(sample_server, sample_seeds):
    c = sample_server.stdio
    filled, _ = sample_seeds
    styles = set()
    for seed in filled[:40]:
        result = mediated_load(c, MEDIATION_UNIT, options={"disableImageLoading": True}, request={"seed": seed})
        ad = result["ads"][0]
        ri = result["responseInfo"]
        assert network_entries(ri) == [(SAMPLE_CLASS, "Sample network")]
        assert ri["loadedAdNetworkResponseInfo"] == entries(ri)[0] and entries(ri)[0]["error"] is None
        styles.add(check_sample_style(ad))
        assert ad["headline"]
    assert styles == {"app", "content"}


def test_a_sample_error_falls_back_to_the_backfill_inventory(sample_server, sample_seeds):
    c = sample_server.stdio
    _, failed = sample_seeds
    result = mediated_load(c, MEDIATION_UNIT, request={"seed": failed[0]})
    ad = result["ads"][0]
    check_ad(ad)  # a backfill creative from the store, with its AdChoices
    assert ad["headline"] in BACKFILL_HEADLINES and ad["adChoices"] is not None
    sample, backfill = entries(result["responseInfo"])
    assert_entry(sample, SAMPLE_CLASS, "Sample network", "any", code=101, domain=SAMPLE_DOMAIN)
    assert_entry(backfill, GOOGLE_CLASS, "AdMob Network", None)
    assert result["responseInfo"]["loadedAdNetworkResponseInfo"] == backfill


def test_sample_network_errors_are_network_errors_and_the_rest_no_fill(sample_server, sample_seeds):
    c = sample_server.stdio
    filled, failed = sample_seeds
    resps = sample_batch(c, range(200), unit=U_SAMPLE_ONLY)
    assert [s for s, r in enumerate(resps) if "result" in r] == filled, "the seed decides, whatever the unit"
    codes = set()
    for seed in failed:
        err = resps[seed]["error"]
        codes.add(err["code"])
        assert err["code"] in (1001, 1002), err
        assert err["data"]["name"] == {1001: "noFill", 1002: "networkError"}[err["code"]]
        (entry,) = entries(err["data"]["responseInfo"])
        assert_entry(entry, SAMPLE_CLASS, "Sample network", "any", code=101, domain=SAMPLE_DOMAIN)
    assert codes == {1001, 1002}, "network errors give 1002, unknown errors and no inventory 1001"


def test_an_empty_sample_parameter_is_a_bad_request(sample_server):
    c = sample_server.stdio
    for seed in range(3):
        err = mediated_load_error(c, U_SAMPLE_EMPTY, 1001, request={"seed": seed})
        (entry,) = entries(err["data"]["responseInfo"])
        assert_entry(entry, SAMPLE_CLASS, SAMPLE_CLASS, "any", code=101, domain=SAMPLE_DOMAIN)


def test_sample_images_are_generated_pngs_unless_image_loading_is_disabled(sample_server, sample_seeds):
    c = sample_server.stdio
    seed = sample_seeds[0][0]
    ad = mediated_load(c, MEDIATION_UNIT, request={"seed": seed})["ads"][0]
    assert ad["icon"] is not None and ad["images"]
    check_any_image(ad["icon"])
    main = check_any_image(ad["images"][0], 1200, 627)
    mc = ad["mediaContent"]
    assert mc["mainImage"] is not None and (mc["mainImage"]["width"], mc["mainImage"]["height"]) == (1200, 627)
    assert png_size(base64.b64decode(mc["mainImage"]["data"])) == (1200, 627)
    assert mc["aspectRatio"] == pytest.approx(1200 / 627, rel=1e-3)
    assert main["url"] == mc["mainImage"]["url"]
    ad = mediated_load(c, MEDIATION_UNIT, options={"disableImageLoading": True}, request={"seed": seed})["ads"][0]
    check_any_image(ad["icon"], loaded=False)
    check_any_image(ad["images"][0], 1200, 627, loaded=False)
    assert ad["mediaContent"]["mainImage"] is None


@pytest.mark.parametrize("ratio,size", [("unknown", (1200, 627)), ("any", (1200, 627)), ("landscape", (1200, 627)),
                                        ("portrait", (627, 1200)), ("square", (600, 600))])
def test_sample_main_image_follows_the_media_aspect_ratio(sample_server, sample_seeds, ratio, size):
    c = sample_server.stdio
    seed = sample_seeds[0][0]
    result = mediated_load(c, MEDIATION_UNIT, options={"mediaAspectRatio": ratio}, request={"seed": seed})
    assert result["responseInfo"]["loadedAdNetworkResponseInfo"]["adNetworkClassName"] == SAMPLE_CLASS
    ad = result["ads"][0]
    check_any_image(ad["images"][0], *size)
    mc = ad["mediaContent"]
    assert (mc["mainImage"]["width"], mc["mainImage"]["height"]) == size
    assert mc["aspectRatio"] == pytest.approx(size[0] / size[1], rel=1e-3)


def test_request_seed_must_be_an_integer(sample_server):
    c = sample_server.stdio
    err = c.error("loadAd", {"adUnitID": MEDIATION_UNIT, "request": {"seed": "seven"}})
    assert_invalid_params(err, "request.seed")


# ------------------------------------------------------------------------------------------
# The Python adapter example


def run_example(*args, timeout=60):
    proc = subprocess.run([sys.executable, EXAMPLE, *args], capture_output=True, timeout=timeout)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def check_example_output(out, tracks_events=False):
    lines = out.splitlines()

    def line(pattern):
        rx = re.compile(pattern)
        found = [i for i, l in enumerate(lines) if rx.search(l)]
        assert found, f"no line matches {pattern!r} in:\n{out}"
        return found[0]

    order = [
        line(r"^\[adapter\] mediation\.registerAdapter AcmeAds -> \{\"registered\": true\}$"),
        line(r"^\[app\] +store\.putAdUnit /acme/example/waterfall -> "),
        line(r"^\[adapter\] <- adapter\.loadNativeAd .*parameter=acme-placement-42"),
        line(r"^\[adapter\] -> mapped ad \"Rocket Boots 3000\""),
        line(r"^\[app\] +loaded ad-\S+ \"Rocket Boots 3000\" from AcmeAds \(Acme Ads\)"),
        line(r"^\[adapter\] <- adapter\.didRender "),
        line(r"^\[app\] +recordImpression -> "),
    ]
    if tracks_events:
        order += [line(r"^\[adapter\] <- adapter\.handleImpression "),
                  line(r"^\[adapter\] -> adapter\.reportImpression -> \{\"recorded\": true\}")]
    else:
        order += [line(r"^\[adapter\] <- adapter\.didRecordImpression ")]
    order += [line(r"^\[app\] +<- adEvent didRecordImpression"), line(r"^\[app\] +performClickOnAsset callToAction -> ")]
    if tracks_events:
        order += [line(r"^\[adapter\] <- adapter\.handleClick .*assetKey=callToAction"),
                  line(r"^\[adapter\] -> adapter\.reportClick -> \{\"recorded\": true\}")]
    else:
        order += [line(r"^\[adapter\] <- adapter\.didRecordClickOnAsset .*assetKey=callToAction")]
    order += [line(r"^\[app\] +<- adEvent didRecordClick"), line(r"^\[adapter\] <- adapter\.didUntrackView "),
              line(r"^round trip complete: 1 impression, 1 click$")]
    assert order == sorted(order), f"the round trip is printed out of order:\n{out}"
    assert sum(1 for l in lines if "<- adEvent didRecordImpression" in l) == 1, out
    assert sum(1 for l in lines if "<- adEvent didRecordClick" in l) == 1, out
    assert re.search(r"starRating=4\.5\b", out) and "price=$19.99" in out, out


@pytest.mark.timeout(90)
@pytest.mark.parametrize("flags", [[], ["--acme-tracks-events"]], ids=["service-tracks", "acme-tracks"])
def test_the_python_adapter_example_spawns_the_server_and_prints_the_round_trip(flags):
    assert os.path.isfile(EXAMPLE), EXAMPLE
    code, out, err = run_example("--spawn", BIN, *flags)
    assert code == 0, f"exit {code}\nstdout:\n{out}\nstderr:\n{err}"
    check_example_output(out, tracks_events=bool(flags))


@pytest.mark.timeout(90)
def test_the_python_adapter_example_connects_over_tcp(server_factory):
    srv = server_factory(stdio=False, tcp=True)
    code, out, err = run_example("--connect", f"{srv.host}:{srv.port}")
    assert code == 0, f"exit {code}\nstdout:\n{out}\nstderr:\n{err}"
    check_example_output(out)
    assert srv.alive()
