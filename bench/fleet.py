#!/usr/bin/env python3
"""The fleet's figures (issue 11): native-ads in one process and the same through Redis, side
by side, measured in one run with bench/out/loadgen against a redis-server started for it
(AOF on, fsync every second, on a Unix socket), and printed as a table; also written to
bench/out/fleet.json.

    python bench/fleet.py --bin /abs/path/native-ads [--quick]

Rows (each measured on one native-ads process; the fleet's Redis runs beside it):
  - recordImpression per second, 8 connections x 16 pipelined (the ad is found in Redis, its
    impression already recorded: a read, as most impressions of a busy fleet are);
  - clicks per second, same (each a compare-and-set and a publish: a write and an event);
  - loadAd + releaseAd per second, 1 connection x 16 pipelined (an insert, then a release);
  - the latency of one request, stringForKey one at a time: what a fleet adds to a round trip.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "Tests" / "EndToEnd"))
import run as bench  # noqa: E402
from redis_support import RedisServer  # noqa: E402

UNIT = "/21775744923/example/native"
SETUP = {"jsonrpc": "2.0", "id": 0, "method": "loadAd",
         "params": {"adUnitID": UNIT, "options": {"disableImageLoading": True}}}
IMPRESSION = '{"jsonrpc":"2.0","id":@ID@,"method":"recordImpression","params":{"adId":"@ADID@"}}'
CLICK = ('{"jsonrpc":"2.0","id":@ID@,"method":"performClickOnAsset",'
         '"params":{"adId":"@ADID@","key":"body"}}')
LOAD = ('{"jsonrpc":"2.0","id":@ID@,"method":"loadAd","params":{"adUnitID":"' + UNIT +
        '","options":{"disableImageLoading":true}}}')
SFK = '{"jsonrpc":"2.0","id":@ID@,"method":"stringForKey","params":{"adId":"@ADID@","key":"headline"}}'


def measure(tools, pin, argv: list[str], spec: dict, runs: int) -> dict:
    """The median of `runs` runs of one measurement, each on a fresh server."""
    values, cpus = [], []
    for _ in range(runs):
        server = bench.Server("native-ads", argv, pin.server())
        try:
            r = bench.loadgen(tools, pin, template=spec["template"], n=spec["n"], warmup=spec["warmup"],
                              window=spec["window"], connections=spec["connections"], setup=SETUP,
                              release=spec.get("release", False), server=server, who="native-ads")
        finally:
            server.stop()
        if r.get("exit_status") != 0 or r.get("error_replies"):
            raise RuntimeError(f"{spec['label']}: {r.get('loadgen_stderr') or r}")
        values.append(r["rps"])
        cpus.append(r["cpu_us_per_req"])
    return {"rps": statistics.median(values), "cpu_us_per_req": statistics.median(cpus), "runs": values}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-pin", action="store_true")
    args = ap.parse_args()
    tools = bench.compile_helpers()
    pin = bench.Pinning(not args.no_pin and (os.cpu_count() or 1) >= 2)
    scale = 0.2 if args.quick else 1.0
    runs = 1 if args.quick else 3
    specs = [
        {"key": "impressions", "label": "recordImpression/s, 8 conn x 16 pipelined", "template": IMPRESSION,
         "n": int(100_000 * scale), "warmup": 2000, "window": 16, "connections": 8},
        {"key": "clicks", "label": "clicks/s, 8 conn x 16 pipelined", "template": CLICK,
         "n": int(40_000 * scale), "warmup": 1000, "window": 16, "connections": 8},
        {"key": "loads", "label": "loadAd + releaseAd/s, 1 conn x 16 pipelined", "template": LOAD,
         "n": int(20_000 * scale), "warmup": 500, "window": 16, "connections": 1, "release": True},
        {"key": "latency", "label": "one stringForKey at a time: latency (µs)", "template": SFK,
         "n": int(10_000 * scale), "warmup": 200, "window": 1, "connections": 1},
    ]
    redis = RedisServer(fsync="everysec")
    results: dict[str, dict] = {}
    try:
        fleet = 0
        for spec in specs:
            fleet += 1
            base = [args.bin, "--tcp", "127.0.0.1:0", "--log-level", "warn"]
            local = measure(tools, pin, base, spec, runs)
            shared = measure(tools, pin, base + ["--redis", redis.url, "--fleet", f"bench-{fleet}"], spec, runs)
            results[spec["key"]] = {"label": spec["label"], "in_process": local, "fleet": shared}
            bench.log(f"  {spec['label']}: in process {local['rps']:,.0f}/s, fleet {shared['rps']:,.0f}/s")
    finally:
        redis.close()
    rows = []
    for spec in specs:
        r = results[spec["key"]]
        a, b = r["in_process"], r["fleet"]
        if spec["key"] == "latency":
            la, lb = 1e6 / a["rps"], 1e6 / b["rps"]
            rows.append([r["label"], f"{la:,.1f}", f"{lb:,.1f}", f"+{lb - la:,.1f} µs"])
        else:
            rows.append([r["label"], f"{a['rps']:,.0f}", f"{b['rps']:,.0f}", f"{b['rps'] / a['rps']:.2f}×"])
    print("\nfleet figures (redis-server beside it: AOF, fsync every second, Unix socket)")
    bench.print_table(rows, ("measurement (one native-ads process)", "in process", "through Redis",
                             "fleet ÷ in process"))
    (bench.OUT / "fleet.json").write_text(json.dumps(results, indent=2))
    print(f"details: {bench.OUT / 'fleet.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
