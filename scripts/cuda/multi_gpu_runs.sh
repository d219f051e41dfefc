#!/usr/bin/env bash
# On a GPU machine with several GPUs: one chunk of several training runs, each alone on its own GPU
# (CUDA_VISIBLE_DEVICES), all stopping at one deadline SECONDS from now. Re-running the same
# command on the same warm machine resumes every run (they live in RUN_ROOT/NAME, default
# RUN_ROOT=/tmp/mgr); a run already at its last step is left alone.
#
# RUNS="NAME=SPEC ..." with SPEC either CONFIG (one config to STEPS, default 6267) or
# CONFIG1@STEP1+CONFIG2: CONFIG1 to STEP1 in NAME/phase1, then CONFIG2 `--branch-from` it to STEPS
# in NAME/phase2 (as scripts/cuda/recipe_30min.sh). The i-th run gets the i-th GPU (mod their
# count) of CUDA_VISIBLE_DEVICES if set (e.g. "1": all on GPU 1), else of the host.
# TRAIN_ARGS (e.g. "--keep-every 100") go to every `silot train`, TRAIN_ARGS_NAME to that run's
# only (e.g. TRAIN_ARGS_c0="--composed-ops"); DEVICE (default cuda) is their device. Each run's
# log and metrics stay in its directory; the wall-clock seconds each run has spent in `silot
# train` (over all chunks, start-up included) are summed in NAME/train_seconds.
#
#   RUNS="a=x.toml@4671+y.toml b=y.toml" bash ship/run.sh bash scripts/cuda/multi_gpu_runs.sh 560
set -uo pipefail
secs=${1:?usage: multi_gpu_runs.sh SECONDS}
root=${RUN_ROOT:-/tmp/mgr}
steps=${STEPS:-6267}
deadline=$(($(date +%s) + secs))
source "$(dirname "$0")/common.sh"  # step_of, host_gpu_count
# The GPUs to spread the runs over: those CUDA_VISIBLE_DEVICES names, else every GPU of the host.
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  IFS=, read -ra gpus <<<"$CUDA_VISIBLE_DEVICES"
else
  gpus=($(seq 0 $(($(host_gpu_count) - 1))))
fi
mkdir -p "$root"

# silot train (appending to the log LOG, then ARGS...) until the deadline; its seconds are
# appended to LOG.seconds.
train_until_deadline() {
  local log=$1
  shift
  local left=$((deadline - $(date +%s)))
  [ "$left" -gt 20 ] || return 0
  local t0
  t0=$(date +%s)
  silot train --device "${DEVICE:-cuda}" --time-limit "$((left - 15))" ${TRAIN_ARGS:-} \
    ${RUN_ARGS:-} "$@" >>"$log" 2>&1
  echo "train exit $? at $(date)" >>"$log"
  echo $(($(date +%s) - t0)) >>"$log.seconds"
}

# One run: NAME SPEC.
one_run() {
  local name=$1 spec=$2 dir=$root/$1
  mkdir -p "$dir"
  if [[ $spec == *@*+* ]]; then
    local c1=${spec%%@*} rest=${spec#*@}
    local s1=${rest%%+*} c2=${rest#*+}
    if [ "$(step_of "$dir/phase1")" -lt "$s1" ]; then
      train_until_deadline "$dir/log.txt" --config "$c1" --out "$dir/phase1" --steps "$s1"
    fi
    if [ "$(step_of "$dir/phase1")" -ge "$s1" ] && [ "$(step_of "$dir/phase2")" -lt "$steps" ]; then
      local from=()
      [ -f "$dir/phase2/checkpoint/state.json" ] || from=(--branch-from "$dir/phase1/checkpoint")
      train_until_deadline "$dir/log.txt" --config "$c2" --out "$dir/phase2" --steps "$steps" "${from[@]}"
    fi
  elif [ "$(step_of "$dir/run")" -lt "$steps" ]; then
    train_until_deadline "$dir/log.txt" --config "$spec" --out "$dir/run" --steps "$steps"
  fi
  awk '{s += $1} END {print s + 0}' "$dir/log.txt.seconds" 2>/dev/null >"$dir/train_seconds"
}

i=0
pids=()
for item in ${RUNS:?set RUNS="NAME=SPEC ..."}; do
  extra=TRAIN_ARGS_${item%%=*}
  CUDA_VISIBLE_DEVICES=${gpus[$((i % ${#gpus[@]}))]} RUN_ARGS=${!extra:-} one_run "${item%%=*}" "${item#*=}" &
  pids+=($!)
  i=$((i + 1))
done
for p in "${pids[@]}"; do wait "$p"; done
for item in $RUNS; do
  name=${item%%=*}
  echo "== $name: $(cat "$root/$name/train_seconds") s in silot train; phase1 $(step_of "$root/$name/phase1")," \
    "phase2 $(step_of "$root/$name/phase2"), run $(step_of "$root/$name/run")"
  tail -2 "$root/$name/log.txt"
done
