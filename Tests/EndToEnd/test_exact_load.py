"""Exact under load (issue 9, item 6): 8 connections x 10,000 pipelined impressions and clicks.

The rules (contract sections 4, 5 and 7, docs/sdk-behaviour.md): an impression is recorded
once per ad, whoever asks and however many race (`recordImpression`, or `reportVisibility` of
a registered ad with at least one visible pixel); a click is always recorded (no impression
needed) except: `_adChoices` of an indirect ad (never an ad click), a key that a registered ad
view does not list as clickable (`notClickable`), a key the ad lacks (2002) and a released ad
(2001). A recorded click sends `didRecordClick` with the asset's *name* (also when the click used
an identifier such as "3001"), then `willPresentScreen` when the app is to open something; with
the custom click handler that the clicking connection enabled, `customClick` instead and nothing
to open. Every event goes to the connection that loaded the ad, before the reply when that is
the clicking connection, and into the event log.

Each connection sends its 10,000 requests (on its own ads, and on the other connections' ads)
at once, all eight together. Then three accounts must agree exactly, ad by ad: the events the
replies imply, the adEvents each loading connection received (in the order of the log), and
`getEvents`.
"""
from __future__ import annotations

import collections
import random
import threading

import pytest

from e2e_support import (
    ADCHOICES_PAGE,
    BACKFILL_UNIT,
    CUSTOM_FORMAT,
    NATIVE_UNIT,
    WAIT,
    assert_error,
    dumps,
    get_events,
    not_recorded_click,
)

CONNS = 8
OPS = 10_000
RELEASE_AT = 5_000  # each connection releases its own scratch ad at this op
ALIASES = {"3001": "headline", "3002": "callToAction", "3004": "body"}
NATIVE_KEYS = ["headline", "body", "callToAction", "icon", "image", "store", "advertiser", "3001", "3004"]
REGISTERED_CLICKABLE = {"headline", "callToAction"}
SCHEMES = [None, [], ["market"], ["itms-apps"], ["gadexample", "market"]]


class Ad:
    def __init__(self, raw: dict, owner: int, role: str):
        self.id = raw["adId"]
        self.owner = owner
        self.role = role  # native, registered, backfill, custom, scratch
        if raw["kind"] == "customNative":
            self.keys = ["Headline", "Caption", "MainImage"]
            self.assets = set(raw["availableAssetKeys"])
        else:
            self.keys = NATIVE_KEYS + (["_adChoices"] if role == "backfill" else [])
            if role == "registered":
                self.keys = ["headline", "body", "callToAction", "3002", "icon"]
            self.assets = {k for k in ("headline", "body", "callToAction", "store", "advertiser", "price")
                           if raw.get(k) is not None} | {"icon", "image"}
            if role == "backfill":
                self.assets.add("_adChoices")


def load_ads(c, owner: int) -> list[Ad]:
    def one(**params):
        params.setdefault("options", {})["disableImageLoading"] = True
        return c.call("loadAd", dict({"adUnitID": NATIVE_UNIT}, **params))["ads"]

    app_install, content = one(options={"numberOfAds": 2})
    ads = [Ad(app_install, owner, "native"), Ad(content, owner, "registered")]
    reg = c.call("registerAdView", adId=content["adId"], clickableAssets=["headline", "3002"], nonclickableAssets=["body"])
    assert reg == {"registered": True, "clickableAssets": ["headline", "callToAction"], "nonclickableAssets": ["body"]}
    ads.append(Ad(one(adUnitID=BACKFILL_UNIT)[0], owner, "backfill"))
    custom = one(adTypes=["customNative"], customNativeAdFormatIDs=[CUSTOM_FORMAT])[0]
    assert c.call("setCustomClickHandler", adId=custom["adId"], enabled=True) == {"enabled": True}
    ads.append(Ad(custom, owner, "custom"))
    ads.append(Ad(one()[0], owner, "scratch"))
    return ads


def plan(i: int, own: list[Ad], shared: list[Ad]) -> list[tuple[str, dict, Ad]]:
    """Connection i's 10,000 requests: (method, params, ad)."""
    rng = random.Random(9000 + i)
    scratch = [a for a in own if a.role == "scratch"][0]
    mine = [a for a in own if a.role != "scratch"]
    ops = []
    for n in range(OPS):
        if n == RELEASE_AT:
            ops.append(("releaseAd", {"adId": scratch.id}, scratch))
            continue
        r = rng.random()
        ad = scratch if r < 0.2 else rng.choice(mine) if r < 0.6 else rng.choice(shared)
        r = rng.random()
        if ad.role == "registered" and r < 0.15:
            ops.append(("reportVisibility", {"adId": ad.id, "visiblePixels": rng.choice([0, 1, 3])}, ad))
        elif r < 0.35:
            ops.append(("recordImpression", {"adId": ad.id}, ad))
        else:
            params = {"adId": ad.id, "key": rng.choice(ad.keys)}
            schemes = rng.choice(SCHEMES)
            if schemes is not None:
                params["openableURLSchemes"] = schemes
            ops.append(("performClickOnAsset", params, ad))
    return ops


def expected_effects(i: int, n: int, method: str, params: dict, ad: Ad, msg: dict) -> tuple[list, list]:
    """Checks one reply against the rules; returns the (event, assetKey) adEvents and the
    customClick assetIDs it implies."""
    released = ad.role == "scratch" and n > RELEASE_AT
    where = f"connection {i} request {n} {method} {params}: {msg!r}"
    if released:
        assert_error(msg.get("error"), 2001)
        return [], []
    if method == "releaseAd":
        assert msg.get("result") == {"released": True}, where
        return [], []
    if method == "recordImpression":
        result = msg.get("result")
        assert result in ({"recorded": True}, {"recorded": False, "reason": "alreadyRecorded"}), where
        return ([("didRecordImpression", None)] if result["recorded"] else []), []
    if method == "reportVisibility":
        result = msg.get("result")
        if params["visiblePixels"] == 0:
            assert result == {"impressionRecorded": False, "reason": "notVisible"}, where
        else:
            assert result in ({"impressionRecorded": True}, {"impressionRecorded": False, "reason": "alreadyRecorded"}), where
        return ([("didRecordImpression", None)] if result["impressionRecorded"] else []), []
    key = params["key"]
    name = ALIASES.get(key, key)
    if name not in ad.assets:
        assert_error(msg.get("error"), 2002)
        assert msg["error"]["data"]["name"] == "assetNotFound", where
        return [], []
    result = msg.get("result")
    if key == "_adChoices":
        assert result == {"recorded": False, "action": "adChoices", "url": ADCHOICES_PAGE}, where
        return [], []
    if ad.role == "registered" and name not in REGISTERED_CLICKABLE:
        assert result == not_recorded_click("notClickable"), where
        return [], []
    if ad.role == "custom" and ad.owner == i:
        assert result == {"recorded": True, "action": "customClickHandler", "url": None}, where
        return [("didRecordClick", name)], [name]
    assert isinstance(result, dict) and set(result) == {"recorded", "action", "url"} and result["recorded"] is True, where
    if result["action"] == "deepLink":
        assert result["url"].split(":", 1)[0] in (params.get("openableURLSchemes") or []), where
    else:
        assert result["action"] == "landingPage" and result["url"].startswith("https://"), where
    return [("didRecordClick", name), ("willPresentScreen", None)], []


def read_log(c) -> list[dict]:
    """Every page of getEvents (the first page's entries get the full shape check of
    e2e_support.get_events; the rest, tens of thousands, the fields this test uses)."""
    log = get_events(c, limit=10_000)["events"]
    while log:
        page = c.call("getEvents", since=log[-1]["sequence"], limit=10_000)["events"]
        if not page:
            break
        log += page
    for e in log:
        assert isinstance(e["adId"], str) and isinstance(e["event"], str), e
        assert e["assetKey"] is None or isinstance(e["assetKey"], str), e
    seqs = [e["sequence"] for e in log]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "the log has gaps or is out of order"
    return log


@pytest.mark.timeout(180)
def test_8_connections_x_10000_pipelined_impressions_and_clicks_agree_exactly(server_factory):
    # The log must hold every event of the run (some 80,000; the default keeps 100,000).
    srv = server_factory(stdio=False, tcp=True, args=["--max-events", 1_000_000, "--seed", 9])
    conns = [srv.connect("ndjson" if i % 2 == 0 else "lsp", name=f"c{i}") for i in range(CONNS)]
    ads = {i: load_ads(c, i) for i, c in enumerate(conns)}
    by_id = {a.id: a for own in ads.values() for a in own}
    for c in conns:
        c.barrier()
        c.sync()  # nothing recorded yet; forget the set-up replies
    plans = {}
    for i in range(CONNS):
        shared = [a for j, own in ads.items() if j != i for a in own if a.role != "scratch"]
        plans[i] = plan(i, ads[i], shared)

    def send_all(i: int):
        frames = [conns[i].frame(dumps({"jsonrpc": "2.0", "id": n, "method": m, "params": p}))
                  for n, (m, p, _) in enumerate(plans[i])]
        for k in range(0, OPS, 250):
            conns[i].send_raw(b"".join(frames[k : k + 250]))

    senders = [threading.Thread(target=send_all, args=(i,), daemon=True) for i in range(CONNS)]
    for t in senders:
        t.start()

    implied = collections.defaultdict(collections.Counter)  # adId -> Counter of (event, assetKey)
    impressions = collections.Counter()  # adId -> recorded impressions according to the replies
    custom_clicks = {i: [] for i in range(CONNS)}  # (adId, assetID) in reply order
    for i, c in enumerate(conns):
        for n, (method, params, ad) in enumerate(plans[i]):
            msg = c.next_reply(timeout=6 * WAIT).msg
            assert isinstance(msg, dict) and msg.get("id") == n, f"connection {i}: reply {msg.get('id')!r} where {n} was due"
            events, clicks = expected_effects(i, n, method, params, ad, msg)
            for e in events:
                implied[ad.id][e] += 1
            impressions[ad.id] += sum(1 for e in events if e[0] == "didRecordImpression")
            custom_clicks[i] += [(ad.id, a) for a in clicks]
            if ad.owner == i and (events or clicks):
                # Notifications a request causes on its own connection come just before its reply.
                tail = c.notifications[-(len(events) + len(clicks)):]
                want = [("adEvent", {"adId": ad.id, "event": e, "assetKey": k}) for e, k in events]
                if clicks:
                    want.insert(1, ("customClick", {"adId": ad.id, "assetID": clicks[0]}))
                assert [(t["method"], t["params"]) for t in tail] == want, f"connection {i} request {n}: {tail} before its reply"
    for t in senders:
        t.join(WAIT)
    for c in conns:
        c.barrier()  # every event caused by another connection's request has arrived

    # An impression is recorded once per ad, whoever raced for it.
    for ad_id, ad in by_id.items():
        assert impressions[ad_id] == 1, f"{ad.role} ad {ad_id} recorded {impressions[ad_id]} impressions"

    log = read_log(conns[0])
    assert {e["adId"] for e in log} <= set(by_id), "events of ads nobody loaded"
    assert all(e["type"] == "adEvent" for e in log)
    logged = collections.defaultdict(collections.Counter)
    for e in log:
        logged[e["adId"]][(e["event"], e["assetKey"])] += 1

    for i, c in enumerate(conns):
        own_ids = {a.id for a in ads[i]}
        received = [n["params"] for n in c.notifications if n["method"] == "adEvent"]
        foreign = [p for p in received if p["adId"] not in own_ids]
        assert foreign == [], f"connection {i} received events of ads it did not load: {foreign[:5]}"
        # Same events, same order: the log's, restricted to the connection's ads.
        seq = [(p["adId"], p["event"], p["assetKey"]) for p in received]
        log_seq = [(e["adId"], e["event"], e["assetKey"]) for e in log if e["adId"] in own_ids]
        assert len(seq) == len(log_seq), f"connection {i}: {len(seq)} adEvents, the log has {len(log_seq)} for its ads"
        assert seq == log_seq, f"connection {i}: its adEvents and the log differ (first at {next(k for k, (a, b) in enumerate(zip(seq, log_seq)) if a != b)})"
        assert [(n["params"]["adId"], n["params"]["assetID"]) for n in c.notifications if n["method"] == "customClick"] \
            == custom_clicks[i], f"connection {i}: customClick notifications differ from its clicks' replies"
        assert [n for n in c.notifications if n["method"] not in ("adEvent", "customClick")] == []
        assert c._stash == [], f"connection {i}: unexpected replies {c._stash[:3]}"
        for a in ads[i]:
            got = collections.Counter((p["event"], p["assetKey"]) for p in received if p["adId"] == a.id)
            assert got == implied[a.id] == logged[a.id], (
                f"{a.role} ad {a.id}: replies imply {dict(implied[a.id])}, connection {i} received {dict(got)}, "
                f"getEvents has {dict(logged[a.id])}")
    total = sum(sum(v.values()) for v in implied.values())
    assert total == len(log), (total, len(log))
    assert srv.alive()
