#!/usr/bin/env python3
"""Generates tests/eval_motmetrics_fixture.json: random multi-clip tracking cases scored by
py-motmetrics itself (MOTA, MOTP, IDF1 and event counts of the merged OVERALL summary), which
tests/eval_golden.rs replays through `silot::eval::evaluate`.

Boxes are (top, left, bottom, right) on a quarter-pixel lattice so that f32 and f64 hold them
exactly; distances are 1 - IoU with pairs of IoU < 0.5 forbidden, as in the paper.

    pip install motmetrics pandas numpy
    python3 tests/eval_motmetrics_fixture.py > tests/eval_motmetrics_fixture.json
"""
import json
import random

import numpy as np

if not hasattr(np, "asfarray"):  # motmetrics 1.4 still calls it; removed in numpy 2
    np.asfarray = lambda a, dtype=float: np.asarray(a, dtype=dtype)

import motmetrics as mm  # noqa: E402


def q(v):
    return round(v * 4) / 4


def make_clip(rng):
    n_frames = rng.randint(1, 10)
    objs = {}
    for i in range(rng.randint(0, 6)):
        objs[i] = [rng.uniform(0, 60), rng.uniform(0, 60), rng.uniform(4, 14), rng.uniform(4, 14), rng.random() < 0.9]
    hyp_of = {i: 100 + i for i in objs}
    next_hyp = 200
    frames = []
    for _ in range(n_frames):
        gt, hyp = [], []
        for i, o in objs.items():
            o[0] += rng.uniform(-3, 3)
            o[1] += rng.uniform(-3, 3)
            if rng.random() < 0.1:
                o[4] = not o[4]  # object (dis)appears
            if not o[4]:
                continue
            t, l = q(o[0]), q(o[1])
            gt.append([i, t, l, t + q(o[2]), l + q(o[3])])
            r = rng.random()
            if r < 0.12:
                continue  # tracker misses it
            if r < 0.2:
                hyp_of[i] = next_hyp  # identity switch
                next_hyp += 1
            if rng.random() < 0.15 and len(objs) > 1:
                j = rng.choice([k for k in objs if k != i])
                hyp_of[i], hyp_of[j] = hyp_of[j], hyp_of[i]  # two tracks swap ids
            jit = 4.0 if rng.random() < 0.2 else 1.0
            ht, hl = q(o[0] + rng.uniform(-jit, jit)), q(o[1] + rng.uniform(-jit, jit))
            hyp.append([hyp_of[i], ht, hl, ht + q(o[2] + rng.uniform(-1, 1)), hl + q(o[3] + rng.uniform(-1, 1))])
        for _ in range(rng.choice([0, 0, 0, 1, 2])):
            t, l = q(rng.uniform(0, 60)), q(rng.uniform(0, 60))
            hyp.append([next_hyp, t, l, t + 6, l + 6])  # false positive
            next_hyp += 1
        # Ids must be unique per frame (a swap can duplicate one): keep the first.
        seen, uniq = set(), []
        for h in hyp:
            if h[0] not in seen:
                seen.add(h[0])
                uniq.append(h)
        frames.append({"gt": gt, "hyp": uniq})
    return frames


def score(clips):
    accs = []
    for clip in clips:
        acc = mm.MOTAccumulator(auto_id=True)
        for f in clip:
            xywh = lambda b: [b[2], b[1], b[4] - b[2], b[3] - b[1]]  # noqa: E731
            d = mm.distances.iou_matrix(
                [xywh(g) for g in f["gt"]], [xywh(h) for h in f["hyp"]], max_iou=0.5
            )
            acc.update([g[0] for g in f["gt"]], [h[0] for h in f["hyp"]], d)
        accs.append(acc)
    mh = mm.metrics.create()
    names = ["mota", "motp", "idf1", "num_switches", "num_misses", "num_false_positives", "num_matches"]
    s = mh.compute_many(accs, metrics=names, names=[str(i) for i in range(len(accs))], generate_overall=True)
    row = s.loc["OVERALL"]
    out = {}
    for k in names:
        v = float(row[k])
        out[k] = None if not np.isfinite(v) else v
    # motmetrics' OVERALL MOTP merges per-clip MOTPs weighted by detections, which is NaN as
    # soon as one clip has no detection (NaN * 0); recompute it from the merged events: the mean
    # distance of MATCH and SWITCH events.
    d_sum, n_det = 0.0, 0
    for acc in accs:
        ev = acc.mot_events
        det = ev[ev.Type.isin(["MATCH", "SWITCH"])]
        d_sum += float(det.D.sum())
        n_det += len(det)
    out["motp"] = d_sum / n_det if n_det else None
    return out


def main():
    rng = random.Random(1234)
    cases = []
    for _ in range(60):
        clips = [make_clip(rng) for _ in range(rng.randint(1, 4))]
        if sum(len(f["gt"]) for c in clips for f in c) == 0:
            continue
        cases.append({"clips": clips, "expected": score(clips)})
    print(json.dumps({"motmetrics": mm.__version__, "cases": cases}))


if __name__ == "__main__":
    main()
