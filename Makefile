# lbscope: the two commands of the README are `make serve` and `make test`.
# Both install whatever is missing first (idempotent; quick when all is there).
# Nothing is downloaded from GitHub or a CDN: only crates.io, npm, Debian and (for flink-diff) PyPI.
#
# The web build is the project's own tools/webbuild (`lbscope-webbuild`): cargo builds the wasm,
# the wasm-bindgen library (the version in Cargo.lock) writes the JS glue, wasm-opt comes from the
# npm package binaryen, and a small std-only server serves dist/ on 127.0.0.1.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(CURDIR)/www-tests/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Where cargo puts what it builds: ./target, or wherever CARGO_TARGET_DIR (or a cargo config)
# says. Asked of cargo once, when a recipe first needs it.
TARGET_DIR = $(eval TARGET_DIR := $$(or $$(shell cargo metadata --format-version 1 --no-deps \
  2>/dev/null | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p'),target))$(TARGET_DIR)
WEBBUILD = $(TARGET_DIR)/webbuild/lbscope-webbuild
WASM_BUILD := cargo build --target wasm32-unknown-unknown --bin lbscope-web --profile
PORT ?= 8080
# What `make serve` serves: exactly the `make test` build (`wasm-release` profile, `wasm-opt -Oz`,
# gzip copies of every file), as a visitor would get it. `make serve FAST=1` skips the wasm-opt
# pass (about a minute): the same code, 4.6 MB instead of 3.4 MB before compression.
FAST ?=
SERVE ?= $(if $(FAST),--profile wasm-release,--release)

.PHONY: serve serve-trunk test tools tools-web tools-browser tools-trunk webbuild check native-test \
  wasm-release size-budget www-test bench bench-speed profile fmt target-dir docs-img flink-diff java-sort-diff

## serve: install what is missing, then build and serve the app on http://127.0.0.1:8080
## (FAST=1: without the wasm-opt pass, a minute quicker, a larger download)
serve: tools-web
	@$(call with_webbuild,$(WASM_BUILD) wasm-release)
	$(WEBBUILD) dist $(SERVE)
	$(WEBBUILD) serve --port $(PORT)

## test: install what is missing, then fmt, clippy, native tests, release wasm build (and its
## size budget), browser tests, and the differential tests against Flink's own runtime
## (flink-diff) and the JDK's sort (java-sort-diff)
test: tools-web tools-browser check native-test wasm-release size-budget www-test flink-diff java-sort-diff

tools: tools-web tools-browser

tools-web:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
	@command -v rustfmt >/dev/null && cargo clippy --version >/dev/null 2>&1 || rustup component add rustfmt clippy
	@if [ ! -x www-tests/node_modules/.bin/wasm-opt ] || [ www-tests/package-lock.json -nt www-tests/node_modules/.package-lock.json ]; then \
	  npm ci --prefix www-tests --no-audit --no-fund --no-update-notifier; fi

tools-browser:
	@if ! command -v chromium >/dev/null; then \
	  echo "installing Debian chromium"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium chromium-driver >/dev/null; fi

# Compile tools/webbuild while the command $(1) runs (its own build directory, webbuild/ in cargo's,
# so the two cargo runs do not wait for each other), then wait for both (also when $(1) fails);
# print how long each took.
define with_webbuild
t0=$$(date +%s); \
{ cargo build -q -p lbscope-webbuild --profile webbuild && \
  echo "lbscope-webbuild: compiled the tool in $$(( $$(date +%s) - t0 )) s"; } & tool=$$!; \
if ! $(1); then wait $$tool || true; exit 1; fi; \
echo "lbscope-webbuild: compiled the app in $$(( $$(date +%s) - t0 )) s"; \
wait $$tool
endef

webbuild:
	cargo build -p lbscope-webbuild --profile webbuild

check:
	cargo fmt --all --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --lib --bins -- -D warnings
	cargo clippy -p lbscope-webbuild --profile webbuild --all-targets -- -D warnings

native-test:
	cargo test
	cargo test -q -p lbscope-webbuild --profile webbuild

## wasm-release: dist/ as `make test` and `make bench` use it (wasm-release profile, wasm-opt -Oz)
wasm-release: tools-web
	@$(call with_webbuild,$(WASM_BUILD) wasm-release)
	$(WEBBUILD) dist --release

## size-budget: fail when the gzipped release wasm in dist/ (`make wasm-release`) is over its
## budget (tools/webbuild/src/budget.rs; docs/performance.md)
size-budget:
	@[ -x $(WEBBUILD) ] || cargo build -q -p lbscope-webbuild --profile webbuild
	$(WEBBUILD) budget

www-test:
	cd www-tests && node --test --test-concurrency=1 --test-reporter=spec ./

## serve-trunk (optional): trunk's serve, which rebuilds dist/ when a source file changes
## (reload the page yourself: the CSP forbids trunk's injected reload script). Installs trunk
## and wasm-bindgen-cli from crates.io when missing: about 15 minutes on 2 cores.
serve-trunk: tools-web tools-trunk
	trunk serve --offline --port $(PORT)

TRUNK_VERSION := 0.21.14
# wasm-bindgen-cli must be exactly the wasm-bindgen of Cargo.lock.
WASM_BINDGEN_VERSION = $(shell awk '/^name = "wasm-bindgen"$$/ { getline; gsub(/"/, "", $$3); print $$3 }' Cargo.lock)
tools-trunk:
	@if ! wasm-bindgen --version 2>/dev/null | grep -qF "$(WASM_BINDGEN_VERSION)"; then \
	  echo "installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (about 5 minutes)"; \
	  cargo install wasm-bindgen-cli --version "$(WASM_BINDGEN_VERSION)"; fi
	@if ! trunk --version 2>/dev/null | grep -qF "$(TRUNK_VERSION)"; then \
	  echo "installing trunk $(TRUNK_VERSION) (about 10 minutes)"; \
	  cargo install trunk --version "$(TRUNK_VERSION)" --locked; fi

## bench: every figure of docs/performance.md in one run: the native table, the
## release wasm build and where its bytes go (per section, crate, module, function), then the
## in-browser run beside the native figures of the same scenario
## (BENCH_TOPICS=20000 for a quicker browser run; BENCH_TOP=N largest functions listed)
BENCH_TOPICS ?= 200000
BENCH_TOP ?= 25
bench: tools-web tools-browser
	cargo build --release --bin lbscope
	$(TARGET_DIR)/release/lbscope bench
	$(MAKE) --no-print-directory wasm-release
	$(WEBBUILD) size --top $(BENCH_TOP)
	-$(WEBBUILD) budget
	node www-tests/bench/browser-bench.mjs $(BENCH_TOPICS) 20

## bench-speed: the same in-browser run with the wasm at opt-level 3 (cargo profile wasm-speed,
## wasm-opt -O3, in dist-speed/ of cargo's target directory): its size breakdown and round
## time against make bench's
SPEED_DIST = $(TARGET_DIR)/dist-speed
bench-speed: tools-web tools-browser
	cargo build --release --bin lbscope
	@$(call with_webbuild,$(WASM_BUILD) wasm-speed)
	$(WEBBUILD) dist --profile wasm-speed --wasm-opt 3 --out $(SPEED_DIST)
	$(WEBBUILD) size $(TARGET_DIR)/webbuild/dist-speed-names.wasm --top 10
	LBSCOPE_DIST=$(SPEED_DIST) node www-tests/bench/browser-bench.mjs $(BENCH_TOPICS) 20

## profile: where a browser round's time goes (Chromium CPU profile of the
## benchmark cluster; the wasm keeps its function names). PROFILE_TOPICS=20000 is quicker.
PROFILE_TOPICS ?= 200000
PROFILE_DIST = $(TARGET_DIR)/dist-profile
profile: tools-web tools-browser
	cargo build --release --bin lbscope
	@$(call with_webbuild,$(WASM_BUILD) wasm-profile)
	$(WEBBUILD) dist --profile wasm-profile --wasm-opt off --out $(PROFILE_DIST)
	LBSCOPE_DIST=$(PROFILE_DIST) node www-tests/bench/profile.mjs $(PROFILE_TOPICS) 10

fmt:
	cargo fmt --all

## docs-img: redraw the README's pictures with `lbscope render` (the playground's view code)
## and `lbscope sweep`
docs-img:
	mkdir -p docs/img
	cargo run -q --bin lbscope -- render tests/scenarios/pulsar-workload-patterns.json --view ring -o docs/img/ring.svg
	cargo run -q --bin lbscope -- render tests/scenarios/flink-figure-c-tasks.json --view slots -o docs/img/slots.svg
	cargo run -q --release --bin lbscope -- sweep docs/img/sweep-cluster.json --seeds 100 --rounds 30 \
	  --setting loadBalancerLoadSheddingStrategy=ThresholdShedder --setting loadBalancerLoadSheddingStrategy=AvgShedder \
	  --setting 'loadBalancerLoadSheddingStrategy=TransferShedder; loadManagerClassName=ExtensibleLoadManagerImpl' \
	  --svg docs/img/sweep-shedders.svg --figure score --figure moves --figure 'sessions reconnected' \
	  --figure 'final max/min' --figure 'final std dev' --figure 'misdirected sheds' >/dev/null

## flink-diff: the differential test against Flink's own runtime: the document's figures and
## seeded random jobs on a Flink 2.3.0 MiniCluster and through lbscope (installs a JDK from
## Debian and Flink's jar from the PyPI wheel apache-flink-libraries into a cache when missing)
flink-diff:
	tools/flink-diff/run.sh $(TARGET_DIR)/flink-diff

## java-sort-diff: the differential test against the JDK's own sort: seeded score lists
## sorted by Java's List.sort with AvgShedder's old comparator and by lbscope's replay
java-sort-diff:
	tools/java-sort-diff/run.sh $(TARGET_DIR)/java-sort-diff

## target-dir: print where cargo puts what it builds (what every recipe here uses)
target-dir:
	@echo $(TARGET_DIR)
