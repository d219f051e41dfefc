#!/usr/bin/env bash
# On the GPU machine (after scripts/cuda/pack.sh; run from the repository root): GPU time per
# kernel of one SILOT inference step (Space Invaders 195x160, K = 128) measured by Nsight Compute
# (`ncu`, one metric: gpu__time_duration), summarised per kernel name by
# scripts/cuda/ncu_summary.py. Files land in $OUT: ncu.csv (raw), ncu_summary.md, the bench log.
#
#   bash ship/run.sh bash scripts/cuda/profile_infer.sh [BATCH [extra gpu_bench args, e.g. --tf32]]
#
# gpu_bench runs 4 steps here (one evaluation step for a realistic state, 2 warm-ups, 1 timed);
# the summary covers the last complete encode step. Every kernel is replayed under ncu, so this
# takes a minute or two; the timings are per kernel, without launch gaps.
set -euo pipefail
batch=${1:-256}
shift || true
out=${OUT:-/tmp/silot-out}
mkdir -p "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "ncu (Nsight Compute) not found" >&2; exit 1; }
"$ncu" --clock-control none --metrics gpu__time_duration.sum --csv --print-units base --log-file "$out/ncu.csv" \
  gpu_bench --only infer --batches "$batch" --iters 1 "$@" >"$out/ncu_bench_log.txt" 2>&1
python3 scripts/cuda/ncu_summary.py "$out/ncu.csv" >"$out/ncu_summary.md"
head -50 "$out/ncu_summary.md"
