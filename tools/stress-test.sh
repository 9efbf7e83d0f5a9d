#!/bin/bash
# Runs `make test` several times in a row with one CPU kept busy, to shake out tests that only
# fail under load (races between threads or processes, timeouts that are too tight).
#
#   tools/stress-test.sh            # 5 runs
#   tools/stress-test.sh -n 20      # 20 runs (or STRESS_RUNS=20)
#   STRESS_CMD="make test-python-client" tools/stress-test.sh -n 10
#
# One `yes > /dev/null` runs for the whole time; it is started by this script and killed by its
# pid on every way out (all runs passed, a run failed, Ctrl-C, SIGTERM). Each run's output goes
# to its own log under .build/stress/<date-time>/ (STRESS_LOG_DIR to choose); the script stops
# at the first failing run and shows the end of its log. Progress goes to stderr.
# Exit status: 0 when every run passed, 1 when one failed, 2 for a usage error, 128+signal
# when interrupted.
set -u

usage() {
  cat >&2 <<'EOF'
usage: tools/stress-test.sh [-n RUNS]
  -n RUNS   how many times to run the command (default: $STRESS_RUNS, else 5)
environment:
  STRESS_RUNS     default number of runs
  STRESS_CMD      the command to run (default: make test), run by bash from the repository root
  STRESS_LOG_DIR  where the logs go (default: .build/stress/<date-time>)
EOF
}

runs=${STRESS_RUNS:-5}
while getopts ":n:h" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    h) usage; exit 0 ;;
    :) echo "stress-test: -$OPTARG needs a value" >&2; usage; exit 2 ;;
    *) echo "stress-test: unknown option -$OPTARG" >&2; usage; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
  echo "stress-test: unexpected argument: $1" >&2; usage; exit 2
fi
if ! [[ $runs =~ ^[0-9]+$ ]] || [ "$runs" -lt 1 ]; then
  echo "stress-test: the number of runs must be a positive integer, not '$runs'" >&2; exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
cmd=${STRESS_CMD:-make test}
log_dir=${STRESS_LOG_DIR:-$root/.build/stress/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$log_dir" || exit 2

busy_pid=""
run_pid=""
# Kills what this script started, by pid: the command of the current run (its whole process
# group: it runs in a session of its own) and the busy loop.
cleanup() {
  if [ -n "$run_pid" ]; then
    kill -TERM -- "-$run_pid" 2>/dev/null || kill -TERM "$run_pid" 2>/dev/null
    wait "$run_pid" 2>/dev/null
    run_pid=""
  fi
  if [ -n "$busy_pid" ]; then
    kill "$busy_pid" 2>/dev/null
    wait "$busy_pid" 2>/dev/null
    busy_pid=""
  fi
}
trap cleanup EXIT
trap 'echo "stress-test: interrupted; logs in $log_dir" >&2; cleanup; exit 130' INT
trap 'echo "stress-test: terminated; logs in $log_dir" >&2; cleanup; exit 143' TERM

yes >/dev/null &
busy_pid=$!
echo "stress-test: $runs run(s) of '$cmd' with one CPU kept busy (yes, pid $busy_pid); logs in $log_dir" >&2

now() { date +%s.%N; }
passed=0
total_start=$(now)
for ((i = 1; i <= runs; i++)); do
  log="$log_dir/run-$i.log"
  start=$(now)
  # In a session of its own, so that an interrupt can stop the whole run by its group id.
  setsid --wait bash -c "$cmd" </dev/null >"$log" 2>&1 &
  run_pid=$!
  wait "$run_pid"
  status=$?
  run_pid=""
  seconds=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
  if ! kill -0 "$busy_pid" 2>/dev/null; then
    echo "stress-test: the busy loop (pid $busy_pid) is gone; the runs were not under load" >&2
    exit 1
  fi
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    echo "run $i/$runs: pass ($seconds s)  $log" >&2
  else
    echo "run $i/$runs: FAIL, exit $status ($seconds s)  $log" >&2
    echo "--- last 30 lines of $log" >&2
    tail -n 30 "$log" >&2
    echo "---" >&2
    echo "stress-test: stopped at the first failure: $passed of $runs run(s) passed before it; logs in $log_dir" >&2
    exit 1
  fi
done
total=$(awk -v a="$total_start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
echo "stress-test: all $runs run(s) passed ($total s); logs in $log_dir" >&2
exit 0
