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
    let area = (smallest * smallest) as f64;
    if max > 0 && area > max_overlap {
        let fits = 1.0 + ((h * w) as f64 - area) / (area - max_overlap);
        if max as f64 > fits.floor() {
            return Err(config_error(
                id,
                format!(
                    "`max_objects` = {max} objects cannot be placed in a {h}×{w} frame with \
                     `max_overlap` = {max_overlap} (at most {} fit); lower `max_objects`",
                    fits.floor()
                ),
            ));
        }
    }
    Ok(())
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
