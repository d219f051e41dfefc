//! The [`Tracker`] contract: given a clip (or a stream) of frames, return per-frame objects with
//! a box, a score and an identity that persists within the clip.
//!
//! Every tracker (the ConnComp baseline, SILOT offline and online) implements this trait, and the
//! evaluation code ([`crate::eval`]) consumes only its output plus ground truth, so all trackers
//! are scored by exactly the same code.

use serde::{Deserialize, Serialize};

use crate::env::{Frame, GtObject};
use crate::error::Result;

/// One object reported by a tracker in one frame.
///
/// The box uses the same pixel-index convention as [`GtObject`]: pixel `k` has its centre at
/// index `k`, so an object covering rows `y0..=y1` exactly has `top = y0 - 0.5`,
/// `bottom = y1 + 0.5` (and likewise for columns).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TrackedObject {
    /// Identity, persistent within one clip (ids of different clips are unrelated).
    pub id: u64,
    /// Top edge in pixels.
    pub top: f32,
    /// Left edge in pixels.
    pub left: f32,
    /// Bottom edge in pixels.
    pub bottom: f32,
    /// Right edge in pixels.
    pub right: f32,
    /// Presence / confidence in `[0, 1]` (SILOT's `pres`; 1 for ConnComp). MOTA keeps objects
    /// with `score > obj_threshold`, AP all with `score > 0`, counts those with `score > 0.5`.
    pub score: f32,
}

impl TrackedObject {
    /// The ground-truth view of this object (drops the score). Fails if the id does not fit
    /// `GtObject`'s `u32`.
    pub fn to_gt(&self) -> Result<GtObject> {
        let id = u32::try_from(self.id).map_err(|_| {
            crate::Error::Invalid(format!(
                "object id {} does not fit a ground-truth id (u32); renumber ids per clip",
                self.id
            ))
        })?;
        Ok(GtObject {
            id,
            top: self.top,
            left: self.left,
            bottom: self.bottom,
            right: self.right,
        })
    }
}

/// A multi-object tracker working on whole clips.
pub trait Tracker {
    /// Short name used in reports (e.g. `conncomp`, `silot`).
    fn name(&self) -> &str;

    /// Track all frames of one clip; returns one `Vec` per frame, ids persistent within the clip.
    /// Calling it again starts a fresh clip (no state carries over).
    fn track_clip(&mut self, frames: &[Frame]) -> Result<Vec<Vec<TrackedObject>>>;
}

/// A tracker that can also consume frames one at a time (for use inside an RL loop).
pub trait OnlineTracker: Tracker {
    /// Forget all tracks; the next frame starts a new clip.
    fn reset(&mut self);

    /// Process the next frame of the current clip and return its objects.
    fn track_frame(&mut self, frame: &Frame) -> Result<Vec<TrackedObject>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_gt_keeps_box_and_rejects_huge_ids() {
        let o = TrackedObject {
            id: 7,
            top: 1.5,
            left: 2.5,
            bottom: 3.5,
            right: 4.5,
            score: 0.9,
        };
        let g = o.to_gt().unwrap();
        assert_eq!(
            (g.id, g.top, g.left, g.bottom, g.right),
            (7, 1.5, 2.5, 3.5, 4.5)
        );
        let big = TrackedObject {
            id: u64::from(u32::MAX) + 1,
            ..o
        };
        assert!(big.to_gt().is_err());
    }
}
