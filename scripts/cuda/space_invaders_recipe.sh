#!/usr/bin/env bash
# The current Space Invaders recipe in one command: a paper-quality encoder in under 30
# GPU-minutes (thirty-third and thirty-fourth sessions, 1 x H200: MOTA 0.891 / 0.900, AP 0.79,
# count error 2.62 / 2.66 on 27 unseen seeds, in 21.5 / 23.6 minutes of training;
# benches/results/cuda_train_space_invaders_session34.md).
#
#   bash scripts/cuda/space_invaders_recipe.sh [TRAIN_SECONDS [FINISH_SECONDS]]   # 1510 170
#
# TRAIN_SECONDS of scripts/cuda/recipe_per_gpu.sh (one seed per GPU alone: phase 1, then the
# full-gradient phase 2 with the score-row crops to the deadline), then FINISH_SECONDS of
# scripts/cuda/recipe_finish.sh: a 240-step full-gradient finish `f`, the plain half-scale tail
# `h` and the duplicate-aware tail `d` side by side from it (30 steps, kept every 6), every tail
# checkpoint scored on the nine 131011 validation seeds, and the product (`rG/best` in
# RUN_ROOT_BASE/products.txt) the one of highest MOTA among those with count error at most
# PRODUCT_MAX_COUNT (2.85).
# Either part resumes on the same machine: where one command may run only ~10 minutes, call it
# as "555 0", "560 0", "400 170" (0: skip that part), as the thirty-fourth session did.
# RECIPES (default "301/305": seed 301, spare 305) takes one entry per GPU. Every variable below
# is a default the environment may override; the rest pass through to the two scripts (DEVICE,
# JOBS, OUT, TAG, RUN_ROOT_BASE, ...). With OUT set, WEIGHTS (default every recipe's `rG/best`)
# names the products whose weights the finish packs into OUT (at most three per call fit a
# 64-MiB return).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
train_secs=${1:-1510}
finish_secs=${2:-170}
configs=$here  # the configs lie beside this script
export REFINE_STEP=${REFINE_STEP:-4100} STEPS=${STEPS:-20000} RECIPES=${RECIPES:-301/305}
export CONFIG2=${CONFIG2:-$configs/space_invaders_gpu_b64_stage2_topcrops_maxw.toml}
export FINISHES=${FINISHES:-f=$configs/space_invaders_gpu_b64_stage2_topcrops_maxw.toml}
export FINISH_STEPS=${FINISH_STEPS:-240}
half=$configs/space_invaders_gpu_b64_stage2_propscale05_topcrops_maxw.toml
dup=$configs/space_invaders_gpu_b64_stage2_propscale05dup_topcrops_maxw.toml
export FINISH_TAIL=${FINISH_TAIL:-h=$half d=$dup}
export FINISH_TAIL_STEPS=${FINISH_TAIL_STEPS:-30}
export FINISH_TAIL_ARGS=${FINISH_TAIL_ARGS:---reset-optimizer --keep-every 6}
export SCORE_KEPT=${SCORE_KEPT:-1} DEVICE=${DEVICE:-cuda} JOBS=${JOBS:-12}
export PRODUCT_MAX_COUNT=${PRODUCT_MAX_COUNT:-2.85}
export SCORE_SEEDS=${SCORE_SEEDS:-131011 132019 133021 134033 135043 136047 137053 138059 139067}

if [ "$train_secs" -gt 0 ]; then
  # WEIGHTS means something else to recipe_per_gpu.sh (its winners' phase-2 weights).
  WEIGHTS="" bash "$here/recipe_per_gpu.sh" "$train_secs"
fi
if [ "$finish_secs" -gt 0 ]; then
  first=${GPU_OFFSET:-0} n=$(wc -w <<<"$RECIPES")
  products=$(for ((g = first; g < first + n; g++)); do printf 'r%d/best ' "$g"; done)
  WEIGHTS=${WEIGHTS:-$products} bash "$here/recipe_finish.sh" "$finish_secs"
fi
