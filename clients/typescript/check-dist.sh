#!/bin/sh
# Fails when clients/typescript/dist/ is not exactly what `tsc -p clients/typescript` makes of
# src/ (dist/ is checked in so that plain `node` works without a compiler). Needs tsc
# (Debian: apt-get install -y node-typescript); exits 2 when it is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tsc=${TSC:-tsc}
if ! command -v "$tsc" >/dev/null 2>&1; then
  echo "check-dist: $tsc not found (apt-get install -y node-typescript)" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$tsc" -p "$here" --outDir "$tmp/dist"
if ! diff -r "$here/dist" "$tmp/dist" >"$tmp/diff" 2>&1; then
  echo "check-dist: clients/typescript/dist/ is stale; rebuild it with: tsc -p clients/typescript" >&2
  head -n 60 "$tmp/diff" >&2
  exit 1
fi
echo "check-dist: dist/ is up to date ($("$tsc" --version))"
