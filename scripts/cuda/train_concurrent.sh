#!/usr/bin/env bash
# On the GPU machine: one chunk of several training runs at once on the one GPU (the training step
# is host-bound, so two runs share an H100 at little cost to each; compare their steps per second
# in metrics.jsonl with a run alone). Each NAME=CONFIG runs scripts/cuda/train_chunk.sh with
# RUN=/tmp/run-NAME and CK_DIR=CK_ROOT/ck-NAME (CK_ROOT default ship; its carried checkpoint, if
# the run moves to a fresh machine); the same SECONDS, [eval], TRAIN_ARGS, PACK, EVAL_SEEDS and
# EVAL_FROM for all, plus TRAIN_ARGS_NAME and STEPS_NAME for that run alone (e.g.
# TRAIN_ARGS_b="--branch-from /tmp/run-a/kept/step-00001300"). Returns
# to $OUT, per run: NAME.tgz (metrics.jsonl, train_log.txt, state.json, evals.txt) and, unless
# PACK=0, NAME.ck.tar.xz.part-* (mind the 8-file limit on $OUT: two runs with packed checkpoints
# need about 2 x 4 parts).
#
#   RUNS="a=scripts/cuda/x.toml b=scripts/cuda/y.toml" \
#     bash ship/run.sh bash scripts/cuda/train_concurrent.sh SECONDS [eval]
set -uo pipefail
secs=$1
mode=${2:-}
out=${OUT:-/tmp/silot-out}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
pids=()
for spec in ${RUNS:?set RUNS="NAME=CONFIG ..."}; do
  name=${spec%%=*}
  cfg=${spec#*=}
  rm -rf "/tmp/out-$name" && mkdir -p "/tmp/out-$name"
  extra_var=TRAIN_ARGS_$name steps_var=STEPS_$name
  OUT=/tmp/out-$name RUN=/tmp/run-$name CK_DIR=${CK_ROOT:-ship}/ck-$name \
    TRAIN_ARGS="${TRAIN_ARGS:-} ${!extra_var:-}" STEPS=${!steps_var:-${STEPS:-10000000}} \
    bash "$here/train_chunk.sh" "$cfg" "$secs" $mode >"/tmp/out-$name/stdout.txt" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for spec in $RUNS; do
  name=${spec%%=*}
  d=/tmp/out-$name
  for part in "$d"/ck.tar.xz.part-*; do
    [ -f "$part" ] && mv "$part" "$out/$name.${part##*/}"
  done
  tar -C "$d" -czf "$out/$name.tgz" .
  echo "== $name"; tail -3 "$d/stdout.txt"
done
ls -la "$out"
