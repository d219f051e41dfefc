//! CLEAR-MOT accumulation (MOTA, MOTP) and the identity measure IDF1, with exactly the
//! semantics of py-motmetrics' `MOTAccumulator` and `metrics` (the library the paper used).
//!
//! Per frame ([`MotAccumulator::update`]), given ground-truth ids, hypothesis ids and a distance
//! matrix whose non-finite entries mean "may not pair":
//! 1. **Keep correspondences**: for each ground-truth object (in the given order) that was
//!    matched before to hypothesis `h`, if `h` is present this frame and the pair is allowed,
//!    emit `Match` and keep it.
//! 2. **Hungarian** on the remaining objects/hypotheses (maximum number of allowed pairs, then
//!    minimum total distance; see [`assign`]). A pair whose object was last matched to a
//!    *different* hypothesis (at any earlier frame of the same sequence) is a `Switch`,
//!    otherwise a `Match`.
//! 3. Every unmatched object is a `Miss`; 4. every unmatched hypothesis a `FalsePositive`.
//!
//! Steps 1–2 run only when the frame has both objects and hypotheses. Sequences (clips) are
//! started with [`MotAccumulator::start_sequence`]: correspondences do not carry across clips and
//! ids of different clips are distinct, as when py-motmetrics merges per-clip accumulators.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::assign::assign;
use super::bbox::{iou_distance_matrix, BBox};
use crate::error::{Error, Result};

/// Kind of a tracking event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventKind {
    /// Object matched to the hypothesis it was last matched to (or its first match).
    Match,
    /// Object matched to a hypothesis other than the one it was last matched to.
    Switch,
    /// Object without a hypothesis.
    Miss,
    /// Hypothesis without an object.
    FalsePositive,
}

/// One tracking event, as a row of py-motmetrics' event table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Index of the sequence (clip) since the accumulator was created.
    pub sequence: usize,
    /// Frame index within the sequence.
    pub frame: usize,
    /// What happened.
    pub kind: EventKind,
    /// Ground-truth object id (absent for false positives).
    pub object: Option<u64>,
    /// Hypothesis id (absent for misses).
    pub hypothesis: Option<u64>,
    /// Distance of the pair (matches and switches only).
    pub distance: Option<f64>,
}

/// Totals and metrics of an accumulator.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MotSummary {
    /// Frames seen.
    pub num_frames: usize,
    /// Ground-truth object occurrences (sum over frames).
    pub num_objects: usize,
    /// Hypothesis occurrences (sum over frames).
    pub num_predictions: usize,
    /// `Match` events.
    pub num_matches: usize,
    /// `Switch` events.
    pub num_switches: usize,
    /// `Miss` events.
    pub num_misses: usize,
    /// `FalsePositive` events.
    pub num_false_positives: usize,
    /// Sum of distances over matches and switches.
    pub total_distance: f64,
    /// Identity true positives of the global ID assignment.
    pub idtp: usize,
    /// MOTA = 1 − (misses + switches + false positives) / objects (NaN without objects).
    pub mota: f64,
    /// MOTP = total distance / (matches + switches) — the mean distance of matched pairs
    /// (for IoU distances: mean `1 − IoU`, lower is better). NaN without matches.
    pub motp: f64,
    /// IDF1 = 2·IDTP / (objects + predictions), where IDTP is the number of frames in which the
    /// matched (object, hypothesis) identity pairs are allowed to pair, under the one-to-one
    /// identity assignment that maximises it (py-motmetrics' `id_global_assignment`; solved per
    /// sequence since ids never span sequences). NaN when both counts are 0.
    pub idf1: f64,
}

/// Accumulates CLEAR-MOT events over frames and sequences. See the module docs.
#[derive(Debug, Clone, Default)]
pub struct MotAccumulator {
    events: Vec<Event>,
    keep_events: bool,
    sequence: usize,
    frame: usize,
    /// Object id → hypothesis it was last matched to (current sequence).
    last_match: HashMap<u64, u64>,
    /// (object, hypothesis) → frames in which the pair was allowed (current sequence).
    co_occurrence: HashMap<(u64, u64), usize>,
    idtp_done: usize,
    num_frames: usize,
    num_objects: usize,
    num_predictions: usize,
    num_matches: usize,
    num_switches: usize,
    num_misses: usize,
    num_false_positives: usize,
    total_distance: f64,
    /// Per object of the last frame: matched (or switched) to a hypothesis.
    last_objects_matched: Vec<bool>,
    /// Per hypothesis of the last frame: matched (or switched) to an object.
    last_hypotheses_matched: Vec<bool>,
}

impl MotAccumulator {
    /// An empty accumulator that also records the event list (see [`Self::events`]).
    pub fn new() -> Self {
        Self {
            keep_events: true,
            ..Self::default()
        }
    }

    /// An empty accumulator that keeps only totals (no per-event list).
    pub fn totals_only() -> Self {
        Self::default()
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        *self = Self {
            keep_events: self.keep_events,
            ..Self::default()
        };
    }

    /// Start a new sequence (clip): previous correspondences are dropped and ids of the new
    /// sequence are unrelated to earlier ones. Not needed before the first sequence.
    pub fn start_sequence(&mut self) {
        if self.frame > 0 || !self.co_occurrence.is_empty() {
            self.idtp_done += self.sequence_idtp();
            self.sequence += 1;
        }
        self.frame = 0;
        self.last_match.clear();
        self.co_occurrence.clear();
    }

    /// The recorded events (empty for [`Self::totals_only`]).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Add one frame: `objects` and `hypotheses` ids (each unique within the frame) and the
    /// row-major `(objects.len(), hypotheses.len())` distance matrix; `NaN`/`inf` = may not pair.
    pub fn update(&mut self, objects: &[u64], hypotheses: &[u64], distances: &[f64]) -> Result<()> {
        let (no, nh) = (objects.len(), hypotheses.len());
        if distances.len() != no * nh {
            return Err(Error::Invalid(format!(
                "MOT update: distance matrix has {} entries, expected {no} objects x {nh} \
                 hypotheses = {}",
                distances.len(),
                no * nh
            )));
        }
        check_unique(objects, "object")?;
        check_unique(hypotheses, "hypothesis")?;
        self.num_frames += 1;
        self.num_objects += no;
        self.num_predictions += nh;
        for (i, &o) in objects.iter().enumerate() {
            for (j, &h) in hypotheses.iter().enumerate() {
                if distances[i * nh + j].is_finite() {
                    *self.co_occurrence.entry((o, h)).or_insert(0) += 1;
                }
            }
        }
        // Reuse the last frame's flags' storage: no allocation per frame once warm.
        let mut obj_done = std::mem::take(&mut self.last_objects_matched);
        let mut hyp_done = std::mem::take(&mut self.last_hypotheses_matched);
        obj_done.clear();
        obj_done.resize(no, false);
        hyp_done.clear();
        hyp_done.resize(nh, false);
        if no > 0 && nh > 0 {
            self.keep_correspondences(objects, hypotheses, distances, &mut obj_done, &mut hyp_done);
            self.match_remaining(objects, hypotheses, distances, &mut obj_done, &mut hyp_done)?;
        }
        for (&o, _) in objects.iter().zip(&obj_done).filter(|(_, done)| !**done) {
            self.num_misses += 1;
            self.push(EventKind::Miss, Some(o), None, None);
        }
        for (&h, _) in hypotheses.iter().zip(&hyp_done).filter(|(_, done)| !**done) {
            self.num_false_positives += 1;
            self.push(EventKind::FalsePositive, None, Some(h), None);
        }
        self.last_objects_matched = obj_done;
        self.last_hypotheses_matched = hyp_done;
        self.frame += 1;
        Ok(())
    }

    /// Flags of the last [`Self::update`], in its argument order: per object, whether it was
    /// matched (or switched) to a hypothesis (else a miss); per hypothesis, whether it was
    /// matched to an object (else a false positive). Empty before the first update.
    pub fn last_frame_matched(&self) -> (&[bool], &[bool]) {
        (&self.last_objects_matched, &self.last_hypotheses_matched)
    }

    /// Add one frame from boxes: distances are `1 − IoU`, pairs with `1 − IoU > max_distance`
    /// may not pair (py-motmetrics `iou_matrix(..., max_iou=max_distance)`; the paper uses 0.5).
    pub fn update_boxes(
        &mut self,
        objects: &[(u64, BBox)],
        hypotheses: &[(u64, BBox)],
        max_distance: f64,
    ) -> Result<()> {
        let oid: Vec<u64> = objects.iter().map(|o| o.0).collect();
        let hid: Vec<u64> = hypotheses.iter().map(|h| h.0).collect();
        let ob: Vec<BBox> = objects.iter().map(|o| o.1).collect();
        let hb: Vec<BBox> = hypotheses.iter().map(|h| h.1).collect();
        let d = iou_distance_matrix(&ob, &hb, max_distance);
        self.update(&oid, &hid, &d)
    }

    /// Step 1: carry over last correspondences that are still allowed.
    fn keep_correspondences(
        &mut self,
        objects: &[u64],
        hypotheses: &[u64],
        distances: &[f64],
        obj_done: &mut [bool],
        hyp_done: &mut [bool],
    ) {
        let nh = hypotheses.len();
        for (i, &o) in objects.iter().enumerate() {
            let Some(&h_prev) = self.last_match.get(&o) else {
                continue;
            };
            let Some(j) = (0..nh).find(|&j| !hyp_done[j] && hypotheses[j] == h_prev) else {
                continue;
            };
            let d = distances[i * nh + j];
            if d.is_finite() {
                obj_done[i] = true;
                hyp_done[j] = true;
                self.num_matches += 1;
                self.total_distance += d;
                self.push(EventKind::Match, Some(o), Some(h_prev), Some(d));
            }
        }
    }

    /// Step 2: Hungarian on what is left; classify matches and switches.
    fn match_remaining(
        &mut self,
        objects: &[u64],
        hypotheses: &[u64],
        distances: &[f64],
        obj_done: &mut [bool],
        hyp_done: &mut [bool],
    ) -> Result<()> {
        let nh = hypotheses.len();
        let masked: Vec<f64> = distances
            .iter()
            .enumerate()
            .map(|(k, &d)| {
                if obj_done[k / nh] || hyp_done[k % nh] {
                    f64::NAN
                } else {
                    d
                }
            })
            .collect();
        for (i, j) in assign(objects.len(), nh, &masked)? {
            let (o, h, d) = (objects[i], hypotheses[j], masked[i * nh + j]);
            let switch = self.last_match.get(&o).is_some_and(|&prev| prev != h);
            let kind = if switch {
                self.num_switches += 1;
                EventKind::Switch
            } else {
                self.num_matches += 1;
                EventKind::Match
            };
            self.total_distance += d;
            self.last_match.insert(o, h);
            obj_done[i] = true;
            hyp_done[j] = true;
            self.push(kind, Some(o), Some(h), Some(d));
        }
        Ok(())
    }

    fn push(
        &mut self,
        kind: EventKind,
        object: Option<u64>,
        hypothesis: Option<u64>,
        d: Option<f64>,
    ) {
        if self.keep_events {
            self.events.push(Event {
                sequence: self.sequence,
                frame: self.frame,
                kind,
                object,
                hypothesis,
                distance: d,
            });
        }
    }

    /// IDTP of the current sequence: maximum-weight one-to-one matching of object ids to
    /// hypothesis ids, weight = frames in which the pair was allowed.
    fn sequence_idtp(&self) -> usize {
        if self.co_occurrence.is_empty() {
            return 0;
        }
        let mut oids: Vec<u64> = self.co_occurrence.keys().map(|k| k.0).collect();
        let mut hids: Vec<u64> = self.co_occurrence.keys().map(|k| k.1).collect();
        oids.sort_unstable();
        oids.dedup();
        hids.sort_unstable();
        hids.dedup();
        let mut costs = vec![0.0; oids.len() * hids.len()];
        for (&(o, h), &n) in &self.co_occurrence {
            let (Ok(i), Ok(j)) = (oids.binary_search(&o), hids.binary_search(&h)) else {
                continue;
            };
            costs[i * hids.len() + j] = -(n as f64);
        }
        // All entries finite: a full assignment; zero-weight pairs add nothing.
        match assign(oids.len(), hids.len(), &costs) {
            Ok(pairs) => pairs
                .into_iter()
                .map(|(i, j)| (-costs[i * hids.len() + j]) as usize)
                .sum(),
            Err(_) => 0, // unreachable: the matrix is built with the right size
        }
    }

    /// Totals and metrics over everything accumulated so far.
    pub fn summary(&self) -> MotSummary {
        let idtp = self.idtp_done + self.sequence_idtp();
        let errors = (self.num_misses + self.num_switches + self.num_false_positives) as f64;
        let detections = self.num_matches + self.num_switches;
        let quiet_div = |a: f64, b: f64| if b == 0.0 { f64::NAN } else { a / b };
        MotSummary {
            num_frames: self.num_frames,
            num_objects: self.num_objects,
            num_predictions: self.num_predictions,
            num_matches: self.num_matches,
            num_switches: self.num_switches,
            num_misses: self.num_misses,
            num_false_positives: self.num_false_positives,
            total_distance: self.total_distance,
            idtp,
            mota: 1.0 - quiet_div(errors, self.num_objects as f64),
            motp: quiet_div(self.total_distance, detections as f64),
            idf1: quiet_div(
                2.0 * idtp as f64,
                (self.num_objects + self.num_predictions) as f64,
            ),
        }
    }
}

fn check_unique(ids: &[u64], what: &str) -> Result<()> {
    let mut seen = HashSet::with_capacity(ids.len());
    for &id in ids {
        if !seen.insert(id) {
            return Err(Error::Invalid(format!(
                "MOT update: {what} id {id} appears twice in one frame; ids must be unique per \
                 frame"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: f64 = f64::NAN;

    #[test]
    fn identity_tracking_is_perfect() {
        let mut acc = MotAccumulator::new();
        let b = BBox::new(0.0, 0.0, 4.0, 4.0);
        for _ in 0..3 {
            acc.update_boxes(&[(1, b)], &[(9, b)], 0.5).unwrap();
        }
        let s = acc.summary();
        assert_eq!((s.mota, s.motp, s.idf1), (1.0, 0.0, 1.0));
    }

    #[test]
    fn switch_after_gap_and_sequences_are_independent() {
        let mut acc = MotAccumulator::new();
        acc.update(&[1], &[10], &[0.1]).unwrap();
        acc.update(&[1], &[], &[]).unwrap(); // miss, correspondence remembered
        acc.update(&[1], &[11], &[0.1]).unwrap(); // switch (no time limit)
        acc.start_sequence();
        acc.update(&[1], &[11], &[0.1]).unwrap(); // new clip: a plain match
        let kinds: Vec<EventKind> = acc.events().iter().map(|e| e.kind).collect();
        use EventKind::*;
        assert_eq!(kinds, vec![Match, Miss, Switch, Match]);
        // IDTP: clip 0 best pair (1,10) or (1,11) = 1 frame; clip 1: 1 frame.
        assert_eq!(acc.summary().idtp, 2);
    }

    #[test]
    fn rejects_duplicate_ids_and_bad_shapes() {
        let mut acc = MotAccumulator::new();
        assert!(acc.update(&[1, 1], &[], &[]).is_err());
        assert!(acc.update(&[1], &[2], &[]).is_err());
        assert!(acc.update(&[1], &[2], &[N]).is_ok());
    }
}
