#!/usr/bin/env bash
# On the GPU machine (after scripts/cuda/pack.sh; run from the repository root): train or resume
# a SILOT run for a wall-clock budget, then optionally score it with `silot eval`, and copy what
# should come back (metrics, logs, the eval report, the model weights split into <16 MiB parts)
# to $OUT (at most 7 files).
#
#   bash ship/run.sh bash scripts/cuda/train_eval.sh RUN_DIR SECONDS [EVAL_SEED [EVAL_CLIPS]]
#
# CONFIG (default ship/si_gpu.toml) is the experiment; SECONDS bounds training (`silot train
# --time-limit`: it stops after the step that crosses it, writes a checkpoint, and the next call
# resumes there). EVAL_SEED: seed of the evaluation clips, never used in training. Weights parts rejoin with `cat weights.part-* > weights.safetensors`.
set -uo pipefail
run=$1
secs=$2
eval_seed=${3:-}
eval_clips=${4:-32}
cfg=${CONFIG:-ship/si_gpu.toml}
out=${OUT:-/tmp/silot-out}
mkdir -p "$out" "$run"

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/train_log.txt"
if [ "$secs" -gt 0 ]; then
  (while sleep 60; do nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader; done) \
    >"$run/gpu_usage.txt" &
  mon=$!
  # --time-limit stops after the step that crosses SECONDS and writes a checkpoint (no steps
  # lost); `timeout` only guards against a hang.
  timeout "$((secs + 300))" silot train --config "$cfg" --out "$run" --device cuda \
    --steps 10000000 --time-limit "$secs" >>"$out/train_log.txt" 2>&1
  echo "train exit $? after a ${secs}s budget" >>"$out/train_log.txt"
  kill "$mon" 2>/dev/null
  { echo "GPU memory used, utilisation (every 60 s):"; cat "$run/gpu_usage.txt"; } >>"$out/train_log.txt"
fi
cp "$run/metrics.jsonl" "$out/metrics.jsonl" 2>/dev/null

# The weights to score and bring back: best/ if validation ran, else checkpoint/.
src=$run/best
[ -f "$src/state.json" ] || src=$run/checkpoint

if [ -n "$eval_seed" ]; then
  silot eval --env "$cfg" --tracker silot --checkpoint "$src" --device cuda \
    --clips "$eval_clips" --seed "$eval_seed" --json "$out/eval.json" >>"$out/train_log.txt" 2>&1
  echo "eval exit $?" >>"$out/train_log.txt"
fi

if [ -f "$src/weights.safetensors" ]; then
  split -b 15M -d "$src/weights.safetensors" "$out/weights.part-"
  cp "$src/state.json" "$out/state.json"
  cp "$run/config.toml" "$out/config.toml" 2>/dev/null
fi
ls -la "$out"
