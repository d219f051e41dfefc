#!/usr/bin/env python3
"""Python reference for the Atari ConnComp labeller (silot-reference section 6), used by
`cargo bench --bench bench_main -- conncomp` to measure the Rust labeller side by side.

Per clip: colour set = all exact RGB triples in the clip except black (np.unique order). Per frame
and colour: mask of exactly that colour, dilated once with OpenCV's 2x2 elliptical kernel,
8-connected components; box top = ymin - 1, bottom = ymax, left = xmin - 1, right = xmax on the
dilated component. Two implementations are timed on one core: OpenCV and scipy.ndimage.

Input: raw uint8 frames (N, H, W, 3) in a file. Output (stdout): one JSON line with frames/s of
each implementation. With --boxes-out, the OpenCV boxes per frame are written as JSON
(list of frames, each a list of [r, g, b, top, bottom, left, right]) for an exactness check,
and with --ids-out the identities from frame-to-frame Hungarian matching (scipy's
linear_sum_assignment on box-centre distance, +10000 on colour mismatch, match iff cost < 10000,
fresh ids in detection order, empty frames resetting) for a check of the id assignment.

Needs: pip install numpy opencv-python-headless scipy
"""
import argparse
import json
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

try:
    import cv2  # noqa: E402

    cv2.setNumThreads(1)
except ImportError:  # pragma: no cover
    cv2 = None
try:
    from scipy import ndimage  # noqa: E402
except ImportError:  # pragma: no cover
    ndimage = None


def clip_colours(clip):
    """Distinct non-black colours of a clip, in np.unique (lexicographic) order."""
    cols = np.unique(clip.reshape(-1, 3), axis=0)
    return [c for c in cols if c.any()]


def label_frame_opencv(frame, colours, kernel):
    boxes = []
    for c in colours:
        mask = np.all(frame == c, axis=-1).astype(np.uint8)
        mask = cv2.dilate(mask, kernel)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for k in range(1, n):
            x, y, w, h = (int(v) for v in stats[k, :4])
            boxes.append([int(c[0]), int(c[1]), int(c[2]), y - 1, y + h - 1, x - 1, x + w - 1])
    return boxes


def label_frame_scipy(frame, colours, structure):
    boxes = []
    for c in colours:
        m = np.all(frame == c, axis=-1)
        d = m.copy()
        d[1:, :] |= m[:-1, :]
        d[:, 1:] |= m[:, :-1]
        lab, _ = ndimage.label(d, structure=structure)
        for sl in ndimage.find_objects(lab):
            ys, xs = sl
            boxes.append([int(c[0]), int(c[1]), int(c[2]), ys.start - 1, ys.stop - 1, xs.start - 1, xs.stop - 1])
    return boxes


def assign_ids(clip_boxes):
    """Ids per frame for one clip's boxes (rows current objects, columns previous ones)."""
    from scipy.optimize import linear_sum_assignment

    prev, next_id, out = [], 0, []
    for boxes in clip_boxes:
        cur = [((b[3] + b[4]) / 2, (b[5] + b[6]) / 2, tuple(b[:3])) for b in boxes]
        ids = [None] * len(cur)
        if cur and prev:
            cost = np.zeros((len(cur), len(prev)))
            for i, (y, x, c) in enumerate(cur):
                for j, (py, px, pc, _) in enumerate(prev):
                    d = min(np.hypot(y - py, x - px), 10000.0)
                    cost[i, j] = d + (10000.0 if c != pc else 0.0)
            for i, j in zip(*linear_sum_assignment(cost)):
                if cost[i, j] < 10000.0:
                    ids[i] = prev[j][3]
        for i in range(len(ids)):
            if ids[i] is None:
                ids[i] = next_id
                next_id += 1
        out.append(ids)
        prev = [(y, x, c, k) for (y, x, c), k in zip(cur, ids)]
    return out


def fps(label, clips, min_seconds):
    """Frames per second of `label` over all frames; colour sets are computed outside the timer."""
    colour_sets = [clip_colours(c) for c in clips]
    n_frames = sum(len(c) for c in clips)
    reps, elapsed = 0, 0.0
    while elapsed < min_seconds:
        t0 = time.perf_counter()
        for clip, cols in zip(clips, colour_sets):
            for f in clip:
                label(f, cols)
        elapsed += time.perf_counter() - t0
        reps += 1
    return reps * n_frames / elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--frames", required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--height", type=int, default=195)
    ap.add_argument("--width", type=int, default=160)
    ap.add_argument("--clip-len", type=int, default=8)
    ap.add_argument("--min-seconds", type=float, default=2.0)
    ap.add_argument("--boxes-out")
    ap.add_argument("--ids-out")
    args = ap.parse_args()

    frames = np.fromfile(args.frames, dtype=np.uint8).reshape(args.n, args.height, args.width, 3)
    clips = [frames[i : i + args.clip_len] for i in range(0, args.n, args.clip_len)]
    out = {"frames": args.n, "numpy": np.__version__}
    if cv2 is not None:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2, 2))
        out["opencv"] = cv2.__version__
        out["opencv_fps"] = fps(lambda f, c: label_frame_opencv(f, c, kernel), clips, args.min_seconds)
        if args.boxes_out:
            boxes = []
            for clip in clips:
                cols = clip_colours(clip)
                boxes.extend(label_frame_opencv(f, cols, kernel) for f in clip)
            with open(args.boxes_out, "w") as fh:
                json.dump(boxes, fh)
            if args.ids_out:
                ids = []
                for k in range(0, len(boxes), args.clip_len):
                    ids.extend(assign_ids(boxes[k : k + args.clip_len]))
                with open(args.ids_out, "w") as fh:
                    json.dump(ids, fh)
    if ndimage is not None:
        import scipy

        structure = np.ones((3, 3), dtype=bool)
        out["scipy"] = scipy.__version__
        out["scipy_fps"] = fps(lambda f, c: label_frame_scipy(f, c, structure), clips, args.min_seconds)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
