//! Count absolute error, as the paper's code computes it.
//!
//! Per frame the predicted count is `Σ_k round(score_k)` with TensorFlow's half-to-even
//! rounding, i.e. the number of objects with `score > 0.5` (independent of the MOT
//! presence threshold); the error is `|predicted count − number of ground-truth objects|`.
//! The metric is the mean of that error over all frames of all clips.

/// Predicted count of one frame: objects with `score > 0.5`.
pub fn predicted_count(scores: impl IntoIterator<Item = f32>) -> usize {
    scores.into_iter().filter(|&s| s > 0.5).count()
}

/// Absolute count error of one frame.
pub fn frame_count_error(num_gt: usize, scores: impl IntoIterator<Item = f32>) -> usize {
    predicted_count(scores).abs_diff(num_gt)
}

/// Running mean of per-frame count errors.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CountError {
    /// Sum of per-frame absolute errors.
    pub total: usize,
    /// Frames seen.
    pub frames: usize,
}

impl CountError {
    /// Add one frame.
    pub fn update(&mut self, num_gt: usize, scores: impl IntoIterator<Item = f32>) {
        self.total += frame_count_error(num_gt, scores);
        self.frames += 1;
    }

    /// Mean absolute error per frame (NaN with no frames).
    pub fn mean(&self) -> f64 {
        if self.frames == 0 {
            f64::NAN
        } else {
            self.total as f64 / self.frames as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rounds_down_and_errors_average() {
        assert_eq!(predicted_count([0.5, 0.51, 1.0, 0.2]), 2);
        let mut c = CountError::default();
        c.update(3, [1.0, 1.0]); // 1
        c.update(0, [0.9, 0.6, 0.7]); // 3
        assert_eq!(c.mean(), 2.0);
        assert!(CountError::default().mean().is_nan());
    }
}
