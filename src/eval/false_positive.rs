//! What MOTA's false positives are: each unmatched hypothesis of a frame is classed by the
//! ground-truth box it overlaps most (highest IoU).
//!
//! * **duplicate**: that object is matched to another hypothesis: the object held twice (a
//!   second slot on it, or a box too far off to pair while another slot tracks it);
//! * **near miss**: that object is missed: a box on a real object but too far off to pair
//!   (IoU under the MOT threshold), so the frame counts a miss and a false positive;
//! * **no overlap**: it overlaps no ground truth at all (an object invented on background).
//!
//! A tracker whose presence is raised to cut the count error shows which of these grows.

use serde::{Deserialize, Serialize};

use super::bbox::BBox;

/// Counts of MOTA's false positives by kind (see the module docs); they sum to the report's
/// `num_false_positives`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FalsePositiveKinds {
    /// Overlapping most an object that another hypothesis is matched to.
    pub duplicate: usize,
    /// Overlapping most an object that is missed in this frame.
    pub near_miss: usize,
    /// Overlapping no object.
    pub no_overlap: usize,
}

impl FalsePositiveKinds {
    /// Class the unmatched hypotheses of one frame, given as `(id, box)` the way
    /// [`super::MotAccumulator::update_boxes`] takes them. `objects_matched` /
    /// `hypotheses_matched` flag, in the same order, what that update paired
    /// ([`super::MotAccumulator::last_frame_matched`]).
    pub fn add_frame(
        &mut self,
        objects: &[(u64, BBox)],
        hypotheses: &[(u64, BBox)],
        objects_matched: &[bool],
        hypotheses_matched: &[bool],
    ) {
        debug_assert_eq!(objects.len(), objects_matched.len());
        debug_assert_eq!(hypotheses.len(), hypotheses_matched.len());
        for ((_, h), _) in hypotheses
            .iter()
            .zip(hypotheses_matched)
            .filter(|(_, &matched)| !matched)
        {
            let most = objects
                .iter()
                .zip(objects_matched)
                .map(|((_, o), &matched)| (o.iou(h), matched))
                .filter(|&(iou, _)| iou > 0.0)
                .max_by(|a, b| a.0.total_cmp(&b.0));
            match most {
                None => self.no_overlap += 1,
                Some((_, true)) => self.duplicate += 1,
                Some((_, false)) => self.near_miss += 1,
            }
        }
    }

    /// All false positives counted.
    pub fn total(&self) -> usize {
        self.duplicate + self.near_miss + self.no_overlap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 10x10 box at (top, left); ids play no part in the classing.
    fn b(top: f64, left: f64) -> (u64, BBox) {
        (0, BBox::new(top, left, top + 10.0, left + 10.0))
    }

    /// One false positive of each kind, and matched hypotheses are never counted.
    #[test]
    fn classes_by_the_most_overlapped_object() {
        let objects = [b(0.0, 0.0), b(50.0, 50.0)];
        let hypotheses = [
            b(0.0, 0.0),     // matched to object 0
            b(0.0, 2.0),     // a second box on object 0: duplicate
            b(50.0, 56.0),   // IoU 0.25 with missed object 1: near miss
            b(100.0, 100.0), // on background
        ];
        let mut kinds = FalsePositiveKinds::default();
        kinds.add_frame(
            &objects,
            &hypotheses,
            &[true, false],
            &[true, false, false, false],
        );
        assert_eq!(
            kinds,
            FalsePositiveKinds {
                duplicate: 1,
                near_miss: 1,
                no_overlap: 1
            }
        );
        assert_eq!(kinds.total(), 3);
    }

    /// Overlapping a matched and a missed object, the larger IoU decides.
    #[test]
    fn the_larger_overlap_decides() {
        let objects = [b(0.0, 0.0), b(0.0, 12.0)];
        let mut kinds = FalsePositiveKinds::default();
        // IoU 1/3 with object 0 (matched), 3/17 with object 1 (missed): duplicate.
        kinds.add_frame(&objects, &[b(0.0, 5.0)], &[true, false], &[false]);
        // IoU 3/17 with object 0, 1/3 with object 1: near miss.
        kinds.add_frame(&objects, &[b(0.0, 7.0)], &[true, false], &[false]);
        assert_eq!(
            (kinds.duplicate, kinds.near_miss, kinds.no_overlap),
            (1, 1, 0)
        );
    }

    /// A frame without objects makes every hypothesis a no-overlap false positive.
    #[test]
    fn no_objects_means_no_overlap() {
        let mut kinds = FalsePositiveKinds::default();
        kinds.add_frame(&[], &[b(0.0, 0.0), b(5.0, 5.0)], &[], &[false, false]);
        assert_eq!(kinds.no_overlap, 2);
        assert_eq!(kinds.total(), 2);
    }
}
