#!/usr/bin/env bash
# On the GPU machine (after scripts/cuda/pack.sh; run from the repository root): where the Space
# Invaders training step (72x72 crops, K 36, T 8, B 64, schedule step 5,000) spends its time —
# host-time spans (forward / backward / optimizer and the model's parts) and the kernel launches
# per step by kernel name, counted by an LD_PRELOAD shim (scripts/cuda/launch_count.c, built on
# the build machine into ship/liblaunch_count.so) and differenced over two run lengths.
# Writes $OUT/profile_train.txt and $OUT/launches.md.
#
#   bash ship/run.sh bash scripts/cuda/profile_train.sh [extra gpu_bench args, e.g. --tf32]
set -uo pipefail
out=${OUT:-/tmp/silot-out}
mkdir -p "$out"
log=$out/profile_train.txt
args=(--device cuda --train-sets invaders --train-batches 64 "$@")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$log"
gpu_bench "${args[@]}" --iters 5 --only train,breakdown >>"$log" 2>&1
shim=$PWD/ship/liblaunch_count.so
if [ -f "$shim" ]; then
  for n in 2 7; do
    LD_PRELOAD=$shim gpu_bench "${args[@]}" --only train --iters $n >"$out/launch_$n.txt" 2>&1
  done
  python3 scripts/cuda/launch_diff.py "$out/launch_2.txt" 2 "$out/launch_7.txt" 7 >"$out/launches.md"
  grep -E "^\\| Space" "$out/launch_7.txt" >>"$log"
  rm -f "$out"/launch_[27].txt
  head -40 "$out/launches.md"
fi
cat "$log"
