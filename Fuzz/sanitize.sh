#!/usr/bin/env bash
# `make sanitize`: the Swift tests and the end-to-end suite under the sanitizers.
#
# 1. AddressSanitizer with LeakSanitizer, and UndefinedBehaviorSanitizer on the C the build
#    compiles (swiftc refuses -sanitize=undefined on Linux; the C is CZlib's inline shims,
#    compiled by the Clang importer: -Xcc -fsanitize=undefined);
# 2. ThreadSanitizer (the process has other threads: libuv's threadpool runs the uv_fs_read
#    of stdin when stdin is a regular file or /dev/null, and Swift Testing runs tests on
#    several threads).
# Leaks: the Swift tests are checked at exit (everything a test makes is freed by then), and so
# is every end-to-end server (main.swift frees the service before it exits;
# SANITIZE_E2E_LEAKS=0 turns that check off). See docs/robustness.md.
# Each build has its own scratch path under .build/sanitize/, so the normal build is left
# alone; they link with lld (gold warns about every ASan helper symbol). Every sanitizer report goes to a file under .build/sanitize/reports/<sanitizer>/
# (the end-to-end suite starts hundreds of processes, and a server's stderr is the suite's to
# read); the step fails when any report was written, and the reports are printed.
# Suppressions: Fuzz/sanitizers/ (process-lifetime globals and the test frameworks' own
# allocations only; see docs/robustness.md).
#
# Usage: Fuzz/sanitize.sh [address|thread]...   (default: both; from the repository root)
# Environment: SWIFT (swift), PYTHON (the venv's python with pytest), SANITIZE_E2E_ARGS
# (extra pytest arguments), SANITIZE_E2E_LEAKS (0: do not leak-check the end-to-end servers),
# SANITIZE_E2E_TIMEOUT (seconds per end-to-end test, default 120: sanitized servers are slower).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
SWIFT=${SWIFT:-swift}
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
SUPP=$ROOT/Fuzz/sanitizers
REPORTS=$ROOT/.build/sanitize/reports
# Sanitized servers start and answer more slowly: give the suite's waits and each test more
# room.
export NATIVE_ADS_E2E_WAIT=${NATIVE_ADS_E2E_WAIT:-30}
E2E_TIMEOUT=${SANITIZE_E2E_TIMEOUT:-120}
export SWIFT_BACKTRACE=enable=no  # the sanitizers print the stacks

failed=()

# check_reports NAME DIR: fails the step named NAME when DIR holds a report.
check_reports() {
  local name=$1 dir=$2
  shopt -s nullglob
  local files=("$dir"/*)
  shopt -u nullglob
  if ((${#files[@]})); then
    echo "sanitize: $name: ${#files[@]} report(s) in ${dir#"$ROOT"/}:" >&2
    for f in "${files[@]}"; do
      echo "==== ${f#"$ROOT"/}" >&2
      head -c 20000 "$f" >&2
    done
    failed+=("$name")
    return 1
  fi
  echo "sanitize: $name: no sanitizer reports" >&2
}

# run_step NAME REPORT_DIR COMMAND...: runs COMMAND, then checks the reports.
run_step() {
  local name=$1 dir=$2
  shift 2
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "sanitize: $name" >&2
  local status=0
  "$@" || status=$?
  if ((status != 0)); then
    echo "sanitize: $name: exit status $status" >&2
  fi
  local reports=0
  check_reports "$name" "$dir" || reports=1
  if ((status != 0 && reports == 0)); then failed+=("$name"); fi
}

# e2e NAME DIR BINARY [ENV=VALUE...]: the end-to-end suite against BINARY. The servers get a
# 64 MiB stack (ulimit -s): a sanitized build's frames are larger, and the cases at the
# largest --max-depth (4096) recurse that deep (a debug build needs 2 to 4 MiB for them, the
# ASan build 8 to 16). Memory bounds are not asserted (Fuzz/sanitizers/sanitized_e2e.py).
e2e() {
  local name=$1 dir=$2 binary=$3
  shift 3
  run_step "$name" "$dir" bash -c 'ulimit -s 65536 || echo "sanitize: the stack limit stays $(ulimit -s)" >&2; exec "$@"' e2e \
    env NATIVE_ADS_BIN="$binary" PYTHONPATH="$SUPP${PYTHONPATH:+:$PYTHONPATH}" "$@" \
    "$PYTHON" -m pytest -q -p no:cacheprovider -p sanitized_e2e -o timeout="$E2E_TIMEOUT" \
    ${SANITIZE_E2E_ARGS:-} Tests/EndToEnd
}

address() {
  local scratch=.build/sanitize/address
  local flags=(--sanitize=address -Xcc -fsanitize=undefined -Xswiftc -use-ld=lld --scratch-path "$scratch")
  echo "sanitize: building with ASan and UBSan ($scratch)" >&2
  "$SWIFT" build --build-tests "${flags[@]}"
  local dir=$REPORTS/address
  # One log_path for both (they share it; the last one set wins): report.<pid>.
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:log_path=$dir/report:detect_stack_use_after_return=1:strict_string_checks=1"
  export LSAN_OPTIONS="suppressions=$SUPP/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=0:log_path=$dir/report"
  run_step "swift test (address, undefined)" "$dir" \
    "$SWIFT" test --skip-build "${flags[@]}"
  e2e "end-to-end (address, undefined)" "$dir" "$ROOT/$scratch/debug/native-ads" \
    ASAN_OPTIONS="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=${SANITIZE_E2E_LEAKS:-1}}"
  unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
}

thread() {
  local scratch=.build/sanitize/thread
  local flags=(--sanitize=thread -Xswiftc -use-ld=lld --scratch-path "$scratch")
  echo "sanitize: building with TSan ($scratch)" >&2
  "$SWIFT" build --build-tests "${flags[@]}"
  local dir=$REPORTS/thread
  export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:log_path=$dir/report:suppressions=$SUPP/tsan.supp"
  run_step "swift test (thread)" "$dir" "$SWIFT" test --skip-build "${flags[@]}"
  e2e "end-to-end (thread)" "$dir" "$ROOT/$scratch/debug/native-ads"
  unset TSAN_OPTIONS
}

sanitizers=("$@")
((${#sanitizers[@]})) || sanitizers=(address thread)
for s in "${sanitizers[@]}"; do
  case $s in
    address | thread) "$s" ;;
    *)
      echo "sanitize: unknown sanitizer $s (address or thread)" >&2
      exit 2
      ;;
  esac
done

if ((${#failed[@]})); then
  echo "sanitize: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "sanitize: passed (${sanitizers[*]})" >&2
