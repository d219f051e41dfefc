//! Average precision as the paper's code computes it (auto_yolo `mAP`, one class).
//!
//! For one IoU threshold `thr`:
//! 1. Per frame, predictions with `score > 0` are sorted by decreasing score (stable). Each is
//!    compared with the **still unmatched** ground-truth boxes of that frame; with the one of
//!    highest IoU (first on ties) it is a true positive iff `IoU > thr` (strict), and that ground
//!    truth is then used up; otherwise it is a false positive. (The paper's code removes matched
//!    ground truth from the pool, so a later prediction is compared with the best *remaining*
//!    box.) A frame without ground truth makes all its predictions false positives.
//! 2. All predictions of all frames are sorted by decreasing score (stable: frame order, then
//!    the per-frame order); cumulative precision and recall are computed in `f32` as the
//!    original does (`recall = TP / #GT`).
//! 3. 11-point interpolation: for recall levels `r = 0, 0.1, …, 1` take the maximum precision
//!    among points with `recall >= r` (0 if none) and average the 11 values.
//!
//! AP is the mean of that over the thresholds (paper: 0.1, 0.2, …, 0.9). Without any
//! prediction the AP is 0 (the original returns NaN there).
//!
//! Optional paper quirk ([`ApOptions::ignore_after_gt_exhausted`], off by default): once every
//! ground-truth box of a frame has been matched, that frame's remaining (lower-scored)
//! predictions are silently dropped instead of counted as false positives — what the original
//! loop's early `break` does. It raises precision; it is only for reproducing paper numbers.

use super::bbox::BBox;

/// A predicted box with its confidence (SILOT's presence, 1 for ConnComp).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoredBox {
    /// Confidence; only predictions with `score > 0` take part.
    pub score: f32,
    /// The box.
    pub bbox: BBox,
}

/// Options of [`average_precision`].
#[derive(Debug, Clone, PartialEq)]
pub struct ApOptions {
    /// IoU thresholds to average over (strict `IoU > thr` for a true positive).
    pub iou_thresholds: Vec<f64>,
    /// Paper quirk: drop a frame's remaining predictions once its ground truth is used up.
    pub ignore_after_gt_exhausted: bool,
}

impl Default for ApOptions {
    fn default() -> Self {
        Self {
            iou_thresholds: default_iou_thresholds(),
            ignore_after_gt_exhausted: false,
        }
    }
}

/// `np.linspace(start, stop, n)` as numpy evaluates it (`i * step + start`, last = `stop`), so
/// boundary comparisons behave exactly as in the original.
fn linspace(start: f64, stop: f64, n: usize) -> Vec<f64> {
    if n == 1 {
        return vec![start];
    }
    let step = (stop - start) / (n - 1) as f64;
    let mut v: Vec<f64> = (0..n).map(|i| i as f64 * step + start).collect();
    v[n - 1] = stop;
    v
}

/// The paper's AP thresholds: 0.1, 0.2, …, 0.9 (`np.linspace(0.1, 0.9, 9)`).
pub fn default_iou_thresholds() -> Vec<f64> {
    linspace(0.1, 0.9, 9)
}

/// Per-frame true/false-positive flags for one threshold, appended to `out` as `(score, tp)`.
fn classify_frame(
    gt: &[BBox],
    pred: &[ScoredBox],
    thr: f64,
    ignore_after: bool,
    out: &mut Vec<(f32, bool)>,
) {
    let mut order: Vec<&ScoredBox> = pred.iter().filter(|p| p.score > 0.0).collect();
    order.sort_by(|a, b| b.score.total_cmp(&a.score));
    if gt.is_empty() {
        out.extend(order.iter().map(|p| (p.score, false)));
        return;
    }
    let mut pool: Vec<BBox> = gt.to_vec();
    for p in order {
        if pool.is_empty() {
            if ignore_after {
                break;
            }
            out.push((p.score, false));
            continue;
        }
        let (mut best, mut best_iou) = (0, f64::NEG_INFINITY);
        for (k, g) in pool.iter().enumerate() {
            let iou = p.bbox.iou(g);
            if iou > best_iou {
                best = k;
                best_iou = iou;
            }
        }
        let tp = best_iou > thr;
        if tp {
            pool.remove(best);
        }
        out.push((p.score, tp));
    }
}

/// 11-point interpolated AP of a list of `(score, is_tp)` for `num_gt` positives.
fn eleven_point(mut preds: Vec<(f32, bool)>, num_gt: usize) -> f64 {
    preds.sort_by(|a, b| b.0.total_cmp(&a.0)); // stable
    let mut precision = Vec::with_capacity(preds.len());
    let mut recall = Vec::with_capacity(preds.len());
    let mut cs = 0.0f32;
    for (k, &(_, tp)) in preds.iter().enumerate() {
        cs += if tp { 1.0 } else { 0.0 };
        precision.push(cs / (k + 1) as f32);
        recall.push(cs / num_gt as f32); // NaN when num_gt = 0: never >= r
    }
    let levels = linspace(0.0, 1.0, 11);
    let total: f64 = levels
        .iter()
        .map(|&r| {
            recall
                .iter()
                .zip(&precision)
                .filter(|(&rc, _)| f64::from(rc) >= r)
                .map(|(_, &p)| f64::from(p))
                .fold(0.0, f64::max)
        })
        .sum();
    total / levels.len() as f64
}

/// AP at one IoU threshold over all frames (`gt[f]`, `pred[f]` for frame `f`).
pub fn ap_at_threshold(
    gt: &[Vec<BBox>],
    pred: &[Vec<ScoredBox>],
    thr: f64,
    ignore_after: bool,
) -> f64 {
    let mut flags = Vec::new();
    for (g, p) in gt.iter().zip(pred) {
        classify_frame(g, p, thr, ignore_after, &mut flags);
    }
    if flags.is_empty() {
        return 0.0;
    }
    let num_gt = gt.iter().map(Vec::len).sum();
    eleven_point(flags, num_gt)
}

/// AP averaged over `opts.iou_thresholds` (see the module docs). `gt` and `pred` are per frame
/// and must have the same length (extra frames of the longer one are ignored).
pub fn average_precision(gt: &[Vec<BBox>], pred: &[Vec<ScoredBox>], opts: &ApOptions) -> f64 {
    if opts.iou_thresholds.is_empty() {
        return 0.0;
    }
    let sum: f64 = opts
        .iou_thresholds
        .iter()
        .map(|&t| ap_at_threshold(gt, pred, t, opts.ignore_after_gt_exhausted))
        .sum();
    sum / opts.iou_thresholds.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(t: f64, l: f64, s: f64) -> BBox {
        BBox::new(t, l, t + s, l + s)
    }

    fn sb(score: f32, bbox: BBox) -> ScoredBox {
        ScoredBox { score, bbox }
    }

    #[test]
    fn thresholds_match_numpy_linspace() {
        let t = default_iou_thresholds();
        assert_eq!(t.len(), 9);
        assert_eq!(t[0], 0.1);
        assert_eq!(t[2], 0.30000000000000004); // numpy: 2 * 0.1 + 0.1
        assert_eq!(t[8], 0.9);
    }

    #[test]
    fn perfect_detections_give_one() {
        let gt = vec![vec![b(0.0, 0.0, 4.0), b(10.0, 10.0, 4.0)]];
        let pred = vec![vec![sb(0.9, b(0.0, 0.0, 4.0)), sb(0.8, b(10.0, 10.0, 4.0))]];
        assert_eq!(average_precision(&gt, &pred, &ApOptions::default()), 1.0);
    }

    #[test]
    fn hand_computed_precision_recall() {
        // 2 GT; predictions by score: TP (0.9), FP (0.8), TP (0.7).
        // precision [1, .5, .667], recall [.5, .5, 1].
        // r in {0..0.5}: max p = 1 (6 levels); r in {0.6..1}: 0.6667 (5 levels).
        let gt = vec![vec![b(0.0, 0.0, 4.0), b(10.0, 10.0, 4.0)]];
        let pred = vec![vec![
            sb(0.9, b(0.0, 0.0, 4.0)),
            sb(0.8, b(30.0, 30.0, 4.0)),
            sb(0.7, b(10.0, 10.0, 4.0)),
        ]];
        let ap = ap_at_threshold(&gt, &pred, 0.5, false);
        let expect = (6.0 + 5.0 * (2.0f32 / 3.0) as f64) / 11.0;
        assert!((ap - expect).abs() < 1e-12, "{ap} vs {expect}");
    }

    #[test]
    fn strict_threshold_and_duplicates() {
        // IoU of these two boxes is exactly 0.5: not a TP at threshold 0.5, a TP at 0.4.
        let gt = vec![vec![BBox::new(0.0, 0.0, 2.0, 2.0)]];
        let p = vec![vec![sb(1.0, BBox::new(0.0, 0.0, 2.0, 1.0))]];
        assert_eq!(ap_at_threshold(&gt, &p, 0.5, false), 0.0);
        assert_eq!(ap_at_threshold(&gt, &p, 0.4, false), 1.0);
        // A duplicate after the GT is used up is a FP: precision at recall 1 = 1 (first point).
        let p2 = vec![vec![sb(1.0, b(0.0, 0.0, 2.0)), sb(0.5, b(0.0, 0.0, 2.0))]];
        assert_eq!(ap_at_threshold(&gt, &p2, 0.5, false), 1.0);
        // Duplicate scored higher than the true box's twin: FP first only if it ranks first.
        let p3 = vec![vec![sb(0.5, b(0.0, 0.0, 2.0)), sb(1.0, b(50.0, 50.0, 2.0))]];
        // Sorted: FP (1.0), TP (0.5): precision [0, .5], recall [0, 1] -> 11 * 0.5 / 11.
        assert_eq!(ap_at_threshold(&gt, &p3, 0.5, false), 0.5);
    }

    #[test]
    fn quirk_drops_predictions_after_gt_exhausted() {
        let gt = vec![vec![b(0.0, 0.0, 2.0)], vec![b(0.0, 0.0, 2.0)]];
        // Frame 0: TP then a lower-scored FP; frame 1: a FP ranked above frame 0's FP.
        let pred = vec![
            vec![sb(0.9, b(0.0, 0.0, 2.0)), sb(0.1, b(20.0, 20.0, 2.0))],
            vec![sb(0.8, b(0.0, 0.0, 2.0))],
        ];
        // Without quirk: TP .9, TP .8, FP .1 -> precision 1 up to recall 1 -> AP 1 anyway.
        assert_eq!(ap_at_threshold(&gt, &pred, 0.5, false), 1.0);
        let pred_bad = vec![
            vec![sb(0.9, b(0.0, 0.0, 2.0)), sb(0.85, b(20.0, 20.0, 2.0))],
            vec![sb(0.8, b(0.0, 0.0, 2.0))],
        ];
        // Without quirk: TP, FP, TP: p [1, .5, .667], r [.5, .5, 1].
        let no_quirk = ap_at_threshold(&gt, &pred_bad, 0.5, false);
        assert!((no_quirk - (6.0 + 5.0 * f64::from(2.0f32 / 3.0)) / 11.0).abs() < 1e-12);
        // With quirk the FP of frame 0 is dropped: AP 1.
        assert_eq!(ap_at_threshold(&gt, &pred_bad, 0.5, true), 1.0);
    }

    #[test]
    fn no_predictions_or_no_gt() {
        let gt = vec![vec![b(0.0, 0.0, 2.0)]];
        assert_eq!(
            average_precision(&gt, &[vec![]], &ApOptions::default()),
            0.0
        );
        let pred = vec![vec![sb(1.0, b(0.0, 0.0, 2.0))]];
        assert_eq!(
            average_precision(&[vec![]], &pred, &ApOptions::default()),
            0.0
        );
        // score 0 predictions do not take part.
        let zero = vec![vec![sb(0.0, b(0.0, 0.0, 2.0))]];
        assert_eq!(average_precision(&gt, &zero, &ApOptions::default()), 0.0);
    }
}
