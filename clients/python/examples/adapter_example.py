#!/usr/bin/env python3
"""A native-ads mediation adapter written in Python (standard library only, Python 3.11).

It plays two roles against one native-ads server, on two connections:

* the ADAPTER for a made-up network, "AcmeAds": it registers the class with
  `mediation.registerAdapter`, answers the server's `adapter.loadNativeAd` requests by asking
  the (simulated) Acme SDK for an ad and mapping Acme's own ad format to the native shape, and
  prints what the service tells it about that ad (`adapter.didRender`,
  `adapter.didRecordImpression`, `adapter.didRecordClickOnAsset`, ...). With
  `--acme-tracks-events` the mapped ad says `handlesUserClicks` / `handlesUserImpressions`:
  the service then asks Acme to handle them (`adapter.handleImpression`, `adapter.handleClick`)
  and Acme reports them back (`adapter.reportImpression`, `adapter.reportClick`).
* the APP: it defines a waterfall ad unit (AcmeAds first, a house ad as backfill) with
  `store.putCreative` / `store.putAdUnit`, loads an ad from it, registers its ad view, records
  an impression and a click, and prints the `adEvent`s it receives.

Run it against a server it starts (the adapter on the server's stdio, the app over TCP):

    python3 adapter_example.py --spawn .build/debug/native-ads

or against a running server (both roles over TCP):

    native-ads --tcp 127.0.0.1:7411 &
    python3 adapter_example.py --connect 127.0.0.1:7411

The wire protocol is docs/mediation.md; framing here is newline-delimited JSON.
"""
from __future__ import annotations

import argparse
import itertools
import json
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from typing import Any, BinaryIO, Callable

WAIT = 10.0  # seconds to wait for any one answer or notification
ADAPTER_CLASS = "AcmeAds"
PLACEMENT = "acme-placement-42"
UNIT_ID = "/acme/example/waterfall"
HOUSE_CREATIVE = "acme-house-1"

_print_lock = threading.Lock()


def say(role: str, text: str) -> None:
    """One line of the transcript: `[adapter] ...` or `[app]     ...`."""
    with _print_lock:
        print(f"[{role}]{' ' * (8 - len(role))}{text}", flush=True)


def compact(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


# ----------------------------------------------------------------------------------------------
# A small JSON-RPC 2.0 connection (NDJSON framing) that can also be called by the server.


class RpcError(Exception):
    def __init__(self, error: dict):
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.error = error


class Connection:
    """Requests from us wait for their response; requests from the server go to `on_request`
    (whose return value, a dict with "result" or "error", is sent back); notifications from the
    server go to `on_notification`."""

    def __init__(self, name: str, reader: BinaryIO, write: Callable[[bytes], None]):
        self.name = name
        self._reader = reader
        self._write = write
        self._write_lock = threading.Lock()
        self._ids = itertools.count(1)
        self._pending: dict[Any, queue.Queue] = {}
        self._pending_lock = threading.Lock()
        self.on_request: Callable[[dict], dict] = lambda msg: {"error": {"code": -32601, "message": "Method not found"}}
        self.on_notification: Callable[[dict], None] = lambda msg: None
        self.closed = threading.Event()
        threading.Thread(target=self._read_loop, name=f"reader-{name}", daemon=True).start()

    @classmethod
    def tcp(cls, name: str, host: str, port: int) -> "Connection":
        sock = socket.create_connection((host, port), timeout=WAIT)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = cls(name, sock.makefile("rb"), sock.sendall)
        conn._sock = sock  # type: ignore[attr-defined]
        return conn

    def send(self, msg: dict) -> None:
        data = json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
        with self._write_lock:
            self._write(data)

    def call(self, method: str, **params: Any) -> Any:
        msg_id = f"{self.name}-{next(self._ids)}"
        box: queue.Queue = queue.Queue(maxsize=1)
        with self._pending_lock:
            self._pending[msg_id] = box
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        try:
            response = box.get(timeout=WAIT)
        except queue.Empty:
            raise TimeoutError(f"{self.name}: no answer to {method} within {WAIT} s") from None
        if "error" in response:
            raise RpcError(response["error"])
        return response["result"]

    def notify(self, method: str, **params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def _read_loop(self) -> None:
        try:
            for line in self._reader:
                if not line.strip():
                    continue
                msg = json.loads(line)
                if isinstance(msg, list):  # we never send batches
                    continue
                if "method" in msg and "id" in msg:
                    # A request from the server (adapter.loadNativeAd): answer it without
                    # holding up this reader.
                    threading.Thread(target=self._answer, args=(msg,), daemon=True).start()
                elif "method" in msg:
                    self.on_notification(msg)
                else:
                    with self._pending_lock:
                        box = self._pending.pop(msg.get("id"), None)
                    if box is not None:
                        box.put(msg)
        except (OSError, ValueError):
            pass
        finally:
            self.closed.set()

    def _answer(self, msg: dict) -> None:
        try:
            outcome = self.on_request(msg)
        except Exception as e:  # noqa: BLE001 - an adapter bug becomes an error response
            outcome = {"error": {"code": -32603, "message": f"adapter failed: {e}"}}
        self.send(dict({"jsonrpc": "2.0", "id": msg["id"]}, **outcome))

    def close(self) -> None:
        sock = getattr(self, "_sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()


# ----------------------------------------------------------------------------------------------
# The Acme network: its SDK (simulated) and its ad format.


class AcmeSDK:
    """Stands in for the network's SDK. Acme ads look like this (not like native-ads' shape)."""

    ADS = {
        PLACEMENT: {
            "title": "Rocket Boots 3000",
            "blurb": "Run faster than the roadrunner. Guaranteed*.",
            "cta": "Buy now",
            "logo_url": "https://cdn.acme.example/logo.png",
            "hero": {"landscape": ("https://cdn.acme.example/rocket-boots-wide.png", 1200, 627),
                     "portrait": ("https://cdn.acme.example/rocket-boots-tall.png", 627, 1200)},
            "rating_out_of_10": 9,
            "price_cents": 1999,
            "brand": "ACME Corporation",
            "click_url": "https://acme.example/click/rocket-boots",
            "campaign": "desert-2024",
        }
    }

    def request_ad(self, placement: str, orientation: str) -> dict:
        if placement not in self.ADS:
            raise LookupError(f"unknown placement {placement!r}")
        ad = dict(self.ADS[placement])
        ad["hero_url"], ad["hero_w"], ad["hero_h"] = ad.pop("hero")[orientation]
        return ad


def map_acme_ad(acme: dict, tracks_events: bool) -> dict:
    """Acme's format -> the mapped native ad of docs/mediation.md (MappedAd)."""
    return {
        "headline": acme["title"],
        "body": acme["blurb"],
        "callToAction": acme["cta"],
        "icon": {"url": acme["logo_url"], "width": 128, "height": 128},
        "images": [{"url": acme["hero_url"], "width": acme["hero_w"], "height": acme["hero_h"]}],
        "starRating": acme["rating_out_of_10"] / 2,  # 0-10 -> 0-5
        "price": f"${acme['price_cents'] / 100:.2f}",
        "advertiser": acme["brand"],
        "extraAssets": {"acmeCampaign": acme["campaign"]},
        "landingPageURL": acme["click_url"],
        "handlesUserClicks": tracks_events,
        "handlesUserImpressions": tracks_events,
    }


class AcmeAdapter:
    """The adapter side: answers adapter.loadNativeAd, reacts to the service's notifications."""

    def __init__(self, conn: Connection, tracks_events: bool):
        self.conn = conn
        self.sdk = AcmeSDK()
        self.tracks_events = tracks_events
        self.notifications: queue.Queue = queue.Queue()
        conn.on_request = self.on_request
        conn.on_notification = self.on_notification

    def register(self) -> None:
        result = self.conn.call("mediation.registerAdapter", adapterClassName=ADAPTER_CLASS)
        say("adapter", f"mediation.registerAdapter {ADAPTER_CLASS} -> {compact(result)}")

    def on_request(self, msg: dict) -> dict:
        if msg.get("method") != "adapter.loadNativeAd":
            return {"error": {"code": -32601, "message": "Method not found"}}
        p = msg["params"]
        cfg = p["adConfiguration"]
        placement = cfg["credentials"]["settings"]["parameter"]
        ratio = cfg.get("options", {}).get("mediaAspectRatio", "unknown")
        say("adapter", f"<- adapter.loadNativeAd id={msg['id']} loadId={p['loadId']} parameter={placement} "
                       f"mediaAspectRatio={ratio} isTestRequest={str(cfg.get('isTestRequest')).lower()}")
        try:
            acme = self.sdk.request_ad(placement, "portrait" if ratio == "portrait" else "landscape")
        except LookupError as e:
            say("adapter", f"-> error: {e}")
            return {"error": {"code": 3, "message": f"Acme: {e}", "data": {"domain": "com.acmeads.sdk"}}}
        say("adapter", f"   Acme SDK returned {compact({k: acme[k] for k in ('title', 'rating_out_of_10', 'price_cents')})}")
        ad = map_acme_ad(acme, self.tracks_events)
        say("adapter", f"-> mapped ad \"{ad['headline']}\" (handlesUserClicks={str(self.tracks_events).lower()}, "
                       f"handlesUserImpressions={str(self.tracks_events).lower()})")
        return {"result": {"ad": ad}}

    def on_notification(self, msg: dict) -> None:
        self.notifications.put(msg)  # printed in order by the main flow (expect)

    def expect(self, method: str) -> dict:
        """Waits for the service's notification `method` (others before it are printed too)."""
        deadline = time.monotonic() + WAIT
        while True:
            try:
                msg = self.notifications.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"adapter: no {method} within {WAIT} s") from None
            params = msg.get("params") or {}
            details = " ".join(f"{k}={compact(v) if isinstance(v, list) else v}" for k, v in params.items())
            say("adapter", f"<- {msg['method']} {details}")
            if msg["method"] == "adapter.handleImpression":
                # Acme saw its view: it reports the impression itself.
                r = self.conn.call("adapter.reportImpression", adId=params["adId"])
                say("adapter", f"-> adapter.reportImpression -> {compact(r)}")
            elif msg["method"] == "adapter.handleClick":
                # Acme handles the click (opens its own tracker) and reports it.
                r = self.conn.call("adapter.reportClick", adId=params["adId"])
                say("adapter", f"-> adapter.reportClick -> {compact(r)}")
            if msg["method"] == method:
                return params


# ----------------------------------------------------------------------------------------------
# The app side


class App:
    def __init__(self, conn: Connection):
        self.conn = conn
        self.events: queue.Queue = queue.Queue()
        conn.on_notification = self.events.put
        self.received: list[dict] = []

    def call(self, method: str, **params: Any) -> Any:
        return self.conn.call(method, **params)

    def expect_event(self, ad_id: str, event: str) -> dict:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                msg = self.events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"app: no adEvent {event} within {WAIT} s") from None
            p = msg.get("params") or {}
            self.received.append(msg)
            say("app", f"<- {msg['method']} {p.get('event')} assetKey={p.get('assetKey') or 'null'} adId={p.get('adId')}")
            if msg.get("method") == "adEvent" and p.get("adId") == ad_id and p.get("event") == event:
                return p


def define_unit(app: App) -> None:
    house = {"id": HOUSE_CREATIVE, "kind": "native", "priority": 1, "eCPM": 0.5,
             "assets": {"headline": "Acme's house ad", "body": "Shown when AcmeAds has nothing.",
                        "images": [{"url": "https://static.native-ads.test/creatives/acme-house-1/image1.png",
                                    "width": 1200, "height": 627}]},
             "landingPageURL": "https://example.com/house"}
    say("app", f"store.putCreative {HOUSE_CREATIVE} -> {compact(app.call('store.putCreative', creative=house))}")
    unit = {"id": UNIT_ID, "creatives": [HOUSE_CREATIVE],
            "waterfall": [
                {"type": "customEvent", "adapterClassName": ADAPTER_CLASS, "parameter": PLACEMENT,
                 "eCPM": 3.0, "timeoutMs": 2000, "label": "Acme Ads"},
                {"type": "inventory", "eCPM": 0.5},
            ]}
    say("app", f"store.putAdUnit {UNIT_ID} -> {compact(app.call('store.putAdUnit', adUnit=unit))}")


def round_trip(adapter: AcmeAdapter, app: App) -> None:
    adapter.register()
    define_unit(app)

    say("app", f"loadAd {UNIT_ID} (mediaAspectRatio landscape)")
    result = app.call("loadAd", adUnitID=UNIT_ID, options={"mediaAspectRatio": "landscape"},
                      request={"isTestRequest": True})
    ad = result["ads"][0]
    ad_id = ad["adId"]
    info = result["responseInfo"]
    loaded = info["loadedAdNetworkResponseInfo"]
    say("app", f"loaded {ad_id} \"{ad['headline']}\" from {loaded['adNetworkClassName']} ({loaded['adSourceName']})")
    tried = ", ".join(f"{e['adNetworkClassName']}/{e['adSourceName']}: "
                      f"{'ok' if e['error'] is None else e['error']['message']} ({e['latency'] * 1000:.0f} ms)"
                      for e in info["adNetworkInfoArray"])
    say("app", f"   sources tried: {tried}")
    say("app", f"   body={ad['body']!r} callToAction={ad['callToAction']!r} starRating={ad['starRating']} "
               f"price={ad['price']} advertiser={ad['advertiser']!r} extraAssets={compact(ad['extraAssets'])}")
    say("app", f"   main image {ad['images'][0]['width']}x{ad['images'][0]['height']} {ad['images'][0]['url']}")
    if loaded["adNetworkClassName"] != ADAPTER_CLASS:
        raise RuntimeError("AcmeAds did not fill the load")

    registered = app.call("registerAdView", adId=ad_id, clickableAssets=["headline", "callToAction"],
                          nonclickableAssets=["body", "icon", "image"])
    say("app", f"registerAdView -> {compact(registered)}")
    adapter.expect("adapter.didRender")

    say("app", f"recordImpression -> {compact(app.call('recordImpression', adId=ad_id))}")
    adapter.expect("adapter.handleImpression" if adapter.tracks_events else "adapter.didRecordImpression")
    app.expect_event(ad_id, "didRecordImpression")

    click = app.call("performClickOnAsset", adId=ad_id, key="callToAction")
    say("app", f"performClickOnAsset callToAction -> {compact(click)}")
    adapter.expect("adapter.handleClick" if adapter.tracks_events else "adapter.didRecordClickOnAsset")
    app.expect_event(ad_id, "didRecordClick")

    say("app", f"unregisterAdView -> {compact(app.call('unregisterAdView', adId=ad_id))}")
    adapter.expect("adapter.didUntrackView")

    log = app.call("getEvents", adId=ad_id)["events"]
    say("app", f"getEvents -> {compact([e['event'] for e in log])}")
    say("app", f"releaseAd -> {compact(app.call('releaseAd', adId=ad_id))}")
    impressions = sum(1 for e in log if e["event"] == "didRecordImpression")
    clicks = sum(1 for e in log if e["event"] == "didRecordClick")
    print(f"round trip complete: {impressions} impression{'s' * (impressions != 1)}, "
          f"{clicks} click{'s' * (clicks != 1)}", flush=True)
    if (impressions, clicks) != (1, 1):
        raise RuntimeError(f"expected 1 impression and 1 click in the event log, got {log}")


# ----------------------------------------------------------------------------------------------
# Connecting


def spawn(path: str) -> tuple[subprocess.Popen, str, int]:
    """Starts `path --stdio --tcp 127.0.0.1:0` and returns it with the TCP address it reports."""
    proc = subprocess.Popen([path, "--stdio", "--tcp", "127.0.0.1:0"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    found: queue.Queue = queue.Queue()

    def drain_stderr() -> None:
        for raw in proc.stderr:  # type: ignore[union-attr]
            m = re.search(r"listening on (\S+):(\d+)", raw.decode("utf-8", "replace"))
            if m:
                found.put((m.group(1), int(m.group(2))))

    threading.Thread(target=drain_stderr, daemon=True).start()
    try:
        host, port = found.get(timeout=WAIT)
    except queue.Empty:
        proc.kill()
        raise RuntimeError(f"{path} did not report 'listening on HOST:PORT' within {WAIT} s") from None
    return proc, host, port


def pipe_writer(pipe: BinaryIO) -> Callable[[bytes], None]:
    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:  # an unbuffered pipe may take part of it
            n = pipe.write(view)
            view = view[n or 0:]
    return write


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--spawn", metavar="PATH", help="start PATH --stdio --tcp 127.0.0.1:0 (adapter on stdio, "
                                                        "app over TCP)")
    where.add_argument("--connect", metavar="HOST:PORT", help="a running server's TCP address (both roles over TCP)")
    ap.add_argument("--acme-tracks-events", action="store_true",
                    help="the mapped ad says handlesUserClicks/handlesUserImpressions: Acme reports them itself")
    args = ap.parse_args(argv)

    proc = None
    conns: list[Connection] = []
    try:
        if args.spawn:
            proc, host, port = spawn(args.spawn)
            assert proc.stdin is not None and proc.stdout is not None
            adapter_conn = Connection("adapter", proc.stdout, pipe_writer(proc.stdin))
            say("adapter", f"connected over stdio of {args.spawn} (pid {proc.pid})")
        else:
            host, _, port_text = args.connect.rpartition(":")
            port = int(port_text)
            adapter_conn = Connection.tcp("adapter", host, port)
            say("adapter", f"connected over TCP {host}:{port}")
        conns.append(adapter_conn)
        app_conn = Connection.tcp("app", host, port)
        conns.append(app_conn)
        say("app", f"connected over TCP {host}:{port}")
        round_trip(AcmeAdapter(adapter_conn, args.acme_tracks_events), App(app_conn))
        return 0
    except (RpcError, TimeoutError, RuntimeError, OSError, KeyError) as e:
        print(f"adapter_example: error: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
        return 1
    finally:
        for c in conns:
            c.close()
        if proc is not None:
            try:
                proc.stdin.close()  # type: ignore[union-attr]
            except OSError:
                pass
            proc.terminate()
            try:
                proc.wait(WAIT)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    sys.exit(main())
