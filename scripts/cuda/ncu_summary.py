#!/usr/bin/env python3
"""Summarise an `ncu --csv --metrics gpu__time_duration.sum` log of `gpu_bench --only infer`:
GPU time per kernel name over one inference step (the last complete one in the log).

    python3 scripts/cuda/ncu_summary.py ncu.csv [STEP_MARKER] [N_MARKERS_PER_STEP]

A step is found by its first kernel: the STEP_MARKER kernel (default `patches_fwd_f32`, the
backbone's first launch) occurs N_MARKERS_PER_STEP (default 1: the RGB input; every later
channels-last layer has C % 4 == 0 and runs `patches_fwd_v4_f32`) times per step.
"""
import csv
import sys
from collections import defaultdict


def rows(path):
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        if r.get("Metric Name") == "gpu__time_duration.sum":
            yield r


def main():
    path = sys.argv[1]
    marker = sys.argv[2] if len(sys.argv) > 2 else "patches_fwd_f32"
    per_step = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    launches = []
    for r in rows(path):
        unit = r.get("Metric Unit", "nsecond")
        v = float(r["Metric Value"].replace(",", ""))
        scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3, "second": 1e6}.get(unit, 1e-3)
        launches.append((r["Kernel Name"], v * scale))
    starts = [i for i, (n, _) in enumerate(launches) if n.startswith(marker)][::per_step]
    if len(starts) >= 2:
        lo, hi = starts[-2], starts[-1]
    else:
        lo, hi = 0, len(launches)
    step = launches[lo:hi]
    agg = defaultdict(lambda: [0, 0.0])
    for n, us in step:
        key = n.split("(")[0]
        agg[key][0] += 1
        agg[key][1] += us
    total = sum(us for _, us in step)
    print(f"{len(launches)} launches profiled; one step = launches {lo}..{hi}: "
          f"{len(step)} kernels, {total / 1e3:.2f} ms of GPU time")
    print("| kernel | launches | ms | share |\n|---|---|---|---|")
    for k, (c, us) in sorted(agg.items(), key=lambda kv: -kv[1][1])[:40]:
        print(f"| `{k}` | {c} | {us / 1e3:.3f} | {100 * us / total:.1f} % |")
    print("\nlaunch sequence of the step (kernel, us), for matching to the model's code:")
    for i, (n, us) in enumerate(step):
        print(f"{i} {n.split('(')[0]} {us:.1f}")


if __name__ == "__main__":
    main()
