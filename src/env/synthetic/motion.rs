//! Object motion of the synthetic videos: placement by rejection sampling with a cumulative
//! overlap limit, random velocities, and exact reflective bouncing against the frame walls.
//!
//! Reference (dps `_sample_patch_locations`, `Rectangle.update`): objects are placed one after
//! the other at integer top-left corners drawn uniformly so that the box lies inside the frame;
//! a candidate is rejected when the **sum** of its overlap areas with the boxes already placed
//! exceeds `max_overlap` pixels. Each object gets up to [`MAX_TRIES_PER_OBJECT`] candidates; if
//! one object cannot be placed the whole set is restarted, up to [`MAX_RESTARTS`] times.

use rand::Rng;
use rand_distr::StandardNormal;

/// Candidate positions per object before the whole set is restarted (reference: 1000).
pub const MAX_TRIES_PER_OBJECT: usize = 1000;
/// Restarts of the whole set before placement gives up (reference: 10 000).
pub const MAX_RESTARTS: usize = 10_000;

/// An integer box of `height × width` pixels whose top-left pixel is `(top, left)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelBox {
    /// Row of the top-left pixel.
    pub top: usize,
    /// Column of the top-left pixel.
    pub left: usize,
    /// Height in pixels.
    pub height: usize,
    /// Width in pixels.
    pub width: usize,
}

impl PixelBox {
    /// Number of pixels shared by `self` and `other`.
    pub fn overlap_area(&self, other: &PixelBox) -> usize {
        let rows = (self.top + self.height)
            .min(other.top + other.height)
            .saturating_sub(self.top.max(other.top));
        let cols = (self.left + self.width)
            .min(other.left + other.width)
            .saturating_sub(self.left.max(other.left));
        rows * cols
    }
}

/// Place `n` boxes in a `frame_h × frame_w` frame (see the module doc for the rule).
///
/// `size` draws each candidate's `(height, width)`; it is called inside the rejection loop, once
/// per candidate, as the reference does for Scattered Shapes' size jitter. A candidate larger
/// than the frame counts as a rejected try. Returns `None` when the set could not be placed
/// within [`MAX_RESTARTS`] restarts.
pub fn place_boxes<R, F>(
    rng: &mut R,
    n: usize,
    frame_h: usize,
    frame_w: usize,
    max_overlap: f64,
    mut size: F,
) -> Option<Vec<PixelBox>>
where
    R: Rng + ?Sized,
    F: FnMut(&mut R) -> (usize, usize),
{
    let mut boxes = Vec::with_capacity(n);
    for _ in 0..=MAX_RESTARTS {
        boxes.clear();
        while boxes.len() < n {
            match place_one(rng, &boxes, frame_h, frame_w, max_overlap, &mut size) {
                Some(b) => boxes.push(b),
                None => break,
            }
        }
        if boxes.len() == n {
            return Some(boxes);
        }
    }
    None
}

/// Up to [`MAX_TRIES_PER_OBJECT`] candidates for one more box next to `placed`.
fn place_one<R, F>(
    rng: &mut R,
    placed: &[PixelBox],
    frame_h: usize,
    frame_w: usize,
    max_overlap: f64,
    size: &mut F,
) -> Option<PixelBox>
where
    R: Rng + ?Sized,
    F: FnMut(&mut R) -> (usize, usize),
{
    for _ in 0..MAX_TRIES_PER_OBJECT {
        let (height, width) = size(rng);
        if height > frame_h || width > frame_w {
            continue;
        }
        let candidate = PixelBox {
            top: rng.gen_range(0..=frame_h - height),
            left: rng.gen_range(0..=frame_w - width),
            height,
            width,
        };
        let mut total = 0usize;
        let fits = placed.iter().all(|b| {
            total += candidate.overlap_area(b);
            total as f64 <= max_overlap
        });
        if fits {
            return Some(candidate);
        }
    }
    None
}

/// A velocity of magnitude `speed` in a uniformly random direction (a normalised Gaussian
/// vector), as `(vy, vx)` in pixels per frame.
pub fn random_velocity<R: Rng + ?Sized>(rng: &mut R, speed: f64) -> (f64, f64) {
    loop {
        let y: f64 = rng.sample(StandardNormal);
        let x: f64 = rng.sample(StandardNormal);
        let norm = (y * y + x * x).sqrt();
        if norm > 1e-12 {
            return (speed * y / norm, speed * x / norm);
        }
    }
}

/// One coordinate after moving from `p` by `v` inside `[0, range]` with mirror reflection at
/// both ends, any number of times within the step. Returns the new position and velocity
/// (same magnitude, sign flipped after an odd number of reflections).
///
/// The path is unfolded: `x = p + v` is mapped back by the triangle wave of period `2·range`.
/// A zero `range` (box as large as the frame) pins the coordinate at 0.
pub fn reflect(p: f64, v: f64, range: f64) -> (f64, f64) {
    if range <= 0.0 {
        return (0.0, v);
    }
    let m = (p + v).rem_euclid(2.0 * range);
    if m <= range {
        (m, v)
    } else {
        (2.0 * range - m, -v)
    }
}

/// A moving box: continuous top-left position, integer size, velocity in pixels per frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Top edge (continuous, in `[0, frame_h - height]`).
    pub top: f64,
    /// Left edge (continuous, in `[0, frame_w - width]`).
    pub left: f64,
    /// Height of the drawn box in pixels.
    pub height: usize,
    /// Width of the drawn box in pixels.
    pub width: usize,
    /// Vertical velocity (pixels per frame, down is positive).
    pub vy: f64,
    /// Horizontal velocity (pixels per frame, right is positive).
    pub vx: f64,
}

impl Body {
    /// A body at an integer placement with velocity `(vy, vx)`.
    pub fn new(placed: PixelBox, (vy, vx): (f64, f64)) -> Self {
        Body {
            top: placed.top as f64,
            left: placed.left as f64,
            height: placed.height,
            width: placed.width,
            vy,
            vx,
        }
    }

    /// Advance one frame, bouncing off the walls of a `frame_h × frame_w` frame.
    pub fn advance(&mut self, frame_h: usize, frame_w: usize) {
        let range_y = frame_h.saturating_sub(self.height) as f64;
        let range_x = frame_w.saturating_sub(self.width) as f64;
        (self.top, self.vy) = reflect(self.top, self.vy, range_y);
        (self.left, self.vx) = reflect(self.left, self.vx, range_x);
    }

    /// Row of the top-left drawn pixel: `int(top)` (truncation, as the reference draws).
    pub fn draw_top(&self) -> usize {
        self.top as usize
    }

    /// Column of the top-left drawn pixel: `int(left)`.
    pub fn draw_left(&self) -> usize {
        self.left as usize
    }

    /// Magnitude of the velocity.
    pub fn speed(&self) -> f64 {
        self.vy.hypot(self.vx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn overlap_area_known_values() {
        let a = PixelBox {
            top: 0,
            left: 0,
            height: 14,
            width: 14,
        };
        let b = PixelBox {
            top: 7,
            left: 7,
            height: 14,
            width: 14,
        };
        let c = PixelBox {
            top: 14,
            left: 0,
            height: 14,
            width: 14,
        };
        assert_eq!(a.overlap_area(&b), 49);
        assert_eq!(b.overlap_area(&a), 49);
        assert_eq!(a.overlap_area(&c), 0);
        assert_eq!(a.overlap_area(&a), 196);
    }

    #[test]
    fn reflect_known_values() {
        assert_eq!(reflect(3.0, 2.0, 34.0), (5.0, 2.0));
        assert_eq!(reflect(33.0, 2.0, 34.0), (33.0, -2.0)); // 35 -> 34 - 1
        assert_eq!(reflect(1.0, -2.0, 34.0), (1.0, 2.0)); // -1 -> 1
        assert_eq!(reflect(1.0, 9.0, 4.0), (2.0, 9.0)); // 10: 4 -> 0 -> 2, two reflections
        assert_eq!(reflect(0.0, 5.0, 0.0), (0.0, 5.0));
    }

    #[test]
    fn placement_respects_cumulative_overlap() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..50 {
            let boxes = place_boxes(&mut rng, 12, 48, 48, 98.0, |_| (14, 14)).expect("placed");
            assert_eq!(boxes.len(), 12);
            for (i, b) in boxes.iter().enumerate() {
                assert!(b.top + 14 <= 48 && b.left + 14 <= 48);
                let total: usize = boxes[..i].iter().map(|p| b.overlap_area(p)).sum();
                assert!(total <= 98, "box {i} overlaps {total} px");
            }
        }
    }

    #[test]
    fn impossible_placement_gives_none() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        // Two 14x14 boxes in a 14x14 frame overlap by 196 > 0 px.
        assert!(place_boxes(&mut rng, 2, 14, 14, 0.0, |_| (14, 14)).is_none());
        // Boxes larger than the frame are never placed.
        assert!(place_boxes(&mut rng, 1, 10, 10, 98.0, |_| (11, 11)).is_none());
    }

    #[test]
    fn velocity_has_the_speed_and_covers_directions() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut quadrants = [0usize; 4];
        for _ in 0..400 {
            let (vy, vx) = random_velocity(&mut rng, 5.0);
            assert!((vy.hypot(vx) - 5.0).abs() < 1e-9);
            quadrants[(vy > 0.0) as usize * 2 + (vx > 0.0) as usize] += 1;
        }
        assert!(quadrants.iter().all(|&q| q > 60), "{quadrants:?}");
    }

    proptest! {
        #[test]
        fn reflect_stays_inside_and_keeps_speed(p in 0.0f64..34.0, v in -80.0f64..80.0,
                                                range in 0.5f64..40.0) {
            let p = p.min(range);
            let (q, w) = reflect(p, v, range);
            prop_assert!((0.0..=range).contains(&q));
            prop_assert_eq!(w.abs(), v.abs());
            // Small steps: either no wall was touched or exactly one reflection happened.
            if v.abs() < range {
                let x = p + v;
                let expected = if x < 0.0 { -x } else if x > range { 2.0 * range - x } else { x };
                prop_assert!((q - expected).abs() < 1e-9);
            }
        }
    }
}
