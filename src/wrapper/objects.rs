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
        self.stream_features(0..self.n_streams())
    }

    /// [`Self::features`] of the streams in `streams` alone: `(streams.len(), K, 6 + A)`.
    pub fn stream_features(&self, streams: std::ops::Range<usize>) -> Array3<f32> {
        let (k, a) = (self.n_slots(), self.n_what());
        let b = streams.len();
        let (fh, fw) = (self.frame_hw.0.max(1) as f32, self.frame_hw.1.max(1) as f32);
        let d = FIXED_FEATURES + a;
        // Row by row over contiguous copies (the arrays may have any memory order): one pass of
        // plain slices, ~3x faster than per-slot `s![..]` views at (256, 128, 70).
        let range = s![streams.clone(), ..];
        let pres = self.pres.slice(range);
        let depth = self.depth.slice(range);
        let range3 = s![streams, .., ..];
        let boxes = self.boxes.slice(range3);
        let what = self.what.slice(range3);
        let (pres, depth, boxes, what) = (
            pres.as_standard_layout(),
            depth.as_standard_layout(),
            boxes.as_standard_layout(),
            what.as_standard_layout(),
        );
        let (pres, boxes, depth, what) = (
            pres.as_slice().expect("standard layout"),
            boxes.as_slice().expect("standard layout"),
            depth.as_slice().expect("standard layout"),
            what.as_slice().expect("standard layout"),
        );
        let mut out = vec![0f32; b * k * d];
        for (i, row) in out.chunks_exact_mut(d).enumerate() {
            let bx = &boxes[4 * i..4 * i + 4];
            row[0] = pres[i];
            row[1] = (bx[0] + 0.5 + bx[2] / 2.0) / fh;
            row[2] = (bx[1] + 0.5 + bx[3] / 2.0) / fw;
            row[3] = bx[2] / fh;
            row[4] = bx[3] / fw;
            row[5] = depth[i];
            row[FIXED_FEATURES..].copy_from_slice(&what[a * i..a * i + a]);
        }
        Array3::from_shape_vec((b, k, d), out).expect("B * K * (6 + A) values")
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
        assert_eq!(batch.stream_features(0..1), f);
        let objs = batch.objects(0, 0.5);
        assert_eq!(objs.len(), 1);
        assert_eq!((objs[0].slot, objs[0].id), (1, 7));
        assert_eq!(objs[0].bbox, [9.5, 19.5, 10.0, 20.0]);
    }

    #[test]
    fn features_follow_their_definition_whatever_the_memory_order() {
        use ndarray::ShapeBuilder;
        let (b, k, a) = (3, 5, 4);
        let val = |i: usize| ((i * 37 % 101) as f32) / 7.0;
        let batch = ObjectBatch {
            pres: Array2::from_shape_fn((b, k), |(i, j)| val(i * k + j) / 20.0),
            // Column-major boxes and appearance codes: not the standard layout.
            boxes: Array3::from_shape_fn((b, k, 4).f(), |(i, j, c)| val(i * 50 + j * 4 + c)),
            depth: Array2::from_shape_fn((b, k), |(i, j)| val(i + j + 3) / 20.0),
            what: Array3::from_shape_fn((b, k, a).f(), |(i, j, c)| -val(i * 90 + j * 7 + c)),
            ids: Array2::zeros((b, k)),
            is_new: Array2::from_elem((b, k), false),
            frame_hw: (60, 80),
        };
        let f = batch.features();
        assert_eq!(f.shape(), &[b, k, 6 + a]);
        for i in 0..b {
            for j in 0..k {
                let bx = batch.boxes.slice(s![i, j, ..]);
                let mut want = vec![
                    batch.pres[[i, j]],
                    (bx[0] + 0.5 + bx[2] / 2.0) / 60.0,
                    (bx[1] + 0.5 + bx[3] / 2.0) / 80.0,
                    bx[2] / 60.0,
                    bx[3] / 80.0,
                    batch.depth[[i, j]],
                ];
                want.extend(batch.what.slice(s![i, j, ..]).iter());
                assert_eq!(f.slice(s![i, j, ..]).to_vec(), want, "stream {i} slot {j}");
            }
        }
        assert_eq!(batch.stream_features(1..3), f.slice(s![1..3, .., ..]));
        assert_eq!(batch.stream_features(2..2).shape(), &[0, k, 6 + a]);
    }
}
