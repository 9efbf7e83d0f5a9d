#!/bin/bash
# Builds the release binary of a git revision, the way `make release` builds ours today (one
# static executable when `make deps` has linked Debian's static libuv into .build/static-libs
# and NATIVE_ADS_PIE is not 1, else `--static-swift-stdlib`), so that a comparison measures
# the code and not the way it was linked; a revision that cannot be linked statically is
# built with `--static-swift-stdlib` (said on stderr). In a git worktree of its own under
# .build/baseline-<commit>/, and prints the binary's path on stdout (everything else goes to
# stderr). A worktree that is already there is reused, so a second run only rebuilds what
# changed. Used by `make bench-compare`.
#
#   bench/build-baseline.sh c179a3b        # -> /…/.build/baseline-c179a3b0a1b2/.build/release/native-ads
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: bench/build-baseline.sh REV   (a commit, tag or branch)" >&2
  exit 2
fi
rev=$1
root=$(git -C "$(dirname "${BASH_SOURCE[0]}")/.." rev-parse --show-toplevel)
if ! commit=$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}"); then
  echo "build-baseline: '$rev' names no commit in $root" >&2
  exit 2
fi
short=$(git -C "$root" rev-parse --short=12 "$commit")
dir=$root/.build/baseline-$short

if [ -e "$dir/.git" ] && [ "$(git -C "$dir" rev-parse HEAD 2>/dev/null)" = "$commit" ]; then
  echo "build-baseline: reusing the worktree $dir ($rev = $short)" >&2
else
  if [ -e "$dir" ]; then
    echo "build-baseline: $dir is not a worktree at $short: remove it first" >&2
    exit 2
  fi
  mkdir -p "$root/.build"
  echo "build-baseline: git worktree add --detach $dir $short ($rev)" >&2
  # -f: the path may still be registered from a worktree deleted by hand (rm -rf .build)
  git -C "$root" worktree add -f --detach "$dir" "$commit" >&2
fi

static_libs=$root/.build/static-libs
built=
if [ -e "$static_libs/libuv.a" ] && [ "${NATIVE_ADS_PIE:-}" != 1 ]; then
  echo "build-baseline: building $short (release, a static executable) in $dir" >&2
  if (cd "$dir" && "${SWIFT:-swift}" build -c release -Xswiftc -static-executable \
    -Xlinker -L"$static_libs") >&2; then
    built=1
  else
    echo "build-baseline: $short does not link as a static executable; building it as before" >&2
  fi
fi
if [ -z "$built" ]; then
  echo "build-baseline: building $short (release, --static-swift-stdlib) in $dir" >&2
  (cd "$dir" && "${SWIFT:-swift}" build -c release --static-swift-stdlib) >&2
fi
bin=$dir/.build/release/native-ads
if [ ! -x "$bin" ]; then
  echo "build-baseline: the build made no $bin" >&2
  exit 1
fi
echo "$bin"
