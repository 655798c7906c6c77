# lbscope: the two commands of the README are `make serve` and `make test`.
# Both install whatever is missing first (idempotent; quick when all is there).
# Nothing is downloaded from GitHub or a CDN: only crates.io, npm and Debian.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(CURDIR)/www-tests/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)

TRUNK_VERSION := 0.21.14
# wasm-bindgen-cli must be exactly the wasm-bindgen of Cargo.lock.
WASM_BINDGEN_VERSION := $(shell awk '/^name = "wasm-bindgen"$$/ { getline; gsub(/"/, "", $$3); print $$3 }' Cargo.lock)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: serve test tools tools-web tools-browser check native-test wasm-release www-test bench profile fmt

## serve: install what is missing, then serve the app on http://127.0.0.1:8080
serve: tools-web
	@echo "lbscope: serving on http://127.0.0.1:8080  (Ctrl-C to stop)"
	trunk serve --offline

## test: install what is missing, then fmt, clippy, native tests, release wasm build, browser tests
test: tools-web tools-browser check native-test wasm-release www-test

tools: tools-web tools-browser

tools-web:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
	@command -v rustfmt >/dev/null && cargo clippy --version >/dev/null 2>&1 || rustup component add rustfmt clippy
	@if ! wasm-bindgen --version 2>/dev/null | grep -qF "$(WASM_BINDGEN_VERSION)"; then \
	  echo "installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (about 2 minutes)"; \
	  cargo install wasm-bindgen-cli --version "$(WASM_BINDGEN_VERSION)"; fi
	@if ! trunk --version 2>/dev/null | grep -qF "$(TRUNK_VERSION)"; then \
	  echo "installing trunk $(TRUNK_VERSION) (about 7 minutes)"; \
	  cargo install trunk --version "$(TRUNK_VERSION)" --locked; fi
	@if [ ! -x www-tests/node_modules/.bin/wasm-opt ] || [ www-tests/package-lock.json -nt www-tests/node_modules/.package-lock.json ]; then \
	  npm ci --prefix www-tests --no-audit --no-fund; fi

tools-browser:
	@if ! command -v chromium >/dev/null; then \
	  echo "installing Debian chromium"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium chromium-driver >/dev/null; fi

check:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --lib --bins -- -D warnings

native-test:
	cargo test

wasm-release:
	trunk build --release --offline

www-test:
	cd www-tests && node --test --test-concurrency=1 --test-reporter=spec ./

## bench: every performance figure: the native table, then the in-browser run
## (BENCH_TOPICS=20000 for a quicker browser run)
BENCH_TOPICS ?= 200000
bench: tools-web tools-browser
	cargo build --release --bin lbscope
	./target/release/lbscope bench
	trunk build --release --offline
	node www-tests/bench/browser-bench.mjs $(BENCH_TOPICS) 20

## profile: where a browser round's time goes (Chromium CPU profile of the
## benchmark cluster; the wasm keeps its function names). PROFILE_TOPICS=20000 is quicker.
PROFILE_TOPICS ?= 200000
PROFILE_DIST := target/dist-profile
profile: tools-web tools-browser
	cargo build --release --bin lbscope
	trunk build --release --offline
	cargo build --profile wasm-profile --target wasm32-unknown-unknown --bin lbscope-web
	rm -rf $(PROFILE_DIST) && mkdir -p $(PROFILE_DIST)
	wasm-bindgen --target web --no-typescript --out-dir $(PROFILE_DIST) --out-name lbscope-web \
	  target/wasm32-unknown-unknown/wasm-profile/lbscope-web.wasm
	cp index.js styles/*.css styles/favicon.svg $(PROFILE_DIST)/
	sed -e 's/ integrity="[^"]*"//g' dist/index.html > $(PROFILE_DIST)/index.html
	LBSCOPE_DIST=$(PROFILE_DIST) node www-tests/bench/profile.mjs $(PROFILE_TOPICS) 10

fmt:
	cargo fmt
