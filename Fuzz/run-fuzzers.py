#!/usr/bin/env python3
"""Runs each libFuzzer target for a while and reports what it did (`make fuzz`).

Each target starts from its seeds (Fuzz/corpus/<target>/, checked in) and from the inputs
earlier runs kept (.build/fuzz/corpus/<target>/, where new inputs go), with a timeout per
input, a memory bound and its dictionary (Fuzz/dict/). Targets run one after the other, each
for --seconds. Printed per target and written to .build/fuzz/summary.md and summary.json:
executions per second, the corpus (inputs and bytes) at the end, libFuzzer's coverage (cov:
edges of the code under test, ft: features) at the start and at the end, and what was found.
A crash, a hang (timeout), a leak or an out-of-memory input fails the run; its input is kept
in .build/fuzz/artifacts/<target>/ (see docs/robustness.md for turning it into a regression
test).

Usage: Fuzz/run-fuzzers.py --seconds 60 [--targets json-parser,session]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".build", "fuzz")

# target: (dictionary, -max_len, per-input timeout in seconds)
TARGETS = {
    "json-parser": ("json", 16384, 10),
    "ndjson-framer": ("framing", 4096, 10),
    "content-length-framer": ("framing", 4096, 10),
    "message-framer": ("framing", 4096, 10),
    "session": ("session", 16384, 20),
}
RSS_LIMIT_MB = 2048  # the whole process (ASan's shadow memory and quarantine included)
MALLOC_LIMIT_MB = 256  # any single allocation larger than this is reported as a bug

STATUS = re.compile(
    r"^#(\d+)\s+(INITED|NEW|REDUCE|pulse|DONE|RELOAD)\s+cov: (\d+) ft: (\d+) "
    r"corp: (\d+)/(\d+)([bKM]?)b?.*?exec/s: (\d+)")
EDGES = re.compile(r"INFO: Loaded \d+ modules\s+\((\d+) inline 8-bit counters\)")
STAT = re.compile(r"^stat::(\w+):\s+(\d+)")


def corpus_bytes(number, unit):
    return int(number) * {"": 1, "b": 1, "K": 1024, "M": 1024 * 1024}[unit]


def run(target, seconds):
    dictionary, max_len, timeout = TARGETS[target]
    binary = os.path.join(OUT, "bin", target)
    work = os.path.join(OUT, "corpus", target)
    artifacts = os.path.join(OUT, "artifacts", target)
    logs = os.path.join(OUT, "logs")
    for d in (work, artifacts, logs):
        os.makedirs(d, exist_ok=True)
    before = set(os.listdir(artifacts))
    env = dict(os.environ)
    env["LSAN_OPTIONS"] = "suppressions=%s:print_suppressions=0" % os.path.join(
        ROOT, "Fuzz", "sanitizers", "lsan.supp")
    env["ASAN_OPTIONS"] = "detect_leaks=1:allocator_may_return_null=0"
    env["SWIFT_BACKTRACE"] = "enable=no"  # libFuzzer and ASan report crashes themselves
    command = [
        binary, "-max_total_time=%d" % seconds, "-timeout=%d" % timeout,
        "-rss_limit_mb=%d" % RSS_LIMIT_MB, "-malloc_limit_mb=%d" % MALLOC_LIMIT_MB,
        "-max_len=%d" % max_len, "-dict=%s" % os.path.join(ROOT, "Fuzz", "dict", dictionary + ".dict"),
        "-artifact_prefix=%s/" % artifacts, "-print_final_stats=1", "-detect_leaks=1",
        work, os.path.join(ROOT, "Fuzz", "corpus", target),
    ]
    log_path = os.path.join(logs, target + ".log")
    print("fuzz: %s for %d s (log: %s)" % (target, seconds, os.path.relpath(log_path, ROOT)),
          file=sys.stderr, flush=True)
    started = time.monotonic()
    with open(log_path, "w") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        status = subprocess.call(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    elapsed = time.monotonic() - started
    first = last = None
    edges = None
    stats = {}
    with open(log_path, errors="replace") as log:
        for line in log:
            m = STATUS.match(line)
            if m:
                row = {"execs": int(m.group(1)), "cov": int(m.group(3)), "ft": int(m.group(4)),
                       "corpus_inputs": int(m.group(5)),
                       "corpus_bytes": corpus_bytes(m.group(6), m.group(7)),
                       "exec_per_sec": int(m.group(8))}
                if m.group(2) == "INITED":
                    first = row
                last = row
            m = EDGES.search(line)
            if m:
                edges = int(m.group(1))
            m = STAT.match(line)
            if m:
                stats[m.group(1)] = int(m.group(2))
    found = sorted(set(os.listdir(artifacts)) - before)
    failures = [f for f in found if not f.startswith("slow-unit-")]
    execs = stats.get("number_of_executed_units", last["execs"] if last else 0)
    return {
        "target": target,
        "seconds": round(elapsed, 1),
        "exit_status": status,
        "executions": execs,
        "exec_per_sec": round(execs / elapsed) if elapsed > 0 else 0,
        "libfuzzer_exec_per_sec": stats.get("average_exec_per_sec"),
        "instrumented_edges": edges,
        "start": first,
        "end": last,
        "new_inputs": stats.get("new_units_added"),
        "peak_rss_mb": stats.get("peak_rss_mb"),
        "seeds": len(os.listdir(os.path.join(ROOT, "Fuzz", "corpus", target))),
        "found": [os.path.relpath(os.path.join(artifacts, f), ROOT) for f in found],
        "ok": status == 0 and not failures,
        "log": os.path.relpath(log_path, ROOT),
    }


def table(results, seconds):
    lines = [
        "# make fuzz: %d s per target (%s)" % (seconds, time.strftime("%Y-%m-%d %H:%M:%S")),
        "",
        "| target | run | execs | execs/s | corpus (inputs, bytes) | cov start → end (of edges) "
        "| ft start → end | peak RSS | found |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        s, e = r["start"] or {}, r["end"] or {}
        lines.append("| %s | %.0f s | %d | %d | %s, %s | %s → %s (%s) | %s → %s | %s MB | %s |" % (
            r["target"], r["seconds"], r["executions"], r["exec_per_sec"],
            e.get("corpus_inputs", "?"), e.get("corpus_bytes", "?"), s.get("cov", "?"),
            e.get("cov", "?"), r["instrumented_edges"], s.get("ft", "?"), e.get("ft", "?"),
            r["peak_rss_mb"], ", ".join(r["found"]) or ("nothing" if r["ok"] else
                                                        "exit %d, see %s" % (r["exit_status"], r["log"]))))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--targets", default=",".join(TARGETS))
    args = parser.parse_args()
    targets = [t for t in args.targets.split(",") if t]
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        sys.exit("fuzz: unknown targets %s (known: %s)" % (unknown, ", ".join(TARGETS)))
    results = [run(t, args.seconds) for t in targets]
    text = table(results, args.seconds)
    with open(os.path.join(OUT, "summary.md"), "w") as f:
        f.write(text)
    with open(os.path.join(OUT, "summary.json"), "w") as f:
        json.dump({"seconds_per_target": args.seconds, "results": results}, f, indent=2)
    print(text)
    print("fuzz: summary written to .build/fuzz/summary.md and summary.json")
    if not all(r["ok"] for r in results):
        print("fuzz: FAILED: %s" % ", ".join(r["target"] for r in results if not r["ok"]),
              file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
