"""Full-screen events and the event log (docs/sdk-behaviour.md "Full-screen events", "The event
log"): a landing-page or deep-link click presents a screen (willPresentScreen after
didRecordClick), reportScreenDismissed dismisses it; getEvents shows exactly what happened, in
order, with its filters, and the log keeps the last --max-events events."""
from __future__ import annotations

import pytest

from e2e_support import (
    ADMOB_UNIT,
    BACKFILL_UNIT,
    NATIVE_UNIT,
    assert_ad_not_found,
    assert_invalid_params,
    get_events,
    load_ads,
    load_custom,
    load_one,
    not_recorded_click,
)


def screen_events(conn, ad_id):
    conn.barrier()
    return [e["event"] for e in conn.ad_events(ad_id)]


# ------------------------------------------------------------------------------------------
# Full-screen events


@pytest.mark.parametrize("schemes,action", [([], "landingPage"), (["market"], "deepLink")])
def test_a_click_that_leaves_the_app_presents_a_screen_until_it_is_dismissed(conn, schemes, action):
    ad = load_one(conn, NATIVE_UNIT)
    result = conn.call("performClickOnAsset", adId=ad["adId"], key="callToAction", openableURLSchemes=schemes)
    assert result["recorded"] is True and result["action"] == action
    assert screen_events(conn, ad["adId"]) == ["didRecordClick", "willPresentScreen"]
    assert conn.call("reportScreenDismissed", adId=ad["adId"]) == {"dismissed": True}
    assert screen_events(conn, ad["adId"]) == ["didRecordClick", "willPresentScreen", "willDismissScreen",
                                               "didDismissScreen"]
    assert conn.call("reportScreenDismissed", adId=ad["adId"]) == {"dismissed": False}
    assert len(screen_events(conn, ad["adId"])) == 4


def test_dismissing_when_nothing_was_presented_is_false_and_silent(conn):
    ad = load_one(conn, BACKFILL_UNIT)
    assert conn.call("reportScreenDismissed", adId=ad["adId"]) == {"dismissed": False}
    conn.call("recordImpression", adId=ad["adId"])
    assert conn.call("reportScreenDismissed", adId=ad["adId"]) == {"dismissed": False}
    assert screen_events(conn, ad["adId"]) == ["didRecordImpression"]


def test_clicks_that_open_nothing_present_no_screen(conn):
    custom = load_custom(conn)
    conn.call("setCustomClickHandler", adId=custom["adId"], enabled=True)
    assert conn.call("performClickOnAsset", adId=custom["adId"], key="Headline")["action"] == "customClickHandler"
    backfill = load_one(conn, BACKFILL_UNIT)
    assert conn.call("performClickOnAsset", adId=backfill["adId"], key="_adChoices")["action"] == "adChoices"
    native = load_one(conn, NATIVE_UNIT)
    conn.call("registerAdView", adId=native["adId"], clickableAssets=["headline"], nonclickableAssets=["body"])
    assert conn.call("performClickOnAsset", adId=native["adId"], key="body") == not_recorded_click("notClickable")
    assert screen_events(conn, custom["adId"]) == ["didRecordClick"]
    assert screen_events(conn, backfill["adId"]) == []
    assert screen_events(conn, native["adId"]) == []
    for ad in (custom, backfill, native):
        assert conn.call("reportScreenDismissed", adId=ad["adId"]) == {"dismissed": False}


def test_report_screen_dismissed_on_an_unknown_ad_is_ad_not_found(conn):
    assert_ad_not_found(conn.error("reportScreenDismissed", {"adId": "no-such-ad"}))


# ------------------------------------------------------------------------------------------
# getEvents


def run_script(c):
    """A session touching every kind of event; returns the ads and the log it must produce."""
    b, content = load_ads(c, BACKFILL_UNIT, options={"numberOfAds": 2})["ads"]
    v = load_one(c, ADMOB_UNIT, options={"customControlsRequested": True})
    B, C, V = b["adId"], content["adId"], v["adId"]
    call = c.call
    assert call("recordImpression", adId=B)["recorded"] is True
    assert call("recordImpression", adId=B)["recorded"] is False
    assert call("performClickOnAsset", adId=B, key="headline")["action"] == "landingPage"
    assert call("performClickOnAsset", adId=B, key="_adChoices")["recorded"] is False
    assert call("reportScreenDismissed", adId=B) == {"dismissed": True}
    assert call("recordImpression", adId=C)["recorded"] is True
    assert call("performClickOnAsset", adId=C, key="3004", openableURLSchemes=["https"])["action"] == "landingPage"
    assert call("muteThisAd", adId=B, reason="Irrelevant") == {"muted": True}
    assert call("performClickOnAsset", adId=B, key="headline")["recorded"] is False
    assert call("recordImpression", adId=B)["recorded"] is False
    assert call("muteThisAd", adId=B) == {"muted": True}
    for action, applied in (("play", True), ("play", False), ("pause", True), ("unmute", True), ("stop", True),
                            ("stop", False)):
        assert call("videoControl", adId=V, action=action)["applied"] is applied, action
    expected = [
        (B, "adEvent", "didRecordImpression"), (B, "adEvent", "didRecordClick"), (B, "adEvent", "willPresentScreen"),
        (B, "adEvent", "willDismissScreen"), (B, "adEvent", "didDismissScreen"),
        (C, "adEvent", "didRecordImpression"), (C, "adEvent", "didRecordClick"), (C, "adEvent", "willPresentScreen"),
        (B, "adEvent", "didMute"),
        (V, "videoEvent", "didPlay"), (V, "videoEvent", "didPause"), (V, "videoEvent", "didUnmute"),
        (V, "videoEvent", "didEnd"),
    ]
    return (B, C, V), expected


def test_get_events_shows_exactly_what_happened_in_order(server_factory):
    srv = server_factory(stdio=True)
    c = srv.stdio
    c.sync()
    empty = get_events(c)
    assert empty["events"] == [] and empty["lastSequence"] == 0, empty
    (B, C, V), expected = run_script(c)
    log = get_events(c)
    events = log["events"]
    assert [(e["adId"], e["type"], e["event"]) for e in events] == expected
    assert [e["sequence"] for e in events] == list(range(1, len(expected) + 1))
    assert log["lastSequence"] == len(expected)
    by_seq = {e["sequence"]: e for e in events}
    assert by_seq[1]["assetKey"] is None
    assert by_seq[2]["assetKey"] == "headline"
    assert by_seq[7]["assetKey"] == "body", "the log names the canonical asset, not the alias"
    assert by_seq[9]["assetKey"] is None and by_seq[9].get("reason") == "Irrelevant"
    for e in events:
        if e["event"] != "didMute":
            assert "reason" not in e or e["reason"] is None, e
    # The notifications the loading connection received are the same events, in the same order.
    c.barrier()
    sent = [(n["params"]["adId"], n["method"], n["params"]["event"]) for n in c.notifications
            if n["method"] in ("adEvent", "videoEvent")]
    assert sent == expected


def test_get_events_filters(server_factory):
    srv = server_factory(stdio=True)
    c = srv.stdio
    c.sync()
    (B, C, V), expected = run_script(c)

    def seqs(**filters):
        return [e["sequence"] for e in get_events(c, **filters)["events"]]

    assert seqs(adId=V) == [10, 11, 12, 13]
    assert seqs(adId=C) == [6, 7, 8]
    assert seqs(event="didRecordImpression") == [1, 6]
    assert seqs(event="willPresentScreen") == [3, 8]
    assert seqs(event="didMute") == [9]
    assert seqs(adId=B, event="didRecordClick") == [2]
    assert seqs(since=5) == list(range(6, 14))
    assert seqs(since=13) == []
    assert seqs(limit=3) == [1, 2, 3]
    assert seqs(since=5, limit=2) == [6, 7]
    assert seqs(adId=B, since=2, limit=2) == [3, 4]
    assert seqs(adId="no-such-ad") == []
    assert seqs(adId=None, event=None, since=None, limit=None) == list(range(1, 14))
    assert get_events(c, since=13)["lastSequence"] == 13
    # Released ads keep their history.
    c.call("releaseAd", adId=V)
    assert seqs(adId=V) == [10, 11, 12, 13]


@pytest.mark.parametrize(
    "params,field",
    [({"adId": 5}, "adId"), ({"event": ["didPlay"]}, "event"), ({"since": "3"}, "since"), ({"limit": "10"}, "limit"),
     ({"limit": 2.5}, "limit")],
)
def test_get_events_params_are_checked(conn, params, field):
    assert_invalid_params(conn.error("getEvents", params), field)


def test_the_event_log_is_the_whole_process(tcp_server):
    a = tcp_server.connect("ndjson", name="A")
    b = tcp_server.connect("lsp", name="B")
    ad = load_one(a, NATIVE_UNIT)
    b.call("recordImpression", adId=ad["adId"])
    events = get_events(b, adId=ad["adId"])["events"]
    assert [(e["type"], e["event"]) for e in events] == [("adEvent", "didRecordImpression")]
    assert get_events(a, adId=ad["adId"])["events"] == events


def test_the_log_keeps_only_the_last_max_events(server_factory):
    srv = server_factory(stdio=True, args=["--max-events", 5])
    c = srv.stdio
    c.sync()
    ad = load_custom(c)
    c.call("setCustomClickHandler", adId=ad["adId"], enabled=True)
    c.call("recordImpression", adId=ad["adId"])
    for _ in range(7):
        assert c.call("performClickOnAsset", adId=ad["adId"], key="Headline")["recorded"] is True
    log = get_events(c, limit=10000)
    assert [e["sequence"] for e in log["events"]] == [4, 5, 6, 7, 8]
    assert all(e["event"] == "didRecordClick" for e in log["events"])
    assert log["lastSequence"] == 8
    assert [e["sequence"] for e in get_events(c, since=1, limit=2)["events"]] == [4, 5]
