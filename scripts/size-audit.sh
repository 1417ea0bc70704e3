#!/usr/bin/env bash
# Where the site's wasm bytes go (docs/size.md): the site's build (profile web) as
# shipped, but with function names kept, read by twiggy.
#
#   scripts/size-audit.sh        (make size-audit)
#
# Needs twiggy, which scripts/setup.sh does not install:
#   cargo install twiggy --locked
set -euo pipefail

export PATH="$HOME/.cargo/bin:$PATH"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

for tool in twiggy wasm-bindgen python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    case "$tool" in
      twiggy) echo "size-audit: twiggy not found; install it with: cargo install twiggy --locked" >&2 ;;
      wasm-bindgen) echo "size-audit: wasm-bindgen not found; run: make build-tools" >&2 ;;
      *) echo "size-audit: $tool not found" >&2 ;;
    esac
    exit 1
  fi
done

# Its own target directory: the web profile with names kept is a
# different build, and sharing target/ would rebuild the shipped one after.
TARGET_DIR="target/size-audit"
OUT="$TARGET_DIR/bindgen"
WASM="$OUT/scalescope-app_bg.wasm"

# The site's profile (`web`, which app/index.html names), with names kept.
CARGO_TARGET_DIR="$TARGET_DIR" CARGO_PROFILE_WEB_STRIP=false CARGO_PROFILE_WEB_DEBUG=false \
  cargo build -p scalescope-app --profile web --target wasm32-unknown-unknown
rm -rf "$OUT"
# As trunk runs it (no wasm-opt), so the code is the shipped code plus names.
wasm-bindgen --target web --out-dir "$OUT" "$TARGET_DIR/wasm32-unknown-unknown/web/scalescope-app.wasm"

echo
echo "== largest items (twiggy top -n 30)"
twiggy top -n 30 "$WASM"
echo
echo "== what keeps what (twiggy dominators -d 3, first 40 lines)"
twiggy dominators -d 3 -o "$OUT/dominators.txt" "$WASM"
head -n 40 "$OUT/dominators.txt"
echo
echo "== by crate and by workspace module (twiggy top --format csv, summed)"
twiggy top -n 100000 --format csv -o "$OUT/top.csv" "$WASM"
python3 scripts/size-by-crate.py < "$OUT/top.csv"
echo
echo "Full listings: $OUT/top.csv and $OUT/dominators.txt"
