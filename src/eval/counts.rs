//! Scores per object count (the paper's synthetic figures: MOTA, AP and count error against the
//! number of objects per video): [`CountsReport`], written by `silot eval --counts` and
//! `silot baseline-search --report`, read by `silot plot`.

use serde::{Deserialize, Serialize};

use super::report::{nan_as_null, EvalReport, ReportCheckpoint};
use crate::error::{Error, Result};

/// The scores of one tracker run on one count's clips (an [`EvalReport`]'s totals).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scores {
    /// What was run: `posterior` (a model on every frame); with `--prior-from T`,
    /// `posterior_from_t` and `prior_from_t` (frames `T..` of the same clips, the model as is and
    /// with the learned prior propagating alone from `T`); for the ConnComp baseline,
    /// `tuned_ap`, `tuned_mota`, `tuned_count_abs_error` (thresholds picked on validation clips
    /// for that metric).
    pub run: String,
    /// MOTA.
    #[serde(with = "nan_as_null")]
    pub mota: f64,
    /// MOTP (`1 − IoU` of matches).
    #[serde(with = "nan_as_null")]
    pub motp: f64,
    /// IDF1.
    #[serde(with = "nan_as_null")]
    pub idf1: f64,
    /// AP.
    #[serde(with = "nan_as_null")]
    pub ap: f64,
    /// Count absolute error per frame.
    #[serde(with = "nan_as_null")]
    pub count_abs_error: f64,
    /// Frames scored.
    pub frames: usize,
    /// Ground-truth objects over those frames.
    pub num_gt: usize,
    /// Misses, false positives and identity switches (MOTA's errors).
    pub num_misses: usize,
    /// See `num_misses`.
    pub num_false_positives: usize,
    /// See `num_misses`.
    pub num_switches: usize,
    /// Label-free identity births per frame ([`EvalReport::births_per_frame`]); 0 in reports of
    /// older versions.
    #[serde(default)]
    pub births_per_frame: f64,
    /// ConnComp picks: the foreground threshold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cc_threshold: Option<f32>,
    /// ConnComp picks: the colour threshold (Scattered Shapes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cosine_threshold: Option<f32>,
}

impl Scores {
    /// The totals of `r` under the name `run`.
    pub fn of(run: &str, r: &EvalReport) -> Self {
        Scores {
            run: run.to_string(),
            mota: r.mota,
            motp: r.motp,
            idf1: r.idf1,
            ap: r.ap,
            count_abs_error: r.count_abs_error,
            frames: r.frames,
            num_gt: r.num_gt,
            num_misses: r.num_misses,
            num_false_positives: r.num_false_positives,
            num_switches: r.num_switches,
            births_per_frame: r.births_per_frame,
            cc_threshold: None,
            cosine_threshold: None,
        }
    }
}

/// One object count's scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountScores {
    /// Objects per video.
    pub objects: usize,
    /// Test clips scored.
    pub clips: usize,
    /// The plotted MOTA: a model's posterior; ConnComp's pick tuned for MOTA.
    #[serde(with = "nan_as_null")]
    pub mota: f64,
    /// The plotted AP (ConnComp: the pick tuned for AP).
    #[serde(with = "nan_as_null")]
    pub ap: f64,
    /// The plotted count error (ConnComp: the pick tuned for it).
    #[serde(with = "nan_as_null")]
    pub count_abs_error: f64,
    /// Every run behind them ([`Scores::run`]).
    pub runs: Vec<Scores>,
}

impl CountScores {
    /// The run named `run`.
    pub fn run(&self, run: &str) -> Option<&Scores> {
        self.runs.iter().find(|s| s.run == run)
    }
}

/// Scores per object count of one tracker (`silot eval --counts`, `silot baseline-search
/// --report`), the data of the paper's synthetic figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountsReport {
    /// Always `"counts"`: tells this report from the others `silot plot` reads.
    pub kind: String,
    /// Env id.
    pub env: String,
    /// `silot`, `conncomp`.
    pub tracker: String,
    /// Where a model's weights came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<ReportCheckpoint>,
    /// Seed of the test clips (the same seed gives every tracker the same clips).
    pub seed: u64,
    /// ConnComp: seed of the validation clips its thresholds were tuned on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub val_seed: Option<u64>,
    /// ConnComp: validation clips per count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub val_clips: Option<usize>,
    /// `--prior-from T`: the learned prior propagated alone from frame `T` (runs
    /// `posterior_from_t`, `prior_from_t`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior_from: Option<usize>,
    /// Per count, in the order scored.
    pub counts: Vec<CountScores>,
}

/// [`CountsReport::kind`]'s value.
pub const COUNTS_KIND: &str = "counts";

impl CountsReport {
    /// An empty report.
    pub fn new(env: &str, tracker: &str, seed: u64) -> Self {
        CountsReport {
            kind: COUNTS_KIND.into(),
            env: env.into(),
            tracker: tracker.into(),
            checkpoint: None,
            seed,
            val_seed: None,
            val_clips: None,
            prior_from: None,
            counts: Vec::new(),
        }
    }

    /// Read a report; the error names the file.
    pub fn read(path: &std::path::Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let r: CountsReport = serde_json::from_str(&text).map_err(|e| Error::CorruptData {
            path: path.to_path_buf(),
            msg: format!("not a per-count report (`silot eval --counts --json`): {e}"),
        })?;
        if r.kind != COUNTS_KIND {
            return Err(Error::CorruptData {
                path: path.to_path_buf(),
                msg: format!("`kind` is `{}`, expected `{COUNTS_KIND}`", r.kind),
            });
        }
        Ok(r)
    }

    /// Write as pretty JSON.
    pub fn write_json(&self, path: &std::path::Path) -> Result<()> {
        let json = serde_json::to_vec_pretty(self)
            .map_err(|e| Error::Invalid(format!("serialising the counts report: {e}")))?;
        crate::util::write_atomic(path, &json)
    }

    /// A markdown table: one row per count, MOTA / AP / count error of each run.
    pub fn table(&self) -> String {
        use std::fmt::Write;
        let runs: Vec<&str> = self
            .counts
            .first()
            .map(|c| c.runs.iter().map(|s| s.run.as_str()).collect())
            .unwrap_or_default();
        let mut s = String::from("| objects | clips |");
        for r in &runs {
            let _ = write!(s, " {r} MOTA | AP | count err |");
        }
        s.push_str("\n|---|---|");
        s.push_str(&"---|---|---|".repeat(runs.len()));
        s.push('\n');
        for c in &self.counts {
            let _ = write!(s, "| {} | {} |", c.objects, c.clips);
            for r in &runs {
                match c.run(r) {
                    Some(x) => {
                        let _ = write!(
                            s,
                            " {:.3} | {:.3} | {:.3} |",
                            x.mota, x.ap, x.count_abs_error
                        );
                    }
                    None => s.push_str(" – | – | – |"),
                }
            }
            s.push('\n');
        }
        s
    }
}

/// Frames `from..` of every clip (for scoring the frames after `--prior-from T`).
pub fn frames_from<T: Clone>(clips: &[Vec<Vec<T>>], from: usize) -> Vec<Vec<Vec<T>>> {
    clips
        .iter()
        .map(|c| c.get(from..).unwrap_or_default().to_vec())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::GtObject;
    use crate::eval::{evaluate, EvalSettings};
    use crate::track::TrackedObject;

    /// The ground-truth object of these tests: a 4×4 box at the origin.
    fn square_gt() -> GtObject {
        GtObject {
            id: 0,
            top: 0.0,
            left: 0.0,
            bottom: 4.0,
            right: 4.0,
        }
    }

    /// A prediction of identity `id` on [`square_gt`]'s box, counted (score 0.9).
    fn square_hit(id: u64) -> TrackedObject {
        TrackedObject {
            id,
            top: 0.0,
            left: 0.0,
            bottom: 4.0,
            right: 4.0,
            score: 0.9,
        }
    }

    #[test]
    fn a_report_round_trips_and_tabulates_its_runs() {
        let g = square_gt();
        let hit = square_hit(3);
        // Two frames: found in the first, missed in the second.
        let gt = vec![vec![vec![g], vec![g]]];
        let pred = vec![vec![vec![hit], vec![]]];
        let r = evaluate(&pred, &gt, &EvalSettings::default()).unwrap();
        let late = evaluate(
            &frames_from(&pred, 1),
            &frames_from(&gt, 1),
            &EvalSettings::default(),
        )
        .unwrap();
        assert_eq!((r.mota, r.count_abs_error), (0.5, 0.5));
        assert_eq!((late.mota, late.frames), (0.0, 1));
        let mut rep = CountsReport::new("scattered_mnist", "silot", 2);
        rep.prior_from = Some(1);
        rep.counts.push(CountScores {
            objects: 1,
            clips: 1,
            mota: r.mota,
            ap: r.ap,
            count_abs_error: r.count_abs_error,
            runs: vec![
                Scores::of("posterior", &r),
                Scores::of("prior_from_t", &late),
            ],
        });
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.json");
        rep.write_json(&p).unwrap();
        // As JSON: an undefined MOTP (NaN) is written as null and read back as NaN.
        let json = |r: &CountsReport| serde_json::to_string(r).unwrap();
        assert_eq!(json(&CountsReport::read(&p).unwrap()), json(&rep));
        let t = rep.table();
        assert!(
            t.contains("posterior MOTA") && t.contains("| 1 | 1 | 0.500 |"),
            "{t}"
        );
        std::fs::write(&p, r#"{"mota": 1.0}"#).unwrap();
        let e = CountsReport::read(&p).unwrap_err().to_string();
        assert!(e.contains("c.json") && e.contains("per-count"), "{e}");
    }

    /// The runs carry identity births; reports written before they did still read, with 0.
    #[test]
    fn runs_carry_births_and_older_reports_read() {
        // One object found under a new id at the second frame: one birth over one later frame.
        let g = square_gt();
        let r = evaluate(
            &[vec![vec![square_hit(1)], vec![square_hit(2)]]],
            &[vec![vec![g], vec![g]]],
            &EvalSettings::default(),
        )
        .unwrap();
        let mut rep = CountsReport::new("scattered_shapes", "silot", 2);
        rep.counts.push(CountScores {
            objects: 1,
            clips: 1,
            mota: r.mota,
            ap: r.ap,
            count_abs_error: r.count_abs_error,
            runs: vec![Scores::of("posterior", &r)],
        });
        assert_eq!(rep.counts[0].runs[0].births_per_frame, 1.0);
        let mut v = serde_json::to_value(&rep).unwrap();
        let run = v["counts"][0]["runs"][0].as_object_mut().unwrap();
        assert!(run.remove("births_per_frame").is_some());
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("older.json");
        std::fs::write(&p, v.to_string()).unwrap();
        let back = CountsReport::read(&p).unwrap();
        assert_eq!(back.counts[0].runs[0].births_per_frame, 0.0);
    }
}
