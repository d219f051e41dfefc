#!/usr/bin/env bash
# The Space Invaders recipe (scripts/cuda/recipe_30min.sh) made robust to a bad draw by model
# selection without labels: several training seeds of its first config share the GPU(s) up to
# SELECT_STEP, the one with the lowest validation loss there (SELECT_BY: `total`, the negative
# ELBO, by default; `reconstruction`, the reference's Atari criterion; on clips that do not
# depend on the training seed) goes on alone: CONFIG1 to SWITCH_STEP, then CONFIG2 branched from
# it to STEPS. Why: from scratch the recipe's first config sometimes settles on boxing aliens in
# pairs, a worse optimum of the same objective that the validation loss shows by step 3,600 (the
# total more clearly than the reconstruction) and no later training undoes
# (benches/results/cuda_train_space_invaders_session15.md). Measured (sixteenth session, one
# recipe per H200): two seeds to 3,600 take ~1,000 s sharing the GPU, ~350 s more than one run;
# the winners scored MOTA 0.81-0.82, count error 1.6-1.7 at step ~5,140
# (benches/results/cuda_train_space_invaders_session16.md). Score checkpoints after the training,
# not beside it: that slowed the winners' steps by 15-25 %. Seventeenth session
# (benches/results/cuda_train_space_invaders_session17.md): 3 of 6 fresh seeds boxed aliens in
# pairs, and at step 2,500 the total ranked a pairs run first; their box width (label-free: the
# presence-weighted mean width of the model's boxes) told them apart from step 2,000 on in all
# ten runs that logged it (17.4-19.1 px against 9.5-10.9), hence MAX_BOX_WIDTH below.
# Eighteenth session (benches/results/cuda_train_space_invaders_session18.md): the choice at
# 2,000 by box width held (16 of 16 runs; now the default SELECT_STEP), and phase 2 with every
# fourth training clip cropped at the score rows cut their false positives 0.060 -> 0.009 per
# object (MOTA +0.033, ahead on all nine scoring seeds), so that is CONFIG2 now. Nineteenth
# session (benches/results/cuda_train_space_invaders_session19.md): the full recipe twice, one
# per H200, ~1,645 s each (step 6,179 at the deadline): MOTA 0.883 and 0.823; the second held
# objects twice (duplicate tracks), which the label-free `overlapping_pairs_per_frame` of eval
# reports on full frames shows (1.7 against 0.16 per frame) but validation on the 72x72 training
# crops does not (0.07 against 0.11); the choice lists it, to learn when runs part there.
# Twentieth session (benches/results/cuda_train_space_invaders_session20.md): four recipes at
# once on 4 x H200, MOTA 0.839-0.864; at 2,000 the full-frame pairs (0.2-2.4, the model still
# counting 7-24 objects) do not foretell the end (they part by 4,100 in all four winners), so the
# choice stays as it is. Twenty-first session
# (benches/results/cuda_train_space_invaders_session21.md): twice more on 2 x H200 (MOTA 0.896 /
# 0.841 on the 91001 set at ~5,620), each then finished by scripts/cuda/recipe_finish.sh (120
# steps, inside the 30 minutes): +0.009-0.035 MOTA on every seed. Twenty-fifth session
# (benches/results/cuda_train_space_invaders_session25.md): with box widths capped at 18 px
# (`[model] max_width`, the `…_maxw.toml` configs, now the defaults) 0 of 8 fresh seeds boxed
# aliens in pairs (uncapped: 18 of 61); the width rule stays as a guard.
#
#   SEEDS="1 2" bash ship/run.sh bash scripts/cuda/recipe_best_of_seeds.sh SECONDS
#
# Stops at a deadline SECONDS from now; the same command resumes (on the same machine: the runs
# live in RUN_ROOT, default /tmp/bos). The encoder to use is RUN_ROOT/best/phase2/checkpoint;
# RUN_ROOT/choice.txt records the choice; seeds whose validation box width at SELECT_STEP exceeds
# MAX_BOX_WIDTH px (default 14; 0 turns the check off) are not chosen, and if every seed is
# excluded the script exits with status 3 (start again with other SEEDS and a new RUN_ROOT); at
# step 1,500 a working run's width has reached 15.7 px, so the check wants SELECT_STEP >= 2,000.
# The runs go through scripts/cuda/multi_gpu_runs.sh (GPU assignment, TRAIN_ARGS, DEVICE as
# there). Defaults: SEEDS "0 7", SELECT_STEP 2000 (must be a validation step: every EVAL_EVERY
# steps in stage 1, which ends at 2,600, then every EVAL_EVERY stage steps), VAL_CLIPS 64,
# EVAL_EVERY 500, SWITCH_STEP 4671, STEPS 6267, CONFIG1 space_invaders_gpu_b64_stage2_maxw.toml,
# CONFIG2 space_invaders_gpu_b64_stage2_propscale025_topcrops_maxw.toml (both beside this script; a
# path, not an id; the thirteenth session's recipe had …_propscale025.toml); SHARE (below);
# REFINE_STEP and PAIRS_MARGIN (step 2b: a second choice, by duplicate objects, off by default).
# With SCORE_SEEDS (e.g. "71001 72003 73007"), once the chosen run has reached STEPS and while
# time is left, the encoder is scored on those seeds (scripts/cuda/score_parallel.sh, JOBS as
# there; RUN_ROOT/scores/summary.txt) — after the training, never beside it.
set -euo pipefail
secs=${1:?usage: recipe_best_of_seeds.sh SECONDS}
here=$(cd "$(dirname "$0")" && pwd)
deadline=$(($(date +%s) + secs))
export RUN_ROOT=${RUN_ROOT:-/tmp/bos}
seeds=${SEEDS:-0 7}
select_step=${SELECT_STEP:-2000}
config1=${CONFIG1:-$here/space_invaders_gpu_b64_stage2_maxw.toml}
config2=${CONFIG2:-$here/space_invaders_gpu_b64_stage2_propscale025_topcrops_maxw.toml}
mkdir -p "$RUN_ROOT"
# CONFIG1 validating on VAL_CLIPS clips (default 64; the recipe's config has 16), since the choice
# rests on them, every EVAL_EVERY steps (default 500; the config's 1,000), to see when runs part.
# Validation only (stage 1 never reloads its best weights, stage 2 never stops early here), so
# the training is CONFIG1's. Both phases also validate on VAL_FULL_FRAMES (default 16) uncropped
# clips as `silot eval` runs the model (`full_frame` on the validation lines: label-free object
# statistics; duplicate tracks show there, not on the crops), phase 2 every EVAL_EVERY stage steps.
case $config1 in /*) ;; *) [ -f "$config1" ] && config1=$PWD/$config1 ;; esac
case $config2 in /*) ;; *) [ -f "$config2" ] && config2=$PWD/$config2 ;; esac
score_config=$config1  # the env the encoder is scored on (step 4)
if [ ! -f "$RUN_ROOT/config1.toml" ]; then
  printf 'base = "%s"\n\n[train]\nn_val = %s\neval_every = %s\nval_full_frames = %s\n' \
    "$config1" "${VAL_CLIPS:-64}" "${EVAL_EVERY:-500}" "${VAL_FULL_FRAMES:-16}" \
    >"$RUN_ROOT/config1.toml"
fi
# A phase-2 config: SOURCE validating every EVAL_EVERY stage steps, also on full frames, as DEST.
phase2_config() {
  [ -f "$2" ] || printf 'base = "%s"\n\n[train]\neval_every = %s\nval_full_frames = %s\n' \
    "$1" "${EVAL_EVERY:-500}" "${VAL_FULL_FRAMES:-16}" >"$2"
}
phase2_config "$config2" "$RUN_ROOT/config2.toml"
config1=$RUN_ROOT/config1.toml
config2=$RUN_ROOT/config2.toml

left() { echo $((deadline - $(date +%s))); }

# 1. Every seed to SELECT_STEP: SHARE=processes (default) one `silot train` per seed through
# multi_gpu_runs.sh (spread over the GPUs it is given); SHARE=threads one `silot train --seed
# A,B,...` for all on the first GPU, one thread and CUDA stream per seed (RUN_ROOT/seeds/sN,
# linked as RUN_ROOT/sN/run; log RUN_ROOT/seeds.log). On an H200 two processes train 1.38x one
# run's steps per second, two threads 0.98x (seventeenth session): keep processes on a GPU.
runs=""
for s in $seeds; do
  runs="$runs s$s=$config1"
  export "TRAIN_ARGS_s$s=--seed $s"
done
source "$here/common.sh"  # step_of
if [ ! -f "$RUN_ROOT/choice.txt" ] && [ "${SHARE:-processes}" = threads ]; then
  behind=0
  for s in $seeds; do
    mkdir -p "$RUN_ROOT/s$s"
    [ -e "$RUN_ROOT/s$s/run" ] || ln -s "$RUN_ROOT/seeds/s$s" "$RUN_ROOT/s$s/run"
    [ "$(step_of "$RUN_ROOT/seeds/s$s")" -ge "$select_step" ] || behind=1
  done
  if [ "$behind" = 1 ] && [ "$(left)" -gt 20 ]; then
    t0=$(date +%s)
    silot train --device "${DEVICE:-cuda}" --time-limit "$(($(left) - 15))" ${TRAIN_ARGS:-} \
      --config "$config1" --out "$RUN_ROOT/seeds" --steps "$select_step" \
      --seed "$(echo $seeds | tr ' ' ,)" >>"$RUN_ROOT/seeds.log" 2>&1 ||
      echo "silot train failed (see $RUN_ROOT/seeds.log)" >&2
    echo $(($(date +%s) - t0)) >>"$RUN_ROOT/seeds.log.seconds"
    tail -n "$(echo $seeds | wc -w)" "$RUN_ROOT/seeds.log"
  fi
elif [ ! -f "$RUN_ROOT/choice.txt" ]; then
  RUNS=$runs STEPS=$select_step bash "$here/multi_gpu_runs.sh" "$(left)"
fi

# 2. The seed of lowest validation loss (SELECT_BY) at SELECT_STEP, once every seed is there,
# among the seeds whose boxes are not twice an alien's width (MAX_BOX_WIDTH, below).
if [ ! -f "$RUN_ROOT/choice.txt" ]; then
  rc=0
  python3 "$here/choose_seed.py" width "$RUN_ROOT" "$select_step" "${SELECT_BY:-total}" \
    "${MAX_BOX_WIDTH:-14}" $seeds >"$RUN_ROOT/choice.tmp" || rc=$?
  # 3: every seed excluded (the listing says so); 1: not every seed is there yet (resume later).
  if [ "$rc" != 0 ]; then
    cat "$RUN_ROOT/choice.tmp"
    exit $((rc == 1 ? 0 : rc))
  fi
  mv "$RUN_ROOT/choice.tmp" "$RUN_ROOT/choice.txt"
  cat "$RUN_ROOT/choice.txt"
fi
best=$(head -1 "$RUN_ROOT/choice.txt")

# 2b. With REFINE_STEP (a later validation step, e.g. 3600; default 0: off) the seeds the width
# rule kept go on together to REFINE_STEP, and there the choice moves to the one of fewest
# overlapping pairs per full frame (objects held twice; seeds within PAIRS_MARGIN, default 0.5,
# of the fewest tie, and SELECT_BY decides among them): RUN_ROOT/refine.txt. Why (twenty-second
# session, benches/results/cuda_train_space_invaders_session22.md): of the ten winners of the
# twentieth to twenty-second sessions, the two whose full frames still held objects twice late in
# phase 1 (1.6-1.9 pairs at 3,600, 1.5-2.1 at 4,100; the other eight at most 0.25 at both) were
# the poorest of their sessions after phase 2 and after the full finish (first scoring set:
# 0.79-0.82, then 0.82-0.85); at 2,000 the pairs part nothing (0.4-2.4 for the eight, 1.6-2.5 for
# the two). From 2,000 to 3,600 one seed alone takes ~470 s on an H100 (0.296 s per step), two
# sharing it ~690 s if they gain the 1.38x measured on an H200 (not yet measured here).
# Twenty-third session (benches/results/cuda_train_space_invaders_session23.md; REFINE_STEP=3600,
# four recipes on 4 x H200): two seeds sharing a GPU to 3,600 took 949-953 s, leaving ~245
# phase-2 steps in a ~1,460-s recipe (~725 without refining). At 3,600 the sign gave a false
# flag (a seed at 1.92 pairs that cleared by 4,100 and became a good draw) and could not help
# where both seeds were flagged (1.22 and 1.73; the draw was the session's poorest); at 4,100 it
# held in all fourteen winners so far (the three flagged, 1.41-2.12, each the poorest of its
# session; the rest at most 0.56), so 4100 is the step to try next.
# Twenty-fourth session (benches/results/cuda_train_space_invaders_session24.md; REFINE_STEP=4100,
# 4 x H200): two seeds sharing a GPU to 4,100 took 1,231-1,233 s, so the refined draws reached
# only ~4,135 in a ~1,250-s recipe (the unrefined one 4,696), no phase 2, and finished 0.01-0.06
# MOTA below the last session's three good draws (131011 set); at 4,100 no seed was flagged
# (all <= 0.05 pairs), at 3,600 one more false flag (1.12, then 0.01). Leave REFINE_STEP off.
# Twenty-seventh session (benches/results/cuda_train_space_invaders_session27.md; the fast build
# of scripts/cuda/build.sh, 4 x H200): two seeds to 4,100 in ~965 s, the winner at the switch
# ~1,100 s in and at ~5,530 by a ~1,320-s deadline; one seed flagged (1.70 pairs, set aside),
# and all four winners good draws (MOTA 0.871-0.901 after a 240-step finish): with the fast
# build REFINE_STEP=4100 is affordable and in the recipe's plan.
refine_step=${REFINE_STEP:-0}
if [ "$refine_step" -gt 0 ] && [ ! -f "$RUN_ROOT/refine.txt" ]; then
  kept=$(grep '^seed ' "$RUN_ROOT/choice.txt" | grep -v 'excluded:' |
    sed 's/^seed \([0-9]*\):.*/\1/' || true)
  if [ "$(echo $kept | wc -w)" -lt 2 ]; then
    printf '%s\nonly seed %s is left after the choice at %s: nothing to refine\n' \
      "$best" "$best" "$select_step" >"$RUN_ROOT/refine.txt"
  else
    runs=""
    for s in $kept; do runs="$runs s$s=$config1"; done
    [ "$(left)" -gt 20 ] && RUNS=$runs STEPS=$refine_step bash "$here/multi_gpu_runs.sh" "$(left)"
    rc=0
    python3 "$here/choose_seed.py" pairs "$RUN_ROOT" "$refine_step" "${SELECT_BY:-total}" \
      "${PAIRS_MARGIN:-0.5}" $kept >"$RUN_ROOT/refine.tmp" || rc=$?
    # 1: not every seed is at REFINE_STEP yet (python said so); the same command resumes.
    [ "$rc" = 0 ] || exit $((rc == 1 ? 0 : rc))
    mv "$RUN_ROOT/refine.tmp" "$RUN_ROOT/refine.txt"
  fi
  cat "$RUN_ROOT/refine.txt"
fi
[ "$refine_step" -gt 0 ] && best=$(head -1 "$RUN_ROOT/refine.txt")

# 3. The chosen seed's run goes on alone: its run directory is phase 1 of the recipe.
switch=${SWITCH_STEP:-4671}
mkdir -p "$RUN_ROOT/best"
[ -e "$RUN_ROOT/best/phase1" ] || ln -s "$RUN_ROOT/s$best/run" "$RUN_ROOT/best/phase1"
export "TRAIN_ARGS_best=--seed $best"
[ "$(left)" -gt 20 ] || exit 0
if [ -z "${ARMS:-}" ]; then
  RUNS="best=$config1@$switch+$config2" bash "$here/multi_gpu_runs.sh" "$(left)"
else
  # With ARMS="NAME=CONFIG ...": phase 1 alone to SWITCH_STEP (in the chosen seed's directory),
  # then phase 2 of CONFIG2 (in best/) and of every arm's CONFIG (in NAME/, a path as CONFIG2,
  # validating as CONFIG2 does) at once, all branched from the same phase-1 checkpoint: paired
  # comparisons of phase-2 configs at no extra phase-1 cost. The i-th phase 2 (best first) runs on
  # the i-th GPU (mod their count) of ARM_GPUS (default: CUDA_VISIBLE_DEVICES, else every GPU of
  # the host), e.g. ARM_GPUS=0,2: best on GPU 0, the first arm on GPU 2.
  if [ "$(step_of "$RUN_ROOT/best/phase1")" -lt "$switch" ]; then
    RUNS="s$best=$config1" STEPS=$switch bash "$here/multi_gpu_runs.sh" "$(left)"
  fi
  if [ "$(step_of "$RUN_ROOT/best/phase1")" -ge "$switch" ] && [ "$(left)" -gt 20 ]; then
    runs="best=$config1@$switch+$config2"
    for arm in $ARMS; do
      name=${arm%%=*} cfg=${arm#*=}
      [[ $name =~ ^[a-z][a-z0-9_]*$ && $name != best && ! $name =~ ^s[0-9] ]] || {
        echo "ARMS: bad arm name '$name' (lowercase letters, digits, _; not best or sN)" >&2
        exit 2
      }
      case $cfg in /*) ;; *) [ -f "$cfg" ] && cfg=$PWD/$cfg ;; esac
      [ -f "$cfg" ] || { echo "ARMS: arm $name: no config $cfg" >&2; exit 2; }
      phase2_config "$cfg" "$RUN_ROOT/config2_$name.toml"
      mkdir -p "$RUN_ROOT/$name"
      [ -e "$RUN_ROOT/$name/phase1" ] || ln -s "$RUN_ROOT/s$best/run" "$RUN_ROOT/$name/phase1"
      export "TRAIN_ARGS_$name=--seed $best"
      runs="$runs $name=$config1@$switch+$RUN_ROOT/config2_$name.toml"
    done
    CUDA_VISIBLE_DEVICES=${ARM_GPUS:-${CUDA_VISIBLE_DEVICES:-}} RUNS=$runs \
      bash "$here/multi_gpu_runs.sh" "$(left)"
  fi
fi

# 4. Optionally score the finished encoder (on the full frames, as `silot eval` does).
if [ -n "${SCORE_SEEDS:-}" ] && [ "$(step_of "$RUN_ROOT/best/phase2")" -ge "${STEPS:-6267}" ] &&
  [ "$(left)" -gt 20 ]; then
  SEEDS=$SCORE_SEEDS timeout "$(left)" bash "$here/score_parallel.sh" "$score_config" \
    "$RUN_ROOT/scores" "$RUN_ROOT/best/phase2/checkpoint" ||
    echo "scoring stopped at the deadline; run the same command again" >&2
fi
