#!/usr/bin/env python3
"""Per-set means and paired comparisons of `silot eval` reports (`--json DIR/NAME-SEED.json`).

  python3 scripts/cuda/score_sets.py DIR...                  # a row per checkpoint and seed set
  python3 scripts/cuda/score_sets.py DIR... --pair A B ...   # A against B, seed by seed

A checkpoint's name is its reports' file name less "-SEED.json".
Seeds fall into the scoring sets of benches/results (SEED_SETS) by their ten-thousands (the shipped
manifest's 27 seeds, 101009 ... 149101, are sets "fresh", "unseen" and "s141"); any other is "other".
Rows: MOTA, AP and count error are means over the set's seeds (every seed weighs the same, as
the results files report them); false positives and misses are per ground-truth object over
the set, and so are the duplicates among the false positives (`dup`: second boxes on tracked
objects; only where every report has `false_positive_kinds`); overlapping pairs per frame a
mean. --pair A B (repeatable; names or substrings that match one checkpoint): per seed set, on
the seeds both have, how often A's MOTA is the higher and the mean differences A - B of MOTA
and count error: paired comparisons of one draw's encoders, since draws differ far more than
the changes tried on them.
"""
import argparse
import glob
import json
import os
import sys
from collections import defaultdict

SEED_SETS = {
    "fresh": "101009 102013 103021 104027 105031 106039 107043 108049 109051",
    "unseen": "111029 112031 113039 114041 115049 116053 117061 118067 119087",
    "91001": "91001 92003 93007 94011 95013 96017 97019 98021 99023",
    "third": "121003 122011 123017 124021 125029 126031 127037 128041 129049",
    "s131": "131011 132019 133021 134033 135043 136047 137053 138059 139067",
    "s141": "141023 142031 143053 144061 145069 146077 147083 148091 149101",
}
# Each set's seeds share their ten-thousands (91001 ... 99023 are 9, 101009 ... 109051 are 10, ...).
BUCKET_OF = {int(s) // 10000: name for name, seeds in SEED_SETS.items() for s in seeds.split()}


def set_of(seed):
    """The scoring set of `seed`, or "other"."""
    return BUCKET_OF.get(seed // 10000, "other")


def load(dirs):
    """{checkpoint name: {seed: report}} from every DIR/*.json."""
    reports = defaultdict(dict)
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.json"))):
            name = os.path.basename(path)[: -len(".json")].rsplit("-", 1)[0]
            with open(path) as f:
                report = json.load(f)
            reports[name][report["seed"]] = report
    return reports


def by_set(seeds):
    """{set name: [seed, ...]} for the given seeds, sets in a stable order."""
    groups = defaultdict(list)
    for seed in sorted(seeds):
        groups[set_of(seed)].append(seed)
    return dict(sorted(groups.items()))


def rows(reports):
    for name in sorted(reports):
        for set_name, seeds in by_set(reports[name]).items():
            rs = [reports[name][s] for s in seeds]
            n, gt = len(rs), sum(r["num_gt"] for r in rs)
            mean = lambda key: sum(r[key] for r in rs) / n
            per_gt = lambda key: sum(r.get(key, 0) for r in rs) / max(gt, 1)
            # False positives that are second boxes on tracked objects (reports that have
            # false_positive_kinds, i.e. from the twenty-seventh session's version on).
            dup = ""
            if all("false_positive_kinds" in r for r in rs):
                dups = sum(r["false_positive_kinds"]["duplicate"] for r in rs)
                dup = f" dup {dups / max(gt, 1):.3f}"
            yield (
                f"{name[-60:]:60} {rs[0]['checkpoint']['step']:>6} {set_name:7} n={n} "
                f"MOTA {mean('mota'):.3f} AP {mean('ap'):.3f} count {mean('count_abs_error'):.2f} "
                f"fp {per_gt('num_false_positives'):.3f} miss {per_gt('num_misses'):.3f} "
                f"pairs {mean('overlapping_pairs_per_frame'):.3f}{dup}"
            )


def resolve(reports, pattern):
    """The one checkpoint name equal to PATTERN, else the one containing it."""
    if pattern in reports:
        return pattern
    found = [name for name in reports if pattern in name]
    if len(found) != 1:
        what = f"{len(found)} checkpoints ({', '.join(sorted(found))})"
        sys.exit(f"--pair: '{pattern}' matches {what if found else 'no checkpoint'}; "
                 "give a name or a longer part of one")
    return found[0]


def paired(reports, a, b):
    a, b = resolve(reports, a), resolve(reports, b)
    shared = set(reports[a]) & set(reports[b])
    if not shared:
        sys.exit(f"--pair: {a} and {b} share no seed")
    for set_name, seeds in by_set(shared).items():
        ra, rb = [reports[a][s] for s in seeds], [reports[b][s] for s in seeds]
        wins = sum(x["mota"] > y["mota"] for x, y in zip(ra, rb))
        d = lambda key: sum(x[key] - y[key] for x, y in zip(ra, rb)) / len(seeds)
        yield (
            f"{a} vs {b} {set_name:7} n={len(seeds)} MOTA higher on {wins}/{len(seeds)} "
            f"dMOTA {d('mota'):+.3f} dcount {d('count_abs_error'):+.2f}"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="+", help="folders of silot eval JSON reports (NAME-SEED.json)")
    parser.add_argument("--pair", nargs=2, action="append", default=[], metavar=("A", "B"))
    args = parser.parse_args()
    reports = load(args.dirs)
    if not reports:
        sys.exit(f"no reports (*.json) in {' '.join(args.dirs)}")
    if args.pair:
        lines = [line for a, b in args.pair for line in paired(reports, a, b)]
    else:
        lines = rows(reports)
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
