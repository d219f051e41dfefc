"""Which Space Invaders objects lose presence along a clip.

Reads a `silot eval --dump-frames --json FILE` report (one or more files, averaged) and, for every
ground-truth box, finds the prediction of highest IoU (any presence) and its presence. Objects
are grouped into classes by box position and size (a heuristic for the `paper` preset's 195x160
frames: score digits at the top, shields, the player, bullets 2 px wide, aliens the rest).
Prints, per frame index t, per frame: ground-truth objects, those matched (IoU >= 0.5) with
presence > 0.5 (what the count error counts) and > 0.05 (what MOT counts), and those that no
prediction covers at IoU 0.5. Then, per class, the trajectories: every ground-truth object of
the first frame, its matched prediction (IoU >= 0.5) followed by identity through the clip: mean
presence per frame, mean per-step survival (presence ratio of consecutive frames, 0 once the
identity is gone) and the share starting below 0.8. Then, per class, how it is boxed (the
best-IoU prediction's size and IoU; whether any prediction over the object's centre has presence
above 0.05 / 0.5), and the faint predictions (presence 0.05-0.5: counted by MOT, not by the
count) per frame by the class of the object they overlap most.

    python3 scripts/analysis/presence_by_class.py report_1000.json report_2000.json
"""
import json
import sys
from collections import defaultdict


def iou(a, b):
    top, left = max(a["top"], b["top"]), max(a["left"], b["left"])
    bottom, right = min(a["bottom"], b["bottom"]), min(a["right"], b["right"])
    inter = max(0.0, bottom - top) * max(0.0, right - left)
    area = lambda x: (x["bottom"] - x["top"]) * (x["right"] - x["left"])
    union = area(a) + area(b) - inter
    return inter / union if union > 0 else 0.0


def object_class(g):
    h, w = g["bottom"] - g["top"], g["right"] - g["left"]
    if w <= 3:
        return "bullet"
    if g["top"] < 25:
        return "score digits"
    if g["top"] >= 175:
        return "player"
    if g["top"] >= 140 and h >= 15:
        return "shield"
    return "alien"


def main(paths):
    # class -> t -> [gt, matched pres > 0.5, matched pres > 0.05, not covered]
    stats = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    frames = defaultdict(int)
    for path in paths:
        report = json.load(open(path))
        for f in report["frames_detail"]:
            t = f["t"]
            frames[t] += 1
            for g in f["gt"]:
                best, pres = 0.0, 0.0
                for p in f["pred"]:
                    v = iou(g, p)
                    if v > best:
                        best, pres = v, p["score"]
                s = stats[object_class(g)][t]
                s[0] += 1
                if best >= 0.5:
                    s[1] += pres > 0.5
                    s[2] += pres > 0.05
                else:
                    s[3] += 1
    ts = sorted(frames)
    print("per frame, t =", " ".join("%5d" % t for t in ts))
    for c in sorted(stats):
        print(c)
        rows = [("ground truth", 0), ("presence > 0.5", 1), ("presence > 0.05", 2), ("not covered", 3)]
        for label, i in rows:
            print("   %-16s" % label, " ".join("%5.1f" % (stats[c][t][i] / frames[t]) for t in ts))


def trajectories(paths):
    """Presence along the clip of the predictions matched to the first frame's objects."""
    by_class = defaultdict(list)
    for path in paths:
        clips = defaultdict(dict)
        for f in json.load(open(path))["frames_detail"]:
            clips[f["clip"]][f["t"]] = f
        for frames in clips.values():
            ts = sorted(frames)
            first = frames[ts[0]]
            for g in first["gt"]:
                best = max(first["pred"], key=lambda p: iou(g, p), default=None)
                if best is None or iou(g, best) < 0.5:
                    continue
                track = []
                for t in ts:
                    same = [p["score"] for p in frames[t]["pred"] if p["id"] == best["id"]]
                    track.append(same[0] if same else 0.0)
                by_class[object_class(g)].append(track)
    print("\ntrajectories of the first frame's objects (matched at IoU 0.5, followed by identity)")
    for c in sorted(by_class):
        tracks = by_class[c]
        n, length = len(tracks), min(len(t) for t in tracks)
        mean = [sum(t[i] for t in tracks) / n for i in range(length)]
        survival = [
            sum(t[i] / t[i - 1] for t in tracks if t[i - 1] > 0) / n for i in range(1, length)
        ]
        low = sum(1 for t in tracks if t[0] < 0.8) / n
        print("%-13s objects %5d, start < 0.8: %3.0f %%" % (c, n, 100 * low))
        print("   mean presence  ", " ".join("%5.2f" % v for v in mean))
        print("   survival t-1->t", "      " + " ".join("%5.3f" % v for v in survival))


def median(values):
    v = sorted(values)
    return v[len(v) // 2] if v else float("nan")


def box_fit(paths):
    """How each class is boxed: the best-IoU prediction's size and IoU, and the highest presence
    of any prediction over the object's centre (seen at all, however boxed)."""
    fit = defaultdict(list)  # class -> [(gt h, gt w, pred h, pred w, IoU, covering presence)]
    for path in paths:
        for f in json.load(open(path))["frames_detail"]:
            for g in f["gt"]:
                best = max(f["pred"], key=lambda p: iou(g, p), default=None)
                if best is None:
                    continue
                cy, cx = (g["top"] + g["bottom"]) / 2, (g["left"] + g["right"]) / 2
                cover = max(
                    (p["score"] for p in f["pred"]
                     if p["top"] <= cy <= p["bottom"] and p["left"] <= cx <= p["right"]),
                    default=0.0,
                )
                fit[object_class(g)].append((
                    g["bottom"] - g["top"], g["right"] - g["left"],
                    best["bottom"] - best["top"], best["right"] - best["left"],
                    iou(g, best), cover,
                ))
    print("\nbox fit (medians; 'seen': a prediction over the centre above 0.05 / 0.5)")
    for c in sorted(fit):
        rows = fit[c]
        col = lambda i: median(r[i] for r in rows)
        seen = lambda thr: 100 * sum(r[5] > thr for r in rows) / len(rows)
        print("%-13s objects %5d  truth %4.1f x %4.1f  best box %4.1f x %4.1f  IoU %4.2f  "
              "seen %3.0f %% / %3.0f %%" % (c, len(rows), col(0), col(1), col(2), col(3), col(4),
                                            seen(0.05), seen(0.5)))


def faint_predictions(paths):
    """Predictions MOT counts but the count does not (presence 0.05-0.5), per frame, by the
    class of the ground-truth object they overlap most ('none' below IoU 0.1)."""
    by = defaultdict(lambda: defaultdict(int))
    frames = defaultdict(int)
    for path in paths:
        for f in json.load(open(path))["frames_detail"]:
            t = f["t"]
            frames[t] += 1
            for p in f["pred"]:
                if not 0.05 < p["score"] <= 0.5:
                    continue
                g = max(f["gt"], key=lambda x: iou(p, x), default=None)
                c = object_class(g) if g is not None and iou(p, g) >= 0.1 else "none"
                by[c][t] += 1
    ts = sorted(frames)
    print("\nfaint predictions (presence 0.05-0.5) per frame, by overlapped class, t =",
          " ".join("%5d" % t for t in ts))
    for c in sorted(by):
        print("   %-14s" % c, " ".join("%5.1f" % (by[c][t] / frames[t]) for t in ts))


if __name__ == "__main__":
    main(sys.argv[1:])
    trajectories(sys.argv[1:])
    box_fit(sys.argv[1:])
    faint_predictions(sys.argv[1:])
