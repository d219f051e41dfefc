#!/usr/bin/env bash
# On the GPU machine (after scripts/cuda/pack.sh; run from the repository root): GPU time per
# kernel name in windows of one Space Invaders training step (72x72 crops, K 36, T 8, B 64, past
# the training wheels), measured by Nsight Compute (one metric: gpu__time_duration). A whole step
# is ~20k kernels (too slow to replay), so each window profiles COUNT launches starting SKIP
# launches into the run (3 warm-up steps come first). Writes $OUT/ncu_train_<skip>.md.
#
#   bash ship/run.sh bash scripts/cuda/profile_train_ncu.sh COUNT SKIP [SKIP ...]
set -euo pipefail
count=$1
shift
out=${OUT:-/tmp/silot-out}
mkdir -p "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "ncu (Nsight Compute) not found" >&2; exit 1; }
for skip in "$@"; do
  "$ncu" --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    --launch-skip "$skip" --launch-count "$count" --log-file "$out/ncu_$skip.csv" \
    gpu_bench --device cuda --only train --train-sets invaders --train-batches 64 --iters 1 \
    >"$out/ncu_bench_$skip.txt" 2>&1
  python3 - "$out/ncu_$skip.csv" "$skip" "$count" >"$out/ncu_train_$skip.md" <<'PY'
import csv, sys
from collections import defaultdict
path, skip, count = sys.argv[1], sys.argv[2], sys.argv[3]
lines = [l for l in open(path, newline="") if l.startswith('"')]
tot, n = defaultdict(float), defaultdict(int)
for r in csv.DictReader(lines):
    if r.get("Metric Name") != "gpu__time_duration.sum":
        continue
    v = float(r["Metric Value"].replace(",", ""))
    if r.get("Metric Unit", "nsecond") in ("usecond", "us"):
        v *= 1e3
    name = r["Kernel Name"].split("(")[0][:80]
    tot[name] += v
    n[name] += 1
all_ns = sum(tot.values())
print(f"window: {sum(n.values())} kernels from launch {skip} (asked {count}); GPU time {all_ns/1e6:.2f} ms, "
      f"{all_ns/1e3/max(1,sum(n.values())):.1f} us per kernel\n")
print("| kernel | launches | GPU ms | share | us / launch |\n|---|---|---|---|---|")
for k in sorted(tot, key=tot.get, reverse=True)[:30]:
    print(f"| {k} | {n[k]} | {tot[k]/1e6:.2f} | {100*tot[k]/all_ns:.1f} % | {tot[k]/1e3/n[k]:.1f} |")
PY
  rm -f "$out/ncu_$skip.csv"
  head -16 "$out/ncu_train_$skip.md"
done
