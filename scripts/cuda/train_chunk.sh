#!/usr/bin/env bash
# On the GPU machine: one chunk of a training run that may move between machines (a machine goes
# back after 30 minutes held and takes /tmp with it). The run lives in RUN (default /tmp/si30);
# on a fresh machine it is first restored from the previous chunk's full checkpoint, carried in
# CK_DIR (default ship/ck) as ck.tar.xz.part-*. Returns to $OUT: metrics.jsonl (this chunk's
# lines), train_log.txt, state.json and the full checkpoint (weights + Adam state, xz, 15 MiB
# parts; rejoin with `cat ck.tar.xz.part-* | xz -dc | tar -xf -`); with "eval", also
# evals.txt (`silot eval` on EVAL_SEEDS, default 1000 2000 3000, never used in training). At
# most 8 files. TRAIN_ARGS (default empty) are added to `silot train`, e.g. "--start-stage 2" or
# "--keep-every 250" (full checkpoints kept in RUN/kept/: with "eval", each kept one is scored too,
# so several points of a run's end can be compared without bringing them back). On a machine that
# stays warm for the next chunk, PACK=0 skips packing the checkpoint; kept checkpoints already
# scored by an earlier chunk (listed in RUN/scored.txt) are not scored again, nor those before
# step EVAL_FROM (default 0). STEPS (default 10000000) caps the run's global step.
#
#   bash ship/run.sh bash scripts/cuda/train_chunk.sh CONFIG SECONDS [eval]
set -uo pipefail
cfg=$1
secs=$2
out=${OUT:-/tmp/silot-out}
run=${RUN:-/tmp/si30}
ck=${CK_DIR:-ship/ck}
mkdir -p "$out" "$run"
if [ ! -f "$run/checkpoint/state.json" ] && ls "$ck"/ck.tar.xz.part-* >/dev/null 2>&1; then
  cat "$ck"/ck.tar.xz.part-* | xz -dc | tar -C "$run" -xf - &&
    echo "restored step $(grep -m1 '"step"' "$run/checkpoint/state.json")" >>"$run/train_log.txt"
fi
[ -f "$run/checkpoint/state.json" ] || echo "fresh run (no checkpoint yet)" >>"$run/train_log.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$run/train_log.txt"
: >"$run/metrics.jsonl"
if [ "$secs" -gt 0 ]; then
  # --time-limit stops after the step that crosses SECONDS and writes a checkpoint.
  timeout "$((secs + 90))" silot train --config "$cfg" --out "$run" --device cuda \
    --steps "${STEPS:-10000000}" --time-limit "$secs" ${TRAIN_ARGS:-} >>"$run/train_log.txt" 2>&1
  echo "train exit $? ($(date))" >>"$run/train_log.txt"
  cp "$run/metrics.jsonl" "$out/metrics.jsonl"
  if [ "${PACK:-1}" != 0 ]; then
    tar -C "$run" -cf - checkpoint config.toml | xz -T0 -1 | split -b 15M -d - "$out/ck.tar.xz.part-"
  fi
fi
if [ "${3:-}" = eval ]; then
  # The latest checkpoint (the one returned), not best/ (the best validation of the stage),
  # which `--checkpoint "$run"` would pick once a validation is eligible; then any kept ones.
  touch "$run/scored.txt"
  for ck in "$run/checkpoint" "$run"/kept/step-*; do
    [ -f "$ck/state.json" ] || continue
    case $ck in
      */kept/step-*)
        grep -qx "$ck" "$run/scored.txt" && continue
        [ "$((10#${ck##*step-}))" -ge "${EVAL_FROM:-0}" ] || continue
        echo "$ck" >>"$run/scored.txt" ;;
    esac
    for seed in ${EVAL_SEEDS:-1000 2000 3000}; do
      silot eval --env "$cfg" --tracker silot --checkpoint "$ck" --device cuda \
        --clips 32 --seed $seed --json "$run/eval.json" >>"$run/train_log.txt" 2>&1
      { echo "== $(basename "$ck") seed $seed (exit $?)"; cat "$run/eval.json"; echo; } >>"$out/evals.txt"
    done
  done
fi
cp "$run/train_log.txt" "$out/train_log.txt"
cp "$run/checkpoint/state.json" "$out/state.json"
ls -la "$out"; tail -4 "$run/train_log.txt"
