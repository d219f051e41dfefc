#!/usr/bin/env python3
"""Where MOTA's errors are, from `silot eval --dump-frames --json REPORT` reports.

Per frame, predictions above the report's MOT presence threshold are matched to the ground truth
one-to-one (Hungarian on 1 - IoU, pairs of IoU < 0.5 forbidden, as the MOTA does; no identity
continuity, so this is MOTA's per-frame part: switches, negligible for SILOT, are not counted).
The unmatched are counted per ground-truth object by place: the score rows (box centre above
--top-rows; Space Invaders' score digits), thin objects (ground truth at most --thin px wide:
bullets), the rest. A second line splits the false positives outside the score rows by kind:
"duplicate" (IoU >= 0.5 with a ground-truth object another prediction matched), "part" (best IoU
in [0.1, 0.5): a piece of an object or a box of the wrong size), "spurious" (IoU < 0.1 with all),
and by their centre's row band (--bands, in px). A third line splits the missed thin objects by
what is over them: a wrong-size box (best IoU in [0.1, 0.5), with those boxes' median size),
only another object's box, only boxes at or below the presence threshold, or nothing.

    python3 scripts/mota_errors.py REPORT.json...   (needs numpy and scipy)
"""
import argparse
import collections
import json

import numpy as np
from scipy.optimize import linear_sum_assignment


def iou(a, b):
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    inter = max(0.0, h) * max(0.0, w)
    area = lambda r: (r["bottom"] - r["top"]) * (r["right"] - r["left"])
    union = area(a) + area(b) - inter
    return inter / union if union > 0 else 0.0


def fp_kind(best):
    """Why an unmatched prediction found no partner, from its best IoU with any ground truth:
    duplicate, part or spurious."""
    return "duplicate" if best >= 0.5 else "part" if best >= 0.1 else "spurious"


def band_of(row, bands):
    """The label "a-b" of the row band [a, b) holding row (bands: ascending edges)."""
    for lo, hi in zip(bands, bands[1:]):
        if lo <= row < hi:
            return f"rows {lo:g}-{hi:g}"
    return "rows outside"


def thin_miss_kind(g, preds, frame_preds, threshold, part_sizes):
    """What a missed thin object has over it: a wrong-size box (best IoU in [0.1, 0.5); its
    width x height goes to part_sizes), only another object's box over its centre, only boxes
    at or below the presence threshold, or nothing."""
    best = max(preds, key=lambda p: iou(g, p), default=None)
    if best is not None and iou(g, best) >= 0.1:
        part_sizes.append((best["right"] - best["left"], best["bottom"] - best["top"]))
        return "wrong-size box"
    cy, cx = (g["top"] + g["bottom"]) / 2, (g["left"] + g["right"]) / 2
    over = [
        p for p in frame_preds if p["top"] <= cy <= p["bottom"] and p["left"] <= cx <= p["right"]
    ]
    if any(p["score"] > threshold for p in over):
        return "inside another box"
    return "faint box only" if any(p["score"] > 0.001 for p in over) else "nothing"


def errors(report, top_rows, thin, bands):
    """Counts of unmatched predictions (fp) and ground truth (miss) by place, the false positives
    outside the score rows by kind and row band, the missed thin objects by what is over them
    (with the wrong-size boxes' sizes); #ground truth."""
    threshold = report["thresholds"]["obj_threshold"] if "thresholds" in report else 0.05
    counts, fp_detail, n_gt = collections.Counter(), collections.Counter(), 0
    thin_detail, part_sizes = collections.Counter(), []
    for frame in report["frames_detail"]:
        preds = [p for p in frame["pred"] if p["score"] > threshold]
        gts = frame["gt"]
        n_gt += len(gts)
        matched_g, matched_p = set(), set()
        m = np.array([[iou(g, p) for p in preds] for g in gts]).reshape(len(gts), len(preds))
        if gts and preds:
            cost = np.where(m >= 0.5, 1.0 - m, 1e6)
            for i, j in zip(*linear_sum_assignment(cost)):
                if cost[i, j] < 1e5:
                    matched_g.add(i)
                    matched_p.add(j)
        place = lambda r: "score rows" if r["top"] + r["bottom"] < 2 * top_rows else None
        for j, p in enumerate(preds):
            if j not in matched_p:
                counts["fp " + (place(p) or "elsewhere")] += 1
                if not place(p):
                    fp_detail[fp_kind(m[:, j].max(initial=0.0))] += 1
                    fp_detail[band_of((p["top"] + p["bottom"]) / 2, bands)] += 1
        for i, g in enumerate(gts):
            if i not in matched_g:
                thin_g = g["right"] - g["left"] <= thin
                counts["miss " + (place(g) or ("thin" if thin_g else "other"))] += 1
                if thin_g and not place(g):
                    kind = thin_miss_kind(g, preds, frame["pred"], threshold, part_sizes)
                    thin_detail[kind] += 1
    return counts, fp_detail, n_gt, thin_detail, part_sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--top-rows", type=float, default=25.0)
    ap.add_argument("--thin", type=float, default=3.0)
    ap.add_argument("--bands", default="25,100,150,180,195", help="row band edges, comma-separated")
    a = ap.parse_args()
    for path in a.reports:
        report = json.load(open(path))
        if "frames_detail" not in report:
            raise SystemExit(f"{path}: no frames_detail; make it with `silot eval --dump-frames`")
        bands = [float(b) for b in a.bands.split(",")]
        counts, fp_detail, n_gt, thin_detail, part_sizes = errors(report, a.top_rows, a.thin, bands)
        cells = ", ".join(f"{k} {v / n_gt:.3f}" for k, v in sorted(counts.items()))
        print(f"{path}: MOTA {report['mota']:.3f}; per ground-truth object: {cells}")
        order = ["duplicate", "part", "spurious"] + [band_of(b, bands) for b in bands[:-1]]
        order.append("rows outside")
        cells = ", ".join(f"{k} {fp_detail[k] / n_gt:.3f}" for k in order if k in fp_detail)
        print(f"  fp elsewhere: {cells}")
        n_thin = sum(thin_detail.values())
        cells = ", ".join(f"{k} {v / max(n_thin, 1):.2f}" for k, v in thin_detail.most_common())
        if part_sizes:
            w, h = np.median(np.array(part_sizes), axis=0)
            cells += f"; wrong-size boxes median {w:.1f} x {h:.1f} px"
        print(f"  thin missed ({n_thin}): {cells}")


if __name__ == "__main__":
    main()
