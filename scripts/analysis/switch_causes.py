#!/usr/bin/env python3
"""Where identity switches and misses happen along streams or clips.

    python3 scripts/analysis/switch_causes.py REPORT.json [--frame-size H W] [--crowded N] [--cell PX]

Reads a `silot eval --dump-frames --json REPORT.json` report. Per clip, present predictions
(score > 0.5) are matched to ground truth at IoU >= 0.5, last frame's pairs kept while still
valid and the rest greedily by IoU (as MOT matching does; its switch count comes within a few
per mille of the report's). A switch is a ground-truth object matched to another prediction id
than its last match. Each switch is described by the frame it happens at: the object's box
touching another ground-truth box, at the frame's edge (with --frame-size), the old prediction
still present, and the new one born at that frame or within 5 frames; of the switches whose old
prediction is gone, whether it was last present within 5 frames, and then whether it overlapped
an older present prediction at IoU >= 0.5 (`dedup` drops such a box at the next step) and
whether the new prediction, born at that frame, overlaps its last box at IoU >= 0.1 (what
`reid` inherits). A miss is a ground-truth object left unmatched at a frame; each is described
by its box touching another ground-truth box, half or more of it covered by other ground-truth
boxes, a present prediction on it at 0.1 <= IoU < 0.5 (found, boxed too loosely or off), no
present prediction within IoU 0.1, and a prediction below the presence threshold (score <= 0.5)
on it at IoU >= 0.5 (boxed well, held below the threshold: `below_threshold`). Of all
ground-truth objects (and, with --crowded N, of those in frames of N or more), the share touching
another box and the share half or more covered by other boxes: how often a condition's frames
pile objects up, whatever the tracker (a ConnComp report serves). With --cell PX (the backbone's
cell, 12 px), whether an object's box centre shares its PX x PX grid cell with another object's
(`same_cell`): discovery proposes one object per cell per frame; and the miss rate of objects
whose nearest neighbour's centre is under PX away, by that distance and by whether a neighbour
that close shares the cell (at one distance, what the cell adds). A false positive is a present
prediction left unmatched at a frame; each is described by a matched prediction under it at IoU
>= 0.5 (`duplicate`), a missed ground-truth object under it at IoU >= 0.1 (`on_missed`: found,
boxed too loosely or off) and no ground-truth object within IoU 0.1 (`nothing`: spurious).
"""
import argparse
import collections
import json
import math


def area(b):
    return max(0.0, b["bottom"] - b["top"]) * max(0.0, b["right"] - b["left"])


def inter(a, b):
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    return max(0.0, h) * max(0.0, w)


def iou(a, b):
    i = inter(a, b)
    u = area(a) + area(b) - i
    return i / u if u > 0 else 0.0


def cell_of(b, px):
    """The (row, column) of the px-sized grid cell holding the box's centre."""
    y, x = centre(b)
    return (int(y // px), int(x // px))


def centre(b):
    return ((b["top"] + b["bottom"]) / 2, (b["left"] + b["right"]) / 2)


def match_frame(gts, preds, last):
    """{gt id: pred id} at IoU >= 0.5, keeping last frame's valid pairs."""
    match, used = {}, set()
    for g, p in last.items():
        if g in gts and p in preds and iou(gts[g], preds[p]) >= 0.5:
            match[g] = p
            used.add(p)
    pairs = sorted(
        ((iou(gts[g], preds[p]), g, p) for g in gts if g not in match for p in preds if p not in used),
        reverse=True,
    )
    for v, g, p in pairs:
        if v < 0.5:
            break
        if g not in match and p not in used:
            match[g] = p
            used.add(p)
    return match


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("--frame-size", nargs=2, type=float, metavar=("H", "W"))
    ap.add_argument("--crowded", type=int, metavar="N",
                    help="also describe the objects of frames holding N or more")
    ap.add_argument("--cell", type=float, metavar="PX",
                    help="also tell objects whose box centre shares a PX grid cell with another's")
    a = ap.parse_args()
    rep = json.load(open(a.report))
    if "frames_detail" not in rep:
        raise SystemExit(f"{a.report} has no frames_detail: run silot eval with --dump-frames")
    clips = collections.defaultdict(list)
    for f in rep["frames_detail"]:
        clips[f["clip"]].append(f)
    n = collections.Counter()
    by_distance = collections.defaultdict(lambda: [0, 0])  # (band, same cell) -> [objects, misses]
    for frames in clips.values():
        frames.sort(key=lambda f: f["t"])
        last, born, seen, present_at = {}, {}, {}, {}
        for f in frames:
            preds = {p["id"]: p for p in f["pred"] if p["score"] > 0.5}
            present_at[f["t"]] = preds
            below = [p for p in f["pred"] if 0.0 < p["score"] <= 0.5]
            for pid in preds:
                born.setdefault(pid, f["t"])
            gts = {g["id"]: g for g in f["gt"]}
            match = match_frame(gts, preds, last)
            crowded = a.crowded is not None and len(gts) >= a.crowded
            cells = collections.Counter(cell_of(b, a.cell) for b in gts.values()) if a.cell else {}
            for g, box in gts.items():
                touching = any(inter(box, o) > 0 for h, o in gts.items() if h != g)
                covered = sum(inter(box, o) for h, o in gts.items() if h != g) >= 0.5 * area(box)
                n["covered_frames"] += covered
                n["crowded_objects"] += crowded
                n["crowded_touching"] += crowded and touching
                n["crowded_covered"] += crowded and covered
                mine = cell_of(box, a.cell) if a.cell else None
                same_cell = bool(a.cell) and cells[mine] > 1
                n["same_cell_frames"] += same_cell
                if a.cell:
                    near = [(math.dist(centre(box), centre(o)), cell_of(o, a.cell) == mine)
                            for h, o in gts.items() if h != g]
                    near = [(d, same) for d, same in near if d < a.cell]
                    if near:
                        band = int(min(d for d, _ in near) // (a.cell / 4))
                        key = (band, any(same for _, same in near))
                        by_distance[key][0] += 1
                        by_distance[key][1] += g not in match
                if g not in match:
                    n["misses"] += 1
                    n["miss_touching"] += touching
                    n["miss_covered"] += covered
                    n["miss_same_cell"] += same_cell
                    best = max((iou(box, p) for p in preds.values()), default=0.0)
                    n["miss_near"] += 0.1 <= best < 0.5
                    n["miss_nothing"] += best < 0.1
                    n["miss_below_threshold"] += any(iou(box, p) >= 0.5 for p in below)
                edge = a.frame_size is not None and (
                    box["top"] < 1 or box["left"] < 1
                    or box["bottom"] > a.frame_size[0] - 1 or box["right"] > a.frame_size[1] - 1
                )
                n["object_frames"] += 1
                n["touching_frames"] += touching
                if g in match and g in last and match[g] != last[g]:
                    n["switches"] += 1
                    n["touching"] += touching
                    n["edge"] += edge
                    n["old_still_present"] += last[g] in preds
                    n["new_born_this_frame"] += born[match[g]] == f["t"]
                    n["new_born_within_5"] += f["t"] - born[match[g]] <= 5
                    old = last[g]
                    if old not in preds and old in seen and f["t"] - seen[old][0] <= 5:
                        t_old, box_old = seen[old]
                        n["old_gone_within_5"] += 1
                        n["old_dropped_as_duplicate"] += any(
                            pid < old and iou(p, box_old) >= 0.5
                            for pid, p in present_at[t_old].items()
                        )
                        n["new_born_on_old_box"] += (
                            born[match[g]] == f["t"] and iou(box_old, preds[match[g]]) >= 0.1
                        )
            matched = set(match.values())
            missed = [box for g, box in gts.items() if g not in match]
            for pid, p in preds.items():
                if pid in matched:
                    continue
                n["false_positives"] += 1
                n["fp_duplicate"] += any(iou(p, preds[q]) >= 0.5 for q in matched)
                n["fp_on_missed"] += any(iou(p, box) >= 0.1 for box in missed)
                best = max((iou(p, box) for box in gts.values()), default=0.0)
                n["fp_nothing"] += best < 0.1
            last.update(match)
            for pid, p in preds.items():
                seen[pid] = (f["t"], p)
    s, of, tf = n["switches"], n["object_frames"], n["touching_frames"]
    print(f"{of} object-frames, {tf / of:.3f} touching another object, "
          f"{n['covered_frames'] / of:.3f} half covered; {s} switches "
          f"(the report: {rep.get('num_switches')})")
    if a.cell:
        share = n["same_cell_frames"] / of
        print(f"  sharing a {a.cell:g}-px cell with another object: {share:.3f}")
    if a.crowded is not None:
        co = n["crowded_objects"]
        print(f"  in frames of {a.crowded}+ objects: {co} object-frames, "
              f"{n['crowded_touching'] / max(co, 1):.3f} touching, "
              f"{n['crowded_covered'] / max(co, 1):.3f} half covered")
    print(f"switches per object-frame: touching {n['touching'] / max(tf, 1):.3f}, "
          f"not touching {(s - n['touching']) / max(of - tf, 1):.3f}")
    for k in ["touching", "edge", "old_still_present", "new_born_this_frame", "new_born_within_5",
              "old_gone_within_5", "old_dropped_as_duplicate", "new_born_on_old_box"]:
        if k == "edge" and a.frame_size is None:
            continue
        print(f"  {k}: {n[k]} ({n[k] / max(s, 1):.3f} of switches)")
    m = n["misses"]
    print(f"{m} misses (the report: {rep.get('num_misses')})")
    for k in ["miss_touching", "miss_covered", "miss_same_cell", "miss_near", "miss_nothing",
              "miss_below_threshold"]:
        if k == "miss_same_cell" and not a.cell:
            continue
        print(f"  {k[5:]}: {n[k]} ({n[k] / max(m, 1):.3f} of misses)")
    fp = n["false_positives"]
    print(f"{fp} false positives (the report: {rep.get('num_false_positives')})")
    for k in ["fp_duplicate", "fp_on_missed", "fp_nothing"]:
        print(f"  {k[3:]}: {n[k]} ({n[k] / max(fp, 1):.3f} of false positives)")
    if a.cell:
        q = a.cell / 4
        print(f"miss rate by the nearest other centre's distance (under {a.cell:g} px), "
              f"a neighbour that close in the same cell or not:")
        for band in range(4):
            row = [by_distance[(band, same)] for same in (False, True)]
            print(f"  {band * q:4.1f}-{(band + 1) * q:4.1f} px: "
                  + ", ".join(f"{lab} {mi / max(ob, 1):.3f} of {ob}"
                              for lab, (ob, mi) in zip(("other cell", "same cell"), row)))


if __name__ == "__main__":
    main()
