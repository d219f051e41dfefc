//! [`ObjectBatch`]: what the wrapper hands an agent each step, for `B` streams (envs) at once.

use ndarray::{s, Array2, Array3, ArrayView2};
use serde::{Deserialize, Serialize};

/// Width of the fixed per-object part of [`ObjectBatch::features`]: `pres, y, x, h, w, depth`.
pub const FIXED_FEATURES: usize = 6;

/// The fixed-`K` object sets of `B` streams at one step (slot `k` of a stream keeps its object
/// while SILOT propagates it; a slot whose object disappeared has `pres` near 0 until a newly
/// discovered object fills it, with a fresh id).
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectBatch {
    /// `(B, K)` presence in `[0, 1]`.
    pub pres: Array2<f32>,
    /// `(B, K, 4)` boxes `top, left, height, width` in pixels of the env's frame (pixel `k` has
    /// its centre at `k`, as ground-truth boxes).
    pub boxes: Array3<f32>,
    /// `(B, K)` depth `z ∈ (0, 1)` (larger is in front when sprites overlap).
    pub depth: Array2<f32>,
    /// `(B, K, A)` appearance codes (`what`).
    pub what: Array3<f32>,
    /// `(B, K)` identities: an object keeps its id for as long as it is tracked; ids are unique
    /// within a stream (also across its episodes).
    pub ids: Array2<u64>,
    /// `(B, K)` the slot's object was discovered at this step (its id is new).
    pub is_new: Array2<bool>,
    /// Frame size `(H, W)` the boxes refer to.
    pub frame_hw: (usize, usize),
}

/// One object of one stream, as plain values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Object {
    /// Slot index in `0..K`.
    pub slot: usize,
    /// Identity.
    pub id: u64,
    /// Presence in `[0, 1]`.
    pub pres: f32,
    /// Box `top, left, height, width` in pixels.
    pub bbox: [f32; 4],
    /// Depth `z ∈ (0, 1)`.
    pub depth: f32,
    /// Appearance code (may be left empty by writers that drop it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub what: Vec<f32>,
    /// Discovered at this step.
    pub is_new: bool,
}

impl ObjectBatch {
    /// Number of streams `B`.
    pub fn n_streams(&self) -> usize {
        self.pres.nrows()
    }

    /// Slots per stream `K`.
    pub fn n_slots(&self) -> usize {
        self.pres.ncols()
    }

    /// Width of the appearance code `A`.
    pub fn n_what(&self) -> usize {
        self.what.shape()[2]
    }

    /// Width of one row of [`Self::features`]: `6 + A`.
    pub fn feature_dim(&self) -> usize {
        FIXED_FEATURES + self.n_what()
    }

    /// `(B, K, 6 + A)` agent input, one row per slot:
    /// `[pres, y_c/H, x_c/W, h/H, w/W, depth, what…]` (box centre and size as fractions of the
    /// frame, so the features do not depend on the frame size).
    pub fn features(&self) -> Array3<f32> {
        let (b, k, a) = (self.n_streams(), self.n_slots(), self.n_what());
        let (fh, fw) = (self.frame_hw.0.max(1) as f32, self.frame_hw.1.max(1) as f32);
        let mut out = Array3::<f32>::zeros((b, k, FIXED_FEATURES + a));
        for ((bi, ki), &p) in self.pres.indexed_iter() {
            let bx = self.boxes.slice(s![bi, ki, ..]);
            let mut row = out.slice_mut(s![bi, ki, ..]);
            row[0] = p;
            row[1] = (bx[0] + 0.5 + bx[2] / 2.0) / fh;
            row[2] = (bx[1] + 0.5 + bx[3] / 2.0) / fw;
            row[3] = bx[2] / fh;
            row[4] = bx[3] / fw;
            row[5] = self.depth[[bi, ki]];
            row.slice_mut(s![FIXED_FEATURES..])
                .assign(&self.what.slice(s![bi, ki, ..]));
        }
        out
    }

    /// The objects of stream `b` with `pres > threshold`, in slot order.
    pub fn objects(&self, b: usize, threshold: f32) -> Vec<Object> {
        let what: ArrayView2<f32> = self.what.slice(s![b, .., ..]);
        (0..self.n_slots())
            .filter(|&k| self.pres[[b, k]] > threshold)
            .map(|k| Object {
                slot: k,
                id: self.ids[[b, k]],
                pres: self.pres[[b, k]],
                bbox: [
                    self.boxes[[b, k, 0]],
                    self.boxes[[b, k, 1]],
                    self.boxes[[b, k, 2]],
                    self.boxes[[b, k, 3]],
                ],
                depth: self.depth[[b, k]],
                what: what.row(k).to_vec(),
                is_new: self.is_new[[b, k]],
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_and_objects() {
        let mut pres = Array2::zeros((1, 2));
        pres[[0, 1]] = 0.9;
        let mut boxes = Array3::zeros((1, 2, 4));
        // Rows 9.5..19.5 of a 100 px frame: centre 14 (pixel-centre convention), height 10.
        boxes
            .slice_mut(s![0, 1, ..])
            .assign(&ndarray::arr1(&[9.5f32, 19.5, 10.0, 20.0]));
        let batch = ObjectBatch {
            pres,
            boxes,
            depth: Array2::from_elem((1, 2), 0.25),
            what: Array3::from_elem((1, 2, 3), 1.5),
            ids: Array2::from_shape_vec((1, 2), vec![4, 7]).unwrap(),
            is_new: Array2::from_elem((1, 2), false),
            frame_hw: (100, 200),
        };
        assert_eq!(batch.feature_dim(), 9);
        let f = batch.features();
        assert_eq!(f.shape(), &[1, 2, 9]);
        let row: Vec<f32> = f.slice(s![0, 1, ..]).to_vec();
        assert_eq!(row, vec![0.9, 0.15, 0.15, 0.1, 0.1, 0.25, 1.5, 1.5, 1.5]);
        let objs = batch.objects(0, 0.5);
        assert_eq!(objs.len(), 1);
        assert_eq!((objs[0].slot, objs[0].id), (1, 7));
        assert_eq!(objs[0].bbox, [9.5, 19.5, 10.0, 20.0]);
    }
}
