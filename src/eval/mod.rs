//! Tracking evaluation: MOTA/MOTP/IDF1 ([`mota`]), AP ([`ap`]) and count error ([`count`]),
//! computed from tracker output ([`TrackedObject`]) and ground truth ([`GtObject`]) only, so
//! every [`crate::track::Tracker`] is scored by the same code. Definitions follow the paper's
//! evaluation code (silot-reference §8); see each module's docs.
//!
//! Entry point: [`evaluate`] → [`EvalReport`].

pub mod ap;
pub mod assign;
pub mod bbox;
pub mod births;
pub mod count;
pub mod counts;
pub mod false_positive;
pub mod mota;
pub mod report;
pub mod windows;

pub use ap::{average_precision, ApOptions, ScoredBox};
pub use assign::assign;
pub use bbox::{overlapping_pairs, BBox};
pub use births::births;
pub use count::ByFrameIndex;
pub use counts::{frames_from, CountScores, CountsReport, Scores};
pub use false_positive::FalsePositiveKinds;
pub use mota::{Event, EventKind, MotAccumulator, MotSummary};
pub use report::{
    BoxRecord, EvalReport, FrameDetail, FrameIndexStats, ReportCheckpoint, ReportThresholds,
};
pub use windows::{evaluate_windows, stream_summary, StreamSummary, WindowReport};

use serde::{Deserialize, Serialize};

use crate::env::Frame;
use crate::env::GtObject;
use crate::error::{Error, Result};
use crate::track::{TrackedObject, Tracker};

fn default_obj_threshold() -> f32 {
    0.5
}
fn default_mot_iou() -> f64 {
    0.5
}

/// Evaluation settings (the `[eval]` metric part of an env's TOML).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalSettings {
    /// Presence threshold for MOT metrics: predictions with `score > obj_threshold` take part.
    /// Paper: 0.5 (MNIST, Shapes), 0.05 (Atari). Default 0.5.
    #[serde(default = "default_obj_threshold")]
    pub obj_threshold: f32,
    /// Minimum IoU of a MOT pair; pairs with `1 − IoU > 1 − mot_iou_threshold` may not pair.
    /// Paper 0.5 (default).
    #[serde(default = "default_mot_iou")]
    pub mot_iou_threshold: f64,
    /// IoU thresholds averaged by AP. Paper: 0.1, 0.2, …, 0.9 (default).
    #[serde(default = "ap::default_iou_thresholds")]
    pub ap_iou_thresholds: Vec<f64>,
    /// Paper quirk, **changes results**: in a frame with more than 2× as many predictions
    /// (above `obj_threshold`) as ground-truth objects, drop all its predictions for MOT
    /// (they become misses, not false positives). Default off; the report states it when on.
    #[serde(default)]
    pub drop_overfull_frames: bool,
    /// Paper quirk, **changes results**: AP drops a frame's remaining predictions once all its
    /// ground truth is matched (see [`ap`]). Default off; the report states it when on.
    #[serde(default)]
    pub ap_ignore_after_gt_exhausted: bool,
    /// Keep per-frame boxes in the report (`frames_detail`, `--dump-frames`). Default off.
    #[serde(default)]
    pub frames_detail: bool,
}

impl Default for EvalSettings {
    fn default() -> Self {
        Self {
            obj_threshold: default_obj_threshold(),
            mot_iou_threshold: default_mot_iou(),
            ap_iou_thresholds: ap::default_iou_thresholds(),
            drop_overfull_frames: false,
            ap_ignore_after_gt_exhausted: false,
            frames_detail: false,
        }
    }
}

impl EvalSettings {
    /// Check value ranges; the error names the field and the valid range.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Invalid(format!("eval settings: {m}")));
        if !(0.0..1.0).contains(&self.obj_threshold) {
            return bad(format!(
                "obj_threshold = {} must be in [0, 1)",
                self.obj_threshold
            ));
        }
        if !(self.mot_iou_threshold > 0.0 && self.mot_iou_threshold <= 1.0) {
            return bad(format!(
                "mot_iou_threshold = {} must be in (0, 1]",
                self.mot_iou_threshold
            ));
        }
        if self.ap_iou_thresholds.is_empty()
            || self
                .ap_iou_thresholds
                .iter()
                .any(|t| !(0.0..1.0).contains(t))
        {
            return bad(format!(
                "ap_iou_thresholds = {:?} must be a non-empty list of values in [0, 1)",
                self.ap_iou_thresholds
            ));
        }
        Ok(())
    }
}

/// Score tracker output against ground truth.
///
/// `pred[c][t]` and `gt[c][t]` are the objects of frame `t` of clip `c`; both must have the same
/// number of clips and frames per clip. MOT metrics use one accumulator over all clips (each
/// clip a new sequence); AP and count error pool all frames. The report's `env`, `preset`,
/// `tracker` and `seed` are left empty for the caller to fill.
pub fn evaluate(
    pred: &[Vec<Vec<TrackedObject>>],
    gt: &[Vec<Vec<GtObject>>],
    settings: &EvalSettings,
) -> Result<EvalReport> {
    settings.validate()?;
    check_shapes(pred, gt)?;
    let mut acc = MotAccumulator::totals_only();
    let mut by_t = ByFrameIndex::default();
    let mut false_positive_kinds = FalsePositiveKinds::default();
    let mut ap_gt: Vec<Vec<BBox>> = Vec::new();
    let mut ap_pred: Vec<Vec<ScoredBox>> = Vec::new();
    let mut details = settings.frames_detail.then(Vec::new);
    let (mut frames, mut num_gt, mut num_pred) = (0, 0, 0);
    let (mut overlapping, mut counted, mut scratch) = (0, Vec::new(), Vec::new());
    // Identity births: counted ids (score > 0.5) new since the clip's previous frame.
    let (mut born, mut later_frames) = (0, 0);
    let (mut counted_ids, mut previous_ids) = (Vec::new(), Vec::new());
    let max_distance = 1.0 - settings.mot_iou_threshold;
    for (c, (pclip, gclip)) in pred.iter().zip(gt).enumerate() {
        acc.start_sequence();
        previous_ids.clear();
        for (t, (p, g)) in pclip.iter().zip(gclip).enumerate() {
            let objects: Vec<(u64, BBox)> = g.iter().map(|o| (u64::from(o.id), o.into())).collect();
            let mut hyps: Vec<(u64, BBox)> = p
                .iter()
                .filter(|o| o.score > settings.obj_threshold)
                .map(|o| (o.id, o.into()))
                .collect();
            counted.clear();
            counted.extend(p.iter().filter(|o| o.score > 0.5).map(BBox::from));
            overlapping += overlapping_pairs(&counted, 0.5, &mut scratch);
            counted_ids.clear();
            counted_ids.extend(p.iter().filter(|o| o.score > 0.5).map(|o| o.id));
            if t > 0 {
                born += births(&counted_ids, &previous_ids);
                later_frames += 1;
            }
            std::mem::swap(&mut counted_ids, &mut previous_ids);
            frames += 1;
            num_gt += g.len();
            num_pred += hyps.len();
            if settings.drop_overfull_frames && hyps.len() > 2 * objects.len() {
                hyps.clear();
            }
            acc.update_boxes(&objects, &hyps, max_distance)
                .map_err(|e| Error::Invalid(format!("clip {c} frame {t}: {e}")))?;
            let (objects_matched, hypotheses_matched) = acc.last_frame_matched();
            false_positive_kinds.add_frame(&objects, &hyps, objects_matched, hypotheses_matched);
            by_t.update(
                t,
                g.len(),
                p.iter().map(|o| o.score),
                settings.obj_threshold,
            );
            ap_gt.push(objects.iter().map(|o| o.1).collect());
            ap_pred.push(
                p.iter()
                    .map(|o| ScoredBox {
                        score: o.score,
                        bbox: o.into(),
                    })
                    .collect(),
            );
            if let Some(d) = details.as_mut() {
                d.push(frame_detail(c, t, g, p));
            }
        }
    }
    let mot = acc.summary();
    let ap_opts = ApOptions {
        iou_thresholds: settings.ap_iou_thresholds.clone(),
        ignore_after_gt_exhausted: settings.ap_ignore_after_gt_exhausted,
    };
    Ok(EvalReport {
        mota: mot.mota,
        motp: mot.motp,
        idf1: mot.idf1,
        ap: average_precision(&ap_gt, &ap_pred, &ap_opts),
        count_abs_error: by_t.mean_abs_error(),
        clips: gt.len(),
        frames,
        num_gt,
        num_pred,
        num_misses: mot.num_misses,
        num_false_positives: mot.num_false_positives,
        num_switches: mot.num_switches,
        false_positive_kinds,
        overlapping_pairs_per_frame: overlapping as f64 / frames.max(1) as f64,
        births_per_frame: born as f64 / later_frames.max(1) as f64,
        env: String::new(),
        preset: None,
        tracker: String::new(),
        seed: None,
        checkpoint: None,
        thresholds: ReportThresholds {
            obj_threshold: settings.obj_threshold,
            mot_iou_threshold: settings.mot_iou_threshold,
            ap_iou_thresholds: settings.ap_iou_thresholds.clone(),
        },
        quirk_drop_overfull_frames: settings.drop_overfull_frames,
        quirk_ap_ignore_after_gt_exhausted: settings.ap_ignore_after_gt_exhausted,
        by_frame_index: by_t.stats(),
        frames_detail: details,
        stream: None,
    })
}

/// Run `tracker` on every clip (`clips[c]` = the frames of clip `c`).
pub fn run_tracker(
    tracker: &mut dyn Tracker,
    clips: &[Vec<Frame>],
) -> Result<Vec<Vec<Vec<TrackedObject>>>> {
    clips.iter().map(|c| tracker.track_clip(c)).collect()
}

/// Run `tracker` on `clips` and [`evaluate`] it against `gt`; the report's `tracker` field is
/// set to the tracker's name.
pub fn evaluate_tracker(
    tracker: &mut dyn Tracker,
    clips: &[Vec<Frame>],
    gt: &[Vec<Vec<GtObject>>],
    settings: &EvalSettings,
) -> Result<EvalReport> {
    let pred = run_tracker(tracker, clips)?;
    let mut report = evaluate(&pred, gt, settings)?;
    report.tracker = tracker.name().to_string();
    Ok(report)
}

fn check_shapes(pred: &[Vec<Vec<TrackedObject>>], gt: &[Vec<Vec<GtObject>>]) -> Result<()> {
    if pred.len() != gt.len() {
        return Err(Error::Invalid(format!(
            "evaluate: {} predicted clips but {} ground-truth clips; pass one prediction per clip",
            pred.len(),
            gt.len()
        )));
    }
    for (c, (p, g)) in pred.iter().zip(gt).enumerate() {
        if p.len() != g.len() {
            return Err(Error::Invalid(format!(
                "evaluate: clip {c} has {} predicted frames but {} ground-truth frames",
                p.len(),
                g.len()
            )));
        }
    }
    Ok(())
}

fn frame_detail(clip: usize, t: usize, g: &[GtObject], p: &[TrackedObject]) -> FrameDetail {
    FrameDetail {
        clip,
        t,
        gt: g
            .iter()
            .map(|o| BoxRecord {
                id: o.id.into(),
                top: o.top,
                left: o.left,
                bottom: o.bottom,
                right: o.right,
                score: None,
            })
            .collect(),
        pred: p
            .iter()
            .map(|o| BoxRecord {
                id: o.id,
                top: o.top,
                left: o.left,
                bottom: o.bottom,
                right: o.right,
                score: Some(o.score),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gt(id: u32, t: f32, l: f32) -> GtObject {
        GtObject {
            id,
            top: t,
            left: l,
            bottom: t + 4.0,
            right: l + 4.0,
        }
    }

    fn tr(id: u64, t: f32, l: f32, score: f32) -> TrackedObject {
        TrackedObject {
            id,
            top: t,
            left: l,
            bottom: t + 4.0,
            right: l + 4.0,
            score,
        }
    }

    #[test]
    fn perfect_tracker_scores_one_and_json_has_keys() {
        let g = vec![vec![vec![gt(0, 0.0, 0.0), gt(1, 10.0, 10.0)]; 3]];
        let p = vec![vec![vec![tr(5, 0.0, 0.0, 1.0), tr(6, 10.0, 10.0, 1.0)]; 3]];
        let r = evaluate(&p, &g, &EvalSettings::default()).unwrap();
        assert_eq!(
            (r.mota, r.motp, r.idf1, r.ap, r.count_abs_error),
            (1.0, 0.0, 1.0, 1.0, 0.0)
        );
        assert_eq!((r.clips, r.frames, r.num_gt, r.num_pred), (1, 3, 6, 6));
        let v: serde_json::Value = serde_json::to_value(&r).unwrap();
        for k in [
            "mota",
            "motp",
            "idf1",
            "ap",
            "count_abs_error",
            "clips",
            "frames",
            "num_gt",
            "num_pred",
            "env",
            "preset",
            "tracker",
            "seed",
            "thresholds",
            "quirk_drop_overfull_frames",
            "by_frame_index",
        ] {
            assert!(v.get(k).is_some(), "missing key {k}");
        }
        assert!(v.get("frames_detail").is_none());
        let ts: Vec<(usize, f64, f64)> = r
            .by_frame_index
            .iter()
            .map(|s| (s.t, s.gt, s.counted))
            .collect();
        assert_eq!(ts, vec![(0, 2.0, 2.0), (1, 2.0, 2.0), (2, 2.0, 2.0)]);
    }

    /// An object found again under a new identity every frame shows as one birth per frame; a
    /// followed one, and the first frame of each clip, as none; faint objects do not count.
    #[test]
    fn identities_found_again_show_as_births() {
        let g = vec![vec![vec![gt(0, 0.0, 0.0), gt(1, 10.0, 10.0)]; 3]; 2];
        // Clip 0: object 0 keeps id 1; object 1 gets a new id at every frame (2, 3, 4). Clip 1:
        // both followed (ids 1 and 2 again: a new clip starts with no previous frame), plus a
        // faint object whose id changes every frame.
        let clip0 = (0..3u64)
            .map(|t| vec![tr(1, 0.0, 0.0, 0.9), tr(2 + t, 10.0, 10.0, 0.9)])
            .collect();
        let clip1 = (0..3u64)
            .map(|t| {
                vec![
                    tr(1, 0.0, 0.0, 0.9),
                    tr(2, 10.0, 10.0, 0.9),
                    tr(10 + t, 20.0, 20.0, 0.4),
                ]
            })
            .collect();
        let r = evaluate(&[clip0, clip1], &g, &EvalSettings::default()).unwrap();
        // Two births (clip 0, frames 1 and 2) over four frames after a clip's first.
        assert_eq!(r.births_per_frame, 0.5);
        assert!(
            r.table().contains("identity births per frame"),
            "{}",
            r.table()
        );
        let v: serde_json::Value = serde_json::to_value(&r).unwrap();
        assert_eq!(v["births_per_frame"], 0.5);
    }

    /// A second slot on an object shows as an overlapping pair (and a MOTA false positive);
    /// predictions counted below 0.5 do not.
    #[test]
    fn duplicate_tracks_show_as_overlapping_pairs() {
        let g = vec![vec![vec![gt(0, 0.0, 0.0), gt(1, 10.0, 10.0)]; 2]];
        let frame = |t: usize| {
            let mut f = vec![tr(1, 0.0, 0.0, 0.9), tr(2, 10.0, 10.0, 0.9)];
            // The duplicate (IoU 0.6 with the first box) is present in frame 0 only; a faint
            // copy of the second box stays below the count's 0.5.
            f.push(tr(3, 0.0, 1.0, if t == 0 { 0.8 } else { 0.01 }));
            f.push(tr(4, 10.0, 10.0, 0.3));
            f
        };
        let p = vec![(0..2).map(frame).collect()];
        let r = evaluate(&p, &g, &EvalSettings::default()).unwrap();
        assert_eq!(r.overlapping_pairs_per_frame, 0.5);
        assert_eq!(r.num_false_positives, 1);
        let kinds = r.false_positive_kinds;
        assert_eq!(
            (kinds.duplicate, kinds.near_miss, kinds.no_overlap),
            (1, 0, 0)
        );
        assert!(
            r.table().contains("duplicate 1  near miss 0"),
            "{}",
            r.table()
        );
        assert!(
            r.table().contains("overlapping pairs per frame"),
            "{}",
            r.table()
        );
    }

    /// The per-frame-index count errors average (over frames) to the report's count error,
    /// clips of different lengths included.
    #[test]
    fn per_frame_index_counts_add_up() {
        let g = vec![
            vec![vec![gt(0, 0.0, 0.0), gt(1, 10.0, 10.0)]; 3],
            vec![vec![gt(0, 0.0, 0.0)]; 2],
        ];
        let decaying = |t: usize| vec![tr(5, 0.0, 0.0, 0.9 - 0.3 * t as f32), tr(6, 9.0, 9.0, 0.6)];
        let p = vec![
            (0..3).map(decaying).collect(),
            (0..2).map(decaying).collect(),
        ];
        let settings = EvalSettings {
            obj_threshold: 0.05,
            ..EvalSettings::default()
        };
        let r = evaluate(&p, &g, &settings).unwrap();
        let by_t = &r.by_frame_index;
        assert_eq!(
            by_t.iter().map(|s| s.frames).collect::<Vec<_>>(),
            vec![2, 2, 1]
        );
        let weighted: f64 = by_t
            .iter()
            .map(|s| s.count_abs_error * s.frames as f64)
            .sum();
        assert!((weighted / r.frames as f64 - r.count_abs_error).abs() < 1e-12);
        // The first box's presence 0.9, 0.6, 0.3 along the clip, the second's 0.6: counted 2, 2,
        // 1; both stay above the MOT threshold (0.05).
        assert_eq!(
            by_t.iter().map(|s| s.counted).collect::<Vec<_>>(),
            vec![2.0, 2.0, 1.0]
        );
        assert!(by_t.iter().all(|s| s.above_threshold == 2.0), "{by_t:?}");
        assert!(r
            .table()
            .contains("count abs error        0.5    0.5    1.0"));
        // Long clips: the table points to the JSON instead of printing 20 columns.
        let long = evaluate(&[vec![vec![]; 20]], &[vec![vec![]; 20]], &settings).unwrap();
        assert!(long
            .table()
            .contains("per frame index: 20 indices, in the JSON report"));
    }

    #[test]
    fn quirk_changes_mota_and_is_reported() {
        // 1 GT, 3 predictions (one correct): without quirk 2 FPs, with quirk 1 miss.
        let g = vec![vec![vec![gt(0, 0.0, 0.0)]]];
        let p = vec![vec![vec![
            tr(1, 0.0, 0.0, 1.0),
            tr(2, 20.0, 20.0, 1.0),
            tr(3, 40.0, 40.0, 1.0),
        ]]];
        let off = evaluate(&p, &g, &EvalSettings::default()).unwrap();
        assert_eq!(off.mota, -1.0);
        assert_eq!(
            (off.num_misses, off.num_false_positives, off.num_switches),
            (0, 2, 0)
        );
        assert!(off
            .table()
            .contains("MOTA errors: misses 0  false positives 2  switches 0"));
        let s = EvalSettings {
            drop_overfull_frames: true,
            frames_detail: true,
            ..Default::default()
        };
        let on = evaluate(&p, &g, &s).unwrap();
        assert_eq!(on.mota, 0.0);
        assert_eq!((on.num_misses, on.num_false_positives), (1, 0));
        assert!(on.table().contains("quirk ON"));
        let d = on.frames_detail.as_ref().unwrap();
        assert_eq!(
            (d.len(), d[0].pred.len(), d[0].pred[0].score),
            (1, 3, Some(1.0))
        );
        // JSON round trip through a file, with motp NaN -> null -> NaN.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eval.json");
        on.write_json(&path).unwrap();
        let json = std::fs::read_to_string(&path).unwrap();
        assert!(json.contains("\"motp\": null"));
        let back: EvalReport = serde_json::from_str(&json).unwrap();
        assert!(back.motp.is_nan() && back.mota == 0.0);
        assert_eq!(back.frames_detail, on.frames_detail);
    }

    #[test]
    fn shape_mismatch_and_bad_settings_error() {
        let g = vec![vec![vec![gt(0, 0.0, 0.0)]]];
        assert!(evaluate(&[], &g, &EvalSettings::default()).is_err());
        let s = EvalSettings {
            mot_iou_threshold: 0.0,
            ..Default::default()
        };
        assert!(s.validate().is_err());
        let toml_err = toml::from_str::<EvalSettings>("obj_treshold = 0.5");
        assert!(toml_err.is_err(), "unknown keys must be rejected");
        let parsed: EvalSettings = toml::from_str("obj_threshold = 0.05").unwrap();
        assert_eq!(parsed.obj_threshold, 0.05);
        assert_eq!(parsed.ap_iou_thresholds.len(), 9);
    }

    proptest::proptest! {
        /// Every MOTA false positive is classed once, whatever the boxes and scores; a tracker
        /// that reports the ground truth itself has none.
        #[test]
        fn false_positive_kinds_sum_to_the_false_positives(
            clip in proptest::collection::vec(
                (
                    proptest::collection::vec((0u8..6, 0u8..6), 0..5),
                    proptest::collection::vec((0u8..6, 0u8..6, 0u8..10), 0..7),
                ),
                1..4,
            )
        ) {
            let g: Vec<Vec<GtObject>> = clip
                .iter()
                .map(|(objects, _)| {
                    let mut seen = std::collections::HashSet::new();
                    objects
                        .iter()
                        .filter(|&&cell| seen.insert(cell))
                        .map(|&(y, x)| {
                            let id = u32::from(y) * 6 + u32::from(x);
                            gt(id, f32::from(y) * 3.0, f32::from(x) * 3.0)
                        })
                        .collect()
                })
                .collect();
            let p: Vec<Vec<TrackedObject>> = clip
                .iter()
                .map(|(_, hyps)| {
                    hyps.iter()
                        .enumerate()
                        .map(|(k, &(y, x, s))| {
                            let (top, left) = (f32::from(y) * 3.0, f32::from(x) * 3.0);
                            tr(k as u64, top, left, f32::from(s) / 10.0)
                        })
                        .collect()
                })
                .collect();
            let r = evaluate(&[p], std::slice::from_ref(&g), &EvalSettings::default()).unwrap();
            proptest::prop_assert_eq!(r.false_positive_kinds.total(), r.num_false_positives);
            let exact: Vec<Vec<TrackedObject>> = g
                .iter()
                .map(|f| f.iter().map(|o| tr(u64::from(o.id), o.top, o.left, 1.0)).collect())
                .collect();
            let r = evaluate(&[exact], &[g], &EvalSettings::default()).unwrap();
            proptest::prop_assert_eq!(r.false_positive_kinds, FalsePositiveKinds::default());
        }
    }
}
