#!/usr/bin/env python3
"""native-ads benchmark: runs every measurement the project is judged by (the table of issue 10)
and prints each figure next to the C ceiling's and the Node implementation's, measured in the
same run, as ratios, with its target and PASS/MISS; also writes bench/out/results.json.

    python bench/run.py --bin /abs/path/native-ads [--quick] [--no-big-store] [--no-pin]
    python bench/run.py --bin NEW --baseline-bin OLD [--quick]   # side by side (make bench-compare)

Measurements (see bench/README.md for what each figure means and how it is measured):
  1-2. stringForKey, 8 TCP connections x 16 pipelined: server CPU per request and requests/s
  3.   stringForKey, 1 TCP connection x 64 pipelined, NDJSON: requests/s
  4.   the same with Content-Length framing
  5.   stringForKey over stdio (the server spawned on pipes), 64 pipelined: requests/s
  6.   loadAd + releaseAd pairs: server CPU per loaded ad, Node serving the same images
  7.   cold start: spawn -> first loadAd reply over stdio
  8.   idle RSS and its private part (smaps_rollup) after start-up and one loadAd
  9.   private memory per live ad (20,000 ads kept alive on one connection)
  10.  a store of 1,000,000 creatives (bench/gen_store.py): start-up, peak RSS, and loadAd's CPU
       per ad against it and against a 10,000-creative store
for three servers: native-ads, the C libuv ceiling that answers every message with a canned reply
(bench/ceiling.c) and a typical Node.js implementation (bench/node_server.js).

With --baseline-bin every native-ads figure is also measured for an older binary in the same
run: throughput runs interleaved run by run (alternating which goes first), cold starts 5 runs
at a time, memory and the store one after the other; the report adds a table with both figures,
new/old, and marks a figure more than 5 % worse (direction-aware).

Python 3.11 standard library only. The C helpers are compiled into bench/out/ when missing or
older than their source. On a machine with 2+ CPUs the server runs pinned to CPU 1 and the load
generator to CPU 0 (--no-pin to let the scheduler choose).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import mmap
import os
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "out"
STORES = OUT / "stores"
UNIT = "/21775744923/example/native"
LOADAD_REPLY_FILE = OUT / "loadad_reply.json"
HEADLINE = "Flood-It! 2"

LOAD_AD = {"jsonrpc": "2.0", "id": 0, "method": "loadAd", "params": {"adUnitID": UNIT}}
PING = {"jsonrpc": "2.0", "id": 0, "method": "ping"}  # the ceiling's set-up: it answers anything
SFK_TEMPLATE = (
    '{"jsonrpc":"2.0","id":@ID@,"method":"stringForKey",'
    '"params":{"adId":"@ADID@","key":"headline"}}'
)
LOAD_AD_TEMPLATE = (
    '{"jsonrpc":"2.0","id":@ID@,"method":"loadAd","params":{"adUnitID":"' + UNIT + '"}}'
)
STORE_LOAD_TEMPLATE = '{"jsonrpc":"2.0","id":@ID@,"method":"loadAd","params":{"adUnitID":"@UNIT@"}}'

TARGETS = {
    "sfk_cpu_vs_ceiling": 1.5,  # native-ads CPU per stringForKey (8 x 16) / the ceiling's, at most
    "rps_vs_ceiling": 0.8,  # native-ads requests/s / the ceiling's, at least (rows 2-5)
    "loadad_cpu_vs_node": 1 / 15,  # native-ads CPU per loaded ad / Node's, at most
    "cold_start_vs_ceiling": 2.0,  # native-ads spawn -> first loadAd reply / the ceiling's, at most
    "idle_rss_mib": 8.0,  # VmRSS after start-up + one loadAd, at most
    "idle_private_mib": 1.0,  # its private part, at most
    "per_ad_private_bytes": 1024,  # private memory per live ad, at most
    "big_store_startup_s": 2.0,  # spawn --store (1M creatives) -> first reply, at most
    "big_store_peak_mib": 600,  # VmHWM then, at most
    "store_cpu_within": 0.10,  # loadAd CPU per ad, 1M store vs 10k store: |ratio - 1| at most
}

SMALL_STORE = (10_000, 100)  # creatives, units: 100 creatives a unit, as the big one
STORE_UNITS_USED = 100  # loads cycle over this many units of either store (same working set)


# ---------------------------------------------------------------- helpers


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def compile_helpers() -> dict[str, Path]:
    OUT.mkdir(exist_ok=True)
    cc = os.environ.get("CC", "gcc")
    built = {}
    for name, libs in (("ceiling", ["-luv"]), ("loadgen", []), ("coldstart", [])):
        src, exe = BENCH / f"{name}.c", OUT / name
        if not exe.exists() or exe.stat().st_mtime < src.stat().st_mtime:
            log(f"compiling {src.name}")
            subprocess.run([cc, "-O2", "-Wall", "-o", str(exe), str(src), *libs], check=True)
        built[name] = exe
    return built


class Pinning:
    def __init__(self, enabled: bool):
        cpus = sorted(os.sched_getaffinity(0))
        self.enabled = enabled and len(cpus) >= 2
        self.server_cpu = cpus[1] if self.enabled else None
        self.client_cpu = cpus[0] if self.enabled else None

    def server(self):
        if not self.enabled:
            return None
        cpu = self.server_cpu
        return lambda: os.sched_setaffinity(0, {cpu})

    def client(self):
        if not self.enabled:
            return None
        cpu = self.client_cpu
        return lambda: os.sched_setaffinity(0, {cpu})


class Server:
    """A server process listening on TCP; `listening on HOST:PORT` is read from its stderr,
    which is then drained in the background (kept for the report)."""

    def __init__(self, name: str, argv: list[str], pin, ready_timeout: float = 60.0):
        self.name = name
        self.argv = argv
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=pin,
        )
        self.pid = self.proc.pid
        self.stderr_lines: list[str] = []
        self.port = None
        # reading stderr blocks; a watchdog kills the server if it never reports its port
        timer = threading.Timer(ready_timeout, self.proc.kill)
        timer.start()
        try:
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                self.stderr_lines.append(line)
                if "listening on " in line:
                    self.port = int(line.rsplit(":", 1)[1])
                    break
        finally:
            timer.cancel()
        if self.port is None:
            self.stop()
            raise RuntimeError(f"{name} did not report its port: {self.stderr_lines[-5:]}")
        self._drain = threading.Thread(target=self._drain_stderr, daemon=True)
        self._drain.start()

    def _drain_stderr(self):
        for raw in self.proc.stderr:
            self.stderr_lines.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def alive(self) -> bool:
        return self.proc.poll() is None

    def status(self) -> dict[str, int]:
        return read_mem(self.pid)

    def stop(self) -> int | None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def machine_busy(seconds: float = 1.0) -> float:
    """Fraction of all CPUs busy (not idle/iowait) over `seconds`: other work on the machine
    makes every figure here noisy."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        idle = v[3] + (v[4] if len(v) > 4 else 0)
        return sum(v[:8]), idle
    t1, i1 = sample()
    time.sleep(seconds)
    t2, i2 = sample()
    return 1 - (i2 - i1) / max(1, t2 - t1)


def read_mem(pid: int) -> dict[str, int]:
    """kB: VmRSS, VmHWM, RssAnon, RssFile, RssShmem from /proc/PID/status; Pss, Private_Clean,
    Private_Dirty and Private (their sum) from /proc/PID/smaps_rollup; Threads (a count)."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem", "Threads"):
                    out[key] = int(value.split()[0])
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("Pss", "Private_Clean", "Private_Dirty"):
                    out[key] = int(value.split()[0])
    except (OSError, ValueError, IndexError):
        pass
    if "Private_Clean" in out and "Private_Dirty" in out:
        out["Private"] = out["Private_Clean"] + out["Private_Dirty"]
    return out


# ---------------------------------------------------------------- sanity


class Channel:
    """One JSON-RPC connection over a pair of byte streams, in either framing."""

    def __init__(self, rfile, wfile, framing: str):
        self.r, self.w, self.framing = rfile, wfile, framing

    def send(self, obj: dict) -> None:
        body = json.dumps(obj, separators=(",", ":")).encode()
        if self.framing == "cl":
            self.w.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        else:
            self.w.write(body + b"\n")
        self.w.flush()

    def recv(self) -> str:
        """The body of the next reply; raises ValueError when it is not framed as asked."""
        if self.framing != "cl":
            line = self.r.readline()
            if not line:
                raise ValueError("no reply (connection closed)")
            if not line.endswith(b"\n"):
                raise ValueError("reply line without its newline")
            return line[:-1].decode("utf-8", "replace").rstrip("\r")
        length = None
        while True:
            line = self.r.readline()
            if not line:
                raise ValueError("no reply (connection closed)")
            if not line.endswith(b"\r\n"):
                raise ValueError(f"not a Content-Length header line: {line[:80]!r}")
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        if length is None:
            raise ValueError("a header block without Content-Length")
        body = self.r.read(length)
        if len(body) != length:
            raise ValueError(f"a body of {len(body)} bytes where {length} were announced")
        return body.decode("utf-8", "replace")


def check_replies(name: str, ch: Channel, where: str, capture: bool = False) -> tuple[list[str], int]:
    """One loadAd then one stringForKey on its ad: are the replies framed as asked, valid JSON
    and what one expects? Catches a server that is fast because it is wrong. The ceiling answers
    every message with its canned reply: a stringForKey reply that says the headline."""
    problems = []
    ch.send(LOAD_AD)
    load = ch.recv()
    if capture and load:
        # the ceiling's and Node's copy of native-ads' loadAd reply: the real thing, byte for byte
        LOADAD_REPLY_FILE.write_text(load + "\n")
    if name == "ceiling":
        try:
            if json.loads(load).get("result") != HEADLINE:
                problems.append(f"{where}: unexpected canned reply {load[:200]}")
        except ValueError:
            problems.append(f"{where}: the canned reply is not valid JSON: {load[:200]}")
        return problems, len(load)
    try:
        ad = json.loads(load)["result"]["ads"][0]
        ad_id = ad["adId"]
        if not (ad.get("icon") or {}).get("data"):
            problems.append(f"{where}: loadAd: the icon carries no image data")
    except (ValueError, KeyError, IndexError, TypeError) as e:
        at = f" (at char {e.pos}: ...{load[max(0, e.pos - 40):e.pos + 20]}...)" \
            if isinstance(e, json.JSONDecodeError) else ""
        problems.append(f"{where}: loadAd reply ({len(load)} bytes) is not valid JSON-RPC: "
                        f"{type(e).__name__}: {e}{at}")
        ad_id = load.split('"adId":"', 1)[1].split('"', 1)[0] if '"adId":"' in load else "none"
    ch.send({"jsonrpc": "2.0", "id": 7, "method": "stringForKey",
             "params": {"adId": ad_id, "key": "headline"}})
    sfk = ch.recv()
    try:
        if json.loads(sfk) != {"jsonrpc": "2.0", "id": 7, "result": HEADLINE}:
            problems.append(f"{where}: stringForKey: unexpected reply {sfk[:200]}")
    except ValueError:
        problems.append(f"{where}: stringForKey reply is not valid JSON: {sfk[:200]}")
    return problems, len(load)


def sanity_tcp(server: Server) -> dict:
    """check_replies over fresh TCP connections (ads die with the connection that loaded them),
    once in each framing."""
    problems, sizes = [], {}
    for framing in ("ndjson", "cl"):
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
                f = s.makefile("rwb")
                p, size = check_replies(server.name, Channel(f, f, framing), f"TCP {framing}",
                                        capture=server.name == "native-ads" and framing == "ndjson")
                problems += p
                sizes[framing] = size
        except (OSError, ValueError) as e:
            problems.append(f"TCP {framing}: {type(e).__name__}: {e}")
    return {"ok": not problems, "problems": problems, "loadAd_reply_bytes": sizes}


def sanity_stdio(name: str, argv: list[str]) -> dict:
    """check_replies with the server spawned on pipes (NDJSON), then stdin closed: it should
    exit 0."""
    problems = []
    try:
        p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    except OSError as e:
        return {"ok": False, "problems": [f"stdio: {e}"]}
    watchdog = threading.Timer(30, p.kill)
    watchdog.start()
    try:
        problems += check_replies(name, Channel(p.stdout, p.stdin, "ndjson"), "stdio")[0]
        p.stdin.close()
        rc = p.wait(10)
        if rc != 0:
            problems.append(f"stdio: exit status {rc} at stdin EOF")
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        problems.append(f"stdio: {type(e).__name__}: {e}")
    finally:
        watchdog.cancel()
        if p.poll() is None:
            p.kill()
            p.wait()
    return {"ok": not problems, "problems": problems}


# ---------------------------------------------------------------- load generator


def loadgen(tools, pin: Pinning, *, template: str, n: int, warmup: int, window: int,
            connections: int = 1, framing: str = "ndjson", setup: dict | None = None,
            release: bool = False, mem: bool = False, units_file: Path | None = None,
            server: Server | None = None, spawn: list[str] | None = None,
            startup_timeout: float | None = None, timeout: float = 10, who: str = "") -> dict:
    argv = [str(tools["loadgen"]), "-n", str(n), "--warmup", str(warmup), "-w", str(window),
            "--framing", framing, "--template", template, "--timeout", str(timeout)]
    if server is not None:
        argv += ["--port", str(server.port), "--pid", str(server.pid), "-c", str(connections)]
    else:
        argv += ["--spawn"]
        if pin.enabled:
            argv += ["--server-cpu", str(pin.server_cpu)]
        if startup_timeout:
            argv += ["--startup-timeout", str(startup_timeout)]
    if setup is not None:
        argv += ["--setup", json.dumps(setup, separators=(",", ":"))]
    if release:
        argv.append("--release")
    if mem:
        argv.append("--mem")
    if units_file is not None:
        argv += ["--units-file", str(units_file)]
    if spawn is not None:
        argv += ["--", *spawn]
    limit = 600 + (startup_timeout or 0)
    try:
        p = subprocess.run(argv, capture_output=True, text=True, preexec_fn=pin.client(),
                           timeout=limit)
    except subprocess.TimeoutExpired:
        log(f"  loadgen against {who} timed out")
        return {"exit_status": -1, "loadgen_stderr": f"timed out after {limit} s"}
    try:
        result = json.loads(p.stdout)
    except ValueError:
        result = {"stalled": None}
    result["exit_status"] = p.returncode
    if result.get("others_cpu_s", -1) >= 0 and result.get("elapsed_s"):
        # in CPUs' worth (clock-tick resolution per process)
        result["other_load_cpus"] = round(max(0.0, result["others_cpu_s"]) / result["elapsed_s"], 3)
    # CPU per request: schedstat (ns precision) when the kernel has it, else utime + stime
    cpu = result.get("server_cpu_us_per_req_schedstat", -1)
    if cpu is None or cpu < 0:
        cpu = result.get("server_cpu_us_per_req", -1)
    result["cpu_us_per_req"] = cpu
    if p.returncode != 0:
        result["loadgen_stderr"] = p.stderr.strip()[-2000:]
        log(f"  loadgen against {who} failed ({p.returncode}): {p.stderr.strip()[-500:]}")
    elif p.stderr.strip():
        result["stderr_tail"] = p.stderr.strip().splitlines()[-5:]
    return result


def check_run(r: dict, spec: dict) -> list[str]:
    """What a run's own output says is wrong: error replies, a first measured stringForKey reply
    that is not the headline, loadAd replies that carried no ad."""
    problems = []
    if r.get("exit_status"):
        problems.append(f"load generator failed: {r.get('loadgen_stderr', '')[-300:]}")
        return problems
    if r.get("error_replies"):
        problems.append(f"{r['error_replies']} JSON-RPC error replies")
    if spec.get("template") == SFK_TEMPLATE:
        try:
            if json.loads(r.get("first_reply", "")).get("result") != HEADLINE:
                raise ValueError
        except (ValueError, AttributeError):
            problems.append(f"first measured reply is not the headline: {r.get('first_reply', '')[:120]}")
    if spec.get("release"):
        ads, loads = r.get("requests", 0), r.get("load_replies", 0)
        if abs(ads - loads) > spec.get("window", 64):
            problems.append(f"{loads} loadAd replies carried an ad, for {ads:.0f} loadAd requests")
    return problems


def log_run(who: str, label: str, i: int, r: dict) -> None:
    log(f"  {who} {label} run {i + 1}: {r.get('rps', 0):,.0f} req/s, "
        f"{r.get('cpu_us_per_req', -1):.3f} µs CPU/req, "
        f"server busy {100 * r.get('server_busy_fraction', 0):.0f}%, "
        f"{r.get('reply_bytes_avg', 0):,.0f} B/reply, "
        f"error replies {r.get('error_replies')}, "
        f"other load {r.get('other_load_cpus', -1):.2f} CPU")


def summarize(runs: list[dict]) -> dict:
    """The run with the median throughput, plus the median CPU/request over all runs (every run
    is kept under "runs")."""
    ok = [r for r in runs if r.get("exit_status") == 0]
    if not ok:
        out = dict(runs[-1]) if runs else {}
        out["runs"] = runs
        return out
    ok.sort(key=lambda r: r["rps"])
    out = dict(ok[len(ok) // 2])
    for key in ("cpu_us_per_req", "server_cpu_us_per_req", "server_cpu_us_per_req_schedstat"):
        out[key + "_median"] = statistics.median(r[key] for r in ok)
    out["rps_all"] = [round(r["rps"]) for r in runs if "rps" in r]
    out["cpu_all"] = [round(r["cpu_us_per_req"], 3) for r in runs if "cpu_us_per_req" in r]
    out["runs"] = runs
    return out


# ---------------------------------------------------------------- throughput


def times(n: int, paired: bool) -> int:
    """Paired (native-ads and a baseline side by side): an even number of repeats, at least 2,
    so that each of the two goes first as often as the other."""
    return max(2, n + n % 2) if paired else n


def sfk_n(cfg, name: str) -> int:
    return {"node": cfg.sfk_n_node, "ceiling": cfg.sfk_n_ceiling}.get(name, cfg.sfk_n)


def tcp_plan(name: str, cfg, paired: bool) -> list[dict]:
    """The TCP measurements of one server, in order."""
    # the bench connection loads one ad first (ads live as long as the connection that
    # loaded them; any connection may use them); the ceiling answers anything
    setup = LOAD_AD if name != "ceiling" else PING
    node = name == "node"
    reps = times(cfg.repeats_node if node else cfg.repeats, paired)
    common = dict(template=SFK_TEMPLATE, n=sfk_n(cfg, name), warmup=cfg.sfk_warmup,
                  repeats=reps, setup=setup)
    plan = [
        dict(key="sfk_multi", label=f"stringForKey {cfg.connections}x{cfg.conn_window}",
             connections=cfg.connections, window=cfg.conn_window, framing="ndjson", **common),
        dict(key="sfk_one", label=f"stringForKey 1x{cfg.window} NDJSON", connections=1,
             window=cfg.window, framing="ndjson", **common),
        dict(key="sfk_one_cl", label=f"stringForKey 1x{cfg.window} Content-Length", connections=1,
             window=cfg.window, framing="cl", **common),
    ]
    if name != "ceiling":
        plan.append(dict(key="loadad_release", label=f"loadAd+releaseAd 1x{cfg.window}",
                         template=LOAD_AD_TEMPLATE, connections=1, window=cfg.window,
                         framing="ndjson", n=cfg.loadad_n_node if node else cfg.loadad_n,
                         warmup=cfg.loadad_warmup, repeats=reps, setup=None, release=True))
    return plan


def bench_tcp_group(tools, pin, group: dict[str, list[str]], cfg) -> dict:
    """The TCP measurements of the servers of `group` (native-ads, its baseline, the ceiling,
    Node), which run at the same time and are measured in turn, run by run, alternating the
    order, so that what the machine does meanwhile hits all alike."""
    entries: dict[str, dict] = {}
    servers: dict[str, Server] = {}
    paired = len(group) > 1
    try:
        for name, argv in group.items():
            log(f"[tcp] {name}: {' '.join(argv)}")
            entries[name] = {"argv": argv}
            try:
                servers[name] = Server(name, argv, pin.server())
            except (RuntimeError, OSError) as e:
                log(f"  ! {name} did not start: {e}")
                entries[name]["error"] = str(e)
                continue
            entries[name]["sanity"] = sanity_tcp(servers[name])
            for p in entries[name]["sanity"]["problems"]:
                log(f"  ! {name}: {p}")
        live = list(servers)
        plans = {name: tcp_plan(name, cfg, paired) for name in live}
        for step in range(max((len(p) for p in plans.values()), default=0)):
            # the servers with a measurement at this step (the ceiling has no loadAd)
            here = [name for name in live if step < len(plans[name])]
            runs: dict[str, list[dict]] = {name: [] for name in here}
            repeats = max(plans[name][step]["repeats"] for name in here)
            for i in range(repeats):
                for name in (here if i % 2 == 0 else here[::-1]):
                    spec = plans[name][step]
                    server = servers[name]
                    if not server.alive():
                        continue
                    r = loadgen(tools, pin, template=spec["template"], n=spec["n"],
                                warmup=spec["warmup"], window=spec["window"],
                                connections=spec["connections"], framing=spec["framing"],
                                setup=spec["setup"], release=spec.get("release", False),
                                server=server, who=name)
                    r["problems"] = check_run(r, spec)
                    runs[name].append(r)
                    log_run(name, spec["label"], i, r)
            for name in here:
                if runs[name]:
                    entries[name][plans[name][step]["key"]] = summarize(runs[name])
                if not servers[name].alive():
                    live.remove(name)
            if not live:
                break
        for name, server in servers.items():
            if server.alive():
                entries[name]["rss_after_kib"] = server.status().get("VmRSS")
        if "ceiling" in servers and LOADAD_REPLY_FILE.exists():
            # the payload floor of a loadAd: the same C server answering every line with a real
            # loadAd reply of native-ads (no release: the canned reply names one ad)
            la = Server("ceiling-loadAd", group["ceiling"] + [str(LOADAD_REPLY_FILE)], pin.server())
            try:
                runs_la = []
                spec = dict(template=LOAD_AD_TEMPLATE, window=cfg.window)
                for i in range(cfg.repeats):
                    r = loadgen(tools, pin, template=LOAD_AD_TEMPLATE, n=cfg.loadad_n,
                                warmup=cfg.loadad_warmup, window=cfg.window, server=la,
                                who="ceiling-loadAd")
                    r["problems"] = check_run(r, spec)
                    runs_la.append(r)
                    log_run("ceiling", f"canned loadAd reply 1x{cfg.window}", i, r)
                entries["ceiling"]["loadad_canned"] = summarize(runs_la)
            finally:
                la.stop()
    finally:
        for name, server in servers.items():
            entry = entries[name]
            entry["alive_at_end"] = server.alive()
            entry["exit_status"] = server.stop()
            entry["stderr_tail"] = server.stderr_lines[-10:]
            if not entry["alive_at_end"]:
                log(f"  ! {name} died during the run (exit {entry['exit_status']})")
    return entries


def bench_stdio(tools, pin, cmds: dict[str, list[str]], cfg, order: list[str]) -> dict:
    """stringForKey over stdio: each run spawns the server on pipes (loadgen --spawn), sets up
    one ad, and keeps `window` requests in flight. The servers (in `order`) alternate run by
    run."""
    out: dict[str, dict] = {}
    paired = len(order) > 1
    runs: dict[str, list[dict]] = {name: [] for name in order}
    for name in order:
        out[name] = {"sanity": sanity_stdio(name, cmds[name])}
        for p in out[name]["sanity"]["problems"]:
            log(f"  ! {name}: {p}")
    repeats = max(times(cfg.repeats_node if n == "node" else cfg.repeats, paired) for n in order)
    for i in range(repeats):
        for name in (order if i % 2 == 0 else order[::-1]):
            spec = dict(template=SFK_TEMPLATE, window=cfg.window)
            r = loadgen(tools, pin, template=SFK_TEMPLATE, n=sfk_n(cfg, name),
                        warmup=cfg.sfk_warmup, window=cfg.window,
                        setup=PING if name == "ceiling" else LOAD_AD, spawn=cmds[name],
                        who=name)
            r["problems"] = check_run(r, spec)
            if r.get("server_exit_status") not in (0, None):
                r["problems"].append(f"exit status {r['server_exit_status']} at stdin EOF")
            runs[name].append(r)
            log_run(name, f"stdio 1x{cfg.window}", i, r)
    for name in order:
        out[name]["sfk_stdio"] = summarize(runs[name])
    return out


# ---------------------------------------------------------------- cold start

COLD_START_BLOCK = 5  # side by side: runs per turn of each binary


def coldstart(tools, req: dict, cmd: list[str], runs: int) -> dict:
    argv = [str(tools["coldstart"]), "--runs", str(runs), "--request",
            json.dumps(req, separators=(",", ":")), "--", *cmd]
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after 300 s"}
    try:
        return json.loads(p.stdout)
    except ValueError:
        return {"error": p.stderr.strip(), "exit_status": p.returncode}


def merge_cold_starts(parts: list[dict]) -> dict:
    """One result from several coldstart runs of the same command: the statistics coldstart.c
    computes, over all their samples."""
    failed = [p for p in parts if "error" in p]
    if failed:
        return failed[0]
    samples = [s for p in parts for s in p["samples_ms"]]
    ordered = sorted(samples)
    n = len(ordered)
    out = dict(parts[-1])
    out.update(runs=n, median_ms=statistics.median(ordered), min_ms=ordered[0],
               p90_ms=ordered[min((n * 9) // 10, n - 1)], max_ms=ordered[-1], samples_ms=samples)
    return out


def log_cold(who: str, key: str, r: dict) -> None:
    if "error" in r:
        log(f"[cold start] {who}{key}: failed: {r['error']}")
    else:
        log(f"[cold start] {who}{key}: median {r['median_ms']:.2f} ms "
            f"(min {r['min_ms']:.2f}, p90 {r['p90_ms']:.2f}; reply {r['reply_bytes']} B)")


def bench_cold_start(tools, bins: dict[str, str], others: dict[str, list[str]], runs: int,
                     node_runs: int) -> dict[str, dict]:
    """Spawn → first reply line, `runs` times per request (bench/coldstart.c): for each binary
    of `bins` (name → path) a default loadAd, one with disableImageLoading and a trivial request;
    for the ceiling and Node (`others`: name → stdio command) the default loadAd. Not pinned.
    `cat` echoing one line is the floor (fork + exec + pipes on this machine). With several
    binaries their runs are interleaved, COLD_START_BLOCK at a time, alternating which goes
    first; so are the ceiling's loadAd runs with the binaries' loadAd runs."""
    names = list(bins)
    out: dict[str, dict] = {name: {} for name in [*names, *others]}

    def cases(bin_path: str) -> dict[str, tuple[dict, list[str]]]:
        return {
            "loadAd": (LOAD_AD, [bin_path, "--stdio"]),
            "loadAd_noImages": ({"jsonrpc": "2.0", "id": 1, "method": "loadAd",
                                 "params": {"adUnitID": UNIT,
                                            "options": {"disableImageLoading": True}}},
                                [bin_path, "--stdio"]),
            "trivial": ({"jsonrpc": "2.0", "id": 1, "method": "stringForKey",
                         "params": {"adId": "none", "key": "headline"}}, [bin_path, "--stdio"]),
        }

    per_bin = {name: cases(path) for name, path in bins.items()}
    # The ceiling's loadAd takes its turns with the binaries' (its ratio is a target, and the
    # machine's speed drifts between runs made minutes apart).
    if "ceiling" in others:
        per_bin["ceiling"] = {"loadAd": (LOAD_AD, others["ceiling"])}
    for key in per_bin[names[0]]:
        here = [name for name in per_bin if key in per_bin[name]]
        if len(here) == 1:
            req, cmd = per_bin[here[0]][key]
            results = {here[0]: coldstart(tools, req, cmd, runs)}
        else:
            parts: dict[str, list[dict]] = {name: [] for name in here}
            done = 0
            turn = 0
            while done < runs:
                block = min(COLD_START_BLOCK, runs - done)
                for name in (here if turn % 2 == 0 else here[::-1]):
                    req, cmd = per_bin[name][key]
                    parts[name].append(coldstart(tools, req, cmd, block))
                done += block
                turn += 1
            results = {name: merge_cold_starts(p) for name, p in parts.items()}
        for name, r in results.items():
            out[name][key] = r
            log_cold("" if len(here) == 1 else f"{name} ", key, r)
    for name, cmd in others.items():
        if name == "ceiling":
            continue  # measured in turn with the binaries above
        r = coldstart(tools, LOAD_AD, cmd, node_runs if name == "node" else runs)
        out[name]["loadAd"] = r
        log_cold(f"{name} ", "loadAd", r)
    r = coldstart(tools, {"jsonrpc": "2.0", "id": 1}, ["cat"], runs)
    out["floor_cat"] = r
    log_cold("", "floor_cat", r)
    return out


# ---------------------------------------------------------------- memory


def start_stdio(argv: list[str], pin) -> tuple[subprocess.Popen, Channel]:
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, preexec_fn=pin)
    return p, Channel(p.stdout, p.stdin, "ndjson")


def stop_stdio(p: subprocess.Popen) -> int | None:
    try:
        p.stdin.close()
    except OSError:
        pass
    try:
        return p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        return None


def bench_idle_memory(pin, cmds: dict[str, list[str]], who: str = "") -> dict[str, dict]:
    """For each server (name → stdio command): instance A is started, answers one loadAd, and
    its memory is read ("solo"); then a second instance B of the same command is brought to the
    same state and A's memory is read again ("beside_sibling"). Pages of the binary and of the
    libraries that both map are then shared, not private: A's private memory beside B is what
    each further instance costs. `who` prefixes the log lines (the baseline's)."""
    out: dict[str, dict] = {}
    for name, argv in cmds.items():
        entry: dict = {}
        out[name] = entry
        procs = []
        watchdog = None
        try:
            a, ca = start_stdio(argv, pin.server())
            procs.append(a)
            watchdog = threading.Timer(30, lambda: [q.kill() for q in procs])
            watchdog.start()
            ca.send(LOAD_AD)
            entry["reply_bytes"] = len(ca.recv())
            time.sleep(0.2)
            entry["solo"] = read_mem(a.pid)
            b, cb = start_stdio(argv, pin.server())
            procs.append(b)
            cb.send(LOAD_AD)
            cb.recv()
            time.sleep(0.2)
            entry["beside_sibling"] = read_mem(a.pid)
            entry["sibling"] = read_mem(b.pid)
        except (OSError, ValueError) as e:
            entry["error"] = f"{type(e).__name__}: {e}"
        finally:
            for q in procs:
                entry.setdefault("exit_status_on_eof", []).append(stop_stdio(q))
            if watchdog:
                watchdog.cancel()
        s, b = entry.get("solo"), entry.get("beside_sibling")
        if s and b:
            log(f"[memory] {who}{name}: VmRSS {s['VmRSS'] / 1024:.2f} MiB after one loadAd "
                f"(anon {s.get('RssAnon', 0) / 1024:.2f}, file {s.get('RssFile', 0) / 1024:.2f}); "
                f"private {s.get('Private', 0) / 1024:.2f} MiB alone, "
                f"{b.get('Private', 0) / 1024:.2f} beside a second instance")
        else:
            log(f"[memory] {who}{name}: failed: {entry.get('error')}")
    return out


def bench_tcp_memory(pin, cmds: dict[str, list[str]], who: str = "") -> dict[str, dict]:
    """VmRSS of TCP servers after start-up and after one loadAd (connection still open)."""
    out: dict[str, dict] = {}
    req = (json.dumps(LOAD_AD) + "\n").encode()
    for name, argv in cmds.items():
        entry: dict = {}
        out[name] = entry
        try:
            s = Server(name, argv, pin.server())
        except (RuntimeError, OSError) as e:
            entry["error"] = str(e)
            continue
        try:
            time.sleep(0.2)
            entry["after_start"] = s.status()
            with socket.create_connection(("127.0.0.1", s.port), timeout=10) as c:
                f = c.makefile("rwb")
                f.write(req)
                f.flush()
                f.readline()
                time.sleep(0.2)
                entry["after_one_loadAd"] = s.status()
        except OSError as e:
            entry["error"] = str(e)
        finally:
            s.stop()
        st = entry.get("after_one_loadAd")
        if st:
            log(f"[memory] {who}{name} --tcp: VmRSS {st['VmRSS'] / 1024:.2f} MiB after one loadAd")
    return out


def bench_per_ad_memory(tools, pin, cmds: dict[str, list[str]], cfg, who: str = "") -> dict:
    """Private memory per live ad: the server spawned on pipes loads warm-up + N ads on that one
    connection and keeps them all (no release); loadgen --mem reads smaps_rollup when the
    measured N start and when they are all in, the connection still open."""
    out: dict[str, dict] = {}
    for name, argv in cmds.items():
        n = cfg.per_ad_n_node if name == "node" else cfg.per_ad_n
        r = loadgen(tools, pin, template=LOAD_AD_TEMPLATE, n=n, warmup=cfg.per_ad_warmup,
                    window=cfg.window, mem=True, spawn=argv, who=name)
        r["problems"] = check_run(r, dict(template=LOAD_AD_TEMPLATE))
        a, b = r.get("mem_start") or {}, r.get("mem_end") or {}
        if r.get("exit_status") == 0 and a.get("Private", -1) >= 0 and b.get("Private", -1) >= 0:
            r["per_ad_private_bytes"] = (b["Private"] - a["Private"]) * 1024 / r["requests"]
            r["per_ad_anon_bytes"] = (b.get("RssAnon", 0) - a.get("RssAnon", 0)) * 1024 / r["requests"]
            log(f"[memory] {who}{name}: {r['per_ad_private_bytes']:.0f} B private per live ad "
                f"({r['requests']:,.0f} ads; private {a['Private'] / 1024:.1f} → "
                f"{b['Private'] / 1024:.1f} MiB)")
        else:
            log(f"[memory] {who}{name}: per-ad measurement failed: {r.get('loadgen_stderr')}")
        out[name] = r
    return out


# ---------------------------------------------------------------- the store of 1M creatives


def store_units(path: Path) -> list[str]:
    """The ad unit ids of a store file, in file order, read without parsing the creatives: the
    array after the file's last "adUnits" key is decoded on its own."""
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        at = mm.rfind(b'"adUnits"')
        if at < 0:
            raise ValueError(f"{path.name}: no adUnits")
        start = mm.find(b"[", at)
        size = 1 << 22
        dec = json.JSONDecoder()
        while True:
            chunk = mm[start:start + size].decode("utf-8")
            try:
                units, _ = dec.raw_decode(chunk)
                break
            except json.JSONDecodeError:
                if start + size >= len(mm):
                    raise
                size *= 4
    return [u["id"] for u in units]


def prepare_store(creatives: int, units: int, timeout: float) -> dict:
    """The store file of that size from bench/gen_store.py (deterministic), cached in
    out/stores/ under a name that carries the generator's hash, and a units file: the ids of
    STORE_UNITS_USED units spread over the store, one a line (JSON-escaped), for loadgen."""
    gen = BENCH / "gen_store.py"
    if not gen.exists():
        return {"error": "bench/gen_store.py is missing"}
    tag = hashlib.sha256(gen.read_bytes()).hexdigest()[:10]
    STORES.mkdir(parents=True, exist_ok=True)
    path = STORES / f"store-{creatives}-{units}-{tag}.json"
    for old in STORES.glob(f"store-*-*-*.*"):
        if tag not in old.name:  # made by another version of the generator
            old.unlink()
    out = {"file": str(path), "creatives": creatives, "units": units}
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        log(f"[store] generating {creatives:,} creatives in {units:,} units: {path.name}")
        t0 = time.monotonic()
        try:
            p = subprocess.run([sys.executable, str(gen), "--creatives", str(creatives), "--units",
                                str(units), "--out", str(tmp)], capture_output=True, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            tmp.unlink(missing_ok=True)
            return {**out, "error": f"gen_store.py took more than {timeout:.0f} s"}
        if p.returncode != 0 or not tmp.exists():
            tmp.unlink(missing_ok=True)
            return {**out, "error": f"gen_store.py failed ({p.returncode}): {p.stderr.strip()[-300:]}"}
        tmp.rename(path)
        out["generated_s"] = round(time.monotonic() - t0, 1)
    out["bytes"] = path.stat().st_size
    units_path = path.with_suffix(".units")
    if not units_path.exists():
        ids = store_units(path)
        step = max(1, len(ids) // STORE_UNITS_USED)
        picked = ids[::step][:STORE_UNITS_USED]
        units_path.write_text("".join(json.dumps(u)[1:-1] + "\n" for u in picked))
    out["units_file"] = str(units_path)
    out["first_unit"] = json.loads('"' + units_path.read_text().split("\n", 1)[0] + '"')
    return out


class StoreServer:
    """native-ads serving a store on stdio and TCP at once. A loadAd on the store's first unit
    is written into its stdin right after the spawn: the time to its reply on stdout is the
    start-up (reading, validating and indexing the store included); VmHWM read right then is the
    peak of it. TCP then serves the CPU runs (several servers alive at once, measured in turn)."""

    def __init__(self, name: str, bin_path: str, store: dict, pin, timeout: float):
        self.name, self.port, self.stderr_lines = name, None, []
        setup = {"jsonrpc": "2.0", "id": 0, "method": "loadAd",
                 "params": {"adUnitID": store["first_unit"]}}
        self.result: dict = {"store_file": store["file"]}
        # The file is read once first, into the page cache: the figure is the loader's, not the
        # disk's (right after a `make test`, which fills memory, the 1M store's file came from
        # disk and its start-up took 9.4 s, against 1.8 s cached).
        with open(store["file"], "rb") as f:
            while f.read(1 << 20):
                pass
        t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [bin_path, "--stdio", "--tcp", "127.0.0.1:0", "--store", store["file"],
             "--log-level", "warn"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=pin)
        self.pid = self.proc.pid
        self.proc.stdin.write(json.dumps(setup).encode() + b"\n")
        self.proc.stdin.flush()
        got_port, got_reply = threading.Event(), threading.Event()
        reply: list[bytes] = []

        def read_stderr():
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                self.stderr_lines.append(line)
                if self.port is None and "listening on " in line:
                    self.port = int(line.rsplit(":", 1)[1])
                    got_port.set()

        def read_reply():
            reply.append(self.proc.stdout.readline())
            self.result["startup_s"] = time.monotonic() - t0
            got_reply.set()

        threading.Thread(target=read_stderr, daemon=True).start()
        threading.Thread(target=read_reply, daemon=True).start()
        ok = got_reply.wait(timeout)
        self.result["mem_after_first_reply"] = read_mem(self.pid)
        self.result["peak_kib"] = self.result["mem_after_first_reply"].get("VmHWM")
        self.result["problems"] = []
        if not ok:
            self.result["startup_s"] = None
            self.result["timed_out"] = True
            self.result["problems"].append(f"no reply within {timeout:.0f} s of the spawn: killed")
            self.stop()
            return
        line = reply[0].decode("utf-8", "replace")
        try:
            json.loads(line)["result"]["ads"][0]["adId"]
        except (ValueError, KeyError, IndexError, TypeError):
            self.result["problems"].append(f"the first loadAd on the store gave no ad: {line[:200]}")
        got_port.wait(10)
        if self.port is None:
            self.result["problems"].append("no TCP port reported")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.result["exit_status"] = self.proc.returncode
        self.result["stderr_tail"] = self.stderr_lines[-5:]


def bench_store(tools, pin, bins: dict[str, str], cfg) -> dict:
    """The 10k-creative store and the big one, for each binary: start-up and peak memory (each
    server started alone, one after the other), then loadAd + releaseAd CPU per ad over TCP,
    every live server measured in turn, run by run, rotating which goes first, so that what the
    machine does meanwhile hits all alike; the median of the runs is compared."""
    out: dict = {"stores": {}}
    small = prepare_store(*SMALL_STORE, cfg.gen_timeout)
    big = prepare_store(cfg.big_creatives, cfg.big_units, cfg.gen_timeout)
    out["stores"] = {"small": small, "big": big}
    for s in (small, big):
        if "error" in s:
            log(f"[store] {s['error']}")
    if "error" in small or "error" in big:
        out["error"] = small.get("error") or big.get("error")
        return out
    servers: dict[tuple[str, str], StoreServer] = {}
    try:
        for name in bins:
            out[name] = {}
            for label, store in (("small", small), ("big", big)):
                s = StoreServer(name, bins[name], store, pin.server(), cfg.store_timeout)
                out[name][label] = s.result
                r = s.result
                if r.get("startup_s") is None:
                    log(f"[store] {name} {store['creatives']:,} creatives: no reply within "
                        f"{cfg.store_timeout:.0f} s (VmHWM {(r['peak_kib'] or 0) / 1024:.0f} MiB)")
                    continue
                log(f"[store] {name} {store['creatives']:,} creatives: first reply after "
                    f"{r['startup_s']:.3f} s, VmHWM {(r['peak_kib'] or 0) / 1024:.1f} MiB")
                if s.port is not None:
                    servers[(name, label)] = s
                else:
                    s.stop()
        keys = list(servers)
        runs: dict[tuple[str, str], list[dict]] = {k: [] for k in keys}
        reps = cfg.store_repeats if keys else 0
        for i in range(reps):
            order = keys[i % len(keys):] + keys[:i % len(keys)]
            for k in order:
                s = servers[k]
                if not s.alive():
                    continue
                store = small if k[1] == "small" else big
                spec = dict(template=STORE_LOAD_TEMPLATE, release=True, window=cfg.window)
                r = loadgen(tools, pin, template=STORE_LOAD_TEMPLATE, n=cfg.store_n,
                            warmup=cfg.store_warmup, window=cfg.window, release=True,
                            units_file=Path(store["units_file"]), server=s, timeout=30,
                            who=f"{k[0]} ({k[1]} store)")
                r["problems"] = check_run(r, spec)
                runs[k].append(r)
                log_run(k[0], f"loadAd+releaseAd, {store['creatives']:,}-creative store", i, r)
        for name in bins:
            # Each round measures both stores of a binary back to back: the ratio of the two
            # runs of a round carries none of the drift between rounds (the machine's speed
            # moves by a third over minutes), and the median of the rounds' ratios is the figure.
            pairs = zip(runs.get((name, "small"), []), runs.get((name, "big"), []))
            rounds = [b["cpu_us_per_req"] / a["cpu_us_per_req"] for a, b in pairs
                      if a.get("cpu_us_per_req") and b.get("cpu_us_per_req")]
            if rounds:
                out.setdefault("ratios", {})[name] = {
                    "rounds": [round(r, 4) for r in rounds], "median": statistics.median(rounds)}
        for k in keys:
            res = out[k[0]][k[1]]
            res.update({key: v for key, v in summarize(runs[k]).items()
                        if key in ("cpu_us_per_req_median", "rps", "cpu_all", "rps_all", "runs")})
            res["cpu_us_per_req"] = res.get("cpu_us_per_req_median")
            for r in runs[k]:
                for p in r.get("problems", []):
                    if p not in res["problems"]:
                        res["problems"].append(p)
            if not servers[k].alive():
                res["problems"].append(f"the server died (exit {servers[k].proc.returncode})")
    finally:
        for s in servers.values():
            s.stop()
    return out


# ---------------------------------------------------------------- figures and report


def figures(res: dict, name: str) -> dict[str, float | None]:
    """Every figure of one server (native-ads, baseline, ceiling or node), by key; None when not
    measured or failed. The main table and the side-by-side table read these."""
    tp = res.get("throughput", {}).get(name, {})
    f: dict[str, float | None] = {}

    def num(v):
        return v if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 else None

    def g(meas, key, scale=1.0):
        v = num(tp.get(meas, {}).get(key))
        return None if v is None else v * scale

    for meas in ("sfk_multi", "sfk_one", "sfk_one_cl", "sfk_stdio"):
        f[f"{meas}_cpu"] = g(meas, "cpu_us_per_req_median")
        f[f"{meas}_rps"] = g(meas, "rps")
        f[f"{meas}_busy"] = g(meas, "server_busy_fraction", 100)
    la = "loadad_canned" if name == "ceiling" else "loadad_release"
    f["loadad_cpu"] = g(la, "cpu_us_per_req_median")
    f["loadad_rps"] = g(la, "rps")
    f["loadad_reply_kib"] = g(la, "reply_bytes_avg" if name == "ceiling" else "load_reply_bytes_avg",
                              1 / 1024)
    cs = res.get("cold_start", {}).get(name, {})
    for key in ("loadAd", "loadAd_noImages", "trivial"):
        f[f"cold_{key}_ms"] = num(cs.get(key, {}).get("median_ms"))
    f["cold_floor_ms"] = num(res.get("cold_start", {}).get("floor_cat", {}).get("median_ms"))
    mem = res.get("memory", {}).get(name, {})

    def mib(d, key):
        v = num((d or {}).get(key))
        return None if v is None else v / 1024

    f["idle_rss_mib"] = mib(mem.get("solo"), "VmRSS")
    f["idle_private_mib"] = mib(mem.get("beside_sibling"), "Private")
    f["idle_private_solo_mib"] = mib(mem.get("solo"), "Private")
    f["idle_anon_mib"] = mib(mem.get("solo"), "RssAnon")
    tm = res.get("tcp_memory", {}).get(name, {})
    f["tcp_rss_mib"] = mib(tm.get("after_one_loadAd"), "VmRSS")
    f["tcp_rss_start_mib"] = mib(tm.get("after_start"), "VmRSS")
    f["per_ad_private_b"] = num(res.get("per_ad_memory", {}).get(name, {}).get("per_ad_private_bytes"))
    st = res.get("store", {}).get(name, {})
    small, big = st.get("small", {}), st.get("big", {})
    f["store_small_startup_s"] = num(small.get("startup_s"))
    f["store_big_startup_s"] = num(big.get("startup_s"))
    f["store_big_peak_mib"] = None if num(big.get("peak_kib")) is None else big["peak_kib"] / 1024
    f["store_small_peak_mib"] = None if num(small.get("peak_kib")) is None else small["peak_kib"] / 1024
    f["store_small_cpu"] = num(small.get("cpu_us_per_req"))
    f["store_big_cpu"] = num(big.get("cpu_us_per_req"))
    # the median of the rounds' ratios (each round runs both stores back to back); the ratio of
    # the medians when there is none
    rounds = res.get("store", {}).get("ratios", {}).get(name, {})
    f["store_cpu_ratio"] = num(rounds.get("median")) or ratio(f["store_big_cpu"], f["store_small_cpu"])
    return f


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("PASS" if ok else "MISS")


def fmt(v, spec: str) -> str:
    if v is None:
        return "-"
    if spec == "x":
        return f"{v:.2f}×" if v >= 0.1 else f"{v:.3f}×"
    return format(v, spec)


def ratio(a, b):
    return a / b if a is not None and b else None


HEAD = ("measurement", "C ceiling", "Node", "native-ads", "÷ ceiling", "÷ Node", "target", "verdict")


def report(res: dict) -> list[list[str]]:
    """Rows: measurement, C ceiling, Node, native-ads, native-ads / ceiling, native-ads / Node,
    target, verdict."""
    cfg = res["config"]
    na, ce, no = (figures(res, k) for k in ("native-ads", "ceiling", "node"))
    T = TARGETS
    rows = []

    def row(label, key, spec, target="", ok="", cols=("c", "n", "a"), ratios=True):
        a, c, n = na.get(key), ce.get(key), no.get(key)
        rows.append([label, fmt(c, spec) if "c" in cols else "", fmt(n, spec) if "n" in cols else "",
                     fmt(a, spec) if "a" in cols else "",
                     fmt(ratio(a, c), "x") if ratios and "c" in cols else "",
                     fmt(ratio(a, n), "x") if ratios and "n" in cols else "",
                     target, "" if ok == "" else verdict(ok)])

    def vs(key, other, limit, higher):
        r = ratio(na.get(key), other.get(key))
        return None if r is None else (r >= limit if higher else r <= limit)

    C, CW, W = cfg["connections"], cfg["conn_window"], cfg["window"]
    row(f"stringForKey, {C} conn x {CW} pipelined: CPU/request (µs)", "sfk_multi_cpu", ".3f",
        f"≤ {T['sfk_cpu_vs_ceiling']}× ceiling", vs("sfk_multi_cpu", ce, T["sfk_cpu_vs_ceiling"], False))
    row("  same, requests/s", "sfk_multi_rps", ",.0f", f"≥ {T['rps_vs_ceiling']}× ceiling",
        vs("sfk_multi_rps", ce, T["rps_vs_ceiling"], True))
    row("  server CPU busy (%)", "sfk_multi_busy", ".0f", ratios=False)
    for key, label in (("sfk_one", f"stringForKey, 1 conn x {W}, NDJSON (req/s)"),
                       ("sfk_one_cl", f"stringForKey, 1 conn x {W}, Content-Length (req/s)"),
                       ("sfk_stdio", f"stringForKey, stdio NDJSON, {W} pipelined (req/s)")):
        row(label, f"{key}_rps", ",.0f", f"≥ {T['rps_vs_ceiling']}× ceiling",
            vs(f"{key}_rps", ce, T["rps_vs_ceiling"], True))
        row("  CPU/request (µs)", f"{key}_cpu", ".3f")
    row(f"loadAd + releaseAd, 1 conn x {W}: CPU per loaded ad (µs)", "loadad_cpu", ".2f",
        f"≤ 1/{1 / T['loadad_cpu_vs_node']:.0f} Node", vs("loadad_cpu", no, T["loadad_cpu_vs_node"], False),
        cols=("n", "a"))
    row("  loadAd reply size (KiB)", "loadad_reply_kib", ".2f", ratios=False)
    row("  loaded ads/s (info)", "loadad_rps", ",.0f", cols=("n", "a"))
    row("  ceiling: canned loadAd reply, no release: CPU/reply (µs)", "loadad_cpu", ".2f",
        "(info)", cols=("c",), ratios=False)
    row("cold start, spawn → 1st loadAd reply (ms, median)", "cold_loadAd_ms", ".2f",
        f"≤ {T['cold_start_vs_ceiling']:g}× ceiling",
        vs("cold_loadAd_ms", ce, T["cold_start_vs_ceiling"], False))
    row("  loadAd with disableImageLoading (ms)", "cold_loadAd_noImages_ms", ".2f", cols=("a",))
    row("  trivial request: stringForKey, unknown ad (ms)", "cold_trivial_ms", ".2f", cols=("a",))
    rows.append(["  floor: spawn `cat`, echo 1 line (ms)", "", "", fmt(na.get("cold_floor_ms"), ".2f"),
                 "", "", "", ""])
    v = na.get("idle_rss_mib")
    row("idle RSS, --stdio after 1 loadAd (MiB)", "idle_rss_mib", ".2f",
        f"≤ {T['idle_rss_mib']:g}", None if v is None else v <= T["idle_rss_mib"])
    v = na.get("idle_private_mib")
    row("  private, beside a 2nd instance (MiB)", "idle_private_mib", ".2f",
        f"≤ {T['idle_private_mib']:g}", None if v is None else v <= T["idle_private_mib"])
    row("  private, the only instance (MiB)", "idle_private_solo_mib", ".2f", "(info)", ratios=False)
    row("  anonymous (RssAnon, MiB)", "idle_anon_mib", ".2f", "(info)", ratios=False)
    row("idle RSS, --tcp after 1 loadAd (MiB)", "tcp_rss_mib", ".2f", "(info)", cols=("n", "a"),
        ratios=False)
    v = na.get("per_ad_private_b")
    row(f"private memory per live ad (B; {cfg['per_ad_n']:,} ads alive, Node {cfg['per_ad_n_node']:,})",
        "per_ad_private_b", ",.0f",
        f"≤ {T['per_ad_private_bytes']:,}", None if v is None else v <= T["per_ad_private_bytes"],
        cols=("n", "a"))
    if res.get("store", {}).get("skipped"):
        rows.append([f"store of {cfg['big_creatives']:,} creatives", "", "", "skipped", "", "",
                     "", "n/a"])
        return rows
    big_n = cfg["big_creatives"]
    v = na.get("store_big_startup_s")
    timed_out = bool(res.get("store", {}).get("native-ads", {}).get("big", {}).get("timed_out"))
    label = f"store of {big_n:,} creatives: spawn → 1st reply (s)"
    if timed_out:
        rows.append([label, "", "", f"> {cfg['store_timeout']:g}", "", "",
                     f"≤ {T['big_store_startup_s']:g}", "MISS"])
    else:
        row(label, "store_big_startup_s", ".2f", f"≤ {T['big_store_startup_s']:g}",
            None if v is None else v <= T["big_store_startup_s"], cols=("a",))
    v = na.get("store_big_peak_mib")
    row("  peak RSS, VmHWM (MiB)" + (" when killed" if timed_out else ""), "store_big_peak_mib",
        ",.0f", f"≤ {T['big_store_peak_mib']:g}",
        None if v is None else (False if timed_out else v <= T["big_store_peak_mib"]), cols=("a",))
    row(f"  {SMALL_STORE[0]:,}-creative store: spawn → 1st reply (s)", "store_small_startup_s",
        ".3f", "(info)", cols=("a",))
    row(f"loadAd + releaseAd CPU/ad, {SMALL_STORE[0]:,}-creative store (µs)", "store_small_cpu",
        ".2f", "(info)", cols=("a",))
    row(f"  same, {big_n:,}-creative store (µs)", "store_big_cpu", ".2f", cols=("a",))
    r = na.get("store_cpu_ratio")
    rows.append([f"  {big_n:,} / {SMALL_STORE[0]:,} (median of the rounds' ratios)", "", "",
                 fmt(r, "x"), "", "",
                 f"within {100 * T['store_cpu_within']:.0f}%",
                 verdict(None if r is None else abs(r - 1) <= T["store_cpu_within"])])
    return rows


def print_table(rows: list[list[str]], head: tuple[str, ...] = HEAD) -> None:
    head = list(head)
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    line = "  ".join("-" * w for w in widths)
    print(line)
    print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(head, widths))))
    print(line)
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    print(line)


# ---------------------------------------------------------------- side by side with a baseline

WORSE_LIMIT = 0.05  # a figure more than 5 % worse than the baseline's is marked

# (label, figure key, format, better): better is "higher", "lower" or None (shown, never marked)
COMPARED = [
    ("stringForKey, {C} conn x {CW}: CPU/request (µs)", "sfk_multi_cpu", ".3f", "lower"),
    ("  same, requests/s", "sfk_multi_rps", ",.0f", "higher"),
    ("  server CPU busy (%)", "sfk_multi_busy", ".0f", None),
    ("stringForKey, 1 conn x {W}, NDJSON (req/s)", "sfk_one_rps", ",.0f", "higher"),
    ("  CPU/request (µs)", "sfk_one_cpu", ".3f", "lower"),
    ("stringForKey, 1 conn x {W}, Content-Length (req/s)", "sfk_one_cl_rps", ",.0f", "higher"),
    ("  CPU/request (µs)", "sfk_one_cl_cpu", ".3f", "lower"),
    ("stringForKey, stdio, {W} pipelined (req/s)", "sfk_stdio_rps", ",.0f", "higher"),
    ("  CPU/request (µs)", "sfk_stdio_cpu", ".3f", "lower"),
    ("loadAd + releaseAd: CPU per loaded ad (µs)", "loadad_cpu", ".2f", "lower"),
    ("  loadAd reply size (KiB)", "loadad_reply_kib", ".2f", None),
    ("  loaded ads/s", "loadad_rps", ",.0f", "higher"),
    ("cold start → 1st loadAd reply (ms)", "cold_loadAd_ms", ".2f", "lower"),
    ("  loadAd with disableImageLoading (ms)", "cold_loadAd_noImages_ms", ".2f", "lower"),
    ("  trivial request (ms)", "cold_trivial_ms", ".2f", "lower"),
    ("idle RSS, --stdio after 1 loadAd (MiB)", "idle_rss_mib", ".2f", "lower"),
    ("  private, beside a 2nd instance (MiB)", "idle_private_mib", ".2f", "lower"),
    ("  private, the only instance (MiB)", "idle_private_solo_mib", ".2f", "lower"),
    ("idle RSS, --tcp after 1 loadAd (MiB)", "tcp_rss_mib", ".2f", "lower"),
    ("  just started (MiB)", "tcp_rss_start_mib", ".2f", "lower"),
    ("private memory per live ad (B)", "per_ad_private_b", ",.0f", "lower"),
    ("store of {BIG} creatives: start-up (s)", "store_big_startup_s", ".2f", "lower"),
    ("  peak RSS, VmHWM (MiB)", "store_big_peak_mib", ",.0f", "lower"),
    ("loadAd + releaseAd CPU/ad, {SMALL}-creative store (µs)", "store_small_cpu", ".2f", "lower"),
    ("  same, {BIG}-creative store (µs)", "store_big_cpu", ".2f", "lower"),
]


def compare(res: dict) -> tuple[list[list[str]], list[str]]:
    """Rows (measurement, native-ads, baseline, new/old, better, verdict) and the labels of the
    figures more than WORSE_LIMIT worse than the baseline's. The figures are those of the main
    table (same keys), so the native-ads column matches it."""
    cfg = res["config"]
    new, old = figures(res, "native-ads"), figures(res, "baseline")
    rows, worse = [], []
    parent = ""
    for label, key, spec, better in COMPARED:
        label = label.format(C=cfg["connections"], CW=cfg["conn_window"], W=cfg["window"],
                             BIG=f"{cfg['big_creatives']:,}", SMALL=f"{SMALL_STORE[0]:,}")
        if not label.startswith(" "):
            parent = label
        # a sub-row is named with its parent in the list of worse figures
        full = f"{parent}: {label.strip()}" if label.startswith(" ") else label
        a, b = new.get(key), old.get(key)
        r = ratio(a, b)
        mark = ""
        if better is not None:
            if r is None:
                mark = "n/a"
            elif (better == "higher" and r < 1 - WORSE_LIMIT) or \
                    (better == "lower" and r > 1 + WORSE_LIMIT):
                mark = f"WORSE >{100 * WORSE_LIMIT:.0f}%"
                worse.append(full)
            else:
                mark = "ok"
        rows.append([label, fmt(a, spec), fmt(b, spec), "-" if r is None else f"{r:.3f}",
                     better or "(info)", mark])
    return rows, worse


MEASUREMENT_NAMES = {
    "sfk_multi": "stringForKey multi-connection", "sfk_one": "stringForKey NDJSON",
    "sfk_one_cl": "stringForKey Content-Length", "sfk_stdio": "stringForKey stdio",
    "loadad_release": "loadAd+releaseAd", "loadad_canned": "canned loadAd",
}


def problems_seen(res: dict) -> list[str]:
    notes = []
    for name, e in res["throughput"].items():
        for p in e.get("sanity", {}).get("problems", []):
            notes.append(f"{name}: {p}")
        noisy_parts = []
        for m, r in e.items():
            if not isinstance(r, dict) or "runs" not in r:
                continue
            runs = r.get("runs", [])
            noisy = [x for x in runs if x.get("other_load_cpus", 0) > 0.25]
            if noisy:
                noisy_parts.append(f"{MEASUREMENT_NAMES.get(m, m)} {len(noisy)}/{len(runs)} "
                                   f"(≤ {max(x['other_load_cpus'] for x in noisy):.2f})")
            seen = set()
            for x in runs:
                for p in x.get("problems", []):
                    if p not in seen:
                        seen.add(p)
                        notes.append(f"{name}: {MEASUREMENT_NAMES.get(m, m)}: {p}")
        if noisy_parts:
            notes.append(f"{name}: runs that shared the machine with other work (CPUs of it): "
                         + ", ".join(noisy_parts) + ": noisy")
        for key in ("tcp_sanity", "stdio_sanity"):
            for p in e.get(key, {}).get("problems", []):
                notes.append(f"{name}: {p}")
        if e.get("error"):
            notes.append(f"{name}: {e['error']}")
        if not e.get("alive_at_end", True):
            notes.append(f"{name}: the server died during the run (exit {e.get('exit_status')})")
    for name, cs in res.get("cold_start", {}).items():
        if name == "floor_cat":
            if "error" in cs:
                notes.append(f"cold start, cat: {cs['error']}")
            continue
        for key, r in cs.items():
            if "error" in r:
                notes.append(f"{name}: cold start {key}: {r['error']}")
    for name, m in res.get("memory", {}).items():
        if m.get("error"):
            notes.append(f"{name}: idle memory: {m['error']}")
    for name, r in res.get("per_ad_memory", {}).items():
        for p in r.get("problems", []):
            notes.append(f"{name}: per-ad memory: {p}")
    st = res.get("store", {})
    if st.get("error"):
        notes.append(f"store: {st['error']}")
    for name, runs in st.items():
        if name in ("stores", "error", "skipped", "ratios") or not isinstance(runs, dict):
            continue
        noisy = []
        for label, r in runs.items():
            for p in r.get("problems", []):
                notes.append(f"{name}: store ({label}): {p}")
            loud = [x for x in r.get("runs", []) if x.get("other_load_cpus", 0) > 0.25]
            if loud:
                noisy.append(f"{label} {len(loud)}/{len(r['runs'])} "
                             f"(≤ {max(x['other_load_cpus'] for x in loud):.2f})")
        if noisy:
            notes.append(f"{name}: store runs that shared the machine with other work: "
                         + ", ".join(noisy) + ": noisy")
    busy = max(res["machine_busy_before"], res["machine_busy_after"])
    if busy > 0.1:
        notes.append(f"the machine was {100 * busy:.0f}% busy with other work around the bench: "
                     "figures are noisy, run again on a quiet machine")
    return notes


# ---------------------------------------------------------------- main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=str(BENCH.parent / ".build/release/native-ads"),
                    help="the native-ads binary (default: .build/release/native-ads)")
    ap.add_argument("--quick", action="store_true", help="fewer requests and runs")
    ap.add_argument("--window", type=int, default=64,
                    help="requests in flight on one connection and over stdio (64)")
    ap.add_argument("--connections", type=int, default=8,
                    help="connections of the multi-connection stringForKey figure (8)")
    ap.add_argument("--conn-window", type=int, default=16,
                    help="requests in flight on each of those connections (16)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin server/loadgen to CPUs")
    ap.add_argument("--no-node", action="store_true", help="skip the Node baseline")
    ap.add_argument("--node", default=shutil.which("node") or "node", help="the node binary")
    ap.add_argument("--node-images", choices=["same", "own"], default="same",
                    help="Node serves native-ads' own image bytes (same, the fair default: equal "
                         "reply sizes) or its own 8-bit RGB PNGs (own: ~42 KB replies)")
    ap.add_argument("--no-big-store", action="store_true",
                    help="skip the store measurements (the 1M-creative store and the 10k one)")
    ap.add_argument("--big-creatives", type=int, default=1_000_000,
                    help="creatives of the big store (1,000,000)")
    ap.add_argument("--big-units", type=int, default=10_000, help="its ad units (10,000)")
    ap.add_argument("--store-timeout", type=float, default=60,
                    help="seconds a server gets to answer its first request with a store (60)")
    ap.add_argument("--out", default=str(OUT / "results.json"), help="where to write the JSON")
    ap.add_argument("--baseline-bin", metavar="PATH",
                    help="an older native-ads binary: every native-ads figure is also measured for "
                         "it in the same run, interleaved, and printed side by side with new/old")
    ap.add_argument("--baseline-label", metavar="TEXT",
                    help="how the report names the baseline (default: its path)")
    args = ap.parse_args()

    bin_path = os.path.abspath(args.bin)
    if not os.access(bin_path, os.X_OK):
        print(f"native-ads binary not found: {bin_path} (build it: make release)", file=sys.stderr)
        return 2
    base_path = os.path.abspath(args.baseline_bin) if args.baseline_bin else None
    if base_path and not os.access(base_path, os.X_OK):
        print(f"baseline binary not found: {base_path}", file=sys.stderr)
        return 2
    node_ok = not args.no_node and shutil.which(args.node) is not None
    if not args.no_node and not node_ok:
        log("node not found: skipping the Node baseline")

    class Cfg:
        pass

    cfg = Cfg()
    q = args.quick
    cfg.window = args.window
    cfg.connections = args.connections
    cfg.conn_window = args.conn_window
    cfg.sfk_n = 100_000 if q else 300_000
    cfg.sfk_n_ceiling = 200_000 if q else 600_000
    cfg.sfk_n_node = 30_000 if q else 60_000
    cfg.sfk_warmup = 10_000 if q else 20_000
    cfg.repeats = 1 if q else 3
    cfg.repeats_node = 1 if q else 2
    cfg.loadad_n = 5_000 if q else 30_000
    cfg.loadad_n_node = 2_000 if q else 5_000
    cfg.loadad_warmup = 500 if q else 2_000
    cfg.cold_runs = 10 if q else 30
    cfg.cold_runs_node = 5 if q else 10
    cfg.per_ad_n = 5_000 if q else 20_000
    cfg.per_ad_n_node = 2_000 if q else 10_000
    cfg.per_ad_warmup = 500 if q else 1_000
    cfg.store_n = 3_000 if q else 20_000
    # The 1M / 10k ratio compares two medians: five runs each keep one disturbed run from
    # moving it (three runs of 10,000 had it at 0.81x to 1.13x for the same binary).
    cfg.store_repeats = 2 if q else 5
    cfg.store_warmup = 1_000 if q else 2_000
    cfg.store_timeout = args.store_timeout
    cfg.big_creatives = args.big_creatives
    cfg.big_units = args.big_units
    cfg.gen_timeout = 900

    tools = compile_helpers()
    pin = Pinning(not args.no_pin)
    # Node serves native-ads' own image bytes (read from the loadAd reply captured when
    # native-ads runs first), so both send replies of the same size.
    node_js = [args.node, str(BENCH / "node_server.js")]
    node_images = ["--images", str(LOADAD_REPLY_FILE)] if args.node_images == "same" else []
    t0 = time.monotonic()
    tcp = {
        "native-ads": [bin_path, "--tcp", "127.0.0.1:0", "--log-level", "warn"],
        "ceiling": [str(tools["ceiling"]), "127.0.0.1:0"],
    }
    stdio = {
        "native-ads": [bin_path, "--stdio", "--log-level", "warn"],
        "ceiling": [str(tools["ceiling"]), "--stdio"],
    }
    # native-ads, its baseline, the ceiling and Node are measured in turn, run by run, so that
    # the ratios compare runs made side by side (the machine's speed drifts by a
    # third over minutes); native-ads first: its loadAd reply is what the ceiling serves
    order = ["native-ads", "ceiling"]
    if base_path:
        tcp["baseline"] = [base_path, "--tcp", "127.0.0.1:0", "--log-level", "warn"]
        stdio["baseline"] = [base_path, "--stdio", "--log-level", "warn"]
        order.insert(1, "baseline")
    if node_ok:
        # Node last (it serves the images of native-ads' loadAd reply, captured when
        # native-ads starts first); its runs alternate with the others' too.
        tcp["node"] = node_js + ["--tcp", "127.0.0.1:0"] + node_images
        stdio["node"] = node_js + ["--stdio"] + node_images
        order.append("node")

    results = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "bin": bin_path,
        "quick": q,
        "cpus": os.cpu_count(),
        "pinning": {"server_cpu": pin.server_cpu, "loadgen_cpu": pin.client_cpu} if pin.enabled else None,
        "node_version": subprocess.run([args.node, "--version"], capture_output=True, text=True).stdout.strip() if node_ok else None,
        "config": {k: v for k, v in vars(cfg).items()},
        "targets": TARGETS,
    }
    if base_path:
        results["baseline"] = {"bin": base_path, "label": args.baseline_label or base_path}
    results["machine_busy_before"] = round(machine_busy(), 3)
    log(f"machine busy before the bench: {100 * results['machine_busy_before']:.0f}% "
        f"(load average {os.getloadavg()[0]:.2f})")

    # 1-4, 6: TCP (native-ads first: its loadAd reply is what the ceiling and Node serve)
    tp = bench_tcp_group(tools, pin, {n: tcp[n] for n in order}, cfg)
    results["throughput"] = tp
    # 5: stdio
    log("[stdio]")
    for name, e in bench_stdio(tools, pin, stdio, cfg, order).items():
        tp.setdefault(name, {})["stdio_sanity"] = e["sanity"]
        tp[name]["sfk_stdio"] = e["sfk_stdio"]
    # 7: cold start (the ceiling answers with its canned copy of native-ads' loadAd reply)
    bins = {"native-ads": bin_path, **({"baseline": base_path} if base_path else {})}
    others = {"ceiling": [str(tools["ceiling"]), "--stdio", str(LOADAD_REPLY_FILE)]}
    if node_ok:
        others["node"] = stdio["node"]
    results["cold_start"] = bench_cold_start(tools, bins, others, cfg.cold_runs, cfg.cold_runs_node)
    # 8, 9: memory
    idle = {"ceiling": others["ceiling"], "native-ads": stdio["native-ads"]}
    if node_ok:
        idle["node"] = stdio["node"]
    if base_path:
        idle["baseline"] = stdio["baseline"]
    results["memory"] = bench_idle_memory(pin, idle)
    results["tcp_memory"] = bench_tcp_memory(
        pin, {k: v for k, v in tcp.items() if k in ("native-ads", "baseline", "node")})
    results["per_ad_memory"] = bench_per_ad_memory(
        tools, pin, {k: v for k, v in stdio.items() if k in ("native-ads", "baseline", "node")}, cfg)
    # 10: the store
    if args.no_big_store:
        results["store"] = {"skipped": True}
    else:
        results["store"] = bench_store(tools, pin, bins, cfg)
    results["elapsed_s"] = round(time.monotonic() - t0, 1)
    results["machine_busy_after"] = round(machine_busy(0.5), 3)

    rows = report(results)
    results["table"] = rows
    worse: list[str] = []
    if base_path:
        cmp_rows, worse = compare(results)
        results["baseline"]["table"] = cmp_rows
        results["baseline"]["worse"] = worse
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)

    print()
    print(f"native-ads benchmark ({'quick' if q else 'full'}; {os.cpu_count()} CPUs; "
          + (f"server on CPU {pin.server_cpu}, loadgen on CPU {pin.client_cpu}" if pin.enabled else "unpinned")
          + f"; {results['elapsed_s']} s)")
    print(f"binary: {bin_path}")
    print("÷ ceiling, ÷ Node: native-ads' figure divided by the ceiling's, by Node's")
    print_table(rows)
    if base_path:
        print()
        print(f"side by side with the baseline {results['baseline']['label']}, measured in this "
              f"same run (throughput and cold-start runs interleaved); new/old = native-ads' "
              f"figure / the baseline's")
        print(f"baseline binary: {base_path}")
        print_table(cmp_rows, ("measurement", "native-ads", "baseline", "new/old", "better",
                               "verdict"))
        if worse:
            print(f"{len(worse)} figure(s) more than {100 * WORSE_LIMIT:.0f}% worse than the "
                  f"baseline: {'; '.join(worse)}")
        else:
            print(f"no figure more than {100 * WORSE_LIMIT:.0f}% worse than the baseline")
    notes = problems_seen(results)
    if notes:
        print("problems seen:")
        for n in notes:
            print(f"  - {n}")
    print(f"details: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
