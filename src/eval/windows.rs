//! Scores along a stream: the metrics of each window of frames (e.g. frames 0–99, 100–199, … of
//! every stream) beside the totals, to show whether a tracker holds its objects for a whole
//! episode or loses them as the stream goes on.
//!
//! Window `w` holds frames `[w·W, (w+1)·W)` of every stream; each stream's slice is one MOT
//! sequence, so identities are compared within the window (a switch across a window boundary
//! counts in the totals only).

use serde::{Deserialize, Serialize};

use super::report::nan_as_null;
use super::{evaluate, EvalReport, EvalSettings};
use crate::env::GtObject;
use crate::error::{Error, Result};
use crate::track::TrackedObject;

/// The metrics of one window of frames of every stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowReport {
    /// First frame index of the window.
    pub start: usize,
    /// One past its last frame index.
    pub end: usize,
    /// MOTA over the window.
    #[serde(with = "nan_as_null")]
    pub mota: f64,
    /// IDF1 over the window.
    #[serde(with = "nan_as_null")]
    pub idf1: f64,
    /// AP over the window.
    #[serde(with = "nan_as_null")]
    pub ap: f64,
    /// Mean absolute count error per frame.
    #[serde(with = "nan_as_null")]
    pub count_abs_error: f64,
    /// Mean ground-truth objects per frame.
    pub gt_per_frame: f64,
    /// Mean predictions counted (`score > 0.5`) per frame.
    pub counted_per_frame: f64,
    /// Identity switches within the window.
    pub num_switches: usize,
}

/// What a stream evaluation adds to the totals ([`EvalReport::stream`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamSummary {
    /// Frames per stream.
    pub frames_per_stream: usize,
    /// Window length in frames.
    pub window: usize,
    /// Episodes that ended inside the streams (the tracker restarted its objects there).
    pub episodes_ended: usize,
    /// Per-window metrics, in stream order.
    pub windows: Vec<WindowReport>,
    /// Lowest window MOTA.
    #[serde(with = "nan_as_null")]
    pub min_window_mota: f64,
    /// Count error of the last window over that of the first (≤ 1 means the count holds).
    #[serde(with = "nan_as_null")]
    pub count_error_last_over_first: f64,
    /// Mean absolute count error at the first frame of the streams.
    #[serde(with = "nan_as_null")]
    pub count_abs_error_first_frame: f64,
    /// Mean absolute count error at the last frame of the streams.
    #[serde(with = "nan_as_null")]
    pub count_abs_error_last_frame: f64,
    /// Identity switches per 1,000 frames (totals).
    pub switches_per_1000_frames: f64,
    /// The streams' objects were restarted every this many frames (`silot eval
    /// --restart-every`: the paper's clips on the stream's frames); `None`: carried throughout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_every: Option<usize>,
}

/// Per-window metrics of streams: `pred[s][t]`, `gt[s][t]` as for [`evaluate`] (streams of any,
/// possibly different, lengths); `window` frames each (the last window may be shorter).
pub fn evaluate_windows(
    pred: &[Vec<Vec<TrackedObject>>],
    gt: &[Vec<Vec<GtObject>>],
    settings: &EvalSettings,
    window: usize,
) -> Result<Vec<WindowReport>> {
    if window == 0 {
        return Err(Error::Invalid("the window must be at least 1 frame".into()));
    }
    let longest = gt.iter().map(Vec::len).max().unwrap_or(0);
    let settings = EvalSettings {
        frames_detail: false,
        ..settings.clone()
    };
    let mut out = Vec::new();
    for start in (0..longest).step_by(window) {
        let end = (start + window).min(longest);
        let p: Vec<Vec<Vec<TrackedObject>>> =
            pred.iter().map(|v| window_of(v, start, end)).collect();
        let g: Vec<Vec<Vec<GtObject>>> = gt.iter().map(|v| window_of(v, start, end)).collect();
        let r = evaluate(&p, &g, &settings)?;
        let frames = r.frames.max(1) as f64;
        let counted: f64 = r
            .by_frame_index
            .iter()
            .map(|s| s.counted * s.frames as f64)
            .sum();
        out.push(WindowReport {
            start,
            end,
            mota: r.mota,
            idf1: r.idf1,
            ap: r.ap,
            count_abs_error: r.count_abs_error,
            gt_per_frame: r.num_gt as f64 / frames,
            counted_per_frame: counted / frames,
            num_switches: r.num_switches,
        });
    }
    Ok(out)
}

/// Frames `[start, end)` of one stream (fewer, or none, past its end).
fn window_of<T: Clone>(stream: &[T], start: usize, end: usize) -> Vec<T> {
    stream[start.min(stream.len())..end.min(stream.len())].to_vec()
}

/// The [`StreamSummary`] of `totals` (the [`evaluate`] report of the whole streams) and their
/// `windows`.
pub fn stream_summary(
    totals: &EvalReport,
    windows: Vec<WindowReport>,
    frames_per_stream: usize,
    window: usize,
    episodes_ended: usize,
) -> StreamSummary {
    let min_window_mota = windows
        .iter()
        .map(|w| w.mota)
        .filter(|m| !m.is_nan())
        .fold(f64::NAN, f64::min);
    let count_error_last_over_first = match (windows.first(), windows.last()) {
        (Some(f), Some(l)) => l.count_abs_error / f.count_abs_error,
        _ => f64::NAN,
    };
    let at = |t: usize| {
        totals
            .by_frame_index
            .iter()
            .find(|s| s.t == t)
            .map_or(f64::NAN, |s| s.count_abs_error)
    };
    StreamSummary {
        frames_per_stream,
        window,
        episodes_ended,
        min_window_mota,
        count_error_last_over_first,
        count_abs_error_first_frame: at(0),
        count_abs_error_last_frame: at(frames_per_stream.saturating_sub(1)),
        switches_per_1000_frames: 1000.0 * totals.num_switches as f64 / totals.frames.max(1) as f64,
        restart_every: None,
        windows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gt(id: u32, t: f32) -> GtObject {
        GtObject {
            id,
            top: t,
            left: 0.0,
            bottom: t + 4.0,
            right: 4.0,
        }
    }

    fn tr(id: u64, t: f32, score: f32) -> TrackedObject {
        TrackedObject {
            id,
            top: t,
            left: 0.0,
            bottom: t + 4.0,
            right: 4.0,
            score,
        }
    }

    /// A tracker that holds two objects for 4 frames, then loses one: the windows show the
    /// decline the totals average away, and the summary's ratios follow.
    #[test]
    fn windows_show_a_tracker_losing_an_object() {
        let g: Vec<Vec<GtObject>> = (0..10).map(|_| vec![gt(0, 0.0), gt(1, 20.0)]).collect();
        let p: Vec<Vec<TrackedObject>> = (0..10)
            .map(|t| {
                let mut f = vec![tr(7, 0.0, 0.9)];
                if t < 4 {
                    f.push(tr(8, 20.0, 0.9));
                }
                f
            })
            .collect();
        let s = EvalSettings::default();
        let w =
            evaluate_windows(std::slice::from_ref(&p), std::slice::from_ref(&g), &s, 4).unwrap();
        assert_eq!(
            w.iter().map(|w| (w.start, w.end)).collect::<Vec<_>>(),
            vec![(0, 4), (4, 8), (8, 10)]
        );
        assert_eq!(
            w.iter().map(|w| w.mota).collect::<Vec<_>>(),
            vec![1.0, 0.5, 0.5]
        );
        assert_eq!(
            w.iter().map(|w| w.count_abs_error).collect::<Vec<_>>(),
            vec![0.0, 1.0, 1.0]
        );
        assert_eq!(w[1].counted_per_frame, 1.0);
        assert_eq!(w[0].gt_per_frame, 2.0);
        let totals = evaluate(&[p], &[g], &s).unwrap();
        assert!((totals.mota - 0.7).abs() < 1e-12, "{}", totals.mota);
        let sum = stream_summary(&totals, w, 10, 4, 0);
        assert_eq!(sum.min_window_mota, 0.5);
        assert!(sum.count_error_last_over_first.is_infinite());
        assert_eq!(
            (
                sum.count_abs_error_first_frame,
                sum.count_abs_error_last_frame
            ),
            (0.0, 1.0)
        );
        assert_eq!(sum.switches_per_1000_frames, 0.0);
        assert!(evaluate_windows(&[], &[], &s, 0).is_err());
    }

    /// Streams of different lengths: a window past the end of a shorter stream scores only the
    /// longer one.
    #[test]
    fn ragged_streams() {
        let g = vec![vec![vec![gt(0, 0.0)]; 3], vec![vec![gt(0, 0.0)]; 6]];
        let p = vec![vec![vec![tr(1, 0.0, 1.0)]; 3], vec![vec![]; 6]];
        let w = evaluate_windows(&p, &g, &EvalSettings::default(), 3).unwrap();
        assert_eq!(w.len(), 2);
        assert_eq!(w[0].mota, 0.5); // 3 hits, 3 misses
        assert_eq!(w[1].mota, 0.0); // only the empty stream: 3 misses of 3
        assert_eq!(w[1].gt_per_frame, 1.0);
    }
}
