#!/usr/bin/env bash
# Regenerates docs/calibration.md, docs/findings.md and docs/validation.md
# from the model.
# With --check, fails when the committed files differ from the model's output.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p scalescope-core --features cli
bin=target/release/scalescope
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
{
  echo "# Calibration table"
  echo
  echo "Printed by \`scalescope calibration\` from \`core/src/calibration.rs\`; every constant of the model that is not a datasheet number."
  echo
  "$bin" calibration
  cat <<'TEXT'

## How the fitted constants were fitted

Datasheet numbers and the NCCL tuning-model latencies are taken as they
are. Four constants are fitted to the paper, jointly rather than one per
finding:

- `RING_STEP_AT_SCALE_FACTOR` and `OVERLAP_BANDWIDTH_SHARE` were swept on a
  grid (factor 1.0 to 2.0, share 0.10 to 0.20) against F1 (per-GPU words
  per second -37.22% from 128 to 2048 H100s, exposure minimal at 128 GPUs)
  and F10 (+52.6% with tensor parallelism at 2048 GPUs). The region where
  both hold within 20% is narrow: factor 1.6 to 1.7 with share 0.13 to
  0.14. The middle of it, 1.6 and 0.13, was taken. F4's 2-node MFU and
  F5's ordering were not fitted; they follow.
- `POWER_FLOOR` and `POWER_COMPUTE_SPAN` were set so that the linear power
  model gives 658 W at 128 H100s, the 38 W fall to 2048 (F1) and the +30 W
  of tensor parallelism at 2048 (F10) at once.

The two fitted communication constants carry the model's main uncertainty:
the paper's FSDP collectives run slower, already at 16 GPUs, than
nccl-tests' standalone bus bandwidth would suggest, and their time grows
with the node count more slowly than NCCL's ring latency alone predicts.
TEXT
} >"$out/calibration.md"
{
  echo "# Paper findings: paper vs model"
  echo
  echo "Printed by \`scalescope findings\`. Stated numbers must land within 20% (relative); shape-only findings must show the stated direction."
  echo
  echo '```'
  "$bin" findings
  echo '```'
} >"$out/findings.md"
{
  echo "# Published training runs: measured vs model"
  echo
  echo "Printed by \`scalescope validate\` from \`core/src/validation.rs\`. None of these runs was used to calibrate the model (the calibration uses only the paper's findings). Each run keeps its published GPU, model shape, context, batch, TP, PP and data-parallel flavour; the micro-batch, pipeline interleaving depth (v) and recomputation, which the authors tuned without publishing, are the best the model finds among a few choices. A run holds when the model lands within 25% of the published number."
  echo
  echo '```'
  "$bin" validate
  echo '```'
  cat <<'TEXT'

Sources:

- Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
  Clusters Using Megatron-LM" (SC'21), Table 1: GPT models on A100 80GB,
  context 2048, full recomputation; TFLOP/s per GPU counting recomputed
  FLOPs, compared with the model's HFU times the bf16 peak.
- Llama Team, "The Llama 3 Herd of Models" (2024), Table 4: Llama 3 405B on
  H100, TP 8, PP 16, context 8192, 16M-token batches; BF16 MFU. The model
  runs it with 128 layers (equal pipeline stages) and the ZeRO-1-like data
  parallelism the paper describes (parameters gathered once per step).

Where it misses: the 1.7B run comes out 25% fast. Its hidden width of 2304
gives GEMMs that run further below peak than the model's per-kernel
overhead alone accounts for; a GEMM-shape efficiency term would close it,
but the paper's findings F8 (smaller models at higher MFU) pull the other
way, so it is left open.
TEXT
} >"$out/validation.md"
if [ "${1:-}" = "--check" ]; then
  status=0
  for f in calibration.md findings.md validation.md; do
    if ! diff -u "docs/$f" "$out/$f"; then
      echo "docs/$f is out of date: run scripts/gen-docs.sh" >&2
      status=1
    fi
  done
  exit $status
fi
cp "$out/calibration.md" "$out/findings.md" "$out/validation.md" docs/
echo "wrote docs/calibration.md docs/findings.md docs/validation.md"
