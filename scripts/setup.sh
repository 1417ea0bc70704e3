#!/usr/bin/env bash
# Installs the tools the build and the tests need, skipping whatever is
# already present at the right version, so a second run is quick and offline
# (apart from nothing: every check below is local).
#
#   scripts/setup.sh build-tools   wasm32 target, trunk, wasm-bindgen-cli
#   scripts/setup.sh test-tools    build-tools + chromium/chromedriver + firefox-esr + npm ci in tests/
#   scripts/setup.sh versions      print what is installed
#
# twiggy, which only `make size-audit` uses, is not installed here:
# cargo install twiggy --locked (docs/size.md).
set -euo pipefail

export PATH="$HOME/.cargo/bin:$PATH"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

TRUNK_VERSION="0.21.14"
WASM_TARGET="wasm32-unknown-unknown"
CHROMIUM="/usr/bin/chromium"
CHROMEDRIVER="/usr/bin/chromedriver"

log() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

need() {
  command -v "$1" >/dev/null 2>&1 || die "$1 not found on PATH ($2)"
}

# The wasm-bindgen version pinned in Cargo.lock; wasm-bindgen-cli must match it exactly.
wasm_bindgen_lock_version() {
  awk '
    /^\[\[package\]\]/ { in_wb = 0 }
    /^name = "wasm-bindgen"$/ { in_wb = 1; next }
    in_wb && /^version = / { gsub(/"/, "", $3); print $3; exit }
  ' Cargo.lock
}

# Version printed by "<tool> --version" as its second word, or empty when absent.
tool_version() {
  if command -v "$1" >/dev/null 2>&1; then
    "$1" --version 2>/dev/null | awk 'NR == 1 { print $2 }'
  fi
}

# Another "cargo install <crate>" already building (e.g. started by hand)?
# Wait for it instead of compiling the same thing twice on a small machine.
wait_for_other_install() {
  local crate="$1" waited=0
  command -v pgrep >/dev/null 2>&1 || return 0
  while pgrep -f "cargo install ${crate}( |$)" >/dev/null 2>&1; do
    if [ "$waited" -eq 0 ]; then
      log "another 'cargo install ${crate}' is running; waiting for it to finish"
    fi
    sleep 10
    waited=$((waited + 10))
  done
}

ensure_rust() {
  need cargo "install Rust with rustup"
  need rustup "install Rust with rustup"
  # rustfmt and clippy are listed in rust-toolchain.toml; make sure they are there.
  local comp
  for comp in rustfmt clippy; do
    if ! rustup component list --installed 2>/dev/null | grep -q "^${comp}"; then
      log "installing rust component ${comp}"
      rustup component add "${comp}"
    fi
  done
  if rustup target list --installed 2>/dev/null | grep -qx "${WASM_TARGET}"; then
    log "ok: rust target ${WASM_TARGET}"
  else
    log "installing rust target ${WASM_TARGET}"
    rustup target add "${WASM_TARGET}"
  fi
}

ensure_trunk() {
  local have
  have="$(tool_version trunk)"
  if [ "$have" != "$TRUNK_VERSION" ]; then
    wait_for_other_install trunk
    have="$(tool_version trunk)"
  fi
  if [ "$have" = "$TRUNK_VERSION" ]; then
    log "ok: trunk ${have}"
    return
  fi
  log "installing trunk ${TRUNK_VERSION} (found: ${have:-none}); this takes about 10 minutes"
  cargo install trunk --version "${TRUNK_VERSION}" --locked
  [ "$(tool_version trunk)" = "$TRUNK_VERSION" ] || die "trunk ${TRUNK_VERSION} not on PATH after install"
}

ensure_wasm_bindgen() {
  local want have
  want="$(wasm_bindgen_lock_version)"
  [ -n "$want" ] || die "no wasm-bindgen entry in Cargo.lock"
  have="$(tool_version wasm-bindgen)"
  if [ "$have" != "$want" ]; then
    wait_for_other_install wasm-bindgen-cli
    have="$(tool_version wasm-bindgen)"
  fi
  if [ "$have" = "$want" ]; then
    log "ok: wasm-bindgen ${have} (matches Cargo.lock)"
    return
  fi
  log "installing wasm-bindgen-cli ${want} (found: ${have:-none}); this takes a few minutes"
  # No --locked: the crate's own lock file pins a transitive crate that is
  # no longer in the registry, so only a fresh resolution installs.
  cargo install wasm-bindgen-cli --version "${want}" --force
  [ "$(tool_version wasm-bindgen)" = "$want" ] || die "wasm-bindgen ${want} not on PATH after install"
}

ensure_chromium() {
  if [ -x "$CHROMIUM" ] && [ -x "$CHROMEDRIVER" ]; then
    log "ok: chromium and chromedriver in /usr/bin"
    return
  fi
  need apt-get "chromium comes from Debian packages"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    need sudo "root is needed for apt-get"
    sudo="sudo"
  fi
  log "installing chromium and chromium-driver with apt-get"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium chromium-driver
  [ -x "$CHROMIUM" ] || die "$CHROMIUM missing after apt-get install"
}

FIREFOX="/usr/bin/firefox-esr"

# The second engine of the smoke test (tests/firefox.mjs): Debian's Firefox ESR.
ensure_firefox() {
  if [ -x "$FIREFOX" ]; then
    log "ok: firefox-esr in /usr/bin"
    return
  fi
  need apt-get "firefox-esr comes from Debian packages"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    need sudo "root is needed for apt-get"
    sudo="sudo"
  fi
  log "installing firefox-esr with apt-get"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends firefox-esr
  [ -x "$FIREFOX" ] || die "$FIREFOX missing after apt-get install"
}

ensure_node_modules() {
  need node "node 20 or newer is required"
  need npm "npm comes with node"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$major" -ge 20 ] || die "node ${major} is too old; 20 or newer is required"

  local stamp="tests/node_modules/.lock-sha256" want have=""
  want="$(sha256sum tests/package-lock.json | awk '{ print $1 }')"
  [ -f "$stamp" ] && have="$(cat "$stamp")"
  if [ -d tests/node_modules ] && [ "$have" = "$want" ]; then
    log "ok: tests/node_modules (package-lock.json unchanged)"
    return
  fi
  log "running npm ci in tests/"
  # Never download Playwright's own browsers: the tests use Debian's chromium.
  (cd tests && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund)
  echo "$want" > "$stamp"
}

versions() {
  printf '%-14s %s\n' rustc "$(rustc --version 2>/dev/null || echo none)"
  printf '%-14s %s\n' trunk "$(tool_version trunk || true)"
  printf '%-14s %s (Cargo.lock wants %s)\n' wasm-bindgen "$(tool_version wasm-bindgen || true)" "$(wasm_bindgen_lock_version)"
  printf '%-14s %s\n' chromium "$("$CHROMIUM" --version 2>/dev/null | tail -n 1 || echo none)"
  printf '%-14s %s\n' firefox "$("$FIREFOX" --version 2>/dev/null || echo none)"
  printf '%-14s %s\n' node "$(node --version 2>/dev/null || echo none)"
  local twiggy
  twiggy="$(tool_version twiggy || true)"
  printf '%-14s %s (make size-audit only)\n' twiggy "${twiggy:-none}"
}

case "${1:-}" in
  build-tools)
    ensure_rust
    ensure_trunk
    ensure_wasm_bindgen
    ;;
  test-tools)
    ensure_rust
    ensure_trunk
    ensure_wasm_bindgen
    ensure_chromium
    ensure_firefox
    ensure_node_modules
    ;;
  versions)
    versions
    ;;
  *)
    echo "usage: $0 {build-tools|test-tools|versions}" >&2
    exit 2
    ;;
esac
