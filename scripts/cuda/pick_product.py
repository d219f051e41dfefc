#!/usr/bin/env python3
"""Pick one encoder of a draw by its validation scores (score_parallel.sh's reports).

  python3 scripts/cuda/pick_product.py SCORES_DIR CHECKPOINT_DIR... [--max-count 2.94]

Of the candidate checkpoints (their reports are SCORES_DIR/NAME-SEED.json, NAME the path with
"/" as "_", as score_parallel.sh names them), on the seeds every scored candidate has: the one
with the highest mean MOTA among those whose mean count error is at most --max-count (default
the paper's Space Invaders 2.94); where none is, the one with the lowest count error. Prints the
chosen directory on stdout, the candidates' means on stderr. The reference reports the test
scores of its best validation checkpoint; this is that rule with the count as a constraint, on
a validation seed set (e.g. 131011 ... 139067), the report sets left unseen.
"""
import argparse
import glob
import json
import os
import sys


def name_of(path):
    """score_parallel.sh's name for a checkpoint directory."""
    return path.rstrip("/").lstrip("/").replace("/", "_")


def reports_of(scores, path):
    """{seed: report} of one checkpoint."""
    out = {}
    for f in glob.glob(os.path.join(scores, glob.escape(name_of(path)) + "-*.json")):
        seed = f[: -len(".json")].rsplit("-", 1)[1]
        if seed.isdigit():
            out[int(seed)] = json.load(open(f))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scores")
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--max-count", type=float, default=2.94)
    a = ap.parse_args()
    scored = {p: r for p in a.checkpoints if (r := reports_of(a.scores, p))}
    for p in a.checkpoints:
        if p not in scored:
            print(f"not scored, left out: {p}", file=sys.stderr)
    if not scored:
        sys.exit(f"pick_product: no candidate has reports in {a.scores}")
    seeds = set.intersection(*(set(r) for r in scored.values()))
    if not seeds:
        sys.exit("pick_product: the candidates share no scored seed")
    n = len(seeds)
    means = {}
    for p, r in scored.items():
        means[p] = (sum(r[s]["mota"] for s in seeds) / n,
                    sum(r[s]["count_abs_error"] for s in seeds) / n)
    within = [p for p in scored if means[p][1] <= a.max_count]
    if within:
        best = max(within, key=lambda p: means[p][0])
    else:
        best = min(scored, key=lambda p: means[p][1])
    for p in scored:
        mark = "  <- chosen" if p == best else ""
        print(f"{p}: MOTA {means[p][0]:.3f} count error {means[p][1]:.2f} "
              f"({len(seeds)} seeds){mark}", file=sys.stderr)
    print(best)


if __name__ == "__main__":
    main()
