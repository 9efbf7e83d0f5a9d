"""Fleets on Redis (contract section 11, docs/fleet.md), against a real redis-server: processes
started with the same --redis and --fleet share their ads and one event log; an impression or a
click is counted once however many processes race; events go to the connection that loaded the
ad; nothing acknowledged is lost when a process is killed; a Redis out of reach is answered
-32003 within a bounded time, and the fleet recovers by itself."""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from e2e_support import (
    NATIVE_UNIT,
    ExternalAdapter,
    fill,
    mediated_load,
    store_path,
    VIDEO_UNIT,
    assert_ad_not_found,
    creative_image,
    get_events,
    load_custom,
    load_one,
    load_unchecked,
    wait_until,
)


def all_at_once(work, args):
    """Runs work(arg) for each arg in threads that start together; returns when all are done."""
    start = threading.Barrier(len(args))

    def run(arg):
        start.wait()
        work(arg)

    threads = [threading.Thread(target=run, args=(arg,)) for arg in args]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


#: Runs a test against a fleet on the single Redis server and on the 3-master cluster.
ON_REDIS_AND_CLUSTER = pytest.mark.parametrize("fleet_redis", ["redis", "cluster"], indirect=True)


def events_of(conn, **filters):
    return [(e["sequence"], e["adId"], e["event"], e["assetKey"]) for e in get_events(conn, **filters)["events"]]


@ON_REDIS_AND_CLUSTER
def test_an_ad_loaded_on_one_process_is_served_by_every_other(fleet_factory):
    a, b, c = fleet_factory(3)
    ca, cb, cc = a.connect(), b.connect(), c.connect()
    ad = load_one(ca, NATIVE_UNIT)
    for conn in (cb, cc):
        assert conn.call("stringForKey", adId=ad["adId"], key="headline") == ad["headline"]
        image = conn.call("imageForKey", adId=ad["adId"], key="icon")
        assert image["url"] == ad["icon"]["url"] and image["data"] == ad["icon"]["data"]
        assert conn.call("getVideoState", adId=ad["adId"]) is None
    video = load_one(cb, VIDEO_UNIT, options={"customControlsRequested": True})
    assert cc.call("getVideoState", adId=video["adId"]) == cb.call("getVideoState", adId=video["adId"])


def test_ad_ids_differ_across_processes_started_with_the_same_seed(fleet_factory):
    a, b = fleet_factory(2, args=["--seed", "7"])
    first, second = load_one(a.connect(), NATIVE_UNIT), load_one(b.connect(), NATIVE_UNIT)
    assert first["adId"] != second["adId"]


@ON_REDIS_AND_CLUSTER
def test_events_recorded_on_another_process_reach_the_connection_that_loaded_the_ad(fleet_factory):
    a, b = fleet_factory(2)
    loader, other = a.connect(), b.connect()
    ad = load_one(loader, NATIVE_UNIT)
    assert other.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    assert loader.wait_notification("adEvent", lambda p: p["event"] == "didRecordImpression") == {
        "adId": ad["adId"], "event": "didRecordImpression", "assetKey": None}
    result = other.call("performClickOnAsset", adId=ad["adId"], key="headline")
    assert result["recorded"] is True
    assert loader.wait_notification("adEvent", lambda p: p["event"] == "didRecordClick")["assetKey"] == "headline"
    # The connection that recorded gets nothing: it did not load the ad.
    other.barrier()
    assert other.ad_events(ad["adId"]) == []


@ON_REDIS_AND_CLUSTER
def test_racing_impressions_and_clicks_are_each_counted_once(fleet_factory):
    servers = fleet_factory(3)
    ad = load_one(servers[0].connect(), NATIVE_UNIT)
    conns = [s.connect() for s in servers for _ in range(3)]
    impressions: list[dict] = []
    clicks: list[dict] = []
    lock = threading.Lock()

    def race(conn):
        got = [conn.call("recordImpression", adId=ad["adId"])]
        clicked = [conn.call("performClickOnAsset", adId=ad["adId"], key="body") for _ in range(5)]
        with lock:
            impressions.extend(got)
            clicks.extend(clicked)

    all_at_once(race, conns)
    assert sum(r["recorded"] for r in impressions) == 1, impressions
    assert [r["reason"] for r in impressions if not r["recorded"]] == ["alreadyRecorded"] * (len(conns) - 1)
    assert len(clicks) == 5 * len(conns) and all(r["recorded"] for r in clicks)
    logged = events_of(conns[0], adId=ad["adId"], limit=1000)
    assert [e[2] for e in logged].count("didRecordImpression") == 1
    assert [e[2] for e in logged].count("didRecordClick") == 5 * len(conns)


@ON_REDIS_AND_CLUSTER
def test_every_process_returns_the_same_events_in_the_same_order(fleet_factory):
    servers = fleet_factory(3)
    conns = [s.connect() for s in servers]
    ads = [load_one(conn, NATIVE_UNIT) for conn in conns]
    for i, conn in enumerate(conns):
        for ad in ads:
            conn.call("recordImpression", adId=ad["adId"])
            conn.call("performClickOnAsset", adId=ad["adId"], key="headline")
    logs = [events_of(conn, limit=1000) for conn in conns]
    assert logs[0] == logs[1] == logs[2]
    assert [e[0] for e in logs[0]] == list(range(logs[0][0][0], logs[0][0][0] + len(logs[0])))
    assert len(logs[0]) == 3 + 9 * 2  # one impression per ad, then a click and its screen each time
    last = [get_events(conn, limit=1)["lastSequence"] for conn in conns]
    assert last[0] == last[1] == last[2] == logs[0][-1][0]
    since = logs[0][4][0]
    assert events_of(conns[2], since=since, limit=3) == logs[0][5:8]


@ON_REDIS_AND_CLUSTER
def test_an_ad_released_on_one_process_is_gone_for_every_process(fleet_factory):
    a, b, c = fleet_factory(3)
    ca, cb, cc = a.connect(), b.connect(), c.connect()
    ad = load_one(ca, NATIVE_UNIT)
    assert cc.call("stringForKey", adId=ad["adId"], key="headline") == ad["headline"]
    assert cb.call("releaseAd", adId=ad["adId"]) == {"released": True}
    for conn in (ca, cb, cc):
        assert_ad_not_found(conn.error("stringForKey", adId=ad["adId"], key="headline"))
        assert_ad_not_found(conn.error("recordImpression", adId=ad["adId"]))


@ON_REDIS_AND_CLUSTER
def test_two_fleets_on_one_redis_are_kept_apart(fleet_factory):
    (a,) = fleet_factory(1, name="apart-one")
    (b,) = fleet_factory(1, name="apart-two")
    ca, cb = a.connect(), b.connect()
    ad = load_one(ca, NATIVE_UNIT)
    ca.call("recordImpression", adId=ad["adId"])
    assert_ad_not_found(cb.error("stringForKey", adId=ad["adId"], key="headline"))
    assert events_of(cb, adId=ad["adId"]) == []
    assert [e[2] for e in events_of(ca, adId=ad["adId"])] == ["didRecordImpression"]


@ON_REDIS_AND_CLUSTER
def test_a_process_killed_in_a_burst_loses_nothing_it_acknowledged(fleet_factory):
    a, b = fleet_factory(2)
    watcher = a.connect()
    ad = load_one(watcher, NATIVE_UNIT)
    burst = b.connect()
    acknowledged = 0
    ids = [burst.new_id() for _ in range(400)]
    for i in ids:
        burst.send({"jsonrpc": "2.0", "id": i, "method": "performClickOnAsset",
                    "params": {"adId": ad["adId"], "key": "body"}})
    # Read replies until about half are in, then kill the process mid-burst.
    for i in ids[:200]:
        reply = burst.wait_reply(i)
        assert reply["result"]["recorded"] is True
        acknowledged += 1
    b.signal(signal.SIGKILL)
    b.wait()
    while True:
        try:
            frame = burst.next_reply(timeout=1)
        except Exception:
            break
        if "result" in frame.msg and frame.msg["result"].get("recorded"):
            acknowledged += 1
    clicks = [e for e in events_of(watcher, adId=ad["adId"], limit=1000) if e[2] == "didRecordClick"]
    assert len(clicks) >= acknowledged
    assert watcher.call("recordImpression", adId=ad["adId"]) == {"recorded": True}


@ON_REDIS_AND_CLUSTER
def test_a_new_process_serves_the_ads_of_one_that_was_killed(fleet_factory):
    a, b = fleet_factory(2, name="killed-and-replaced")
    ad = load_one(b.connect(), NATIVE_UNIT)
    b.signal(signal.SIGKILL)
    b.wait()
    (c,) = fleet_factory(1, name="killed-and-replaced")
    cc = c.connect()
    assert cc.call("stringForKey", adId=ad["adId"], key="headline") == ad["headline"]
    assert cc.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    assert [e[2] for e in events_of(a.connect(), adId=ad["adId"])] == ["didRecordImpression"]


def test_a_frozen_redis_is_answered_store_unavailable_in_bounded_time_and_the_fleet_recovers(
        fleet_factory, private_redis):
    a, b = fleet_factory(2, redis=private_redis, args=["--redis-timeout-ms", "300"])
    ca, cb = a.connect(), b.connect()
    ad = load_one(ca, NATIVE_UNIT)
    private_redis.suspend()
    started = time.monotonic()
    err = cb.error("recordImpression", adId=ad["adId"])
    waited = time.monotonic() - started
    assert err["code"] == -32003 and err["message"] == "Store unavailable", err
    assert err["data"]["reason"], err
    assert waited < 3, f"answered after {waited:.2f} s"
    assert ca.error("loadAd", adUnitID=NATIVE_UNIT)["code"] == -32003
    private_redis.resume()
    # Each process reconnects by itself, with backoff.
    wait_until(lambda: "result" in cb.request("recordImpression", {"adId": ad["adId"]}),
               what="recordImpression succeeds again")
    wait_until(lambda: "result" in ca.request("getEvents", {"adId": ad["adId"]}),
               what="the other process reconnects")
    assert [e[2] for e in events_of(ca, adId=ad["adId"])] == ["didRecordImpression"]


def test_a_restarted_redis_keeps_what_it_acknowledged_and_the_fleet_reconnects(fleet_factory, private_redis):
    (a,) = fleet_factory(1, redis=private_redis, args=["--redis-timeout-ms", "500"])
    conn = a.connect()
    ad = load_one(conn, NATIVE_UNIT)
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": True}
    private_redis.stop(signal.SIGKILL)
    err = conn.error("stringForKey", adId=ad["adId"], key="headline")
    assert err["code"] == -32003, err
    private_redis.start()
    wait_until(lambda: "result" in conn.request("stringForKey", {"adId": ad["adId"], "key": "headline"}),
               what="the fleet reconnects")
    assert conn.call("recordImpression", adId=ad["adId"]) == {"recorded": False, "reason": "alreadyRecorded"}
    assert [e[2] for e in events_of(conn, adId=ad["adId"])] == ["didRecordImpression"]


def test_an_ad_expires_in_redis_when_it_expires_for_the_sdk_plus_the_expired_ad_ttl(fleet_factory, redis_server):
    name = "expiring"
    a, b = fleet_factory(2, name=name, args=["--ad-lifetime", "1", "--fleet-expired-ad-ttl-s", "1"])
    ca, cb = a.connect(), b.connect()
    ad = load_unchecked(ca, NATIVE_UNIT)["ads"][0]["adId"]
    key = f"na:{name}:ad:{{{ad}}}"
    ttl_ms = int(redis_server.command("PTTL", key).strip()[1:])
    assert 0 < ttl_ms <= 2100, f"{key}: PTTL {ttl_ms} for a 1 s ad kept 1 s after it expires"
    # Expired for the SDK on every process: nothing recorded, its assets still readable.
    wait_until(lambda: cb.call("recordImpression", adId=ad).get("reason") == "expired",
               what="the ad to expire")
    assert ca.call("stringForKey", adId=ad, key="headline") == "Flood-It! 2"
    # Then gone from Redis, and for every process.
    wait_until(lambda: redis_server.command("EXISTS", key).strip() == b":0", what="Redis to drop the ad")
    for conn in (ca, cb):
        assert_ad_not_found(conn.error("stringForKey", adId=ad, key="headline"))


# ------------------------------------------------------------------------------------------
# The fleet's store


STORES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stores")


def native_creative(cid, headline):
    return {"id": cid, "kind": "native", "priority": 1, "eCPM": 1.0,
            "assets": {"headline": headline, "images": [creative_image(cid, "image1", 60, 30)]},
            "landingPageURL": f"https://example.com/{cid}"}


@ON_REDIS_AND_CLUSTER
def test_a_store_change_on_one_process_is_served_by_the_others_from_their_next_load(fleet_factory):
    a, b, c = fleet_factory(3)
    ca, cb, cc = a.connect(), b.connect(), c.connect()
    assert ca.call("store.putCreative", creative=native_creative("fleet-n", "From A")) == {
        "creativeID": "fleet-n", "replaced": False}
    assert ca.call("store.putAdUnit", adUnit={"id": "/fleet/unit", "creatives": ["fleet-n"]}) == {
        "adUnitID": "/fleet/unit", "replaced": False}
    for conn in (cb, cc):
        assert load_one(conn, "/fleet/unit")["headline"] == "From A"
        listed = conn.call("store.list")
        assert "/fleet/unit" in [u["id"] for u in listed["adUnits"]]
    # A change on another process: every process serves it from its next load.
    assert cc.call("store.putCreative", creative=native_creative("fleet-n", "From C"))["replaced"] is True
    for conn in (ca, cb, cc):
        assert load_one(conn, "/fleet/unit")["headline"] == "From C"
    assert cb.call("store.remove", kind="adUnit", id="/fleet/unit") == {"removed": True}
    for conn in (ca, cc):
        assert conn.error("loadAd", adUnitID="/fleet/unit")["code"] == 1000


@ON_REDIS_AND_CLUSTER
def test_an_invalid_store_change_is_refused_and_changes_nothing_anywhere(fleet_factory):
    a, b = fleet_factory(2)
    ca, cb = a.connect(), b.connect()
    err = ca.error("store.putAdUnit", adUnit={"id": "/fleet/bad", "creatives": ["no-such-creative"]})
    assert err["code"] == -32602, err
    assert cb.error("loadAd", adUnitID="/fleet/bad")["code"] == 1000
    assert "/fleet/bad" not in [u["id"] for u in cb.call("store.list")["adUnits"]]


@ON_REDIS_AND_CLUSTER
def test_racing_store_changes_apply_in_one_order_on_every_process(fleet_factory):
    servers = fleet_factory(3)
    conns = [s.connect() for s in servers]
    conns[0].call("store.putCreative", creative=native_creative("race-n", "start"))
    conns[0].call("store.putAdUnit", adUnit={"id": "/fleet/race", "creatives": ["race-n"]})

    def put(numbered):
        i, conn = numbered
        for k in range(5):
            conn.call("store.putCreative", creative=native_creative("race-n", f"p{i}-{k}"))

    all_at_once(put, list(enumerate(conns)))
    served = {load_one(conn, "/fleet/race")["headline"] for conn in conns}
    assert len(served) == 1, served


@ON_REDIS_AND_CLUSTER
def test_a_process_that_joins_serves_the_fleets_start_up_inventory_not_its_own(fleet_factory):
    (first,) = fleet_factory(1, name="own-inventory", args=["--store", os.path.join(STORES, "custom.json")])
    (second,) = fleet_factory(1, name="own-inventory")  # built-in units only, on its own
    conn = second.connect()
    assert conn.error("loadAd", adUnitID=NATIVE_UNIT)["code"] == 1000, "the built-in units are not the fleet's"
    listed = [u["id"] for u in conn.call("store.list")["adUnits"]]
    assert listed == sorted(u["id"] for u in first.connect().call("store.list")["adUnits"])
    assert "/e2e/custom/gallery" in listed


@ON_REDIS_AND_CLUSTER
def test_a_custom_click_handler_set_on_another_process_takes_that_process_s_clicks(fleet_factory):
    a, b = fleet_factory(2)
    loader, other = a.connect(), b.connect()
    ad = load_custom(loader)
    assert other.call("setCustomClickHandler", adId=ad["adId"], enabled=True) == {"enabled": True}
    result = other.call("performClickOnAsset", adId=ad["adId"], key="MainImage", openableURLSchemes=["gadexample"])
    assert result == {"recorded": True, "action": "customClickHandler", "url": None}
    assert other.wait_notification("customClick") == {"adId": ad["adId"], "assetID": "MainImage"}
    # The loader's connection hears of the click, not of the handler (it did not set it).
    assert loader.wait_notification("adEvent", lambda p: p["event"] == "didRecordClick")["assetKey"] == "MainImage"
    loader.barrier()
    assert [n for n in loader.notifications if n.get("method") == "customClick"] == []
    # The loader's own clicks are not the other connection's handler's.
    assert loader.call("performClickOnAsset", adId=ad["adId"], key="Headline")["action"] == "landingPage"


@ON_REDIS_AND_CLUSTER
def test_a_mediated_ad_used_on_another_process_keeps_its_adapter_told(fleet_factory):
    store = ["--store", store_path("mediation-waterfalls.json"), "--with-builtin"]
    a, b = fleet_factory(2, args=store)
    adapter = ExternalAdapter(a.connect(sync=False), "MyNet", fill(mapped_ad("remote")))
    app = a.connect()
    result = mediated_load(app, "/e2e/mediation/first")
    ad_id = result["ads"][0]["adId"]
    assert result["ads"][0]["headline"] == "remote headline"
    other = b.connect()
    # Another process records the impression and a click: the adapter, on the loader's
    # process, is told, and the app's connection gets the events.
    assert other.call("recordImpression", adId=ad_id) == {"recorded": True}
    told = adapter.conn.wait_notification("adapter.didRecordImpression", lambda p: p.get("adId") == ad_id)
    assert told["loadId"] == adapter.loads[0]["loadId"]
    assert app.wait_notification("adEvent", lambda p: p["event"] == "didRecordImpression")["adId"] == ad_id
    assert other.call("performClickOnAsset", adId=ad_id, key="headline")["recorded"] is True
    clicked = adapter.conn.wait_notification("adapter.didRecordClickOnAsset", lambda p: p.get("adId") == ad_id)
    assert clicked["assetKey"] == "headline"
    # Only the adapter's own connection may report on the ad, whichever process is asked.
    assert_ad_not_found(other.error("adapter.reportImpression", adId=ad_id))


def mapped_ad(tag):
    return {"headline": f"{tag} headline", "body": f"{tag} body", "callToAction": f"{tag} install",
            "icon": {"url": f"https://cdn.{tag}.example/icon.png", "width": 64, "height": 64},
            "images": [{"url": f"https://cdn.{tag}.example/main.png", "width": 1200, "height": 627}],
            "handlesUserClicks": False, "handlesUserImpressions": False}


# ------------------------------------------------------------------------------------------
# Redis Cluster


def test_a_fleet_runs_on_a_3_master_redis_cluster(fleet_factory, redis_cluster):
    servers = fleet_factory(3, redis=redis_cluster)
    conns = [s.connect() for s in servers]
    ads = [load_one(conns[i % 3], NATIVE_UNIT)["adId"] for i in range(12)]
    # Every process serves every ad, and racing impressions count once.
    for ad in ads:
        for conn in conns:
            assert conn.call("stringForKey", adId=ad, key="headline") == "Flood-It! 2"
    outcomes: list[bool] = []

    def race(conn):
        got = [conn.call("recordImpression", adId=ad)["recorded"] for ad in ads]
        outcomes.extend(got)

    all_at_once(race, conns)
    assert sum(outcomes) == len(ads)
    logs = [events_of(conn, limit=1000) for conn in conns]
    assert logs[0] == logs[1] == logs[2] and len(logs[0]) == len(ads)
    # A store change on one process is served by the others.
    conns[1].call("store.putCreative", creative=native_creative("cluster-n", "On a cluster"))
    conns[1].call("store.putAdUnit", adUnit={"id": "/fleet/cluster", "creatives": ["cluster-n"]})
    assert load_one(conns[2], "/fleet/cluster")["headline"] == "On a cluster"
    # The ads' keys are spread over the masters (each ad's keys in its own slot).
    holders = [p for p in redis_cluster.ports if redis_cluster.keys(p, "na:*:ad:*")]
    assert len(holders) >= 2, [redis_cluster.keys(p, "na:*") for p in redis_cluster.ports]


def test_a_cluster_master_killed_then_restarted_fails_only_its_ads_meanwhile_and_keeps_what_it_acknowledged(
        fleet_factory, private_cluster):
    name = "master-killed"
    a, b = fleet_factory(2, redis=private_cluster, name=name, args=["--redis-timeout-ms", "500"])
    ca, cb = a.connect(), b.connect()
    fleet_node = private_cluster.node_of(f"{{na:{name}}}:seq")
    by_node: dict[int, str] = {}
    for _ in range(60):
        ad = load_one(ca, NATIVE_UNIT)["adId"]
        by_node.setdefault(private_cluster.node_of(f"na:{name}:ad:{{{ad}}}"), ad)
        if len(by_node) == 3:
            break
    assert len(by_node) == 3, f"60 ads, and their keys on masters {sorted(by_node)} only"
    # The master to kill holds an ad's keys but not the fleet's own (its log, its store).
    killed = next(i for i in by_node if i != fleet_node)
    victim, survivor = by_node[killed], by_node[fleet_node]
    assert cb.call("recordImpression", adId=victim) == {"recorded": True}
    private_cluster.kill_node(killed)
    started = time.monotonic()
    err = cb.error("stringForKey", adId=victim, key="headline")
    waited = time.monotonic() - started
    assert err["code"] == -32003 and err["message"] == "Store unavailable", err
    assert waited < 3, f"answered after {waited:.2f} s"
    # The ads on the other masters are still served, and their events recorded.
    assert cb.call("stringForKey", adId=survivor, key="headline") == "Flood-It! 2"
    assert cb.call("recordImpression", adId=survivor) == {"recorded": True}
    private_cluster.restart_node(killed)
    for conn in (ca, cb):
        wait_until(lambda: "result" in conn.request("stringForKey", {"adId": victim, "key": "headline"}),
                   what="the fleet reconnects to the restarted master")
    assert ca.call("recordImpression", adId=victim) == {"recorded": False, "reason": "alreadyRecorded"}
    assert [e[1:3] for e in events_of(ca, limit=1000) if e[2] == "didRecordImpression"] == [
        (victim, "didRecordImpression"), (survivor, "didRecordImpression")]
