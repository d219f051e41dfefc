#!/usr/bin/env bash
# One best-of-seeds recipe (scripts/cuda/recipe_best_of_seeds.sh) per GPU, each resumable, each
# starting again with its spare seeds (in RUN_ROOT_BASE/rG2) when every seed of its first draw
# boxes aliens in pairs (the recipe's exit status 3). All stop at one deadline SECONDS from now;
# the same command on the same warm machine resumes them.
#
#   RECIPES="31,32/35,36 33,34/37,38" bash ship/run.sh bash scripts/cuda/recipe_per_gpu.sh SECONDS
#
# With ARMS (recipe_best_of_seeds.sh: phase-2 configs branched beside CONFIG2 from the same
# phase-1 checkpoint), recipe i's arms run on GPU i + ARM_GPU_OFFSET (default 0: its own GPU),
# e.g. two recipes on a 4-GPU host with ARM_GPU_OFFSET=2: the arms on GPUs 2 and 3.
# RECIPES: one entry per GPU (GPU GPU_OFFSET + i gets the i-th, as recipe rG; GPU_OFFSET default
# 0), SEEDS/SPARE_SEEDS comma-separated: two instances with their own RUN_ROOT_BASE, PATH (which
# `silot`) and GPU_OFFSET run two builds side by side on one host. The
# recipe's own variables (SELECT_STEP, MAX_BOX_WIDTH, STEPS, TRAIN_ARGS, SHARE, CONFIG1, ...)
# pass through (SELECT_STEP 2000 as the recipe's default: box width tells pairs runs apart from
# there on; benches/results/cuda_train_space_invaders_session18.md). Runs live in RUN_ROOT_BASE
# (default /tmp/rpg)/rG, logs in RUN_ROOT_BASE/rG.out. With OUT set (the GPU machine's output
# folder) the logs (no weights) go to OUT/logs_TAG.tgz (TAG default: the time), and with
# WEIGHTS=1 each finished or latest winner's weights to OUT/wrG*.tar.xz.part-* (15 MiB parts).
# A winner packs to ~18.5 MiB (two parts) and the GPU machine returns at most 8 files and 64 MiB
# in all, so one call brings back three winners: on a 4-GPU host name them, e.g. WEIGHTS="r0 r1
# r2", and fetch the rest with a second, short call (WEIGHTS="r3" ... recipe_per_gpu.sh 0, which
# trains nothing). The twentieth session lost a fourth winner's last part to that limit.
set -uo pipefail
secs=${1:?usage: recipe_per_gpu.sh SECONDS}
here=$(cd "$(dirname "$0")" && pwd)
t0=$(date +%s)
base=${RUN_ROOT_BASE:-/tmp/rpg}
mkdir -p "$base"
# The cards and their driver, for the results file (in the logs; empty on a CPU test run).
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader >>"$base/gpu.txt" 2>/dev/null

# One recipe: GPU SEEDS SPARE_SEEDS (space-separated lists).
recipe() {
  local gpu=$1 name=r$1 root=$base/r$1 seeds=$2
  if [ -f "$base/$name.spare" ]; then root=$base/${name}2 seeds=$3; fi
  local left=$((t0 + secs - $(date +%s)))
  [ "$left" -gt 20 ] || return 0
  local arm_gpus=""
  [ -n "${ARMS:-}" ] && arm_gpus=$gpu,$((gpu + ${ARM_GPU_OFFSET:-0}))
  CUDA_VISIBLE_DEVICES=$gpu SELECT_STEP=${SELECT_STEP:-2000} SEEDS="$seeds" RUN_ROOT=$root \
    ARM_GPUS=$arm_gpus \
    bash "$here/recipe_best_of_seeds.sh" "$left" >>"$base/$name.out" 2>&1
  local rc=$?
  echo "== $name ($root, seeds $seeds) exit $rc at $(date +%T)" >>"$base/$name.out"
  if [ "$rc" = 3 ] && [ ! -f "$base/$name.spare" ] && [ -n "$3" ]; then
    touch "$base/$name.spare"
    recipe "$@"
  fi
}

gpu=${GPU_OFFSET:-0}
for entry in ${RECIPES:?set RECIPES="SEEDS/SPARE_SEEDS ..." e.g. "31,32/35,36 33,34/37,38"}; do
  spare=""
  [[ $entry == */* ]] && spare=$(echo "${entry#*/}" | tr , ' ')
  recipe "$gpu" "$(echo "${entry%%/*}" | tr , ' ')" "$spare" &
  gpu=$((gpu + 1))
done
wait

echo "== done after $(($(date +%s) - t0)) s"
sort -u "$base/gpu.txt" 2>/dev/null | sed 's/^/== GPU /'
for out in "$base"/r*.out; do
  name=$(basename "$out" .out)
  echo "-- $name"
  tail -n 4 "$out"
  for root in "$base/$name" "$base/${name}2"; do
    [ -d "$root" ] || continue
    cat "$root/choice.txt" 2>/dev/null
    cat "$root/refine.txt" 2>/dev/null
    for d in "$root"/*/; do
      [ -f "$d/train_seconds" ] && echo "$d: $(cat "$d/train_seconds") s in silot train"
    done
  done
done
[ -n "${OUT:-}" ] || exit 0
tar czf "$OUT/logs_${TAG:-$(date +%H%M%S)}.tgz" --exclude='*.safetensors' -C "$base" . 2>/dev/null
weights=${WEIGHTS:-0}
[ "$weights" = 0 ] && exit 0
if [ "$weights" = 1 ]; then
  weights=$(cd "$base" && ls -d r*/ | tr -d /)
  n=$(($(echo $weights | wc -w) * (1 + $(echo ${ARMS:-} | wc -w))))  # checkpoints, arms too
  [ "$n" -le 3 ] ||
    echo "warning: $n checkpoints exceed what one call returns (64 MiB, three); name fewer recipes in WEIGHTS" >&2
fi
# The checkpoint in DIR (if it has weights) as OUT/wNAME.tar.xz.part-* (15 MiB parts).
pack() { bash "$here/pack_weights.sh" "$1" "$OUT/w$2"; }
for name in $weights; do
  root=$base/$name
  [ -d "$root" ] || { echo "WEIGHTS: no recipe $name in $base" >&2; continue; }
  w=$root/best/phase2/checkpoint
  [ -f "$w/weights.safetensors" ] || w=$root/best/phase1/checkpoint
  pack "$w" "$name"
  for arm in ${ARMS:-}; do  # each arm's phase 2 as w<recipe>_<arm> (counts against the limit)
    pack "$root/${arm%%=*}/phase2/checkpoint" "${name}_${arm%%=*}"
  done
done
ls -la "$OUT"
