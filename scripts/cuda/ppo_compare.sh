#!/usr/bin/env bash
# PPO from SILOT objects against PPO from pixels on Space Invaders (issue 46, item 5), on a GPU
# machine without Rust or internet: installs the wheels of python/kit/ (scripts/cuda/build_python.sh)
# into /tmp/site and runs python/examples/ppo_objects.py for every run of RUNS, all at once
# (PARALLEL=1: one after another), each resumable: a run stops after STOP_AFTER seconds with a
# checkpoint in WORK/<obs>_<seed>/ and the next call of this script goes on from it.
#
# On the device machine (carry: python/kit; the command runs in the repository root):
#   bash scripts/cuda/ppo_compare.sh                 # 4 runs, 2M agent steps each, <= ~9.5 min
#   bash scripts/cuda/ppo_compare.sh                 # again (same warm machine): resumes them
#   PROBE="8 32" bash scripts/cuda/ppo_compare.sh    # speed only: each variant PROBE_S seconds
#                                                    # alone at each --num-envs, steps/s
#   bash scripts/cuda/ppo_compare.sh run CMD ARGS... # CMD in the kit's environment, e.g.
#     bash scripts/cuda/ppo_compare.sh run python3 python/bench/vec_speed.py --device cuda \
#       --envs 256 --steps 1000 --groups 2 --observe /tmp/silot-ship/bin/silot
#
# Settings (environment):
#   RUNS        "objects:1 objects:2 pixels:1 pixels:2" (obs:seed)
#   STEPS       2000000 agent steps per run (--total-timesteps; 4 emulator frames each)
#   NUM_ENVS    32   NUM_STEPS 32: batch 1024 per update, as CleanRL's 8 x 128, so the same
#               1953 updates of minibatch 256 in 2M steps, with 4x the envs per vector step
#               (CleanRL's own 8 x 128: NUM_ENVS=8 NUM_STEPS=128)
#   OBJ_GROUPS  objects: encoder pipeline groups (default 1: at 32 envs the encoder is
#               bound by kernel launches, ~4-5 ms a step at any batch up to ~64 (H100 table in
#               benches/results/cuda_bench.md), so 2 groups of 16 cost two such steps; make_vec's
#               cuda default, 2, is for hundreds of envs)
#   STOP_AFTER  seconds before a run checkpoints and exits (default 540: a 10-minute call
#               with the install and packing)
#   SAVE_EVERY  updates between checkpoints (default 100)
#   WORK        /tmp/ppo (run directories; kept while the machine stays warm)
#   RESUME_FROM a folder of earlier results (this script's $OUT: ppo_results.tgz and
#               ckpt_<obs>_<seed>.pt*) to go on from on a fresh machine
#   EXTRA       more ppo_objects.py flags for every run
#   DEVICE      cuda (cpu, with PY=python/.venv/bin/python NO_KIT=1: a dry run of this script
#               on a machine without a GPU, e.g. STEPS=512 NUM_ENVS=2 EXTRA="--env smoke
#               --encoder untrained:smoke")
# Output ($OUT, or WORK/out without one): ppo_results.tgz (each run's episodes.csv,
# summary.json, args.json, log), ppo_objects_vs_pixels.png (plot_ppo.py's learning curves of
# the runs so far) and, for runs not finished, their checkpoints ckpt_<obs>_<seed>.pt with
# Adam's moments in bfloat16 (pixels 13.5 MB, objects 2.8 MB; split into 15 MiB parts .pt.00,
# .pt.01 if ever larger). On a fresh machine: copy those files into python/kit/resume/ here and
# call with RESUME_FROM=python/kit/resume (carry python/kit: ~40 MiB with all four). The status table at the end: agent steps, finished,
# mean return of the last 100 games, steps/s.
#
# Measured (session 39, one H200, 16 cores, benches/results/ppo_objects_vs_pixels.md): all four
# runs at once with NUM_ENVS=64 NUM_STEPS=16: objects 1,380 agent steps/s each, pixels 1,860:
# the pixel runs' 2M steps take ~18 min, the object runs' ~24 min (three device calls with the
# bench; a 30-minute session holds ~1.57M object steps after the Python bench). Session 40: two
# Deep Sets runs beside two EXTRA="--set-encoder attention" runs: 1,117 and 655 agent steps/s.
# The estimate made before that run (kept for its stage costs): Stage
# costs on the H200 (benches/results/observe_pipeline.md): the encoder with its host round trip
# 29.6 ms a step at 256 envs, and at small batches bound by kernel launches (cuda_bench.md, H100:
# 3.9 ms at batch 1, 4.9 at 16, 6.0 at 64 without the round trip), so ~6-10 ms at 8 envs and
# ~8-13 ms at 32; an env step ~0.84 ms of one core. Objects at CleanRL's 8 envs: 8-12 ms per
# vector step of 8 agent steps, 0.7-1.0k steps/s, 33-48 min per 2M-step run: too slow for a
# 30-minute device budget. At 32 envs: 1.5-2.7k steps/s alone, 12-22 min; pixels at 32 envs
# 3.5-8k steps/s, 6-11 min. All four at once share 16 cores and the GPU: ~15-25 min wall, so
# two or three calls of STOP_AFTER=540 on the same warm machine (or NUM_ENVS=64 NUM_STEPS=16:
# ~8-11 min per objects run alone). On the 2 shared CPU cores here (load ~9, Space Invaders,
# release wheel): objects 7.5 steps/s at 8 envs and 8.6 at 32 (the CPU encoder), pixels 18.5 and
# 47.3: per-step overheads amortise over more envs.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
RUNS=${RUNS:-"objects:1 objects:2 pixels:1 pixels:2"}
STEPS=${STEPS:-2000000}
NUM_ENVS=${NUM_ENVS:-32}
NUM_STEPS=${NUM_STEPS:-32}
STOP_AFTER=${STOP_AFTER:-540}
SAVE_EVERY=${SAVE_EVERY:-100}
PARALLEL=${PARALLEL:-4}
WORK=${WORK:-/tmp/ppo}
PROBE_S=${PROBE_S:-60}
DEVICE=${DEVICE:-cuda}
PY=${PY:-python3}
out=${OUT:-$WORK/out}
mkdir -p "$WORK" "$out"

# The kit: silot (CUDA) and the pure-Python packages the image lacks.
if [ -z "${NO_KIT:-}" ] && [ ! -f /tmp/site/.silot-kit ]; then
  ls python/kit/silot-*.whl >/dev/null || { echo "no python/kit/silot-*.whl: run scripts/cuda/build_python.sh and carry python/kit" >&2; exit 1; }
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site python/kit/*.whl
  touch /tmp/site/.silot-kit
fi
[ -n "${NO_KIT:-}" ] || export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
# CUDA libraries of the extension (libcublas, libcurand; libcuda from the driver), as ship/run.sh.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SILOT_MODELS=$root/models PYTHONUNBUFFERED=1
# PTX of candle's kernels compiled once per machine (~20 s), shared by the runs.
export CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/silot-nvc} CUDA_CACHE_MAXSIZE=4294967296
"$PY" -c 'import sys, silot, torch; cuda = sys.argv[1] == "cuda"; assert not cuda or silot.cuda_compiled(), "silot wheel without CUDA"; assert not cuda or torch.cuda.is_available(); print("silot", silot.__file__, "| torch", torch.__version__, torch.cuda.get_device_name(0) if cuda else "cpu")' "$DEVICE"
cores=$(nproc)
if [ "${1:-}" = run ]; then shift; exec "$@"; fi

ppo() {  # obs seed run_dir num_envs stop_after threads [more flags]
  local obs=$1 seed=$2 dir=$3 n=$4 stop=$5 threads=$6
  shift 6
  local groups=()
  [ "$obs" = objects ] && groups=(--groups "${OBJ_GROUPS:-1}")
  # shellcheck disable=SC2086
  OMP_NUM_THREADS=$threads "$PY" python/examples/ppo_objects.py --obs "$obs" --seed "$seed" \
    --device "$DEVICE" --total-timesteps "$STEPS" --num-envs "$n" --num-steps "$NUM_STEPS" \
    --env-threads "$threads" "${groups[@]}" --run-dir "$dir" --save-every "$SAVE_EVERY" \
    --stop-after "$stop" --resume ${EXTRA:-} "$@"
}

if [ -n "${PROBE:-}" ]; then
  # Speed only: each variant alone on the machine for PROBE_S seconds at each --num-envs.
  printf '%-8s %8s %12s %10s\n' obs num_envs agent_steps steps/s | tee "$out/probe.txt"
  for n in $PROBE; do
    for obs in objects pixels; do
      dir=$WORK/probe_${obs}_$n
      rm -rf "$dir"
      ppo "$obs" 1 "$dir" "$n" "$PROBE_S" "$cores" >"$dir.log" 2>&1 || { tail -20 "$dir.log"; exit 1; }
      "$PY" - "$dir/summary.json" "$obs" "$n" <<'PY' | tee -a "$out/probe.txt"
import json, sys
s = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]:<8} {sys.argv[3]:>8} {s['agent_steps']:>12} {s['steps_per_s']:>10.0f}")
PY
    done
  done
  exit 0
fi

# Earlier results brought back to a fresh machine.
if [ -n "${RESUME_FROM:-}" ]; then
  for r in $RUNS; do
    name=${r%%:*}_${r##*:}
    dir=$WORK/$name
    [ -f "$dir/checkpoint.pt" ] && continue
    mkdir -p "$dir"
    if [ -f "$RESUME_FROM/ppo_results.tgz" ]; then tar -C "$WORK" -xzf "$RESUME_FROM/ppo_results.tgz" "$name" 2>/dev/null || true; fi
    if ls "$RESUME_FROM/ckpt_$name.pt"* >/dev/null 2>&1; then
      cat $(ls "$RESUME_FROM/ckpt_$name.pt"* | sort) >"$dir/checkpoint.pt"
      echo "$name: checkpoint from $RESUME_FROM"
    fi
  done
fi

n_runs=$(wc -w <<<"$RUNS")
per=$(( PARALLEL < n_runs ? PARALLEL : n_runs ))
threads=$(( cores / per > 0 ? cores / per : 1 ))
echo "$n_runs runs, $per at a time, $threads env threads each; $STEPS steps, $NUM_ENVS envs x $NUM_STEPS steps per update; stop after ${STOP_AFTER} s"
pids=()
for r in $RUNS; do
  obs=${r%%:*} seed=${r##*:}
  dir=$WORK/${obs}_$seed
  mkdir -p "$dir"
  ppo "$obs" "$seed" "$dir" "$NUM_ENVS" "$STOP_AFTER" "$threads" >>"$dir/run.log" 2>&1 &
  pids+=($!)
  if [ "${#pids[@]}" -ge "$per" ]; then wait "${pids[0]}" || true; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || true; done

# Results back: one archive of the small files, the unfinished runs' checkpoints.
names=()
for r in $RUNS; do names+=("${r%%:*}_${r##*:}"); done
(cd "$WORK" && tar -czf "$out/ppo_results.tgz" \
  $(for n in "${names[@]}"; do for f in episodes.csv summary.json args.json run.log; do [ -f "$n/$f" ] && echo "$n/$f"; done; done))
printf '%-12s %12s %9s %12s %9s\n' run agent_steps finished return_100 steps/s
for n in "${names[@]}"; do
  s=$WORK/$n/summary.json
  if [ -f "$s" ]; then
    "$PY" - "$s" "$n" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r = s["final_mean_return_last_100"]
print(f"{sys.argv[2]:<12} {s['agent_steps']:>12} {str(s.get('finished')):>9} {r if r is None else round(r, 1)!s:>12} {s['steps_per_s']:>9.0f}")
PY
    if ! grep -q '"finished": true' "$s" && [ -f "$WORK/$n/checkpoint.pt" ]; then
      # Adam's moments in bfloat16 (the weights stay float32; load_state_dict casts the moments
      # back): the pixel agent's checkpoint 20 -> 13.5 MB, the objects' 4.2 -> 2.8 MB, so all
      # four fit beside the kit in the 64 MiB a call carries (RESUME_FROM).
      "$PY" - "$WORK/$n/checkpoint.pt" "$out/ckpt_$n.pt" <<'PY'
import sys, torch
c = torch.load(sys.argv[1], map_location="cpu", weights_only=False)
for st in c["optimizer"]["state"].values():
    for k in ("exp_avg", "exp_avg_sq"):
        if k in st:
            st[k] = st[k].to(torch.bfloat16)
torch.save(c, sys.argv[2])
PY
      size=$(stat -c %s "$out/ckpt_$n.pt")
      if [ "$size" -gt $((15 * 1024 * 1024)) ]; then
        split -b 15M -d "$out/ckpt_$n.pt" "$out/ckpt_$n.pt." && rm "$out/ckpt_$n.pt"
      fi
    fi
  else
    echo "$n: no summary (see $WORK/$n/run.log):"; tail -5 "$WORK/$n/run.log" || true
  fi
done
# Learning curves so far (matplotlib is in the GPU image; the final returns are printed too).
"$PY" python/examples/plot_ppo.py $(for n in "${names[@]}"; do [ -s "$WORK/$n/episodes.csv" ] && echo "$WORK/$n"; done) \
  --out "$out/ppo_objects_vs_pixels.png" || echo "(no curves: plot_ppo.py failed)"
ls -la "$out"
