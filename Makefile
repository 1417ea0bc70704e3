# ScaleScope build, serve and test entry points.
#
#   make serve   install what is missing, then trunk serve at http://127.0.0.1:8080
#   make test    install what is missing, then every check, ending with the browser tests
#
# Each step of `make test` also has its own target (fmt, clippy, ...), and
# `make test` stops at the first failing one.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.NOTPARALLEL:
.DEFAULT_GOAL := help

export PATH := $(HOME)/.cargo/bin:$(PATH)
export CARGO_TERM_COLOR ?= never

# The model's tests and docs simulate pipelines of thousands of passes in
# turn, each freeing a few MB; glibc gave that memory back and faulted it in
# again every time (a third of `scalescope validate`'s time). A larger trim
# threshold keeps it (ignored where the C library is not glibc).
KEEP_HEAP := GLIBC_TUNABLES=glibc.malloc.trim_threshold=268435456

SETUP := bash scripts/setup.sh
WASM  := wasm32-unknown-unknown

.PHONY: help serve test build-tools test-tools versions \
        fmt house clippy clippy-wasm cargo-test fuzz fuzz-short nostd dist classroom size size-audit firefox e2e budgets screenshot docs clean

help:
	@echo "make serve       install build tools, then trunk serve --release at http://127.0.0.1:8080"
	@echo "make test        install test tools, then fmt, house rules, clippy, cargo test, no_std build,"
	@echo "                 trunk build, size report, budgets and the browser tests"
	@echo "make dist        trunk build --release into dist/, and the one-file copy"
	@echo "make classroom   the explorer as one file, dist-single/scalescope.html, that opens from disk offline"
	@echo "make house       house rules: no function over 120 lines, no file over 600 without its reason"
	@echo "make size-audit  where the wasm's bytes go, by function and crate (twiggy; docs/size.md)"
	@echo "make budgets     repaint/load/memory/size budgets of dist/ in headless Chromium"
	@echo "make screenshot  headless Chromium screenshot of dist/ into tests/out/page.png"
	@echo "make fuzz        seeded random-scenario campaign: 10 million evaluations, searches, sweeps, mutated files"
	@echo "make docs        regenerate docs/calibration.md, findings.md and validation.md from the model"
	@echo "make versions    show installed tool versions"

# ---- tools -----------------------------------------------------------------

build-tools:
	@$(SETUP) build-tools

test-tools:
	@$(SETUP) test-tools

versions:
	@$(SETUP) versions

# ---- serve -----------------------------------------------------------------

serve: build-tools
	trunk serve --release --offline

# ---- test ------------------------------------------------------------------

# Order matters (.NOTPARALLEL keeps it): cheap checks first, browser tests last,
# so the run ends with the test runner's own summary line.
test: test-tools fmt house clippy clippy-wasm cargo-test fuzz-short nostd dist size budgets firefox e2e

fmt:
	cargo fmt --all --check

# No function in core/src or app/src over 120 lines, no file over 600 lines
# unless it says why in a `//! Long file:` line (scripts/house.py).
house:
	python3 scripts/house.py

clippy:
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p scalescope-core --features cli --all-targets -- -D warnings

clippy-wasm:
	cargo clippy -p scalescope-app --target $(WASM) -- -D warnings

cargo-test:
	$(KEEP_HEAP) cargo test --workspace
	$(KEEP_HEAP) cargo test -p scalescope-core --features cli --test cli --bin scalescope
	$(KEEP_HEAP) bash scripts/gen-docs.sh --check

# A seeded random-scenario campaign over the parser, evaluation, search and
# sweeps (core/src/bin/fuzz.rs): 10 million evaluations, a short one in make test.
fuzz:
	cargo run --quiet --release -p scalescope-core --features cli --bin fuzz -- --evaluations 10000000

fuzz-short:
	cargo run --quiet --release -p scalescope-core --features cli --bin fuzz -- --evaluations 100000

# Regenerate docs/calibration.md, findings.md and validation.md from the model.
docs:
	$(KEEP_HEAP) bash scripts/gen-docs.sh

# The core must build without std for a bare wasm target.
nostd:
	cargo build -p scalescope-core --no-default-features --target $(WASM)

# trunk's site, then the same build as one file (scripts/classroom.py):
# dist-single/scalescope.html, and a copy in dist/ for the footer's link.
dist:
	trunk build --release --offline
	python3 scripts/classroom.py

# The explorer as one HTML file that opens from disk with no network.
classroom: dist
	@echo "open dist-single/scalescope.html in a browser, or copy it to a USB stick"

size:
	node tests/size-report.mjs

# Where the wasm's bytes go, by function, dominator and crate (docs/size.md).
# Not part of make test; needs twiggy (cargo install twiggy --locked).
size-audit:
	bash scripts/size-audit.sh

# Repaint, load, memory and size budgets in headless Chromium (prints a table;
# fails only when a budget is missed by a wide margin).
budgets:
	@test -f dist/index.html || { echo "dist/index.html missing: run make dist first" >&2; exit 1; }
	cd tests && node budgets.mjs

# The second engine: a smoke test in Firefox ESR (tests/firefox.mjs).
firefox:
	@test -f dist/index.html || { echo "dist/index.html missing: run make dist first" >&2; exit 1; }
	cd tests && node firefox.mjs

e2e:
	@test -f dist/index.html || { echo "dist/index.html missing: run make dist first" >&2; exit 1; }
	cd tests && ./node_modules/.bin/playwright test

screenshot:
	node tests/screenshot.mjs

clean:
	rm -rf dist dist-single tests/out
