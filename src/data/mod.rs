//! Video clips and on-disk clip datasets (what `silot rollout` writes and `silot train` reads).

pub mod dataset;
pub mod rollout;

pub use dataset::{Dataset, DatasetMeta, DatasetWriter};
pub use rollout::{collect_clip, ClipPosition, EpisodeStream, RolloutOptions};

use ndarray::Array4;

use crate::env::GtObject;

/// A clip of `T` consecutive frames, with ground truth where the env has it.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// `(T, H, W, C)` bytes.
    pub frames: Array4<u8>,
    /// Per frame, the ground-truth objects (synthetic envs only).
    pub gt: Option<Vec<Vec<GtObject>>>,
}

impl Clip {
    /// Number of frames `T`.
    pub fn len(&self) -> usize {
        self.frames.shape()[0]
    }

    /// Whether the clip has no frames.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The frames as owned `(H, W, C)` arrays.
    pub fn frame_vec(&self) -> Vec<crate::env::Frame> {
        self.frames.outer_iter().map(|f| f.to_owned()).collect()
    }
}
