//! Frame-to-frame identity assignment by Hungarian matching on box-centre distance, shared by
//! the Atari labeller (silot-reference §6.5) and the synthetic ConnComp baseline (§9.5).
//!
//! For each new frame, the cost between current object `i` and previous object `j` is
//! * Atari ([`CostRule::AtariLabeller`]): `min(d, 10 000) + 10 000·[class_i ≠ class_j]`;
//! * baseline ([`CostRule::Gated`]): `(d > gate ? 10 000 : d) + 10 000·[class_i ≠ class_j]`,
//!
//! with `d` the Euclidean distance of box centres in pixels. As in the original, the full
//! (all-finite) matrix goes to the Hungarian solver, and a pair is kept iff its cost is below
//! 10 000; every other current object gets a fresh id. Previous objects are only those of the
//! immediately preceding frame, so an empty frame resets tracking; fresh ids keep counting up
//! within the clip (never reused). Frame-0 objects get ids `0..n−1` in detection order.
//! Ties between equal costs may be broken differently from scipy's solver.

use super::conncomp::Detection;
use crate::error::Result;
use crate::eval::assign;

/// Cost above which (inclusive) a pair is not a match, and the penalty for class mismatch.
pub const NO_MATCH_COST: f64 = 10_000.0;

/// How the matching cost is built.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CostRule {
    /// The Atari labeller: no distance gate (distances capped at 10 000).
    AtariLabeller,
    /// The synthetic baseline: pairs farther than `gate_px` cost 10 000 (never match).
    Gated {
        /// Matching gate in pixels (paper 30).
        gate_px: f64,
    },
}

/// Assigns persistent ids to per-frame detections.
#[derive(Debug, Clone)]
pub struct IdMatcher {
    rule: CostRule,
    prev: Vec<(f64, f64, u32, u64)>, // centre y, centre x, class, id
    next_id: u64,
}

impl IdMatcher {
    /// A matcher at the start of a clip.
    pub fn new(rule: CostRule) -> Self {
        Self {
            rule,
            prev: Vec::new(),
            next_id: 0,
        }
    }

    /// Start a new clip: forget previous objects and restart ids at 0.
    pub fn reset(&mut self) {
        self.prev.clear();
        self.next_id = 0;
    }

    fn cost(&self, (cy, cx): (f64, f64), class: u32, p: &(f64, f64, u32, u64)) -> f64 {
        let d = ((cy - p.0).powi(2) + (cx - p.1).powi(2)).sqrt();
        let base = match self.rule {
            CostRule::AtariLabeller => d.min(NO_MATCH_COST),
            CostRule::Gated { gate_px } => {
                if d > gate_px {
                    NO_MATCH_COST
                } else {
                    d
                }
            }
        };
        base + if class != p.2 { NO_MATCH_COST } else { 0.0 }
    }

    /// Ids for the detections of the next frame (same order as `dets`).
    pub fn step(&mut self, dets: &[Detection]) -> Result<Vec<u64>> {
        let centres: Vec<(f64, f64)> = dets.iter().map(Detection::centre).collect();
        let (n, m) = (dets.len(), self.prev.len());
        let mut costs = Vec::with_capacity(n * m);
        for (c, d) in centres.iter().zip(dets) {
            for p in &self.prev {
                costs.push(self.cost(*c, d.class, p));
            }
        }
        let mut ids: Vec<Option<u64>> = vec![None; n];
        for (i, j) in assign(n, m, &costs)? {
            if costs[i * m + j] < NO_MATCH_COST {
                ids[i] = Some(self.prev[j].3);
            }
        }
        let ids: Vec<u64> = ids
            .into_iter()
            .map(|id| {
                id.unwrap_or_else(|| {
                    self.next_id += 1;
                    self.next_id - 1
                })
            })
            .collect();
        self.prev = centres
            .iter()
            .zip(dets)
            .zip(&ids)
            .map(|((c, d), &id)| (c.0, c.1, d.class, id))
            .collect();
        Ok(ids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn det(y: f32, x: f32, class: u32) -> Detection {
        Detection {
            top: y - 1.0,
            left: x - 1.0,
            bottom: y + 1.0,
            right: x + 1.0,
            class,
        }
    }

    #[test]
    fn follows_motion_and_assigns_fresh_ids() {
        let mut m = IdMatcher::new(CostRule::Gated { gate_px: 30.0 });
        assert_eq!(
            m.step(&[det(10.0, 10.0, 0), det(50.0, 50.0, 0)]).unwrap(),
            vec![0, 1]
        );
        // Swapped order, moved a little: ids follow positions; a new object gets id 2.
        let ids = m
            .step(&[det(52.0, 50.0, 0), det(12.0, 10.0, 0), det(90.0, 90.0, 0)])
            .unwrap();
        assert_eq!(ids, vec![1, 0, 2]);
        // Jump beyond the 30 px gate: fresh id.
        assert_eq!(m.step(&[det(52.0, 100.0, 0)]).unwrap(), vec![3]);
    }

    #[test]
    fn colour_gating_and_empty_frame_reset() {
        let mut m = IdMatcher::new(CostRule::AtariLabeller);
        assert_eq!(
            m.step(&[det(10.0, 10.0, 1), det(10.0, 40.0, 2)]).unwrap(),
            vec![0, 1]
        );
        // The class-2 object moves onto class 1's spot; class 1 moves far away (no gate for
        // Atari): colours decide, not distance.
        let ids = m.step(&[det(10.0, 10.0, 2), det(100.0, 100.0, 1)]).unwrap();
        assert_eq!(ids, vec![1, 0]);
        // A class never seen before never matches.
        assert_eq!(m.step(&[det(10.0, 10.0, 7)]).unwrap(), vec![2]);
        // Empty frame resets: the next object is fresh even at the same place.
        assert!(m.step(&[]).unwrap().is_empty());
        assert_eq!(m.step(&[det(10.0, 10.0, 7)]).unwrap(), vec![3]);
        m.reset();
        assert_eq!(m.step(&[det(1.0, 1.0, 7)]).unwrap(), vec![0]);
    }
}
