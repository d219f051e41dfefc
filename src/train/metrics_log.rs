//! `metrics.jsonl`: one JSON object per logged step (every loss term, step, lr, T_dyn, gradient
//! norm, wall time), appended and flushed line by line so a crash loses at most one line.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::LossBreakdown;

/// One line of `metrics.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricsRecord {
    /// `"train"` or `"val"`.
    pub kind: String,
    /// Global update count over all stages.
    pub step: u64,
    /// Stage (0-based).
    pub stage: usize,
    /// Stage-local step.
    pub stage_step: u64,
    /// Learning rate.
    pub lr: f64,
    /// Frames per clip used (T_dyn).
    pub n_frames: usize,
    /// Global gradient norm before clipping (train lines).
    pub grad_norm: f64,
    /// Count-prior log-odds in effect.
    pub count_prior_log_odds: f64,
    /// Seconds since the run (or resume) started.
    pub time_s: f64,
    /// Train lines: seconds of `time_s` the trainer spent waiting for clips (the clip source
    /// was slower than the model steps); absent in logs of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_wait_s: Option<f64>,
    /// Train lines: the gradient norm (before clipping) per parameter group, the first two
    /// parts of the parameter names (e.g. `propagation.where`); absent in logs of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grad_norms: Option<std::collections::BTreeMap<String, f64>>,
    /// Validation lines: how many and how large the objects found are (label-free); absent in
    /// logs of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none", flatten)]
    pub objects: Option<super::ObjectStats>,
    /// Validation lines: the same on full frames as `silot eval` runs the model (with
    /// `train.val_full_frames`), as an object; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_frame: Option<super::ObjectStats>,
    /// Train lines with `train.streams`: the batch's clips that continued their stream's
    /// previous clip (started from its objects); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streams_continued: Option<usize>,
    /// Validation lines: the early-stopping score (lower is better).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Validation lines under `stop_criterion = "mota"`: MOTA of the posterior on the labelled
    /// validation clips; absent otherwise (and in logs of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mota: Option<f64>,
    /// Validation lines under `stop_criterion = "mota"`: MOTA of the learned prior alone from
    /// frame `train.val_prior_from` on (`score = -(mota + prior_mota)`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior_mota: Option<f64>,
    /// The label-free streams check of a validation line (`train.val_streams`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<super::StreamCheck>,
    /// Every loss term.
    #[serde(flatten)]
    pub loss: LossBreakdown,
}

/// Appending JSON-lines writer.
pub struct MetricsLog {
    out: BufWriter<File>,
    path: PathBuf,
}

impl MetricsLog {
    /// Open (create or append) `path`.
    pub fn open(path: &Path) -> Result<Self> {
        let f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        Ok(Self {
            out: BufWriter::new(f),
            path: path.to_path_buf(),
        })
    }

    /// Open `path` for a run that goes on from global step `step` (a resume from its
    /// checkpoint): lines of later steps, written before the run was stopped and to be written
    /// again, are dropped first (as is a torn last line), so the log holds each step once.
    pub fn open_at_step(path: &Path, step: u64) -> Result<Self> {
        if path.exists() {
            let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
            let mut kept = String::with_capacity(text.len());
            let mut dropped = 0usize;
            for line in text.split_inclusive('\n') {
                let step_of = serde_json::from_str::<serde_json::Value>(line)
                    .ok()
                    .filter(|_| line.ends_with('\n'))
                    .and_then(|v| v.get("step").and_then(|s| s.as_u64()));
                match step_of {
                    Some(s) if s <= step => kept.push_str(line),
                    _ if line.trim().is_empty() => {}
                    _ => dropped += 1,
                }
            }
            if dropped > 0 {
                tracing::info!(
                    dropped,
                    step,
                    "metrics.jsonl: dropped the lines after the checkpoint's step"
                );
                crate::util::write_atomic(path, kept.as_bytes())?;
            }
        }
        Self::open(path)
    }

    /// Append one record and flush.
    pub fn write(&mut self, rec: &MetricsRecord) -> Result<()> {
        let line = serde_json::to_string(rec)
            .map_err(|e| Error::Invalid(format!("cannot serialise metrics: {e}")))?;
        writeln!(self.out, "{line}").map_err(|e| Error::io(&self.path, e))?;
        self.out.flush().map_err(|e| Error::io(&self.path, e))
    }
}

/// Read every record of a `metrics.jsonl`.
pub fn read_metrics(path: &Path) -> Result<Vec<MetricsRecord>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| Error::CorruptData {
                path: path.to_path_buf(),
                msg: format!("line {}: {e}", i + 1),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val_record(objects: Option<crate::train::ObjectStats>) -> MetricsRecord {
        MetricsRecord {
            kind: "val".into(),
            step: 10,
            stage: 0,
            stage_step: 10,
            lr: 1e-4,
            n_frames: 8,
            grad_norm: 0.0,
            count_prior_log_odds: 0.5,
            time_s: 1.0,
            data_wait_s: None,
            grad_norms: None,
            objects,
            full_frame: None,
            streams_continued: None,
            score: Some(3.0),
            mota: None,
            prior_mota: None,
            stream: None,
            loss: LossBreakdown::default(),
        }
    }

    #[test]
    fn mota_values_are_optional_keys_of_val_lines() {
        let rec = MetricsRecord {
            score: Some(-1.25),
            mota: Some(0.75),
            prior_mota: Some(0.5),
            ..val_record(None)
        };
        let line = serde_json::to_string(&rec).unwrap();
        assert!(
            line.contains("\"mota\":0.75") && line.contains("\"prior_mota\":0.5"),
            "{line}"
        );
        assert_eq!(serde_json::from_str::<MetricsRecord>(&line).unwrap(), rec);
        // Lines without them (loss criteria, logs of older versions) read as None.
        let old = serde_json::to_string(&val_record(None)).unwrap();
        assert!(!old.contains("mota"), "{old}");
        let back: MetricsRecord = serde_json::from_str(&old).unwrap();
        assert_eq!((back.mota, back.prior_mota), (None, None));
    }

    #[test]
    fn object_stats_are_flat_keys_of_val_lines_and_old_lines_still_read() {
        let stats = crate::train::ObjectStats {
            objects_per_frame: 41.5,
            box_height_px: 10.25,
            box_width_px: 9.5,
            overlapping_pairs_per_frame: 0.25,
            births_per_frame: 0.75,
        };
        let line = serde_json::to_string(&val_record(Some(stats))).unwrap();
        assert!(line.contains("\"objects_per_frame\":41.5"), "{line}");
        assert!(line.contains("\"box_width_px\":9.5"), "{line}");
        let back: MetricsRecord = serde_json::from_str(&line).unwrap();
        assert_eq!(back.objects, Some(stats));
        // Validation lines of versions before the overlapping pairs read with 0 for them.
        let older = line.replace(",\"overlapping_pairs_per_frame\":0.25", "");
        assert_ne!(older, line);
        let back: MetricsRecord = serde_json::from_str(&older).unwrap();
        assert_eq!(back.objects.unwrap().overlapping_pairs_per_frame, 0.0);
        // ... and before the births, 0 for those.
        let older = line.replace(",\"births_per_frame\":0.75", "");
        assert_ne!(older, line);
        let back: MetricsRecord = serde_json::from_str(&older).unwrap();
        assert_eq!(back.objects.unwrap().births_per_frame, 0.0);
        // Lines without them (train lines, older logs) read as None.
        let old = serde_json::to_string(&val_record(None)).unwrap();
        assert!(!old.contains("objects_per_frame"), "{old}");
        let back: MetricsRecord = serde_json::from_str(&old).unwrap();
        assert_eq!(back.objects, None);
        assert_eq!(back.full_frame, None);
    }

    #[test]
    fn opening_at_a_step_drops_later_and_torn_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("metrics.jsonl");
        let line = |step: u64| {
            serde_json::to_string(&MetricsRecord {
                step,
                ..val_record(None)
            })
            .unwrap()
        };
        let text = format!("{}\n{}\n{}\n{}", line(1), line(2), line(3), &line(4)[..20]);
        std::fs::write(&path, &text).unwrap();
        let mut log = MetricsLog::open_at_step(&path, 2).unwrap();
        log.write(&MetricsRecord {
            step: 3,
            ..val_record(None)
        })
        .unwrap();
        drop(log);
        let steps: Vec<u64> = read_metrics(&path)
            .unwrap()
            .iter()
            .map(|r| r.step)
            .collect();
        assert_eq!(steps, vec![1, 2, 3]);
        // Nothing after the step: the file is left as it is.
        let before = std::fs::read(&path).unwrap();
        MetricsLog::open_at_step(&path, 3).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), before);
        // A fresh run (step 0) starts an empty log.
        MetricsLog::open_at_step(&path, 0).unwrap();
        assert!(read_metrics(&path).unwrap().is_empty());
    }

    #[test]
    fn full_frame_stats_are_an_object_of_val_lines() {
        let stats = crate::train::ObjectStats {
            objects_per_frame: 47.0,
            box_height_px: 9.0,
            box_width_px: 8.5,
            overlapping_pairs_per_frame: 1.5,
            births_per_frame: 2.0,
        };
        let rec = MetricsRecord {
            full_frame: Some(stats),
            streams_continued: None,
            ..val_record(None)
        };
        let line = serde_json::to_string(&rec).unwrap();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            v["full_frame"]["overlapping_pairs_per_frame"], 1.5,
            "{line}"
        );
        assert!(v.get("objects_per_frame").is_none(), "{line}");
        let back: MetricsRecord = serde_json::from_str(&line).unwrap();
        assert_eq!(back.full_frame, Some(stats));
    }
}
