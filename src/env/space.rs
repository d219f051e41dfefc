//! Observation and action spaces (Gymnasium's `Discrete` and `Box`).

use ndarray::ArrayView3;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// A space of valid observations or actions, as in Gymnasium.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Space {
    /// `Discrete(n)`: the integers `0..n`.
    Discrete {
        /// Number of actions.
        n: usize,
    },
    /// A `uint8` image box: every element in `[low, high]`, with this exact shape.
    ImageBox {
        /// Shape `(H, W, C)`.
        shape: [usize; 3],
        /// Smallest allowed value (0 for images).
        low: u8,
        /// Largest allowed value (255 for images).
        high: u8,
    },
}

impl Space {
    /// An RGB image space of `h × w × 3` bytes in `[0, 255]`.
    pub fn rgb(h: usize, w: usize) -> Self {
        Space::ImageBox {
            shape: [h, w, 3],
            low: 0,
            high: 255,
        }
    }

    /// An image space with `c` channels.
    pub fn image(h: usize, w: usize, c: usize) -> Self {
        Space::ImageBox {
            shape: [h, w, c],
            low: 0,
            high: 255,
        }
    }

    /// Number of actions of a `Discrete` space, `None` for boxes.
    pub fn n(&self) -> Option<usize> {
        match self {
            Space::Discrete { n } => Some(*n),
            Space::ImageBox { .. } => None,
        }
    }

    /// Shape of an image box, `None` for `Discrete`.
    pub fn shape(&self) -> Option<[usize; 3]> {
        match self {
            Space::ImageBox { shape, .. } => Some(*shape),
            Space::Discrete { .. } => None,
        }
    }

    /// Whether `action` is a member of this (discrete) space.
    pub fn contains_action(&self, action: usize) -> bool {
        matches!(self, Space::Discrete { n } if action < *n)
    }

    /// Whether `obs` is a member of this (image) space: same shape, values within bounds.
    pub fn contains_obs(&self, obs: ArrayView3<'_, u8>) -> bool {
        match self {
            Space::ImageBox { shape, low, high } => {
                obs.shape() == shape.as_slice()
                    && (*low == 0 && *high == 255 || obs.iter().all(|v| v >= low && v <= high))
            }
            Space::Discrete { .. } => false,
        }
    }

    /// A uniformly random action of a `Discrete` space (0 for other spaces).
    pub fn sample_action<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        match self {
            Space::Discrete { n } if *n > 0 => rng.gen_range(0..*n),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array3;

    #[test]
    fn discrete_contains() {
        let s = Space::Discrete { n: 6 };
        assert!(s.contains_action(0) && s.contains_action(5));
        assert!(!s.contains_action(6));
    }

    #[test]
    fn image_box_contains_checks_shape() {
        let s = Space::rgb(4, 5);
        assert!(s.contains_obs(Array3::<u8>::zeros((4, 5, 3)).view()));
        assert!(!s.contains_obs(Array3::<u8>::zeros((5, 4, 3)).view()));
        let narrow = Space::ImageBox {
            shape: [1, 1, 1],
            low: 1,
            high: 2,
        };
        assert!(!narrow.contains_obs(Array3::<u8>::zeros((1, 1, 1)).view()));
    }
}
