//! The evaluation report: the JSON written by `silot eval` and the terminal table.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::false_positive::FalsePositiveKinds;
use super::windows::StreamSummary;

/// Thresholds used for a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportThresholds {
    /// Presence threshold for MOT metrics (`score > obj_threshold`).
    pub obj_threshold: f32,
    /// Minimum IoU for a MOT pair (pairs with lower IoU may not pair).
    pub mot_iou_threshold: f64,
    /// IoU thresholds averaged by AP.
    pub ap_iou_thresholds: Vec<f64>,
}

/// One box of `frames_detail`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxRecord {
    /// Identity within the clip.
    pub id: u64,
    /// Top edge (pixel-index convention).
    pub top: f32,
    /// Left edge.
    pub left: f32,
    /// Bottom edge.
    pub bottom: f32,
    /// Right edge.
    pub right: f32,
    /// Confidence (predictions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f32>,
}

/// Everything needed to recompute the metrics of one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameDetail {
    /// Clip index.
    pub clip: usize,
    /// Frame index within the clip.
    pub t: usize,
    /// Ground-truth boxes.
    pub gt: Vec<BoxRecord>,
    /// All predictions of the tracker for this frame (unfiltered; with `score`).
    pub pred: Vec<BoxRecord>,
}

/// Counts at one frame index `t` of the clips, averaged over the clips that have it: shows
/// how presence holds along a clip (a tracker whose presence decays frame by frame counts ever
/// fewer objects while it still finds them above the MOT threshold).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameIndexStats {
    /// Frame index within the clip.
    pub t: usize,
    /// Clips with a frame `t`.
    pub frames: usize,
    /// Mean ground-truth objects.
    pub gt: f64,
    /// Mean predictions with `score > 0.5` (the count of the count error).
    pub counted: f64,
    /// Mean predictions with `score > obj_threshold` (what MOT scores).
    pub above_threshold: f64,
    /// Mean absolute count error.
    pub count_abs_error: f64,
}

/// Result of [`super::evaluate`], serialised as the `silot eval --json` file.
///
/// Metric fields that are undefined (e.g. MOTP without any match) are NaN in memory and `null`
/// in JSON. `env`, `preset`, `tracker` and `seed` are filled in by the caller (the CLI).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalReport {
    /// MOTA (CLEAR-MOT, py-motmetrics semantics), one accumulator over all clips.
    #[serde(with = "nan_as_null")]
    pub mota: f64,
    /// MOTP: mean `1 − IoU` of matched pairs (lower is better).
    #[serde(with = "nan_as_null")]
    pub motp: f64,
    /// IDF1.
    #[serde(with = "nan_as_null")]
    pub idf1: f64,
    /// AP averaged over the AP IoU thresholds (11-point interpolation).
    #[serde(with = "nan_as_null")]
    pub ap: f64,
    /// Mean absolute count error per frame (count = objects with score > 0.5).
    #[serde(with = "nan_as_null")]
    pub count_abs_error: f64,
    /// Number of clips.
    pub clips: usize,
    /// Number of frames over all clips.
    pub frames: usize,
    /// Ground-truth objects over all frames.
    pub num_gt: usize,
    /// Predictions over all frames with `score > obj_threshold` (before any quirk drop).
    pub num_pred: usize,
    /// MOTA's errors (what `1 − MOTA` sums, divided by `num_gt`): ground-truth objects missed.
    #[serde(default)]
    pub num_misses: usize,
    /// MOTA's errors: predictions matched to no ground truth.
    #[serde(default)]
    pub num_false_positives: usize,
    /// MOTA's errors: identity switches.
    #[serde(default)]
    pub num_switches: usize,
    /// MOTA's false positives by the ground truth they overlap most: a matched object
    /// (duplicate), a missed one (near miss) or none ([`super::false_positive`]); all 0 in
    /// reports of older versions.
    #[serde(default)]
    pub false_positive_kinds: FalsePositiveKinds,
    /// Label-free: pairs of counted predictions (`score > 0.5`) whose boxes overlap with IoU ≥
    /// 0.5, per frame ([`super::overlapping_pairs`]). Many such pairs mean objects held twice
    /// (duplicate tracks, MOTA false positives); 0 in reports of older versions.
    #[serde(default)]
    pub overlapping_pairs_per_frame: f64,
    /// Label-free: counted identities (`score > 0.5`) not counted at the clip's previous frame,
    /// per frame after a clip's first ([`super::births`]). Near the objects per frame when
    /// objects are found again under new identities every frame; 0 in reports of older versions.
    #[serde(default)]
    pub births_per_frame: f64,
    /// Env id.
    pub env: String,
    /// Preset name, if any.
    pub preset: Option<String>,
    /// Tracker name.
    pub tracker: String,
    /// Seed of the evaluation clips.
    pub seed: Option<u64>,
    /// The checkpoint a model tracker was loaded from (none for the baselines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<ReportCheckpoint>,
    /// Thresholds used.
    pub thresholds: ReportThresholds,
    /// Paper quirk: frames with more than 2x as many predictions as ground truth had all their
    /// predictions dropped for MOTA/MOTP/IDF1. Changes results; off by default.
    pub quirk_drop_overfull_frames: bool,
    /// Paper quirk: AP ignored a frame's predictions after its ground truth was used up.
    /// Changes results; off by default.
    pub quirk_ap_ignore_after_gt_exhausted: bool,
    /// Counts per frame index of the clips (`t = 0, 1, …`).
    #[serde(default)]
    pub by_frame_index: Vec<FrameIndexStats>,
    /// Per-frame boxes (only with `--dump-frames`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frames_detail: Option<Vec<FrameDetail>>,
    /// Streams only (`silot eval --frames N`): the metrics per window of frames and how the
    /// count holds from the first frame to the last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<StreamSummary>,
}

/// Where a model tracker's weights came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportCheckpoint {
    /// The checkpoint directory read (`best/` or `checkpoint/` of a run directory, or the
    /// directory given).
    pub path: String,
    /// The training step it was saved at.
    pub step: u64,
    /// Whether the latents were sampled (`--latents sampled`, the config's `eval_noisy`) or
    /// taken at their means; absent in reports written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampled_latents: Option<bool>,
}

/// Longest clips whose per-frame-index counts the table prints (longer ones: JSON only).
const MAX_PRINTED_FRAME_INDICES: usize = 16;

impl EvalReport {
    /// The report as an aligned text table (what `silot eval` prints).
    pub fn table(&self) -> String {
        let mut s = String::new();
        let preset = self.preset.as_deref().unwrap_or("-");
        let seed = self.seed.map_or("-".to_string(), |v| v.to_string());
        let _ = writeln!(
            s,
            "env {}  preset {preset}  tracker {}  seed {seed}",
            self.env, self.tracker
        );
        if let Some(c) = &self.checkpoint {
            let _ = writeln!(s, "checkpoint {} (step {})", c.path, c.step);
        }
        let _ = writeln!(
            s,
            "clips {}  frames {}  gt objects {}  predictions {}",
            self.clips, self.frames, self.num_gt, self.num_pred
        );
        let _ = writeln!(s, "+-----------------+----------+");
        let _ = writeln!(s, "| metric          |    value |");
        let _ = writeln!(s, "+-----------------+----------+");
        for (name, v) in [
            ("MOTA", self.mota),
            ("MOTP (1-IoU)", self.motp),
            ("IDF1", self.idf1),
            ("AP", self.ap),
            ("count abs error", self.count_abs_error),
        ] {
            let _ = writeln!(s, "| {name:<15} | {v:>8.4} |");
        }
        let _ = writeln!(s, "+-----------------+----------+");
        let _ = writeln!(
            s,
            "MOTA errors: misses {}  false positives {}  switches {}",
            self.num_misses, self.num_false_positives, self.num_switches
        );
        let k = &self.false_positive_kinds;
        let _ = writeln!(
            s,
            "false positives by the object they overlap most: duplicate {}  near miss {}  \
             no overlap {}",
            k.duplicate, k.near_miss, k.no_overlap
        );
        let _ = writeln!(
            s,
            "overlapping pairs per frame (IoU >= 0.5, score > 0.5; label-free): {:.3}",
            self.overlapping_pairs_per_frame
        );
        let _ = writeln!(
            s,
            "identity births per frame after a clip's first (score > 0.5; label-free): {:.3}",
            self.births_per_frame
        );
        let t = &self.thresholds;
        // The thresholds are numpy's sums (0.30000000000000004); printed to 6 decimals, trimmed.
        let ap_ious: Vec<String> = t
            .ap_iou_thresholds
            .iter()
            .map(|x| {
                let v = format!("{x:.6}");
                v.trim_end_matches('0').trim_end_matches('.').to_string()
            })
            .collect();
        let _ = writeln!(
            s,
            "obj_threshold {}  MOT IoU >= {}  AP IoU thresholds [{}]",
            t.obj_threshold,
            t.mot_iou_threshold,
            ap_ious.join(", ")
        );
        if self.by_frame_index.len() > MAX_PRINTED_FRAME_INDICES {
            let _ = writeln!(
                s,
                "per frame index: {} indices, in the JSON report (`by_frame_index`)",
                self.by_frame_index.len()
            );
        } else if !self.by_frame_index.is_empty() {
            let row = |name: &str, f: &dyn Fn(&FrameIndexStats) -> f64| {
                let cells: String = self
                    .by_frame_index
                    .iter()
                    .map(|st| format!(" {:>6.1}", f(st)))
                    .collect();
                format!("{name:<21}{cells}\n")
            };
            let ts: String = self
                .by_frame_index
                .iter()
                .map(|st| format!(" {:>6}", st.t))
                .collect();
            let _ = writeln!(s, "{:<21}{ts}", "per frame index t");
            s += &row("  ground truth", &|st| st.gt);
            s += &row("  counted (> 0.5)", &|st| st.counted);
            s += &row("  above obj_threshold", &|st| st.above_threshold);
            s += &row("  count abs error", &|st| st.count_abs_error);
        }
        if let Some(st) = &self.stream {
            stream_table(&mut s, st);
        }
        if self.quirk_drop_overfull_frames {
            let _ = writeln!(
                s,
                "NOTE: paper quirk ON: frames with > 2x predictions than ground truth had all \
                 predictions dropped for MOTA/MOTP/IDF1 (changes results)"
            );
        }
        if self.quirk_ap_ignore_after_gt_exhausted {
            let _ = writeln!(
                s,
                "NOTE: paper quirk ON: AP ignored a frame's predictions once its ground truth \
                 was used up (changes results)"
            );
        }
        s
    }

    /// Print [`Self::table`] to standard output.
    pub fn print_table(&self) {
        print!("{}", self.table());
    }

    /// Pretty-printed JSON (the `--json` file's content).
    pub fn to_json(&self) -> crate::Result<String> {
        serde_json::to_string_pretty(self)
            .map_err(|e| crate::Error::Invalid(format!("serialising eval report: {e}")))
    }

    /// Write [`Self::to_json`] to `path` atomically.
    pub fn write_json(&self, path: &std::path::Path) -> crate::Result<()> {
        crate::util::write_atomic(path, self.to_json()?.as_bytes())
    }
}

/// The per-window rows of a stream report.
fn stream_table(s: &mut String, st: &StreamSummary) {
    let _ = writeln!(
        s,
        "streams of {} frames, windows of {}; {} episodes ended inside (objects restarted)",
        st.frames_per_stream, st.window, st.episodes_ended
    );
    if let Some(n) = st.restart_every {
        let _ = writeln!(
            s,
            "objects restarted every {n} frames (--restart-every): clips cut from the streams"
        );
    }
    let _ = writeln!(
        s,
        "{:>11} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8}",
        "frames", "MOTA", "IDF1", "AP", "count", "gt", "counted", "switches"
    );
    for w in &st.windows {
        let _ = writeln!(
            s,
            "{:>11} {:>7.3} {:>7.3} {:>7.3} {:>7.2} {:>7.1} {:>8.1} {:>8}",
            format!("{}-{}", w.start, w.end - 1),
            w.mota,
            w.idf1,
            w.ap,
            w.count_abs_error,
            w.gt_per_frame,
            w.counted_per_frame,
            w.num_switches
        );
    }
    let _ = writeln!(
        s,
        "lowest window MOTA {:.3}; count error last window / first {:.2}; at the first frame \
         {:.2}, the last {:.2}; switches per 1000 frames {:.1}",
        st.min_window_mota,
        st.count_error_last_over_first,
        st.count_abs_error_first_frame,
        st.count_abs_error_last_frame,
        st.switches_per_1000_frames
    );
}

/// Serialise non-finite `f64` as JSON `null` and read `null` back as NaN.
pub(crate) mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else {
            s.serialize_none()
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}
