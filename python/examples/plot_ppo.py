"""Learning curves of ppo_objects.py runs: mean episode return against agent steps, one line per
agent kind (observation, and the set encoder of object runs other than Deep Sets; the mean over
seeds, their range shaded).

    python python/examples/plot_ppo.py runs/space_invaders__* --out benches/results/ppo_objects_vs_pixels.png

Needs matplotlib. Also prints each kind's final return (mean of the last 100 episodes, per seed).
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import defaultdict
from pathlib import Path

import numpy as np


def load(run: Path):
    rows = list(csv.DictReader(open(run / "episodes.csv")))
    steps = np.array([int(r["global_step"]) for r in rows])
    rets = np.array([float(r["return"]) for r in rows])
    return steps, rets


def smooth(steps, rets, grid, window):
    """Mean return of the episodes that ended in the `window` steps before each grid point (none
    past the run's last episode: a run stopped early ends its line there)."""
    out = np.full(len(grid), np.nan)
    last = steps.max() if len(steps) else -1
    for j, g in enumerate(grid):
        m = (steps <= g) & (steps > g - window) & (g <= last + window / 10)
        if m.any():
            out[j] = rets[m].mean()
    return out


def kind_of(args: dict) -> str:
    """A run's line: its observation kind, with the set encoder when it is not the default."""
    encoder = args.get("set_encoder", "deepsets")
    return args["obs"] if args["obs"] != "objects" or encoder == "deepsets" else f"objects, {encoder}"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("runs", nargs="+", type=Path)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--window", type=int, default=100_000, help="agent steps averaged per point")
    a = p.parse_args(argv)
    by_kind = defaultdict(list)
    for run in a.runs:
        args = json.loads((run / "args.json").read_text())
        by_kind[kind_of(args)].append((args["seed"], *load(run)))
    import warnings

    import matplotlib

    warnings.filterwarnings("ignore", "Mean of empty slice|All-NaN", RuntimeWarning)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ends = [s.max() for runs in by_kind.values() for _, s, _ in runs if len(s)]
    if not ends:
        p.error("no run has a finished episode yet: nothing to plot (train longer)")
    end = max(ends)
    grid = np.linspace(a.window, end, 100)
    fig, ax = plt.subplots(figsize=(7, 4))
    for kind, runs in sorted(by_kind.items()):
        curves = np.array([smooth(s, r, grid, a.window) for _, s, r in runs])
        mean = np.nanmean(curves, 0)
        ax.plot(grid, mean, label=f"{kind} ({len(runs)} seeds)")
        ax.fill_between(grid, np.nanmin(curves, 0), np.nanmax(curves, 0), alpha=0.2)
        finals = [float(np.mean(r[-100:])) for _, _, r in runs]
        print(f"{kind}: final return (last 100 episodes) per seed {finals}, mean {np.mean(finals):.1f}")
    ax.set_xlabel("agent steps (4 frames each)")
    ax.set_ylabel("episode return (game score)")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    a.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(a.out, dpi=120)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
