#!/usr/bin/env python3
"""native-ads soak: minutes of mixed load on one server, then two verdicts.

    python tools/soak.py --bin /abs/path/native-ads [--seconds 120]     # make soak (SOAK_SECONDS)

The load, all at once, for --seconds (default $SOAK_SECONDS, else 120):
  * 4 steady connections (stdio NDJSON, TCP NDJSON, TCP LSP, TCP LSP) that keep a pool of ads
    (native, backfill with AdChoices, custom format with the custom click handler, a registered
    ad view), record impressions and visibility, click their own ads and each other's, mute,
    dismiss screens, release ads and load new ones, in pipelined bursts and JSON-RPC batches;
  * 2 churning connections: connect (either framing), load, click, disconnect (half of the
    time releasing first, else leaving it to the server), again and again;
  * 1 store changer: store.putCreative / store.putAdUnit / loads from that unit / store.remove;
  * a monitor that reads the event log (getEvents since its last sequence) as it grows.

Verdicts (exit status 1 when either fails):
  * RSS is flat: the server's RssAnon (its heap) is read every 2 s; after the warm-up (10 % of
    the run, and at least until the event log is full: --max-events 20000), no reading may exceed
    the first by more than 8 MiB + 10 %. Everything the load keeps is bounded (pools of ads,
    connections, the store's few entries, the event log's 20,000 events, ~4 MB), so steady
    state is flat; 8 MiB + 10 % is room for allocator slack, far below what a leak of a
    per-request or per-connection allocation would build up over a run (a million requests).
  * Counts agree: for every ad, the events its replies imply (recorded impressions, recorded
    clicks with willPresentScreen unless the custom click handler ran, first mutes, dismissed
    screens), the adEvents its loading connection received, and the event log, per
    (event, assetKey); customClick notifications match the clicks that answered
    customClickHandler. The monitor must see the log without gaps.

Prints RSS (VmRSS and RssAnon) at the start (end of warm-up), middle and end, and the counts.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import signal
import sys
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "EndToEnd"))

import e2e_support as E  # noqa: E402

MAX_EVENTS = 20_000
ALIASES = {"3001": "headline", "3002": "callToAction", "3004": "body"}
NATIVE_KEYS = ["headline", "body", "callToAction", "icon", "image", "3001", "3004"]
SCHEMES = [None, [], ["market"], ["itms-apps"], ["gadexample"]]
MiB = 1024


class Stop(Exception):
    pass


class Ledger:
    """What the replies imply, per ad, shared by every worker (under one lock)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.implied = collections.defaultdict(collections.Counter)  # adId -> (event, assetKey)
        self.notified = collections.defaultdict(collections.Counter)
        self.custom_implied = collections.Counter()  # adId -> customClick count
        self.custom_notified = collections.Counter()
        self.requests = 0
        self.stats = collections.Counter()

    def imply(self, ad_id: str, events, custom: int = 0) -> None:
        with self.lock:
            for e in events:
                self.implied[ad_id][e] += 1
            self.custom_implied[ad_id] += custom

    def drain(self, conn) -> None:
        """Counts and forgets the notifications a connection received so far (only its own
        worker thread touches its list)."""
        notes, conn.notifications = conn.notifications, []
        conn._consumed.clear()
        with self.lock:
            for n in notes:
                p = n.get("params") or {}
                if n["method"] == "adEvent":
                    self.notified[p["adId"]][(p["event"], p.get("assetKey"))] += 1
                elif n["method"] == "customClick":
                    self.custom_notified[p["adId"]] += 1
                else:
                    raise AssertionError(f"unexpected notification {n!r}")

    def count(self, what: str, n: int = 1) -> None:
        with self.lock:
            self.stats[what] += n


class SoakAd:
    def __init__(self, raw: dict, role: str):
        self.id = raw["adId"]
        self.role = role
        self.muted = False
        if raw["kind"] == "customNative":
            self.keys = list(raw["availableAssetKeys"])
        elif role == "registered":
            self.keys = ["headline", "body", "callToAction", "3002"]
        else:
            self.keys = NATIVE_KEYS + (["_adChoices"] if raw.get("adChoices") else [])
        self.mutable = bool(raw.get("muteThisAdReasons"))


def effects_of(method: str, params: dict, ad: SoakAd, msg: dict, owner_clicks: bool) -> tuple[list, int]:
    """The events a reply implies, and its customClick count (the contract's rules)."""
    if "error" in msg:
        code = msg["error"].get("code")
        assert code in (2001, 2002), f"{method} {params}: {msg!r}"
        return [], 0
    r = msg["result"]
    if method == "recordImpression":
        return ([("didRecordImpression", None)] if r["recorded"] else []), 0
    if method == "reportVisibility":
        return ([("didRecordImpression", None)] if r["impressionRecorded"] else []), 0
    if method == "performClickOnAsset":
        if not r["recorded"]:
            return [], 0
        name = ALIASES.get(params["key"], params["key"])
        if r["action"] == "customClickHandler":
            assert owner_clicks and ad.role == "custom", (params, r)
            return [("didRecordClick", name)], 1
        assert r["action"] in ("landingPage", "deepLink"), r
        return [("didRecordClick", name), ("willPresentScreen", None)], 0
    if method == "muteThisAd":
        assert r == {"muted": True}, r
        first = not ad.muted
        ad.muted = True
        return ([("didMute", None)] if first else []), 0
    if method == "reportScreenDismissed":
        return ([("willDismissScreen", None), ("didDismissScreen", None)] if r["dismissed"] else []), 0
    if method == "releaseAd":
        assert r == {"released": True}, r
    return [], 0


class Soak:
    def __init__(self, binary: str, seconds: float, workdir: str, seed: int):
        E.BIN = binary
        self.seconds = seconds
        self.seed = seed
        self.ledger = Ledger()
        self.stop = threading.Event()
        self.failures: list[str] = []
        self.srv = E.Server(workdir, stdio=True, tcp=True, framing="ndjson",
                            args=["--max-events", MAX_EVENTS, "--seed", seed])
        self.srv.stdio.sync()
        self.shared_lock = threading.Lock()
        self.shared: dict[str, tuple[SoakAd, int]] = {}  # ads of the steady workers: id -> (ad, owner)
        self.log_counts = collections.defaultdict(collections.Counter)
        self.log_last = 0
        self.log_full = threading.Event()
        self.log_lock = threading.Lock()

    # -- plumbing ---------------------------------------------------------------------------

    def run_thread(self, name: str, body) -> threading.Thread:
        def wrapped():
            try:
                body()
            except Stop:
                pass
            except BaseException:
                self.failures.append(f"{name}: {traceback.format_exc()}")
                self.stop.set()

        t = threading.Thread(target=wrapped, name=name, daemon=True)
        t.start()
        return t

    def burst(self, conn, calls: list[tuple[str, dict, SoakAd | None, bool]], as_batch: bool = False) -> list[dict]:
        """Sends calls pipelined (or as one JSON-RPC batch) and returns the replies in order;
        records what they imply."""
        if as_batch:
            replies = E.batch_requests(conn, [(m, p) for m, p, _, _ in calls])
        else:
            ids = [conn.new_id() for _ in calls]
            conn.send_raw(b"".join(conn.frame(E.dumps({"jsonrpc": "2.0", "id": i, "method": m, "params": p}))
                                   for i, (m, p, _, _) in zip(ids, calls)))
            replies = [conn.wait_reply(i, timeout=6 * E.WAIT) for i in ids]
        for (m, p, ad, own), msg in zip(calls, replies):
            if ad is not None:
                events, custom = effects_of(m, p, ad, msg, own)
                if events or custom:
                    self.ledger.imply(ad.id, events, custom)
        self.ledger.count("requests", len(calls))
        self.ledger.drain(conn)
        return replies

    def load(self, conn, rng: random.Random, owner: int | None) -> list[SoakAd]:
        choice = rng.random()
        opts = {"disableImageLoading": rng.random() < 0.7}
        if choice < 0.35:
            raws = conn.call("loadAd", adUnitID=E.NATIVE_UNIT, options=dict(opts, numberOfAds=2))["ads"]
            ads = [SoakAd(raws[0], "native"), SoakAd(raws[1], "registered")]
            conn.call("registerAdView", adId=raws[1]["adId"], clickableAssets=["headline", "3002"],
                      nonclickableAssets=["body"])
        elif choice < 0.65:
            ads = [SoakAd(conn.call("loadAd", adUnitID=E.BACKFILL_UNIT, options=opts)["ads"][0], "backfill")]
        elif choice < 0.85:
            raw = conn.call("loadAd", adUnitID=E.NATIVE_UNIT, adTypes=["customNative"],
                            customNativeAdFormatIDs=[E.CUSTOM_FORMAT], options=opts)["ads"][0]
            ads = [SoakAd(raw, "custom")]
            conn.call("setCustomClickHandler", adId=raw["adId"], enabled=rng.random() < 0.7)
        else:
            ads = [SoakAd(a, "native") for a in conn.call("loadAd", adUnitID=E.ADMOB_UNIT, options=dict(opts, numberOfAds=2))["ads"]]
        self.ledger.count("loads")
        self.ledger.count("ads loaded", len(ads))
        if owner is not None:
            with self.shared_lock:
                for a in ads:
                    self.shared[a.id] = (a, owner)
        return ads

    def op(self, rng: random.Random, ad: SoakAd, own: bool) -> tuple[str, dict, SoakAd, bool]:
        r = rng.random()
        if r < 0.3:
            if ad.role == "registered" and rng.random() < 0.5:
                return ("reportVisibility", {"adId": ad.id, "visiblePixels": rng.choice([0, 1, 50])}, ad, own)
            return ("recordImpression", {"adId": ad.id}, ad, own)
        if r < 0.9 or not own:
            params = {"adId": ad.id, "key": rng.choice(ad.keys)}
            schemes = rng.choice(SCHEMES)
            if schemes is not None:
                params["openableURLSchemes"] = schemes
            return ("performClickOnAsset", params, ad, own)
        if r < 0.95 and ad.mutable and rng.random() < 0.2:
            return ("muteThisAd", {"adId": ad.id}, ad, own)
        if ad.role == "custom":
            return ("stringForKey", {"adId": ad.id, "key": "Headline"}, ad, own)
        return ("reportScreenDismissed", {"adId": ad.id}, ad, own)

    def diagnose(self, conn) -> str:
        """What the server and the connection look like when a reply does not come."""
        srv = self.srv
        lines = [f"server alive: {srv.alive()}"]
        try:
            stat = open(f"/proc/{srv.pid}/stat").read().split()
            lines.append(f"server state {stat[2]}, utime {stat[13]} stime {stat[14]} ticks, "
                         f"wchan {open(f'/proc/{srv.pid}/wchan').read()!r}")
        except OSError as e:
            lines.append(f"no /proc for the server: {e}")
        sock = getattr(conn, "sock", None)
        if sock is not None:
            try:
                port = sock.getsockname()[1]
                lines.append(f"{conn.name}: server side (tx, rx) {E.tcp_queues(srv.port, port)}, client side (tx, rx) "
                             f"{E.tcp_queues(port, srv.port)}")
            except OSError as e:
                lines.append(f"{conn.name}: {e}")
        lines.append(f"{conn.name}: {conn.pending_bytes} bytes of an incomplete frame, closed by the server: "
                     f"{conn.closed_by_peer}, frames waiting {len(conn._frames)}")
        t = time.monotonic()
        try:
            probe = srv.connect("ndjson", sync=False, name="probe")
            probe.request("e2e.noSuchMethod", timeout=5)
            lines.append(f"a new connection was answered in {time.monotonic() - t:.3f} s")
            probe.close()
        except Exception as e:  # noqa: BLE001 - a diagnosis
            lines.append(f"a new connection was not answered: {e!r}")
        lines.append("server stderr (tail):\n" + srv.stderr_text()[-3000:])
        return "\n".join(lines)

    # -- workers ----------------------------------------------------------------------------

    def steady(self, index: int, conn) -> None:
        try:
            self._steady(index, conn)
        except TimeoutError as e:
            raise AssertionError(f"{e}\n{self.diagnose(conn)}") from e

    def _steady(self, index: int, conn) -> None:
        rng = random.Random(self.seed * 100 + index)
        pool: list[SoakAd] = []
        while not self.stop.is_set():
            while len(pool) < 8:
                pool += self.load(conn, rng, index)
            calls = []
            for _ in range(rng.randint(5, 40)):
                if rng.random() < 0.25:
                    with self.shared_lock:
                        others = [a for a, o in self.shared.values() if o != index] if self.shared else []
                    if others:
                        calls.append(self.op(rng, rng.choice(others), False))
                        continue
                calls.append(self.op(rng, rng.choice(pool), True))
            self.burst(conn, calls, as_batch=rng.random() < 0.2)
            if rng.random() < 0.15:
                victim = pool.pop(rng.randrange(len(pool)))
                with self.shared_lock:
                    self.shared.pop(victim.id, None)
                self.burst(conn, [("releaseAd", {"adId": victim.id}, victim, True)])
                self.ledger.count("releases")
        # The last notifications are collected by run() once no worker sends any more.

    def churn(self, index: int) -> None:
        rng = random.Random(self.seed * 1000 + index)
        while not self.stop.is_set():
            conn = self.srv.connect(rng.choice(["ndjson", "lsp"]), name=f"churn-{index}")
            self.ledger.count("connections opened")
            try:
                self._churn_once(rng, conn)
            except TimeoutError as e:
                raise AssertionError(f"{e}\n{self.diagnose(conn)}") from e
            finally:
                conn.close()
                self.srv.tcp_conns.remove(conn)

    def _churn_once(self, rng: random.Random, conn) -> None:
        pool = []
        for _ in range(rng.randint(1, 3)):
            pool += self.load(conn, rng, None)
        for _ in range(rng.randint(1, 6)):
            self.burst(conn, [self.op(rng, rng.choice(pool), True) for _ in range(rng.randint(5, 30))])
        if rng.random() < 0.5:
            self.burst(conn, [("releaseAd", {"adId": a.id}, a, True) for a in pool])
            self.ledger.count("releases", len(pool))
        conn.barrier()  # only this connection touches its ads: every event of them is here
        self.ledger.drain(conn)

    def store_changer(self) -> None:
        rng = random.Random(self.seed * 7)
        conn = self.srv.connect("lsp", name="store")
        unit = "soak/store-unit"
        k = 0
        while not self.stop.is_set():
            k += 1
            ids = [f"soak-creative-{(k + j) % 4}" for j in range(2)]
            for cid in ids:
                conn.call("store.putCreative", creative={
                    "id": cid, "kind": "native", "landingPageURL": f"https://example.com/{cid}",
                    "priority": rng.randint(1, 5),
                    "assets": {"headline": f"Soak {cid} #{k}", "body": "b" * rng.randint(0, 2000),
                               "images": [{"url": f"https://example.com/{cid}.png", "width": 32, "height": 32}]}})
            conn.call("store.putAdUnit", adUnit={"id": unit, "creatives": ids})
            raws = conn.call("loadAd", adUnitID=unit, options={"numberOfAds": 2})["ads"]
            ads = [SoakAd(r, "native") for r in raws]
            self.burst(conn, [self.op(rng, rng.choice(ads), True) for _ in range(10)])
            self.burst(conn, [("releaseAd", {"adId": a.id}, a, True) for a in ads])
            if k % 3 == 0:
                conn.call("store.remove", kind="adUnit", id=unit)
                err = conn.error("loadAd", {"adUnitID": unit})
                assert err["code"] == 1000, err
                for cid in {f"soak-creative-{j}" for j in range(4)}:
                    conn.request("store.remove", {"kind": "creative", "id": cid})
            self.ledger.count("store changes", 3)
            self.ledger.drain(conn)
        conn.barrier()
        self.ledger.drain(conn)

    def monitor(self, conn, final: bool = False) -> None:
        while True:
            while True:
                with self.log_lock:
                    page = conn.call("getEvents", since=self.log_last, limit=10_000)
                    events = page["events"]
                    if events:
                        first = events[0]["sequence"]
                        assert first == self.log_last + 1, (
                            f"the monitor fell behind the event log: after sequence {self.log_last} the oldest "
                            f"kept is {first} (raise --max-events)")
                        for e in events:
                            self.log_counts[e["adId"]][(e["event"], e.get("assetKey"))] += 1
                        self.log_last = events[-1]["sequence"]
                    if self.log_last >= MAX_EVENTS:
                        self.log_full.set()
                if len(events) < 10_000:
                    break
            conn.notifications.clear()
            if final or self.stop.wait(0.25):
                return

    # -- the run ----------------------------------------------------------------------------

    def rss(self) -> dict:
        return E.proc_memory_kb(self.srv.pid)

    def run(self) -> int:
        srv = self.srv
        print(f"soak: {self.seconds:g} s against {E.BIN} (pid {srv.pid}), --max-events {MAX_EVENTS}; "
              "4 steady connections (stdio + 3 TCP), 2 churning, 1 store changer, 1 log monitor", flush=True)
        steady_conns = [srv.stdio, srv.connect("ndjson", name="steady-1"), srv.connect("lsp", name="steady-2"),
                        srv.connect("lsp", name="steady-3")]
        monitor_conn = srv.connect("ndjson", name="monitor")
        threads = [self.run_thread(f"steady-{i}", lambda i=i, c=c: self.steady(i, c)) for i, c in enumerate(steady_conns)]
        threads += [self.run_thread(f"churn-{i}", lambda i=i: self.churn(i)) for i in range(2)]
        threads.append(self.run_thread("store", self.store_changer))
        mon = self.run_thread("monitor", lambda: self.monitor(monitor_conn))

        t0 = time.monotonic()
        end = t0 + self.seconds
        warm_until = t0 + 0.1 * self.seconds
        samples: list[tuple[float, dict]] = []
        start_sample = None
        next_sample = t0
        while not self.stop.is_set() and time.monotonic() < end:
            now = time.monotonic()
            if now >= next_sample:
                if not srv.alive():
                    self.failures.append(f"the server died: {srv.describe()}")
                    break
                m = self.rss()
                if start_sample is None and now >= warm_until and (self.log_full.is_set() or now >= t0 + 0.5 * self.seconds):
                    start_sample = (now - t0, m)
                    if not self.log_full.is_set():
                        print("soak: warning: the event log was not full by half time; the bound covers it", flush=True)
                    print(f"soak: RSS start  ({now - t0:5.1f} s): {fmt(m)}", flush=True)
                if start_sample is not None:
                    samples.append((now - t0, m))
                next_sample += 2.0
            self.stop.wait(min(0.5, max(0.0, next_sample - time.monotonic())))
        elapsed = time.monotonic() - t0
        self.stop.set()
        for t in threads + [mon]:
            t.join(6 * E.WAIT)
            if t.is_alive():
                self.failures.append(f"{t.name} did not stop")
        if srv.alive():
            for c in steady_conns:  # everything the others' clicks sent them has arrived
                c.barrier()
                self.ledger.drain(c)
            self.monitor(monitor_conn, final=True)
        if samples:
            mid = min(samples, key=lambda s: abs(s[0] - (start_sample[0] + elapsed) / 2))
            print(f"soak: RSS middle ({mid[0]:5.1f} s): {fmt(mid[1])}", flush=True)
            print(f"soak: RSS end    ({samples[-1][0]:5.1f} s): {fmt(samples[-1][1])}", flush=True)
            base = start_sample[1]["RssAnon"]
            bound = 8 * MiB + base // 10
            worst = max(samples, key=lambda s: s[1]["RssAnon"])
            growth = worst[1]["RssAnon"] - base
            verdict = "flat" if growth <= bound else "NOT FLAT"
            print(f"soak: RssAnon at most {worst[1]['RssAnon']} kB ({worst[0]:.1f} s): +{growth} kB over the start; "
                  f"bound +{bound} kB (8 MiB + 10 %): {verdict}", flush=True)
            if growth > bound:
                self.failures.append(f"RSS is not flat: RssAnon grew by {growth} kB (bound {bound} kB)")
        elif not self.failures:
            self.failures.append("no RSS sample after the warm-up (run longer)")
        self.report_counts(elapsed)
        status = srv.stop() if srv.alive() else srv.proc.returncode
        if status not in (0, None):
            self.failures.append(f"the server exited {status} at SIGTERM")
        if self.failures:
            for f in self.failures:
                print(f"soak: FAIL: {f}", flush=True)
            return 1
        print("soak: PASS", flush=True)
        return 0

    def report_counts(self, elapsed: float) -> None:
        L = self.ledger
        st = L.stats
        print(f"soak: {st['requests']:,} requests ({st['requests'] / max(elapsed, 1e-9):,.0f}/s), {st['loads']:,} loads "
              f"({st['ads loaded']:,} ads), {st['releases']:,} releases, {st['connections opened']:,} connections "
              f"opened and closed, {st['store changes']:,} store changes", flush=True)
        by_type = {name: collections.Counter() for name in ("replies", "notified", "logged")}
        for name, table in (("replies", L.implied), ("notified", L.notified), ("logged", self.log_counts)):
            for counts in table.values():
                for (event, _key), n in counts.items():
                    by_type[name][event] += n
        events = sorted(set().union(*by_type.values()))
        print(f"soak: {'event':<22}{'replies':>10}{'notified':>10}{'logged':>10}", flush=True)
        for e in events:
            row = [by_type[n][e] for n in ("replies", "notified", "logged")]
            flag = "" if len(set(row)) == 1 else "   <- disagree"
            print(f"soak: {e:<22}{row[0]:>10,}{row[1]:>10,}{row[2]:>10,}{flag}", flush=True)
        cc = (sum(L.custom_implied.values()), sum(L.custom_notified.values()))
        print(f"soak: {'customClick':<22}{cc[0]:>10,}{cc[1]:>10,}{'-':>10}", flush=True)
        bad = [ad for ad in set(L.implied) | set(L.notified) | set(self.log_counts)
               if not (L.implied.get(ad, collections.Counter()) == L.notified.get(ad, collections.Counter())
                       == self.log_counts.get(ad, collections.Counter()))]
        if bad:
            ad = sorted(bad)[0]
            self.failures.append(
                f"counts disagree for {len(bad)} ads, e.g. {ad}: replies {dict(L.implied.get(ad, {}))}, notified "
                f"{dict(L.notified.get(ad, {}))}, logged {dict(self.log_counts.get(ad, {}))}")
        if +L.custom_implied != +L.custom_notified:
            self.failures.append("customClick notifications differ from the clicks that answered customClickHandler")


def fmt(m: dict) -> str:
    return f"VmRSS {m['VmRSS'] / 1024:.1f} MiB, RssAnon {m['RssAnon'] / 1024:.1f} MiB"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(ROOT / ".build" / "release" / "native-ads"))
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", "120")))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not (os.path.isfile(args.bin) and os.access(args.bin, os.X_OK)):
        print(f"soak: no executable at {args.bin}", file=sys.stderr)
        return 2
    if args.seconds < 10:
        print("soak: --seconds must be at least 10", file=sys.stderr)
        return 2
    import shutil
    import tempfile

    workdir = tempfile.mkdtemp(prefix="native-ads-soak-")
    soak = Soak(os.path.abspath(args.bin), args.seconds, workdir, args.seed)
    signal.signal(signal.SIGTERM, lambda *_: soak.stop.set())
    try:
        status = soak.run()
    except KeyboardInterrupt:
        soak.stop.set()
        soak.srv.stop()
        status = 130
    if status == 0:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"soak: the server's stderr is kept in {workdir}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
