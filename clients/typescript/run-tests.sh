#!/bin/sh
# The TypeScript client's tests: check that dist/ matches src/ and that its declarations
# type-check a sample program (when tsc is installed), then
# `node --test` against the real binary (NATIVE_ADS_BIN, default .build/debug/native-ads).
# Extra arguments go to `node --test` (e.g. --test-reporter=spec).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if command -v "${TSC:-tsc}" >/dev/null 2>&1; then
  "$here/check-dist.sh"
  # The published declarations compile on their own (no @types/node, no DOM).
  "${TSC:-tsc}" -p "$here/test/typecheck"
  echo "run-tests: dist/*.d.ts type-check test/typecheck/usage.ts"
else
  echo "run-tests: tsc not found, dist/ is tested as checked in (apt-get install -y node-typescript to check it)" >&2
fi
cd "$here"
exec node --test --test-timeout=60000 "$@" test/*.test.mjs
