//! The SILOT paper's synthetic videos as environments: [`ScatteredMnist`] (white MNIST digits
//! on 48×48) and [`ScatteredShapes`] (coloured shapes on 96×96), with exact ground truth.
//!
//! Each episode is one video: `reset` samples the objects (count, appearance, non-overlapping
//! placement, random direction at a fixed speed) and returns frame 0; each `step` (the action
//! space is `Discrete(1)`, actions are ignored) moves every object with exact reflective
//! bouncing and returns the next frame; the step that returns frame `episode_length − 1` is
//! truncated. `info.objects` holds the ground-truth boxes of the returned frame, ids = object
//! index (stable in the episode). Generation follows the authors' code (dps `PatchesDataset`),
//! see `shared/design/silot-reference.md` §7.
//!
//! Files: [`motion`] (placement, velocities, bouncing), [`shapes`] (the five sprites and six
//! colours), [`render`] (drawing, ground-truth boxes), [`mnist_data`] (digit files and splits),
//! [`video`] (the env shell), [`scattered_mnist`], [`scattered_shapes`].

pub mod mnist_data;
pub mod motion;
pub mod render;
pub mod scattered_mnist;
pub mod scattered_shapes;
pub mod shapes;
pub mod video;

pub use mnist_data::{MnistDigits, Split};
pub use scattered_mnist::{MnistScenes, ScatteredMnist, ScatteredMnistConfig};
pub use scattered_shapes::{ScatteredShapes, ScatteredShapesConfig, ShapeScenes};
pub use shapes::{Colour, Shape, COLOURS};
pub use video::{SceneObject, SceneSampler, VideoEnv};

use crate::error::{Error, Result};

/// A config error for the table `[env.<id>]`.
fn config_error(id: &str, msg: String) -> Error {
    Error::Config {
        path: format!("[env.{id}]"),
        msg,
    }
}

/// Validate `min_objects`/`max_objects` against what the frame can hold.
///
/// Each object placed after the first adds at least `area − max_overlap` new pixels to the
/// covered area (its overlap with earlier boxes is at most `max_overlap`), so `n` objects of at
/// least `smallest × smallest` pixels need `a + (n − 1)(a − max_overlap) ≤ H·W`.
fn check_counts(
    id: &str,
    min: usize,
    max: usize,
    (h, w): (usize, usize),
    smallest: usize,
    max_overlap: f64,
) -> Result<()> {
    if h > crate::env::MAX_FRAME_SIDE || w > crate::env::MAX_FRAME_SIDE {
        return Err(config_error(
            id,
            format!(
                "`height` × `width` = {h}×{w} is larger than the {0}×{0} frames envs support",
                crate::env::MAX_FRAME_SIDE
            ),
        ));
    }
    if min > max {
        return Err(config_error(
            id,
            format!("`min_objects` = {min} is larger than `max_objects` = {max}"),
        ));
    }
    if let Some(fits) = most_objects((h, w), smallest, max_overlap) {
        if max > fits {
            return Err(config_error(
                id,
                format!(
                    "`max_objects` = {max} objects cannot be placed in a {h}×{w} frame with \
                     `max_overlap` = {max_overlap} (at most {fits} fit); lower `max_objects`"
                ),
            ));
        }
    }
    Ok(())
}

/// The most objects of at least `smallest × smallest` pixels [`check_counts`] lets a frame hold
/// (`None`: no bound, the overlap allowed covers a whole object).
fn most_objects((h, w): (usize, usize), smallest: usize, max_overlap: f64) -> Option<usize> {
    let area = (smallest * smallest) as f64;
    (area > max_overlap).then(|| (1.0 + ((h * w) as f64 - area) / (area - max_overlap)) as usize)
}

/// `cfg` with exactly `n` objects per video (`min_objects = max_objects = n`), validated; the
/// error names the count and the range the frame allows. For scoring per object count.
fn exactly<C: Clone>(
    id: &str,
    cfg: &C,
    n: usize,
    set: impl FnOnce(&mut C),
    validate: impl Fn(&C) -> Result<()>,
    most: Option<usize>,
) -> Result<C> {
    let mut c = cfg.clone();
    set(&mut c);
    if n == 0 || validate(&c).is_err() {
        let range = most.map_or("1 or more".to_string(), |m| format!("1..={m}"));
        return Err(config_error(
            id,
            format!("{n} objects per video: this env's frames take {range}"),
        ));
    }
    Ok(c)
}

impl ScatteredMnistConfig {
    /// This config with exactly `n` digits per video; an error naming the allowed range when
    /// `n` is 0 or more than the frame holds.
    pub fn with_objects(&self, n: usize) -> Result<Self> {
        let most = most_objects(
            (self.height, self.width),
            mnist_data::DIGIT_SIZE,
            self.max_overlap,
        );
        exactly(
            ScatteredMnist::ID,
            self,
            n,
            |c| (c.min_objects, c.max_objects) = (n, n),
            Self::validate,
            most,
        )
    }
}

impl ScatteredShapesConfig {
    /// This config with exactly `n` shapes per video; an error naming the allowed range when
    /// `n` is 0 or more than the frame holds.
    pub fn with_objects(&self, n: usize) -> Result<Self> {
        let smallest = if self.size_jitter {
            self.object_size.div_ceil(2)
        } else {
            self.object_size
        };
        let most = most_objects((self.height, self.width), smallest, self.max_overlap);
        exactly(
            ScatteredShapes::ID,
            self,
            n,
            |c| (c.min_objects, c.max_objects) = (n, n),
            Self::validate,
            most,
        )
    }
}

/// Validate `speed`, `max_overlap` and `episode_length`.
fn check_motion(id: &str, speed: f64, max_overlap: f64, episode_length: usize) -> Result<()> {
    if !(speed.is_finite() && speed >= 0.0) {
        return Err(config_error(
            id,
            format!("`speed` = {speed} must be a finite number >= 0"),
        ));
    }
    if !(max_overlap.is_finite() && max_overlap >= 0.0) {
        return Err(config_error(
            id,
            format!("`max_overlap` = {max_overlap} must be a finite number >= 0"),
        ));
    }
    if episode_length == 0 {
        return Err(config_error(
            id,
            "`episode_length` must be at least 1".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_the_paper_values() {
        let m = ScatteredMnistConfig::default();
        m.validate().unwrap();
        assert_eq!(
            (
                m.height,
                m.width,
                m.min_objects,
                m.max_objects,
                m.speed,
                m.episode_length
            ),
            (48, 48, 1, 6, 2.0, 8)
        );
        let s = ScatteredShapesConfig::default();
        s.validate().unwrap();
        assert_eq!(
            (
                s.height,
                s.object_size,
                s.max_objects,
                s.speed,
                s.max_overlap
            ),
            (96, 14, 10, 5.0, 98.0)
        );
        // The paper's largest settings are accepted.
        ScatteredMnistConfig {
            max_objects: 12,
            ..m.clone()
        }
        .validate()
        .unwrap();
        ScatteredShapesConfig {
            min_objects: 21,
            max_objects: 35,
            ..s.clone()
        }
        .validate()
        .unwrap();
    }

    #[test]
    fn a_count_override_sets_both_bounds_and_names_the_range() {
        let m = ScatteredMnistConfig::default().with_objects(12).unwrap();
        assert_eq!((m.min_objects, m.max_objects), (12, 12));
        // 48×48, 14×14 digits, overlap ≤ 98: 1 + (2304 − 196) / 98 = 22.5 → 22 fit.
        ScatteredMnistConfig::default().with_objects(22).unwrap();
        for n in [0, 23] {
            let e = msg(ScatteredMnistConfig::default().with_objects(n).unwrap_err());
            assert!(
                e.starts_with("[env.scattered_mnist]") && e.contains(&format!("{n} objects")),
                "{e}"
            );
            assert!(e.contains("1..=22"), "{e}");
        }
        let s = ScatteredShapesConfig::default().with_objects(35).unwrap();
        assert_eq!((s.min_objects, s.max_objects, s.height), (35, 35, 96));
        // The default shapes (7-px smallest, overlap up to 98 px) fit any count; without
        // overlap 96x96 frames hold 1 + (9216 - 49) / 49 = 188 of them.
        ScatteredShapesConfig::default().with_objects(5000).unwrap();
        let tight = ScatteredShapesConfig {
            max_overlap: 0.0,
            ..ScatteredShapesConfig::default()
        };
        let e = msg(tight.with_objects(5000).unwrap_err());
        assert!(e.contains("5000 objects") && e.contains("1..=188"), "{e}");
    }

    fn msg(e: Error) -> String {
        match e {
            Error::Config { path, msg } => format!("{path}: {msg}"),
            other => panic!("expected a config error, got {other}"),
        }
    }

    #[test]
    fn invalid_values_name_the_key() {
        let m = ScatteredMnistConfig::default();
        let cases: Vec<(ScatteredMnistConfig, &str)> = vec![
            (
                ScatteredMnistConfig {
                    min_objects: 7,
                    ..m.clone()
                },
                "`min_objects`",
            ),
            (
                ScatteredMnistConfig {
                    height: 10,
                    ..m.clone()
                },
                "`height`",
            ),
            (
                ScatteredMnistConfig {
                    max_objects: 40,
                    ..m.clone()
                },
                "`max_objects`",
            ),
            (
                ScatteredMnistConfig {
                    speed: f64::NAN,
                    ..m.clone()
                },
                "`speed`",
            ),
            (
                ScatteredMnistConfig {
                    max_overlap: -1.0,
                    ..m.clone()
                },
                "`max_overlap`",
            ),
            (
                ScatteredMnistConfig {
                    episode_length: 0,
                    ..m.clone()
                },
                "`episode_length`",
            ),
            (
                ScatteredMnistConfig {
                    mnist_path: Some("a".into()),
                    mnist_dir: Some("b".into()),
                    ..m.clone()
                },
                "`mnist_dir`",
            ),
        ];
        for (cfg, key) in cases {
            let text = msg(cfg.validate().unwrap_err());
            assert!(
                text.contains(key) && text.starts_with("[env.scattered_mnist]"),
                "{text}"
            );
        }
        let s = ScatteredShapesConfig::default();
        let text = msg(ScatteredShapesConfig {
            object_size: 100,
            ..s.clone()
        }
        .validate()
        .unwrap_err());
        assert!(text.contains("`object_size`"), "{text}");
        let text = msg(ScatteredShapesConfig {
            max_objects: 400,
            size_jitter: false,
            ..s
        }
        .validate()
        .unwrap_err());
        assert!(text.contains("`max_objects`"), "{text}");
    }

    #[test]
    fn configs_parse_from_toml_and_reject_unknown_keys() {
        let cfg: ScatteredShapesConfig =
            toml::from_str("max_objects = 20\nmin_objects = 11\nsize_jitter = false").unwrap();
        assert_eq!(
            (
                cfg.min_objects,
                cfg.max_objects,
                cfg.size_jitter,
                cfg.height
            ),
            (11, 20, false, 96)
        );
        assert!(toml::from_str::<ScatteredMnistConfig>("max_digits = 3").is_err());
        let cfg: ScatteredMnistConfig = toml::from_str("mnist_dir = \"/data/mnist\"").unwrap();
        assert_eq!(
            cfg.mnist_dir.as_deref(),
            Some(std::path::Path::new("/data/mnist"))
        );
    }
}
