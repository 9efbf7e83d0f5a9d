# native-ads: the two commands a new machine needs are `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
PYTHON ?= python3
VENV := .venv
comma := ,
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN_DEBUG := .build/debug/native-ads
BIN_RELEASE := .build/release/native-ads
## Static archives the release build links (`make deps` fills it).
STATIC_LIBS := $(CURDIR)/.build/static-libs

PHONY_BROWSER := browser-deps screenshots
.PHONY: all deps build release run test test-swift test-e2e test-python-client test-ts-client $(PHONY_BROWSER) \
  test-release test-e2e-fleet lint venv bench bench-compare bench-compare-base clean schemas fuzz sanitize \
  prebuilt-pngs

all: build

## deps: install what is missing of libuv1-dev, zlib1g-dev, libhiredis-dev, libssl-dev (found
## by pkg-config), libhttp-parser-dev (by its header) and redis-server (the fleet's tests start
## their own). Debian packages all.
deps:
	@missing=; \
	pkg-config --exists libuv 2>/dev/null || missing="$$missing libuv1-dev"; \
	pkg-config --exists zlib 2>/dev/null || missing="$$missing zlib1g-dev"; \
	pkg-config --exists hiredis 2>/dev/null || missing="$$missing libhiredis-dev"; \
	pkg-config --exists libcrypto 2>/dev/null || missing="$$missing libssl-dev"; \
	[ -f /usr/include/http_parser.h ] || missing="$$missing libhttp-parser-dev"; \
	command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || \
	  missing="$$missing redis-server"; \
	[ -z "$$missing" ] || { \
	  echo "installing$$missing" 1>&2; \
	  $(SUDO) apt-get update -qq 1>&2 && \
	  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing pkg-config 1>&2; }
	@# The release binary links libstdc++'s static archive (see Package.swift): found here.
	@archive=; for c in $${CC:-cc} gcc clang; do \
	  a=$$($$c -print-file-name=libstdc++.a 2>/dev/null) && [ -f "$$a" ] && { archive=$$a; break; }; \
	done; \
	if [ -f "$$archive" ]; then \
	  mkdir -p .build/static-libstdc++ && ln -sf "$$archive" .build/static-libstdc++/libstdc++.a; \
	else echo "no static libstdc++ (g++'s libstdc++.a): the release binary links the shared one" 1>&2; fi
	@# The release binary is one static executable when libuv's static archive is there (Debian
	@# names it libuv_a.a): linked here as libuv.a, for -luv to find.
	@dir=$$(pkg-config --variable=libdir libuv 2>/dev/null); \
	for a in "$$dir/libuv.a" "$$dir/libuv_a.a"; do \
	  [ -f "$$a" ] && { mkdir -p $(STATIC_LIBS) && ln -sf "$$a" $(STATIC_LIBS)/libuv.a; break; }; \
	done; \
	[ -f $(STATIC_LIBS)/libuv.a ] || \
	  echo "no static libuv (libuv_a.a): the release binary links the shared C libraries" 1>&2

build: deps
	$(SWIFT) build

## The release build: one static executable (the C library, libuv, zlib, libstdc++ and the
## Swift runtime linked in; no dynamic loader, no shared library to map or relocate: start-up
## takes 0.5 M instructions fewer and idle RSS 1.4 MiB less) when `make deps` found libuv's
## static archive (and NATIVE_ADS_PIE=1 does not ask for a position-independent executable),
## else only the Swift runtime linked statically. (Expanded when the recipe runs, after deps.)
RELEASE_FLAGS = $(if $(and $(wildcard $(STATIC_LIBS)/libuv.a),$(if $(filter 1,$(NATIVE_ADS_PIE)),,y)),\
  -Xswiftc -static-executable -Xlinker -L$(STATIC_LIBS),--static-swift-stdlib)

release: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS)

## run: build and serve the built-in test inventory on stdio, on TCP 127.0.0.1:7411 and on HTTP
## 127.0.0.1:7412 (POST /rpc, a WebSocket at /rpc, and the inspector at http://127.0.0.1:7412/).
## stdout carries protocol bytes only: the build's output goes to stderr.
run: deps
	@$(SWIFT) build -c release $(RELEASE_FLAGS) 1>&2
	@$(BIN_RELEASE) --stdio --tcp 127.0.0.1:7411 --http 127.0.0.1:7412

$(VENV)/.installed: Tests/EndToEnd/requirements.txt clients/python/requirements-test.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/EndToEnd/requirements.txt \
	  -r clients/python/requirements-test.txt
	touch $@

venv: $(VENV)/.installed

## prebuilt-pngs: re-encode the built-in pictures into Sources/PNGImages/Resources/prebuilt-pngs.bin
## (a test fails when the file is stale).
prebuilt-pngs: deps
	UPDATE_PREBUILT_PNGS=1 $(SWIFT) test --filter PrebuiltPNGsTests.theEmbeddedFile
	$(SWIFT) test --filter PrebuiltPNGsTests

## schemas: regenerate schemas/ from the code (a test fails when they are stale).
schemas: build
	$(BIN_DEBUG) --write-schemas schemas

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

test-swift: deps
	$(SWIFT) build
	$(SWIFT) test

## browser-deps: Debian's chromium and chromium-driver, for the inspector's browser tests
## (Tests/EndToEnd/test_inspector_browser.py; Selenium comes from PyPI into the venv).
browser-deps:
	@{ command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; } || { \
	  echo "installing chromium chromium-driver" 1>&2; \
	  $(SUDO) apt-get update -qq 1>&2 && \
	  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver 1>&2; }

## screenshots: the inspector's pictures in docs/images/ (tools/screenshots.py; the release build).
screenshots: release venv browser-deps
	NATIVE_ADS_BIN=$(abspath $(BIN_RELEASE)) $(VENV)/bin/python tools/screenshots.py

test-e2e: build venv browser-deps
	NATIVE_ADS_BIN=$(abspath $(BIN_DEBUG)) $(VENV)/bin/python -m pytest -q Tests/EndToEnd

## test-e2e-fleet: the end-to-end suite against the release build that `make run` serves, with
## every server it starts a fleet of three processes of its own (NATIVE_ADS_E2E_FLEET_SIZE; the
## connections of a test go to the three in turn) on a redis-server started for the run
## (tools/with-redis.py), less the tests listed in Tests/EndToEnd/fleet-exclusions.txt (each
## with why). FLEET_SIZE=1 runs it on one-process fleets; FLEET_BIN picks another binary.
FLEET_SIZE ?= 3
FLEET_BIN ?= $(BIN_RELEASE)
FLEET_DESELECT = $(shell sed -n 's/^\([a-z_]*\.py::[A-Za-z0-9_]*\).*/--deselect \1/p' \
  Tests/EndToEnd/fleet-exclusions.txt)
test-e2e-fleet: release venv deps browser-deps
	NATIVE_ADS_BIN=$(abspath $(FLEET_BIN)) NATIVE_ADS_E2E_FLEET_SIZE=$(FLEET_SIZE) \
	  $(VENV)/bin/python tools/with-redis.py \
	  $(VENV)/bin/python -m pytest -q -p no:cacheprovider Tests/EndToEnd $(FLEET_DESELECT)

## test-python-client: install the Python client as a user would, then run its suite.
test-python-client: build venv
	$(VENV)/bin/pip install -q --disable-pip-version-check ./clients/python
	NATIVE_ADS_BIN=$(abspath $(BIN_DEBUG)) $(VENV)/bin/python -m pytest -q -p no:cacheprovider \
	  clients/python/tests

## test-ts-client: check dist/ against src/ with tsc (installed from Debian when missing), then
## run the TypeScript client's suite with node.
test-ts-client: build
	@command -v tsc >/dev/null 2>&1 || { \
	  echo "installing node-typescript (tsc)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq node-typescript; }
	NATIVE_ADS_BIN=$(abspath $(BIN_DEBUG)) clients/typescript/run-tests.sh

## test-release: the end-to-end suite against the release build that `make run` serves
## (optimisations must not change behaviour).
test-release: release venv
	NATIVE_ADS_BIN=$(abspath $(BIN_RELEASE)) $(VENV)/bin/python -m pytest -q -p no:cacheprovider \
	  Tests/EndToEnd

## test: install what is missing, then run every test (Swift; end-to-end on the debug build in
## one process, and on the release build in fleets of three on Redis; both clients) and the
## linter.
test: deps lint test-swift test-e2e test-python-client test-ts-client test-e2e-fleet

bench: release venv deps
	$(VENV)/bin/python bench/run.py --bin $(abspath $(BIN_RELEASE)) $(BENCH_ARGS)
	$(VENV)/bin/python bench/fleet.py --bin $(abspath $(BIN_RELEASE)) $(filter --quick --no-pin,$(BENCH_ARGS))

## bench-compare: the bench with an older build measured side by side in the same run.
## BASE=<git rev> names it (default: the first non-comment line of bench/baseline-rev, when
## that file exists); its release binary is built in a worktree under .build/baseline-<commit>/.
## BENCH_ARGS go to bench/run.py (e.g. BENCH_ARGS=--quick).
BASE ?= $(shell sed -n '/^[^#[:space:]]/{s/[[:space:]].*//;p;q;}' bench/baseline-rev 2>/dev/null)
BENCH_ARGS ?=
bench-compare: bench-compare-base release venv
	@base_bin=$$(bench/build-baseline.sh "$(BASE)") && \
	  echo "bench-compare: baseline $(BASE): $$base_bin" >&2 && \
	  $(VENV)/bin/python bench/run.py --bin $(abspath $(BIN_RELEASE)) --baseline-bin "$$base_bin" \
	    --baseline-label "$(BASE) ($$(git rev-parse --short=12 "$(BASE)^{commit}"))" $(BENCH_ARGS)

bench-compare-base:
	@test -n "$(BASE)" || { echo "bench-compare: name the baseline: make bench-compare BASE=<git rev>" \
	  "(or put a rev in bench/baseline-rev)" >&2; exit 2; }

## soak: SOAK_SECONDS (default 120) of mixed load on the release build (tools/soak.py): loads,
## clicks, impressions, releases, store changes, connects and disconnects over several
## connections; prints RSS at start, middle and end and the event counts, and fails when RSS is
## not flat or replies, notifications and getEvents disagree. Not part of `make test`.
SOAK_SECONDS ?= 120
.PHONY: soak
soak: release venv
	SOAK_SECONDS=$(SOAK_SECONDS) $(VENV)/bin/python tools/soak.py --bin $(abspath $(BIN_RELEASE))

## fuzz: builds the libFuzzer targets (Fuzz/, outside SwiftPM: instrumented, with ASan) and runs
## each for FUZZ_SECONDS from the seeds in Fuzz/corpus; prints and writes .build/fuzz/summary.md.
## FUZZ_TARGETS picks some (json-parser,ndjson-framer,content-length-framer,message-framer,session).
## See docs/robustness.md.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= json-parser,ndjson-framer,content-length-framer,message-framer,session
fuzz: deps
	$(MAKE) --no-print-directory -j2 -f Fuzz/fuzz.mk SWIFTC=$(SWIFT)c PYTHON=$(PYTHON) \
	  FUZZ_TARGETS="$(subst $(comma), ,$(FUZZ_TARGETS))" fuzz-build
	$(PYTHON) Fuzz/run-fuzzers.py --seconds $(FUZZ_SECONDS) --targets $(FUZZ_TARGETS)

## sanitize: the Swift tests and the end-to-end suite built with ASan+UBSan, then with TSan
## (scratch paths under .build/sanitize/); any sanitizer report fails it. See docs/robustness.md.
sanitize: deps venv
	SWIFT=$(SWIFT) PYTHON=$(abspath $(VENV))/bin/python Fuzz/sanitize.sh

## clean: also removes the baseline worktrees of bench-compare (git forgets them too).
clean:
	@for d in .build/baseline-*/; do [ -e "$$d.git" ] && git worktree remove --force "$$d" || true; done
	rm -rf .build $(VENV)
