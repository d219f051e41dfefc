#!/usr/bin/env bash
# One device call of `silot train` runs side by side on one GPU, each resumable across calls on
# machines that do not outlive a call: every run directory comes back through $OUT at the end,
# and a later call on a fresh machine restores it from what the caller carries.
#
#   LIMIT=500 bash scripts/cuda/train_side_by_side.sh NAME=CONFIG[=TARBALL[=BRANCH]] [...]
#
# NAME: the run directory's name (/tmp/r/NAME on the device; $OUT/NAME.tar.xz.* back, split in
#   15-MB parts); CONFIG: an experiment file or env id for `silot train --config`; TARBALL: a
#   .tar.xz in the tree holding one run directory (e.g. a run kept under benches/results/; any
#   folder name) that a run without a checkpoint of its own starts from (`--branch-from`, with
#   its progress, and its Adam state if it holds one: CONFIG's [train] may differ), or empty;
#   BRANCH: a checkpoint directory in the tree (e.g. models/scattered_mnist) that a run without a
#   checkpoint of its own starts from (`--branch-from BRANCH --reset-optimizer`).
# Restore order when /tmp/r/NAME is absent (a fresh machine): $RESTORE_DIR/NAME.tar.xz.* (the
#   parts a previous call brought back, carried; default runs/back), then a branch from TARBALL,
#   then from BRANCH; else the run starts from scratch.
# RESUME_ONLY=1: a run that finds nothing to resume (no /tmp/r/NAME, no parts, no TARBALL, no
#   BRANCH) is not started from scratch but skipped with an error line: for the second call of a
#   continuation, which would otherwise restart silently on a fresh machine when the warm one was
#   released between calls (session 46 lost 320 device-seconds so); give such a call its specs
#   without TARBALL or BRANCH, which would start the run again from them.
# KEEP_EVERY=N passes `--keep-every N` (full checkpoints under /tmp/r/NAME/kept/). Those this
#   call wrote come back as $OUT/NAME-kept-STEP.tar.xz (weights, config, state; no Adam), newest
#   first, while $OUT stays under OUT_BUDGET_MB (default 60: the device returns ~64 MB a call and
#   drops the rest, the runs' own parts included, which come first) and OUT_MAX_FILES files
#   (default 8, the device's limit; the runs' logs come back together as $OUT/logs.tar); the
#   others stay on the device.
#   Unpack one with `tar -C DIR -xJf NAME-kept-STEP.tar.xz` (DIR/NAME/kept/step-STEP).
# WEIGHTS_ONLY="NAME ..." brings those runs back without Adam's state (a run
#   brought back so resumes with Adam afresh). The whole tree plus carry must stay under the device's
#   64 MiB: a run with Adam is ~3x its weights.
# Needs ship/ (scripts/cuda/pack.sh) carried; run with `run ... carry ["ship", "runs"]`.
set -u
cd "$(dirname "$0")/../.."
LIMIT=${LIMIT:-500}
RESTORE_DIR=${RESTORE_DIR:-runs/back}
OUT=${OUT:?set by the device machine}
bash ship/run.sh true
export PATH=/tmp/silot-ship/bin:$PATH
mkdir -p /tmp/r
t0=$(date +%s)
touch /tmp/r/.call-start # kept checkpoints newer than this are this call's
pids=""
for spec in "$@"; do
  IFS== read -r name config tarball branch <<<"$spec"
  reset=(--reset-optimizer)
  if [ ! -d "/tmp/r/$name" ]; then
    if ls "$RESTORE_DIR/$name.tar.xz."* >/dev/null 2>&1; then
      cat "$RESTORE_DIR/$name.tar.xz."* | xz -dc | tar -C /tmp/r -xf - && echo "$name: restored from parts"
    elif [ -n "$tarball" ]; then
      # The kept run becomes the branch source of a new run NAME under CONFIG (its [train] may
      # differ: a continuation test), whatever its folder's name; Adam kept if it holds one.
      src=/tmp/r/.from/$name
      rm -rf "$src" && mkdir -p "$src.x" && tar -C "$src.x" -xJf "$tarball"
      top=("$src.x"/*)
      if [ ${#top[@]} = 1 ] && [ -d "${top[0]}/checkpoint" ]; then
        mv "${top[0]}" "$src" && branch=$src/checkpoint && echo "$name: branching from $tarball"
        [ -f "$branch/optimizer.safetensors" ] && reset=()
      else
        echo "$name: $tarball must hold one run directory (with checkpoint/): not used" >&2
      fi
      rm -rf "$src.x"
    fi
  fi
  if [ "${RESUME_ONLY:-0}" = 1 ] && [ ! -d "/tmp/r/$name" ] && [ -z "$branch" ]; then
    echo "$name: nothing to resume on this machine (RESUME_ONLY=1): not started" >&2
    continue
  fi
  branch_args=()
  # Only for a run without a checkpoint: on a resume --reset-optimizer would drop Adam's state.
  if [ -n "$branch" ] && [ ! -d "/tmp/r/$name/checkpoint" ]; then
    branch_args=(--branch-from "$branch" ${reset[@]+"${reset[@]}"})
  elif [ -d "/tmp/r/$name/checkpoint" ] && [ ! -f "/tmp/r/$name/checkpoint/optimizer.safetensors" ]; then
    branch_args=(--reset-optimizer) # brought back weights-only (WEIGHTS_ONLY): Adam afresh
  fi
  [ -n "${KEEP_EVERY:-}" ] && branch_args+=(--keep-every "$KEEP_EVERY")
  (
    silot train --config "$config" --out "/tmp/r/$name" --device cuda --time-limit "$LIMIT" \
      ${branch_args[@]+"${branch_args[@]}"}
    echo "$name: rc=$? at $(($(date +%s) - t0)) s"
  ) >"/tmp/r/$name.log" 2>&1 &
  pids="$pids $!"
done
# shellcheck disable=SC2086
wait $pids
for spec in "$@"; do
  IFS== read -r name _ <<<"$spec"
  [ -d "/tmp/r/$name/checkpoint" ] || { echo "$name: no checkpoint"; continue; }
  files="$name/config.toml $name/metrics.jsonl $name/checkpoint"
  if [[ " ${WEIGHTS_ONLY:-} " == *" $name "* ]]; then
    files="$name/config.toml $name/metrics.jsonl"
    for f in weights.safetensors config.toml state.json; do files="$files $name/checkpoint/$f"; done
  fi
  # shellcheck disable=SC2086
  tar -C /tmp/r -cf - $files | xz -T0 -3 | split -b 15M - "$OUT/$name.tar.xz."
  tail -n 2 "/tmp/r/$name.log"
done
# Every run's log in one file ($OUT/logs.tar): the device returns at most OUT_MAX_FILES files.
(cd /tmp/r && ls -- *.log >/dev/null 2>&1 && tar -cf "$OUT/logs.tar" -- *.log)
# This call's kept checkpoints, newest first across runs, while the budget lasts.
budget=$((${OUT_BUDGET_MB:-60} * 1024 * 1024))
max_files=${OUT_MAX_FILES:-8}
find /tmp/r -mindepth 3 -maxdepth 3 -path '/tmp/r/*/kept/step-*' -type d -newer /tmp/r/.call-start \
  -printf '%f %P\n' 2>/dev/null | sort -r | while read -r step rel; do
  name=${rel%%/*} && out="$OUT/$name-kept-${step#step-}.tar.xz"
  if [ "$(find "$OUT" -type f | wc -l)" -ge "$max_files" ]; then
    echo "$rel: not brought back (OUT_MAX_FILES $max_files); left on the device" && continue
  fi
  parts=()
  for f in weights.safetensors config.toml state.json; do
    [ -f "/tmp/r/$rel/$f" ] && parts+=("$rel/$f")
  done
  tar -C /tmp/r -cf - "${parts[@]}" | xz -T0 -3 >"$out"
  if [ "$(du -sb "$OUT" | cut -f1)" -gt "$budget" ]; then
    rm -f "$out" && echo "$rel: not brought back (OUT_BUDGET_MB ${OUT_BUDGET_MB:-60}); left on the device"
  else
    echo "$rel: brought back as $(basename "$out")"
  fi
done
du -sh "$OUT"
echo "end at $(($(date +%s) - t0)) s"
