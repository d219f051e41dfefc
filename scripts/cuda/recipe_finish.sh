#!/usr/bin/env bash
# After scripts/cuda/recipe_per_gpu.sh: every recipe's phase-2 encoder
# (RUN_ROOT_BASE/rG/best/phase2/checkpoint, default RUN_ROOT_BASE /tmp/rpg; phase 1's where the
# recipe's deadline came before phase 2 began, e.g. after a long REFINE_STEP; the run of the seed
# chosen at SELECT_STEP where it came before the REFINE_STEP choice) finished by
# FINISH_STEPS (default 120) more steps under each config of FINISHES="NAME=CONFIG ...", every
# finish branched from that checkpoint with a fresh Adam (--reset-optimizer; FINISH_ADAM=kept
# branches with the checkpoint's Adam moments and step count instead, FINISH_ADAM_NAME=kept only
# finish NAME), a recipe's finishes
# side by side on its GPU G (mod the host's GPUs), in rG/finish/NAME/run. The same command on the
# same warm machine resumes them (each with a fresh Adam again). TRAIN_ARGS go to every finish's
# `silot train` (e.g. "--keep-every 60"). All stop at one deadline SECONDS from now.
# FINISH_ARMS="ARM ..." (arms of recipe_best_of_seeds.sh's ARMS) finishes each arm's phase 2
# (rG/ARM/phase2) the same way, in rG/finish_ARM/NAME/run beside the recipe's own: a phase-2
# config compared with CONFIG2 through the finish, from the same phase-1 checkpoint.
# Why: a phase 2 at a quarter of the KL-weight gradient leaves objects held twice; 110 steps at the
# full gradient removed them in the twentieth session's CPU trial
# (benches/results/cuda_train_space_invaders_session20.md). Twenty-first session
# (benches/results/cuda_train_space_invaders_session21.md; two draws on 2 x H200, two finishes of
# 120 steps side by side per GPU, ~58 s): the full gradient (the reference's objective) +0.015-0.035
# MOTA on every seed but count error 3.0-3.8 (presence sinks), half of it +0.009-0.021 with count
# error 1.4-2.4. Twenty-second session (benches/results/cuda_train_space_invaders_session22.md;
# four draws on 4 x H100, 180-step finishes from a phase 2 ~340 steps shorter): full beat half on
# 71 of 72 seed-and-draw pairs, +0.032-0.064 MOTA over phase 2; MOTA 0.824-0.896, count error
# 2.8-4.3. Twenty-third session (benches/results/cuda_train_space_invaders_session23.md; 240-step
# full finishes alone on 4 x H200, 81-83 s): ahead of phase 2 on 72 of 72 pairs; the mean of
# four draws' kept checkpoints rose through 240 steps (0.836 / 0.847 / 0.847 / 0.856 at
# 60 / 120 / 180 / 240); the count error (3.1-3.7) is propagated presence sinking along the clip
# (3.6-5.5 objects under-counted at the last frame), there within 10 steps. Twenty-fourth session
# (benches/results/cuda_train_space_invaders_session24.md; 300 steps, three draws, fresh and kept
# Adam side by side, ~140 s): kept Adam does not keep the count; it only loses it more slowly
# (after 4 steps count error 2.39 against the fresh Adam's 5.00, after 104 both ~4.8); at 300
# the two are alike (MOTA 0.852 / 0.850, count error 4.88 / 4.85, means of three draws).
# Twenty-fifth session (benches/results/cuda_train_space_invaders_session25.md; capped widths,
# 240 steps from ~4,690): two finishes of one draw from nearly the same start land up to 0.017
# MOTA apart; two of four draws reached 0.899-0.901, one holding objects twice 0.81.
# FINISH_TAIL="NAME=CONFIG ..." then branches every finish (arms' too) for FINISH_TAIL_STEPS
# (default 10) more steps under CONFIG with the finish's Adam state kept (no fresh-Adam kick), in
# DIR/FINISH_NAME (e.g. finish/f_q/run for finish f, tail q), scored beside it, several tails side
# by side; WEIGHTS can name it (rG/f_q). FINISH_TAIL_ARGS go to the tails' `silot train` only (e.g.
# "--keep-every 4" with SCORE_KEPT=1: several tail lengths scored from one tail). FINISHES=none
# trains no finish: the tails branch from each phase-2 end itself (finish/none_q/run).
# Thirty-second session (benches/results/cuda_train_space_invaders_session32.md): after 3,201
# phase-2 steps the 240-step finish bought no MOTA and nearly tripled the overlapping pairs; from
# that finish the duplicate-aware tail (`…_propscale05dup_topcrops_maxw.toml`) beat the plain one
# on 27 of 27 report seeds, behind it on one of two earlier draws: both as candidates.
# Thirty-third session (…_session33.md): from the finish `d` won, from phase 2 `h` won, and the
# tails from the finish beat those from phase 2 (0.890-0.895 against 0.879-0.885 validation MOTA).
# Why the tail (twenty-sixth session, benches/results/cuda_train_space_invaders_session26.md): 30
# kept-Adam steps at a quarter of the KL-weight gradient after the full gradient took the count
# error 2.9-4.2 -> 1.5 (count bias at the last frame -5.4 / -7.9 -> -0.4) for 0.012-0.019 MOTA
# on a draw that held objects twice; after a good draw's finish, on the dev box's CPU (five
# tuning seeds), 5 such steps took MOTA 0.904 -> 0.885 and the count error 5.45 -> 3.03, 9 steps
# 0.871 / 2.28 (every object's presence rises, the faint extras' over the tracker's 0.05 too),
# while 9 steps at half the scale (space_invaders_gpu_b64_stage2_propscale05_topcrops_maxw.toml)
# levelled off at 0.887 / 2.81 (paper 0.89 / 2.94).
# Twenty-seventh session (four draws end to end on 4 x H200,
# benches/results/cuda_train_space_invaders_session27.md): 12 such steps after the 240-step
# finish cost every draw 0.010-0.016 MOTA for 2.0-3.5 less count error (best draw 0.901 / 5.73
# -> 0.890 / 3.73); its extra false positives are second boxes on objects already tracked (the
# reports' false_positive_kinds: duplicates), which a raised survival keeps alive. Twenty-eighth
# session (dev box): a tail that keeps the full gradient on those duplicates
# (space_invaders_gpu_b64_stage2_propscale05dup_topcrops_maxw.toml) tied with the plain one over
# two draws (24 steps, fresh Adam: ahead by 0.016 MOTA from one, behind by 0.010 from the other);
# the plain one took that draw to 0.892 / 2.75, AP 0.79 (mean of three sets).
#
# Then, with SCORE_SEEDS, every phase-2 encoder and its finishes are scored on those seeds
# (scripts/cuda/score_parallel.sh on CONFIG1, default space_invaders_gpu_b64_stage2_maxw.toml beside
# this script; DEVICE and JOBS as there) into RUN_ROOT_BASE/scores, after the training, never
# beside it; SCORE_KEPT=1 adds the finishes' kept checkpoints (several lengths from one finish).
# With OUT (the GPU machine's output folder): OUT/finish_TAG.tgz holds the scores and the
# finishes' logs and metrics (no weights), and WEIGHTS="rG/NAME ..." packs those finishes' weights
# (rG: recipe G, in rG2 where it started again with its spare seeds; rG/ARM/NAME: its arm's;
# rG/best: the tail checkpoint chosen on the SCORE_SEEDS, see 3. below)
# as OUT/wrG_NAME.tar.xz.part-* (wrG_ARM_NAME; scripts/cuda/pack_weights.sh; ~18.5 MiB each,
# three per call).
#
#   FINISHES="one=scripts/cuda/space_invaders_gpu_b64_stage2_topcrops_maxw.toml" SCORE_SEEDS="1 2" \
#     bash ship/run.sh bash scripts/cuda/recipe_finish.sh SECONDS
set -uo pipefail
secs=${1:?usage: recipe_finish.sh SECONDS}
here=$(cd "$(dirname "$0")" && pwd)
deadline=$(($(date +%s) + secs))
base=${RUN_ROOT_BASE:-/tmp/rpg}
n_steps=${FINISH_STEPS:-120}
left() { echo $((deadline - $(date +%s))); }
source "$here/common.sh"  # step_of, host_gpu_count
# Recipe rG's directory: rG2 where it started again with its spare seeds (recipe_per_gpu.sh).
recipe_root() { if [ -f "$base/$1.spare" ]; then echo "$base/${1}2"; else echo "$base/$1"; fi; }
ngpu=$(host_gpu_count)

# 1. The finishes: one multi_gpu_runs.sh per recipe, all at once. A fresh Adam's first step moves
# every weight by about the learning rate along its gradient's sign: at the full gradient it sank
# the count at once (count error 3.06 -> 6.79 after one step, twenty-third session's CPU
# continuation), hence FINISH_ADAM=kept to try a finish without that kick (no better by 300 steps:
# the full gradient sinks the count either way, twenty-fourth session).
finishes=${FINISHES:?set FINISHES="NAME=CONFIG ..." (or none: FINISH_TAIL straight from phase 2)}
runs="" checkpoints="" roots="" finish_dirs=""
no_finish="" to_check=$finishes  # the NAME=CONFIG entries to check
if [ "$finishes" = none ]; then  # the tail from phase 2's end, as the finish "none"
  [ -n "${FINISH_TAIL:-}" ] || { echo "FINISHES=none needs FINISH_TAIL" >&2; exit 2; }
  no_finish=1 finishes=none= to_check=""
fi
declare -A reset_of  # finish name -> the --reset-optimizer flag or nothing
for arm in $to_check; do
  name=${arm%%=*} cfg=${arm#*=}
  [[ $name =~ ^[a-z][a-z0-9_]*$ ]] ||
    { echo "FINISHES: bad name '$name' (a-z, 0-9, _)" >&2; exit 2; }
  mode_var=FINISH_ADAM_$name
  mode=${!mode_var:-${FINISH_ADAM:-fresh}}
  case $mode in
    fresh) reset_of[$name]=" --reset-optimizer" ;;
    kept) reset_of[$name]="" ;;
    *) echo "FINISH_ADAM ($name): '$mode' is neither fresh nor kept" >&2; exit 2 ;;
  esac
  case $cfg in /*) ;; *) cfg=$PWD/$cfg ;; esac
  [ -f "$cfg" ] || { echo "FINISHES: $name: no config $cfg" >&2; exit 2; }
  runs="$runs $name=$cfg"
done
# The run directory FROM's checkpoint finished under every FINISHES config, in DIR/NAME/run,
# side by side on GPU G (mod the host's GPUs); log DIR.out.
start_finishes() {
  local from=$1 dir=$2 g=$3 arm
  checkpoints="$checkpoints $from/checkpoint"
  finish_dirs="$finish_dirs $dir:$g"
  if [ -n "$no_finish" ]; then  # FINISHES=none: DIR/none/run is FROM itself
    mkdir -p "$dir/none"
    ln -sfn "$from" "$dir/none/run"
    return 0
  fi
  for arm in $finishes; do
    export "TRAIN_ARGS_${arm%%=*}=--branch-from $from/checkpoint${reset_of[${arm%%=*}]}"
    checkpoints="$checkpoints $dir/${arm%%=*}/run/checkpoint"
  done
  [ "$(left)" -gt 20 ] || return 0
  RUN_ROOT=$dir RUNS=$runs STEPS=$(($(step_of "$from") + n_steps)) \
    CUDA_VISIBLE_DEVICES=$((g % ngpu)) bash "$here/multi_gpu_runs.sh" "$(left)" \
    >>"$dir.out" 2>&1 &
}
for arm in ${FINISH_ARMS:-}; do
  [[ $arm =~ ^[a-z][a-z0-9_]*$ ]] || { echo "FINISH_ARMS: bad arm name '$arm'" >&2; exit 2; }
done
tail_names="" tail_runs=""  # FINISH_TAIL's names; its NAME=CONFIG entries, absolute
for entry in ${FINISH_TAIL:-}; do
  tail_name=${entry%%=*} tail_cfg=${entry#*=}
  [[ $tail_name =~ ^[a-z][a-z0-9_]*$ ]] && [ "$tail_cfg" != "$entry" ] ||
    { echo "FINISH_TAIL: '$entry' is not NAME=CONFIG (NAME: a-z, 0-9, _)" >&2; exit 2; }
  case $tail_cfg in /*) ;; *) tail_cfg=$PWD/$tail_cfg ;; esac
  [ -f "$tail_cfg" ] || { echo "FINISH_TAIL: $tail_name: no config $tail_cfg" >&2; exit 2; }
  tail_names="$tail_names $tail_name" tail_runs="$tail_runs $tail_name=$tail_cfg"
done
for w in ${WEIGHTS:-}; do
  [[ $w != */best ]] || [ -n "$tail_names" ] ||
    { echo "WEIGHTS: $w needs FINISH_TAIL (it picks among the tails' checkpoints)" >&2; exit 2; }
done
for out in "$base"/r*.out; do  # recipe_per_gpu.sh's log per recipe: rG.out, G its GPU
  g=$(basename "$out" .out)
  g=${g#r}
  root=$(recipe_root "r$g")
  from=$root/best/phase2
  if [ "$(step_of "$from")" = 0 ]; then  # the deadline came before phase 2 began
    from=$root/best/phase1
    if [ "$(step_of "$from")" = 0 ] && [ -f "$root/choice.txt" ]; then
      # ... or before a REFINE_STEP choice: the seed chosen at SELECT_STEP, as far as it got
      # (twenty-fourth session: a spare pair started late never reached 4,100 and was skipped).
      first=$(head -1 "$root/choice.txt")
      from=$root/s$first/run
      [ "$(step_of "$from")" -gt 0 ] &&
        echo "$root: the refined choice is unfinished; seed $first of the first" >&2
    fi
    [ "$(step_of "$from")" -gt 0 ] || { echo "skip $root (no checkpoint)" >&2; continue; }
    echo "$root: no phase-2 checkpoint; finishing from phase 1 at $(step_of "$from")" >&2
  fi
  roots="$roots $root"
  start_finishes "$from" "$root/finish" "$g"
  for arm in ${FINISH_ARMS:-}; do  # recipe_best_of_seeds.sh's ARMS: their phase 2 too
    if [ "$(step_of "$root/$arm/phase2")" -gt 0 ]; then
      start_finishes "$root/$arm/phase2" "$root/finish_$arm" "$g"
    else
      echo "skip arm $arm of $root (no phase-2 checkpoint)" >&2
    fi
  done
done
wait
for f in "$base"/r*/finish*.out; do [ -f "$f" ] && { echo "-- $f"; tail -n 4 "$f"; }; done

# 1b. FINISH_TAIL: every finish's checkpoint branched on with its Adam kept, on the finish's GPU.
# Every FINISH_TAIL entry side by side, as DIR/FINISH_TAILNAME.
start_tail() {
  local dir=$1 g=$2 name=$3 entry runs=""
  local from=$dir/$name/run
  for entry in $tail_runs; do
    local tail=${name}_${entry%%=*}
    checkpoints="$checkpoints $dir/$tail/run/checkpoint"
    export "TRAIN_ARGS_$tail=--branch-from $from/checkpoint ${FINISH_TAIL_ARGS:-}"
    runs="$runs $tail=${entry#*=}"
  done
  [ "$(step_of "$from")" -gt 0 ] && [ "$(left)" -gt 20 ] || return 0
  RUN_ROOT=$dir RUNS=$runs STEPS=$(($(step_of "$from") + ${FINISH_TAIL_STEPS:-10})) \
    CUDA_VISIBLE_DEVICES=$((g % ngpu)) bash "$here/multi_gpu_runs.sh" "$(left)" \
    >>"$dir.out" 2>&1 &
}
if [ -n "$tail_names" ]; then
  for entry in $finish_dirs; do
    for arm in $finishes; do start_tail "${entry%:*}" "${entry##*:}" "${arm%%=*}"; done
  done
  wait
fi

# 2. Scores, after the training (with SCORE_KEPT=1 also the finishes' kept checkpoints, e.g. of
# TRAIN_ARGS="--keep-every 60": several finish lengths from one run).
if [ "${SCORE_KEPT:-0}" = 1 ]; then
  for root in $roots; do
    for ck in "$root"/finish*/*/run/kept/step-*; do
      [ -d "$ck" ] && checkpoints="$checkpoints $ck"
    done
  done
fi
if [ -n "${SCORE_SEEDS:-}" ] && [ "$(left)" -gt 20 ]; then
  SEEDS=$SCORE_SEEDS timeout "$(left)" bash "$here/score_parallel.sh" \
    "${CONFIG1:-$here/space_invaders_gpu_b64_stage2_maxw.toml}" "$base/scores" $checkpoints ||
    echo "scoring stopped at the deadline; run the same command again" >&2
fi

# 3. What comes back. WEIGHTS "rG/best": recipe G's product, the tail checkpoint (every finish's
# and arm's tail, its kept ones too) chosen by scripts/cuda/pick_product.py on the SCORE_SEEDS
# reports: the highest MOTA with count error at most PRODUCT_MAX_COUNT (default 2.94), the
# lowest count error where none is (the reference reports its best validation checkpoint);
# the choices go to RUN_ROOT_BASE/products.txt, in the returned finish_TAG.tgz too.
declare -A product_of
for w in ${WEIGHTS:-}; do
  [[ $w == */best ]] || continue
  rec=${w%%/*}
  root=$(recipe_root "$rec")
  candidates=$(for t in $tail_names; do
    ls -d "$root"/finish*/*_"$t"/run/checkpoint "$root"/finish*/*_"$t"/run/kept/step-* 2>/dev/null
  done)
  [ -n "$candidates" ] || { echo "WEIGHTS: $w: no tail checkpoint in $root" >&2; continue; }
  # shellcheck disable=SC2086  # one candidate per word
  pick=$(python3 "$here/pick_product.py" "$base/scores" $candidates \
    --max-count "${PRODUCT_MAX_COUNT:-2.94}" 2>>"$base/products.txt") ||
    { echo "WEIGHTS: $w: nothing to pick (see $base/products.txt)" >&2; continue; }
  product_of[$w]=$pick
  echo "$w: $pick" | tee -a "$base/products.txt"
done
[ -n "${OUT:-}" ] || exit 0
(cd "$base" && tar czf "$OUT/finish_${TAG:-$(date +%H%M%S)}.tgz" --exclude='*.safetensors' \
  scores r*/finish* products.txt 2>/dev/null)
for w in ${WEIGHTS:-}; do  # rG/NAME: recipe G's finish NAME; rG/ARM/NAME: its arm's
  if [[ $w == */best ]]; then
    [ -n "${product_of[$w]:-}" ] && bash "$here/pack_weights.sh" "${product_of[$w]}" "$OUT/w${w%%/*}_best"
    continue
  fi
  rec=${w%%/*} name=${w##*/} dir=finish
  [[ $w == */*/* ]] && dir=finish_$(echo "$w" | cut -d/ -f2)
  ck=$base/$rec/$dir/$name/run/checkpoint
  # rG names recipe G, also where it started again with its spare seeds (in rG2).
  [ -f "$ck/weights.safetensors" ] || [ ! -f "$base/$rec.spare" ] ||
    ck=$base/${rec}2/$dir/$name/run/checkpoint
  [ -f "$ck/weights.safetensors" ] || { echo "WEIGHTS: no finish $w" >&2; continue; }
  bash "$here/pack_weights.sh" "$ck" "$OUT/w$(echo "$w" | tr / _)"
done
ls -la "$OUT"
