#!/usr/bin/env python3
"""The best-of-seeds recipe's choices (scripts/cuda/recipe_best_of_seeds.sh), from every seed's
validation line at one step (ROOT/sSEED/run/metrics.jsonl). Prints the chosen seed, then a line
per seed with what the choice saw.

    choose_seed.py width ROOT STEP KEY MAX_WIDTH SEED...
        step 2: the lowest KEY (e.g. total) among the seeds whose mean box width is at most
        MAX_WIDTH px (0: no limit); status 3 when every seed is wider (aliens boxed in pairs)
    choose_seed.py pairs ROOT STEP KEY MARGIN SEED...
        step 2b: the lowest KEY among the seeds within MARGIN of the fewest overlapping pairs per
        full frame (objects held twice)

Status 1 with a message while a seed has no validation at STEP yet (the recipe resumes later),
2 on bad input.
"""
import json
import sys


def fail(message):
    print(f"choose_seed.py: {message}", file=sys.stderr)
    sys.exit(2)


def val_lines(root, step, seeds):
    """Each seed's (last) validation line at step; exits 1 while one is missing."""
    lines = {}
    for s in seeds:
        rows = [json.loads(l) for l in open(f"{root}/s{s}/run/metrics.jsonl")]
        val = [r for r in rows if r["kind"] == "val" and r["step"] == step]
        if not val:
            sys.exit(f"seed {s} has no validation at step {step} yet; run the same command again")
        lines[s] = val[-1]
    return lines


def by_width(vals, step, key, max_width):
    def paired(s):
        return max_width > 0 and vals[s].get("box_width_px", 0) > max_width

    left = [s for s in vals if not paired(s)]
    best = min(left, key=lambda s: vals[s][key]) if left else None
    print(best or "none")
    for s, v in vals.items():
        full = v.get("full_frame", {})
        print(f"seed {s}: validation {key} {v[key]:.1f} at step {step} (total {v['total']:.1f}, "
              f"reconstruction {v['reconstruction']:.1f}, box width "
              f"{v.get('box_width_px', 0):.1f} px, overlapping pairs "
              f"{v.get('overlapping_pairs_per_frame', 0):.2f} per frame; full frames: "
              f"{full.get('objects_per_frame', 0):.1f} objects, "
              f"{full.get('overlapping_pairs_per_frame', 0):.2f} overlapping pairs)"
              + ("  <- chosen" if s == best else "")
              + (f"  excluded: box width > {max_width:g} px (aliens boxed in pairs)"
                 if paired(s) else ""))
    if best is None:
        print(f"every seed boxes aliens in pairs at step {step}: run again with other SEEDS and "
              "a new RUN_ROOT")
        sys.exit(3)


def by_pairs(vals, step, key, margin):
    for s, v in vals.items():
        if "full_frame" not in v:
            fail(f"seed {s}: no full-frame validation at step {step}; set VAL_FULL_FRAMES > 0")
    pairs = {s: v["full_frame"]["overlapping_pairs_per_frame"] for s, v in vals.items()}
    near = [s for s in vals if pairs[s] <= min(pairs.values()) + margin]
    best = min(near, key=lambda s: vals[s][key])
    print(best)
    for s, v in vals.items():
        print(f"seed {s}: at step {step} {pairs[s]:.2f} overlapping pairs per full frame, "
              f"validation {key} {v[key]:.1f}" + ("  <- chosen" if s == best else "")
              + ("" if s in near else f"  set aside: more than {margin:g} pairs above the fewest"))


def main():
    mode, root, step, key, limit, seeds = (sys.argv[1], sys.argv[2], int(sys.argv[3]),
                                           sys.argv[4], float(sys.argv[5]), sys.argv[6:])
    if mode not in ("width", "pairs"):
        fail(f"unknown mode {mode!r} (width or pairs)")
    vals = val_lines(root, step, seeds)
    (by_width if mode == "width" else by_pairs)(vals, step, key, limit)


if __name__ == "__main__":
    main()
