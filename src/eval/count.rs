//! Count absolute error, as the paper's code computes it.
//!
//! Per frame the predicted count is `Σ_k round(score_k)` with TensorFlow's half-to-even
//! rounding, i.e. the number of objects with `score > 0.5` (independent of the MOT
//! presence threshold); the error is `|predicted count − number of ground-truth objects|`.
//! The metric is the mean of that error over all frames of all clips.

use super::report::FrameIndexStats;

/// Predicted count of one frame: objects with `score > 0.5`.
pub fn predicted_count(scores: impl IntoIterator<Item = f32>) -> usize {
    scores.into_iter().filter(|&s| s > 0.5).count()
}

/// Count sums per frame index `t` of the clips: the count error over all frames
/// ([`ByFrameIndex::mean_abs_error`]) and per index ([`FrameIndexStats`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ByFrameIndex {
    /// Per `t`: frames, ground truth, counted, above threshold, absolute count error.
    sums: Vec<[usize; 5]>,
}

impl ByFrameIndex {
    /// Add frame `t` of a clip: `num_gt` true objects, the predictions' `scores`, the MOT
    /// presence `threshold`.
    pub fn update(
        &mut self,
        t: usize,
        num_gt: usize,
        scores: impl Iterator<Item = f32> + Clone,
        threshold: f32,
    ) {
        if self.sums.len() <= t {
            self.sums.resize(t + 1, [0; 5]);
        }
        let counted = predicted_count(scores.clone());
        let above = scores.filter(|&s| s > threshold).count();
        let row = &mut self.sums[t];
        for (acc, v) in row
            .iter_mut()
            .zip([1, num_gt, counted, above, counted.abs_diff(num_gt)])
        {
            *acc += v;
        }
    }

    /// Mean absolute count error over all frames (NaN with no frames).
    pub fn mean_abs_error(&self) -> f64 {
        let (frames, errors) = self
            .sums
            .iter()
            .fold((0, 0), |(f, e), r| (f + r[0], e + r[4]));
        if frames == 0 {
            f64::NAN
        } else {
            errors as f64 / frames as f64
        }
    }

    /// Means per frame index (indices no clip reached are left out).
    pub fn stats(&self) -> Vec<FrameIndexStats> {
        self.sums
            .iter()
            .enumerate()
            .filter(|(_, r)| r[0] > 0)
            .map(|(t, r)| {
                let mean = |v: usize| v as f64 / r[0] as f64;
                FrameIndexStats {
                    t,
                    frames: r[0],
                    gt: mean(r[1]),
                    counted: mean(r[2]),
                    above_threshold: mean(r[3]),
                    count_abs_error: mean(r[4]),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rounds_down_and_errors_average() {
        assert_eq!(predicted_count([0.5, 0.51, 1.0, 0.2]), 2);
        let mut c = ByFrameIndex::default();
        c.update(0, 3, [1.0, 1.0].into_iter(), 0.05); // 1
        c.update(1, 0, [0.9, 0.6, 0.7].into_iter(), 0.05); // 3
        assert_eq!(c.mean_abs_error(), 2.0);
        assert!(ByFrameIndex::default().mean_abs_error().is_nan());
    }

    #[test]
    fn by_frame_index_averages_over_clips() {
        let mut b = ByFrameIndex::default();
        // Two clips of two frames and a third of one frame; threshold 0.05.
        b.update(0, 3, [0.9, 0.6, 0.3].into_iter(), 0.05); // counted 2, above 3, error 1
        b.update(1, 3, [0.9, 0.4, 0.01].into_iter(), 0.05); // counted 1, above 2, error 2
        b.update(0, 1, [0.7, 0.8].into_iter(), 0.05); // counted 2, above 2, error 1
        b.update(1, 1, std::iter::empty(), 0.05); // counted 0, above 0, error 1
        b.update(0, 2, [0.55, 0.51].into_iter(), 0.05); // counted 2, above 2, error 0
        let s = b.stats();
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].t, s[0].frames, s[1].frames), (0, 3, 2));
        assert_eq!(s[0].gt, 2.0);
        assert_eq!(s[0].counted, 2.0);
        assert_eq!(s[0].above_threshold, 7.0 / 3.0);
        assert_eq!(s[0].count_abs_error, 2.0 / 3.0);
        assert_eq!(
            (s[1].gt, s[1].counted, s[1].above_threshold),
            (2.0, 0.5, 1.0)
        );
        assert_eq!(s[1].count_abs_error, 1.5);
        assert!(ByFrameIndex::default().stats().is_empty());
    }
}
