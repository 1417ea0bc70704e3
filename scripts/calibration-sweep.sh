#!/usr/bin/env bash
# Re-runs the paper's findings and the published-run check with some
# calibration constants changed, to show what each constant moves.
#
#   scripts/calibration-sweep.sh "OVERLAP_BANDWIDTH_SHARE=0.2" \
#       "OVERLAP_BANDWIDTH_SHARE=0.1 NCCL_CHANNELS=32.0"
#
# Each argument is one setting: space-separated NAME=VALUE pairs naming
# `pub const NAME: f64` items of core/src/calibration.rs. The working tree is
# left alone: every setting is built from a copy of the sources under
# target/calibration-sweep/. For each setting it prints how many findings
# hold, which fail, the findings' stated numbers and the published-run tally.
#
#   scripts/calibration-sweep.sh --patch docs/experiments/two-pace.patch \
#       "OVERLAP_BANDWIDTH_SHARE=0.06 RING_STEP_AT_SCALE_FACTOR=2.5"
#
# With --patch, a mechanism tried and kept out of the model (a patch of
# the sources, under docs/experiments/) is applied to the copy first.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
patch=
if [ "$1" = --patch ]; then
  patch=$(realpath "$2")
  shift 2
fi
scratch=target/calibration-sweep
rm -rf "$scratch/src"
mkdir -p "$scratch/src"
# The tracked files as they are in the working tree.
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$scratch/src"
if [ -n "$patch" ]; then
  (cd "$scratch/src" && patch -s -p1 < "$patch")
fi
cal="$scratch/src/core/src/calibration.rs"
cp "$cal" "$scratch/calibration.rs.orig"
export CARGO_TARGET_DIR="$PWD/$scratch/target"
for setting in "$@"; do
  cp "$scratch/calibration.rs.orig" "$cal"
  for pair in $setting; do
    name=${pair%%=*}
    value=${pair#*=}
    if ! grep -Eq "^pub const $name: f64 = " "$cal"; then
      echo "no f64 constant named $name in core/src/calibration.rs" >&2
      exit 1
    fi
    sed -i -E "s/^(pub const $name: f64 = )[^;]*;/\1$value;/" "$cal"
  done
  (cd "$scratch/src" && cargo build --quiet --release -p scalescope-core --features cli)
  bin="$CARGO_TARGET_DIR/release/scalescope"
  findings=$("$bin" findings)
  failing=$(echo "$findings" | grep -E '^F[0-9]+ \[FAILS\]' | cut -d' ' -f1 | tr '\n' ' ')
  validate=$("$bin" validate)
  echo "== $setting: $(echo "$findings" | tail -1); failing: ${failing:-none}; $(echo "$validate" | tail -1)"
  echo "$validate" | grep -E '^  (fitted on|held out) ' | sed 's/^  /    published runs /'
  echo "$validate" | grep -E '^  (megatron-bridge-moe|fp8 runs \()' | sed -E 's/^  +/    /; s/ +left out.*//'
  echo "$findings" | grep -E '^   number:' | sed 's/^   number:/   /'
done
