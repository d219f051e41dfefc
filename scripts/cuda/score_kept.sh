#!/usr/bin/env bash
# One device call: score the kept checkpoints (`--keep-every`, RUN/kept/step-N) and the last
# checkpoint of runs under /tmp/r (left there by scripts/cuda/train_side_by_side.sh on a machine
# still warm) with one `silot eval` each, PAR at a time on the GPU, and bring every report back
# as ONE file, $OUT/scores.tgz (the device returns at most 8 files: one report per file would be
# lost beyond that).
#
#   PAR=6 bash scripts/cuda/score_kept.sh NAME [NAME ...] -- EVAL_ARGS...
#
# EVAL_ARGS: everything of `silot eval` but --checkpoint, --device and --json, e.g.
#   --env conditions/mnist_1_12_streams.toml --tracker silot --clips 16 --frames 1000 --window 100 --seed 9300000
# Reports: scores/NAME-step-NNNNNNNN.json and scores/NAME-last.json (+ .log); a report already
# there is not scored again. Prints one line per report: name, step, MOTA.
# Needs ship/ (scripts/cuda/pack.sh) carried; run with `run ... carry ["ship", "runs"]`.
# DEVICE=cpu SHIP=0 (the `silot` on PATH) and RUNS=DIR try it on the dev box.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:?set by the device machine}
PAR=${PAR:-6}
RUNS=${RUNS:-/tmp/r}
names=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do names+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#names[@]} -gt 0 ] && [ $# -gt 0 ] || {
  echo "usage: score_kept.sh NAME [NAME ...] -- EVAL_ARGS..." >&2
  exit 2
}
DEVICE=${DEVICE:-cuda}
if [ "${SHIP:-1}" = 1 ]; then
  bash ship/run.sh true
  export PATH=/tmp/silot-ship/bin:$PATH
fi
S=/tmp/scores
mkdir -p "$S"
t0=$(date +%s)
score() { # REPORT_NAME CHECKPOINT_DIR EVAL_ARGS...
  local name=$1 ckpt=$2
  shift 2
  [ -f "$S/$name.json" ] && return
  silot eval "$@" --checkpoint "$ckpt" --device "$DEVICE" --json "$S/$name.json" >"$S/$name.log" 2>&1 ||
    echo "$name: eval failed (rc=$?), see $name.log"
}
jobs_list=()
for n in "${names[@]}"; do
  [ -d "$RUNS/$n" ] || echo "$n: no run directory $RUNS/$n"
  for k in "$RUNS/$n"/kept/step-*; do
    [ -d "$k" ] && jobs_list+=("$n-$(basename "$k")=$k")
  done
  [ -d "$RUNS/$n/checkpoint" ] && jobs_list+=("$n-last=$RUNS/$n/checkpoint")
done
running=0
for j in "${jobs_list[@]}"; do
  score "${j%%=*}" "${j#*=}" "$@" &
  running=$((running + 1))
  if [ "$running" -ge "$PAR" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
for j in "${jobs_list[@]}"; do
  name=${j%%=*}
  step=$(grep -o '"step": *[0-9]*' "$S/$name.json" 2>/dev/null | head -1 | grep -o '[0-9]*$')
  mota=$(grep -o '"mota": *[-0-9.e]*' "$S/$name.json" 2>/dev/null | head -1 | sed 's/.*: *//')
  echo "$name step ${step:-?} MOTA ${mota:-?}"
done
tar -C /tmp -czf "$OUT/scores.tgz" scores
echo "${#jobs_list[@]} reports in $(($(date +%s) - t0)) s -> scores.tgz"
