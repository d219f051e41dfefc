#!/usr/bin/env bash
# On the GPU machine (after scripts/cuda/pack.sh; run from the repository root): the precision
# modes side by side, two interleaved rounds each — GPU unit tests, B 256 inference with
# `--tf32`, `--tf32 --half-backbone` (the reduced-precision mode) and `--tf32
# --fused-dense-always` (cuBLASLt dense layers without the f16 backbone), and the training step
# (B 16 and 64, Scattered MNIST and Space Invaders crops, at schedule step 5,000: past the
# training wheels) in f32, TF32, and TF32 with the cuBLASLt dense layers in training too, and
# once at step 0 (wheels on: a smaller backward pass). Writes $OUT/precision.txt.
#
#   bash ship/run.sh bash scripts/cuda/bench_precision.sh
set -uo pipefail
out=${OUT:-/tmp/silot-out}
mkdir -p "$out"
log=$out/precision.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$log"
timeout 120 test-lib --test-threads 4 2>&1 | grep -E "fused_dense|half_|FAILED|panicked|test result" >>"$log"
for i in 1 2; do
  for flags in "--tf32" "--tf32 --half-backbone" "--tf32 --fused-dense-always"; do
    row=$(gpu_bench --device cuda --only infer --batches 256 --iters 30 $flags 2>&1 | grep -E "^\| *256")
    echo "round $i, inference $flags: $row" >>"$log"
  done
done
for i in 1 2; do
  for flags in "" "--tf32" "--tf32 --fused-dense-always"; do
    echo "== round $i, training step ${flags:-f32}" >>"$log"
    gpu_bench --device cuda --only train --train-batches 16,64 --iters 5 $flags 2>&1 |
      grep -E "^\| (Space|Scattered)" >>"$log"
  done
done
echo "== training step f32 at schedule step 0 (training wheels on)" >>"$log"
gpu_bench --device cuda --only train --train-batches 16,64 --iters 5 --train-at-step 0 2>&1 |
  grep -E "^\| (Space|Scattered)" >>"$log"
cat "$log"
