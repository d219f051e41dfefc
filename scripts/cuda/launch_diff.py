#!/usr/bin/env python3
"""Kernel launches per step from two launch_count.c logs of the same bench run with N1 < N2
timed steps: (log2 - log1) / (N2 - N1), per kernel name, most launched first (markdown).

    python3 scripts/cuda/launch_diff.py LOG1 N1 LOG2 N2
"""
import re
import sys


def table(path):
    rows, total, waits = {}, None, (0.0, 0.0, 0.0, 0.0, 0.0)
    for line in open(path, errors="replace"):
        m = re.match(r"launch_wait: ([\d.]+) ms in allocs\+frees, (\d+) memsets ([\d.]+) ms, (\d+) waits ([\d.]+) ms", line)
        if m:
            waits = tuple(float(g) for g in m.groups())
            continue
        m = re.match(r"launch_count: (\d+) launches, ([\d.]+) ms inside cuLaunchKernel, (\d+) cuMemAllocAsync, (\d+) cuMemFreeAsync", line)
        if m:
            total = tuple(float(g) for g in m.groups())
            continue
        m = re.match(r"launch_count:\s+(\d+)\s+([\d.]+) ms\s+(.*)$", line)
        if m:
            rows[m.group(3)] = (int(m.group(1)), float(m.group(2)))
    return rows, total + waits


def main():
    (a, na), (b, nb) = (table(sys.argv[1]), int(sys.argv[2])), (table(sys.argv[3]), int(sys.argv[4]))
    d = nb - na
    ta, tb = a[1], b[1]
    print(f"per step ({d} steps differenced): {(tb[0]-ta[0])/d:.0f} launches, "
          f"{(tb[1]-ta[1])/d:.1f} ms inside cuLaunchKernel, {(tb[2]-ta[2])/d:.0f} allocs, {(tb[3]-ta[3])/d:.0f} frees "
          f"({(tb[4]-ta[4])/d:.1f} ms inside both), {(tb[5]-ta[5])/d:.0f} memsets ({(tb[6]-ta[6])/d:.1f} ms), "
          f"{(tb[7]-ta[7])/d:.0f} host waits for the GPU ({(tb[8]-ta[8])/d:.1f} ms)\n")
    print("| kernel | launches / step | ms in launch / step |\n|---|---|---|")
    rows = []
    for name, (n, ms) in b[0].items():
        n0, ms0 = a[0].get(name, (0, 0.0))
        rows.append(((n - n0) / d, (ms - ms0) / d, name))
    for n, ms, name in sorted(rows, reverse=True):
        if n >= 0.5:
            print(f"| {name} | {n:.0f} | {ms:.2f} |")


if __name__ == "__main__":
    main()
