//! Axis-aligned boxes in the pixel-index convention and their intersection-over-union.

use crate::env::GtObject;
use crate::track::TrackedObject;

/// A box with continuous edges in the pixel-index convention (pixel `k` centred at `k`, so a
/// pixel covers `[k - 0.5, k + 0.5]`). Height is `bottom - top`, width `right - left`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BBox {
    /// Top edge.
    pub top: f64,
    /// Left edge.
    pub left: f64,
    /// Bottom edge.
    pub bottom: f64,
    /// Right edge.
    pub right: f64,
}

impl BBox {
    /// Box from its four edges.
    pub fn new(top: f64, left: f64, bottom: f64, right: f64) -> Self {
        Self {
            top,
            left,
            bottom,
            right,
        }
    }

    /// `bottom - top`, at least 0.
    pub fn height(&self) -> f64 {
        (self.bottom - self.top).max(0.0)
    }

    /// `right - left`, at least 0.
    pub fn width(&self) -> f64 {
        (self.right - self.left).max(0.0)
    }

    /// Area (0 for degenerate boxes).
    pub fn area(&self) -> f64 {
        self.height() * self.width()
    }

    /// Centre `(y, x)`.
    pub fn centre(&self) -> (f64, f64) {
        (
            0.5 * (self.top + self.bottom),
            0.5 * (self.left + self.right),
        )
    }

    /// Intersection over union in `[0, 1]`: `|A ∩ B| / (|A| + |B| - |A ∩ B|)`, as py-motmetrics'
    /// `boxiou` and the paper code's `compute_iou` define it (continuous edges, no `+1`).
    /// Two boxes whose union has zero area have IoU 0.
    pub fn iou(&self, other: &BBox) -> f64 {
        let ih = (self.bottom.min(other.bottom) - self.top.max(other.top)).max(0.0);
        let iw = (self.right.min(other.right) - self.left.max(other.left)).max(0.0);
        let inter = ih * iw;
        let union = self.area() + other.area() - inter;
        if union > 0.0 && union.is_finite() {
            (inter / union).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
}

impl From<&GtObject> for BBox {
    fn from(o: &GtObject) -> Self {
        BBox::new(o.top.into(), o.left.into(), o.bottom.into(), o.right.into())
    }
}

impl From<&TrackedObject> for BBox {
    fn from(o: &TrackedObject) -> Self {
        BBox::new(o.top.into(), o.left.into(), o.bottom.into(), o.right.into())
    }
}

/// Row-major `(gt.len(), pred.len())` matrix of distances `1 - IoU`, with `NaN` ("may not pair")
/// where the distance exceeds `max_distance` — py-motmetrics' `iou_matrix(..., max_iou)`.
/// With `max_distance = 0.5` exactly the pairs with `IoU >= 0.5` are allowed.
pub fn iou_distance_matrix(gt: &[BBox], pred: &[BBox], max_distance: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(gt.len() * pred.len());
    for g in gt {
        for p in pred {
            let d = 1.0 - g.iou(p);
            out.push(if d <= max_distance { d } else { f64::NAN });
        }
    }
    out
}

/// How many pairs of `boxes` overlap with IoU ≥ `min_iou` (> 0): label-free, a model that holds
/// one object in two slots (duplicate tracks) shows many such pairs. Boxes are swept in order of
/// their top edge, so each box is compared only with those whose rows it reaches (O(n log n) plus
/// the pairs that share rows, not O(n²) for boxes spread over the frame). `scratch` holds the
/// order between calls (no allocation once it has grown).
pub fn overlapping_pairs(boxes: &[BBox], min_iou: f64, scratch: &mut Vec<usize>) -> usize {
    debug_assert!(min_iou > 0.0, "IoU >= 0 holds for every pair");
    scratch.clear();
    scratch.extend((0..boxes.len()).filter(|&i| boxes[i].area() > 0.0));
    scratch.sort_unstable_by(|&a, &b| boxes[a].top.total_cmp(&boxes[b].top));
    let mut pairs = 0;
    for (n, &i) in scratch.iter().enumerate() {
        let a = &boxes[i];
        for &j in &scratch[n + 1..] {
            // Later boxes start at or below this one's top; past its bottom none can intersect.
            if boxes[j].top >= a.bottom {
                break;
            }
            if a.iou(&boxes[j]) >= min_iou {
                pairs += 1;
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn iou_known_values() {
        let a = BBox::new(0.0, 0.0, 2.0, 2.0);
        let b = BBox::new(1.0, 1.0, 3.0, 3.0);
        assert!((a.iou(&b) - 1.0 / 7.0).abs() < 1e-12);
        assert_eq!(a.iou(&a), 1.0);
        assert_eq!(a.iou(&BBox::new(5.0, 5.0, 6.0, 6.0)), 0.0);
        let z = BBox::new(1.0, 1.0, 1.0, 1.0);
        assert_eq!(z.iou(&z), 0.0);
    }

    #[test]
    fn distance_matrix_forbids_iou_below_half() {
        let g = [BBox::new(0.0, 0.0, 2.0, 2.0)];
        // IoU 0.5 exactly (allowed) and IoU 1/3 (forbidden).
        let p = [BBox::new(0.0, 0.0, 2.0, 1.0), BBox::new(0.0, 1.0, 2.0, 3.0)];
        let d = iou_distance_matrix(&g, &p, 0.5);
        assert_eq!(d[0], 0.5);
        assert!(d[1].is_nan());
    }

    #[test]
    fn overlapping_pairs_counts_pairs_at_or_above_the_iou() {
        let a = BBox::new(0.0, 0.0, 2.0, 2.0);
        let boxes = [
            a,
            BBox::new(0.0, 0.0, 2.0, 1.0), // IoU 0.5 with a: counted
            BBox::new(0.0, 1.0, 2.0, 3.0), // IoU 1/3 with a, 0 with the second
            BBox::new(10.0, 10.0, 12.0, 12.0), // alone
            BBox::new(10.0, 10.0, 12.0, 12.0), // its twin: counted
            BBox::new(0.0, 0.0, 0.0, 2.0), // empty: never counted
        ];
        let mut scratch = Vec::new();
        assert_eq!(overlapping_pairs(&boxes, 0.5, &mut scratch), 2);
        assert_eq!(overlapping_pairs(&boxes, 0.3, &mut scratch), 3);
        assert_eq!(overlapping_pairs(&[], 0.5, &mut scratch), 0);
    }

    fn arb_box() -> impl Strategy<Value = BBox> {
        (-20.0f64..20.0, -20.0f64..20.0, 0.0f64..15.0, 0.0f64..15.0)
            .prop_map(|(t, l, h, w)| BBox::new(t, l, t + h, l + w))
    }

    proptest! {
        #[test]
        fn iou_symmetric_bounded_translation_invariant(a in arb_box(), b in arb_box(),
                                                       dy in -10.0f64..10.0, dx in -10.0f64..10.0) {
            let ab = a.iou(&b);
            prop_assert!((ab - b.iou(&a)).abs() < 1e-12);
            prop_assert!((0.0..=1.0).contains(&ab));
            let sh = |x: &BBox| BBox::new(x.top + dy, x.left + dx, x.bottom + dy, x.right + dx);
            prop_assert!((sh(&a).iou(&sh(&b)) - ab).abs() < 1e-9);
            if a.area() > 0.0 {
                prop_assert!((a.iou(&a) - 1.0).abs() < 1e-12);
            }
        }

        #[test]
        fn overlapping_pairs_matches_all_pairs(boxes in proptest::collection::vec(arb_box(), 0..24),
                                              min_iou in 0.05f64..1.0) {
            let mut brute = 0;
            for i in 0..boxes.len() {
                for j in i + 1..boxes.len() {
                    brute += usize::from(boxes[i].iou(&boxes[j]) >= min_iou);
                }
            }
            prop_assert_eq!(overlapping_pairs(&boxes, min_iou, &mut Vec::new()), brute);
        }
    }
}
