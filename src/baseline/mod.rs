//! The ConnComp baseline: the Atari ground-truth labeller (silot-reference §6) and the synthetic
//! envs' ConnComp tracker (§9), both built from [`conncomp`] (labelling) and [`tracker`]
//! (frame-to-frame Hungarian id assignment).

pub mod conncomp;
pub mod search;
pub mod tracker;

pub use conncomp::{Component, Detection, Labeller, Neighbourhood};
pub use tracker::{CostRule, IdMatcher};

use serde::{Deserialize, Serialize};

use crate::env::{Frame, GtObject};
use crate::error::{Error, Result};
use crate::track::{OnlineTracker, TrackedObject, Tracker};

/// An object found by the Atari labeller.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LabelledObject {
    /// Identity within the clip.
    pub id: u64,
    /// Top edge (`ymin − 1` of the dilated component).
    pub top: f32,
    /// Left edge (`xmin − 1`).
    pub left: f32,
    /// Bottom edge (`ymax` of the dilated component).
    pub bottom: f32,
    /// Right edge (`xmax`).
    pub right: f32,
    /// Its exact RGB colour.
    pub colour: [u8; 3],
}

impl LabelledObject {
    /// As a ground-truth object for evaluation.
    pub fn to_gt(&self) -> Result<GtObject> {
        let id = u32::try_from(self.id)
            .map_err(|_| Error::Invalid(format!("label id {} does not fit u32", self.id)))?;
        Ok(GtObject {
            id,
            top: self.top,
            left: self.left,
            bottom: self.bottom,
            right: self.right,
        })
    }
}

/// Label one Atari clip exactly as the paper's ground-truth protocol (silot-reference §6):
/// every non-black exact colour, 2×2 elliptical dilation, 8-connected components, box
/// `[ymin − 1, ymax] × [xmin − 1, xmax]` on the dilated component, ids by Hungarian matching on
/// box-centre distance between consecutive frames with colour mismatch gated out, empty frames
/// resetting tracking. Frames must be RGB `(H, W, 3)` (crop them first, e.g. SI to 195×160).
pub fn label_atari_clip(frames: &[Frame]) -> Result<Vec<Vec<LabelledObject>>> {
    let mut labeller = Labeller::new();
    let mut ids = IdMatcher::new(CostRule::AtariLabeller);
    frames
        .iter()
        .map(|f| {
            let dets = conncomp::atari_detections(&mut labeller, f)?;
            let id = ids.step(&dets)?;
            Ok(dets
                .iter()
                .zip(id)
                .map(|(d, id)| LabelledObject {
                    id,
                    top: d.top,
                    left: d.left,
                    bottom: d.bottom,
                    right: d.right,
                    colour: conncomp::unpack_rgb(d.class),
                })
                .collect())
        })
        .collect()
}

/// [`label_atari_clip`] converted to ground truth for [`crate::eval::evaluate`].
pub fn atari_ground_truth(frames: &[Frame]) -> Result<Vec<Vec<GtObject>>> {
    label_atari_clip(frames)?
        .iter()
        .map(|f| f.iter().map(LabelledObject::to_gt).collect())
        .collect()
}

/// One line of `silot label` output: the labels of one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelLine {
    /// Clip index.
    pub clip: usize,
    /// Frame index within the clip.
    pub t: usize,
    /// The frame's objects.
    pub objects: Vec<LabelledObject>,
}

/// The labels of one clip as JSON lines (one [`LabelLine`] per frame, each ending in `\n`).
pub fn labels_jsonl(clip: usize, labels: &[Vec<LabelledObject>]) -> Result<String> {
    let mut out = String::new();
    for (t, objects) in labels.iter().enumerate() {
        let line = LabelLine {
            clip,
            t,
            objects: objects.clone(),
        };
        let s = serde_json::to_string(&line)
            .map_err(|e| Error::Invalid(format!("serialising labels of clip {clip}: {e}")))?;
        out.push_str(&s);
        out.push('\n');
    }
    Ok(out)
}

fn default_cc_threshold() -> f32 {
    0.5
}
fn default_gate() -> f32 {
    30.0
}
fn default_colours() -> Vec<[u8; 3]> {
    // Scattered Shapes' six matplotlib colours: red, green, blue, cyan, magenta, yellow.
    vec![
        [255, 0, 0],
        [0, 128, 0],
        [0, 0, 255],
        [0, 255, 255],
        [255, 0, 255],
        [255, 255, 0],
    ]
}

/// Thresholds of the synthetic ConnComp baseline (the `[eval]` section of an env's TOML).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnCompConfig {
    /// Foreground threshold on `Σ_c |x_c − bg_c|` with `x` in `[0, 1]` (black background).
    /// The paper grid-searched it per object count in `[1e-4, 3]`; its MNIST picks were 0.41–0.82.
    /// Default 0.5.
    #[serde(default = "default_cc_threshold")]
    pub cc_threshold: f32,
    /// `Some(t)`: split the foreground into colour classes, pixel in class `k` iff
    /// `cos(pixel, colours[k]) ≥ t` (Scattered Shapes). `None`: one class (Scattered MNIST,
    /// default).
    #[serde(default)]
    pub cosine_threshold: Option<f32>,
    /// Matching gate in pixels: objects whose box centres moved farther never match. Paper 30.
    #[serde(default = "default_gate")]
    pub match_gate_px: f32,
    /// Colour classes used with `cosine_threshold`. Default: the six Scattered Shapes colours.
    #[serde(default = "default_colours")]
    pub colours: Vec<[u8; 3]>,
}

impl Default for ConnCompConfig {
    fn default() -> Self {
        Self {
            cc_threshold: default_cc_threshold(),
            cosine_threshold: None,
            match_gate_px: default_gate(),
            colours: default_colours(),
        }
    }
}

impl ConnCompConfig {
    /// Check value ranges; the error names the field and its valid range.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Invalid(format!("conncomp config: {m}")));
        // The paper's search grids end just above the largest possible value (3.0001, 1.0001:
        // nothing is foreground / no colour matches), so those bounds are allowed.
        if !(0.0..=3.0001).contains(&self.cc_threshold) {
            return bad(format!(
                "cc_threshold = {} must be in [0, 3.0001]",
                self.cc_threshold
            ));
        }
        if let Some(t) = self.cosine_threshold {
            if !(-1.0..=1.0001).contains(&t) {
                return bad(format!("cosine_threshold = {t} must be in [-1, 1.0001]"));
            }
            if self.colours.is_empty() {
                return bad("cosine_threshold is set but colours is empty".into());
            }
        }
        if self.match_gate_px.is_nan() || self.match_gate_px < 0.0 {
            return bad(format!(
                "match_gate_px = {} must be >= 0",
                self.match_gate_px
            ));
        }
        Ok(())
    }
}

/// The synthetic envs' ConnComp tracker (silot-reference §9): threshold (+ colour-class)
/// masks, 4-connected components, Hungarian id matching with the distance gate. Every object
/// has score 1.
#[derive(Debug, Clone)]
pub struct ConnCompTracker {
    config: ConnCompConfig,
    labeller: Labeller,
    ids: IdMatcher,
}

impl ConnCompTracker {
    /// A tracker with validated thresholds.
    pub fn new(config: ConnCompConfig) -> Result<Self> {
        config.validate()?;
        let gate = f64::from(config.match_gate_px);
        Ok(Self {
            config,
            labeller: Labeller::new(),
            ids: IdMatcher::new(CostRule::Gated { gate_px: gate }),
        })
    }

    /// The thresholds in use.
    pub fn config(&self) -> &ConnCompConfig {
        &self.config
    }
}

fn to_tracked(dets: &[Detection], ids: Vec<u64>) -> Vec<TrackedObject> {
    dets.iter()
        .zip(ids)
        .map(|(d, id)| TrackedObject {
            id,
            top: d.top,
            left: d.left,
            bottom: d.bottom,
            right: d.right,
            score: 1.0,
        })
        .collect()
}

impl Tracker for ConnCompTracker {
    fn name(&self) -> &str {
        "conncomp"
    }

    fn track_clip(&mut self, frames: &[Frame]) -> Result<Vec<Vec<TrackedObject>>> {
        self.reset();
        frames.iter().map(|f| self.track_frame(f)).collect()
    }
}

impl OnlineTracker for ConnCompTracker {
    fn reset(&mut self) {
        self.ids.reset();
    }

    fn track_frame(&mut self, frame: &Frame) -> Result<Vec<TrackedObject>> {
        let c = &self.config;
        let dets = conncomp::synthetic_detections(
            &mut self.labeller,
            frame,
            c.cc_threshold,
            c.cosine_threshold,
            &c.colours,
        )?;
        let ids = self.ids.step(&dets)?;
        Ok(to_tracked(&dets, ids))
    }
}

/// The Atari labeller as a [`Tracker`] (its output is the Atari ground truth itself, so on
/// Atari it scores perfectly by construction; useful as a sanity check and for rendering).
#[derive(Debug, Clone)]
pub struct AtariLabellerTracker {
    labeller: Labeller,
    ids: IdMatcher,
}

impl Default for AtariLabellerTracker {
    fn default() -> Self {
        Self {
            labeller: Labeller::new(),
            ids: IdMatcher::new(CostRule::AtariLabeller),
        }
    }
}

impl Tracker for AtariLabellerTracker {
    fn name(&self) -> &str {
        "conncomp_atari"
    }

    fn track_clip(&mut self, frames: &[Frame]) -> Result<Vec<Vec<TrackedObject>>> {
        self.reset();
        frames.iter().map(|f| self.track_frame(f)).collect()
    }
}

impl OnlineTracker for AtariLabellerTracker {
    fn reset(&mut self) {
        self.ids.reset();
    }

    fn track_frame(&mut self, frame: &Frame) -> Result<Vec<TrackedObject>> {
        let dets = conncomp::atari_detections(&mut self.labeller, frame)?;
        let ids = self.ids.step(&dets)?;
        Ok(to_tracked(&dets, ids))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frame with filled squares `(top, left, size, rgb)` on black.
    fn frame(h: usize, w: usize, squares: &[(usize, usize, usize, [u8; 3])]) -> Frame {
        let mut f = Frame::zeros((h, w, 3));
        for &(t, l, s, c) in squares {
            for y in t..t + s {
                for x in l..l + s {
                    for k in 0..3 {
                        f[[y, x, k]] = c[k];
                    }
                }
            }
        }
        f
    }

    #[test]
    fn atari_clip_ids_follow_objects() {
        let a = [200, 10, 10];
        let b = [10, 200, 10];
        let frames: Vec<Frame> = (0..4)
            .map(|t| frame(40, 40, &[(2 + t, 2, 3, a), (20, 30 - 2 * t, 2, b)]))
            .collect();
        let labels = label_atari_clip(&frames).unwrap();
        for (t, objs) in labels.iter().enumerate() {
            assert_eq!(objs.len(), 2);
            // Colour order: b (10,200,10) before a (200,10,10).
            assert_eq!(objs[0].colour, b);
            assert_eq!(objs[0].id, 0);
            assert_eq!(objs[1].id, 1);
            assert_eq!(objs[1].top, (2 + t) as f32 - 1.0);
            assert_eq!(objs[1].bottom, (2 + t + 3) as f32);
        }
        let gt = atari_ground_truth(&frames).unwrap();
        assert_eq!(gt[3][1].id, 1);
        let jsonl = labels_jsonl(5, &labels).unwrap();
        let lines: Vec<LabelLine> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            (lines[2].clip, lines[2].t, &lines[2].objects),
            (5, 2, &labels[2])
        );
    }

    #[test]
    fn synthetic_tracker_scores_perfect_mota_on_clean_shapes() {
        let frames: Vec<Frame> = (0..5)
            .map(|t| {
                frame(
                    48,
                    48,
                    &[(4 + 2 * t, 4, 6, [255; 3]), (30, 30 - 3 * t, 5, [255; 3])],
                )
            })
            .collect();
        let mut tr = ConnCompTracker::new(ConnCompConfig::default()).unwrap();
        let out = tr.track_clip(&frames).unwrap();
        let gt: Vec<Vec<GtObject>> = (0..5)
            .map(|t| {
                let sq = |id, top: usize, left: usize, s: usize| GtObject {
                    id,
                    top: top as f32 - 0.5,
                    left: left as f32 - 0.5,
                    bottom: (top + s) as f32 - 0.5,
                    right: (left + s) as f32 - 0.5,
                };
                vec![sq(0, 4 + 2 * t, 4, 6), sq(1, 30, 30 - 3 * t, 5)]
            })
            .collect();
        let r =
            crate::eval::evaluate(&[out], &[gt], &crate::eval::EvalSettings::default()).unwrap();
        assert_eq!(
            (r.mota, r.idf1, r.ap, r.count_abs_error),
            (1.0, 1.0, 1.0, 0.0)
        );
        assert!(r.motp.abs() < 1e-6);
        assert_eq!(tr.name(), "conncomp");
    }

    #[test]
    fn config_toml_defaults_and_unknown_keys() {
        let c: ConnCompConfig =
            toml::from_str("cc_threshold = 0.6\ncosine_threshold = 0.9").unwrap();
        assert_eq!(
            (c.cc_threshold, c.cosine_threshold, c.match_gate_px),
            (0.6, Some(0.9), 30.0)
        );
        assert_eq!(c.colours.len(), 6);
        assert!(toml::from_str::<ConnCompConfig>("cc_treshold = 0.6").is_err());
        let back: ConnCompConfig = toml::from_str(&toml::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        assert!(ConnCompTracker::new(ConnCompConfig {
            cc_threshold: -1.0,
            ..Default::default()
        })
        .is_err());
    }
}
