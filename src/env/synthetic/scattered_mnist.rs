//! Scattered MNIST (reference env `moving_mnist`, dps `VisualArithmeticDataset`): white 14×14
//! MNIST digits bouncing on a black 48×48 frame.

use std::path::PathBuf;
use std::sync::Arc;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

use super::mnist_data::{MnistDigits, Split, DIGIT_SIZE};
use super::motion::{place_boxes, random_velocity, Body, MAX_RESTARTS};
use super::render::{Extent, Sprite};
use super::video::{SceneObject, SceneSampler, VideoEnv};
use super::{check_counts, config_error};

/// Config of [`ScatteredMnist`]; the defaults are the paper's training setting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScatteredMnistConfig {
    /// Frame height in pixels (default 48).
    pub height: usize,
    /// Frame width in pixels (default 48).
    pub width: usize,
    /// Fewest digits per video (default 1).
    pub min_objects: usize,
    /// Most digits per video (default 6; the paper also trains with 12); the count is uniform
    /// on `min_objects..=max_objects`.
    pub max_objects: usize,
    /// Digit speed in pixels per frame (default 2).
    pub speed: f64,
    /// Largest summed overlap (pixels) of a new digit's box with the boxes placed before it
    /// (default 98 = half a digit box).
    pub max_overlap: f64,
    /// Frames per episode including the reset frame (default 8, the paper's clip length).
    pub episode_length: usize,
    /// A compact digit file (as written by `scripts/build_mnist.py`) to use instead of the
    /// embedded digits (default: unset).
    pub mnist_path: Option<PathBuf>,
    /// A folder of standard MNIST IDX files to use instead of the embedded digits (default: unset).
    pub mnist_dir: Option<PathBuf>,
}

impl Default for ScatteredMnistConfig {
    fn default() -> Self {
        ScatteredMnistConfig {
            height: 48,
            width: 48,
            min_objects: 1,
            max_objects: 6,
            speed: 2.0,
            max_overlap: 98.0,
            episode_length: 8,
            mnist_path: None,
            mnist_dir: None,
        }
    }
}

impl ScatteredMnistConfig {
    /// Check every key; the error names the key and the allowed range.
    pub fn validate(&self) -> Result<()> {
        let err = |msg: String| Err(config_error(ScatteredMnist::ID, msg));
        if self.height < DIGIT_SIZE || self.width < DIGIT_SIZE {
            return err(format!(
                "`height` × `width` = {}×{} is smaller than a {DIGIT_SIZE}×{DIGIT_SIZE} digit",
                self.height, self.width
            ));
        }
        if self.mnist_path.is_some() && self.mnist_dir.is_some() {
            return err("set at most one of `mnist_path` and `mnist_dir`".into());
        }
        check_counts(
            ScatteredMnist::ID,
            self.min_objects,
            self.max_objects,
            (self.height, self.width),
            DIGIT_SIZE,
            self.max_overlap,
        )?;
        super::check_motion(
            ScatteredMnist::ID,
            self.speed,
            self.max_overlap,
            self.episode_length,
        )
    }
}

/// Scattered MNIST as an [`Env`](crate::env::Env).
pub type ScatteredMnist = VideoEnv<MnistScenes>;

impl ScatteredMnist {
    /// The env id.
    pub const ID: &'static str = "scattered_mnist";

    /// Build the env for the digits of `split`, loading them as `cfg` says.
    pub fn new(cfg: ScatteredMnistConfig, split: Split) -> Result<Self> {
        cfg.validate()?;
        let digits = match (&cfg.mnist_path, &cfg.mnist_dir) {
            (Some(p), _) => Arc::new(MnistDigits::from_compact_file(p)?),
            (None, Some(d)) => Arc::new(MnistDigits::from_idx_dir(d)?),
            (None, None) => MnistDigits::embedded()?,
        };
        Self::with_digits(cfg, digits, split)
    }

    /// Build the env on already loaded digits (shared between envs).
    pub fn with_digits(
        cfg: ScatteredMnistConfig,
        digits: Arc<MnistDigits>,
        split: Split,
    ) -> Result<Self> {
        cfg.validate()?;
        let pool = digits.split_indices(split);
        if pool.is_empty() {
            let source = cfg
                .mnist_path
                .clone()
                .or(cfg.mnist_dir.clone())
                .unwrap_or_else(|| "<embedded:assets/mnist_digits.bin>".into());
            return Err(Error::CorruptData {
                path: source,
                msg: format!("no digits in split {split:?}: every class needs at least 10 digits"),
            });
        }
        Ok(VideoEnv::from_sampler(MnistScenes { cfg, digits, pool }))
    }
}

/// Scene sampler of [`ScatteredMnist`].
pub struct MnistScenes {
    cfg: ScatteredMnistConfig,
    digits: Arc<MnistDigits>,
    /// Indices into `digits` of this split.
    pool: Vec<usize>,
}

impl MnistScenes {
    /// The config.
    pub fn config(&self) -> &ScatteredMnistConfig {
        &self.cfg
    }

    /// Number of digits this env draws from.
    pub fn pool_size(&self) -> usize {
        self.pool.len()
    }
}

impl SceneSampler for MnistScenes {
    fn id(&self) -> &'static str {
        ScatteredMnist::ID
    }

    fn frame_size(&self) -> (usize, usize) {
        (self.cfg.height, self.cfg.width)
    }

    fn episode_length(&self) -> usize {
        self.cfg.episode_length
    }

    fn sample(&mut self, rng: &mut ChaCha8Rng) -> Result<Vec<SceneObject>> {
        let c = &self.cfg;
        let n = rng.gen_range(c.min_objects..=c.max_objects);
        let chosen: Vec<usize> = (0..n)
            .map(|_| self.pool[rng.gen_range(0..self.pool.len())])
            .collect();
        let boxes = place_boxes(rng, n, c.height, c.width, c.max_overlap, |_| {
            (DIGIT_SIZE, DIGIT_SIZE)
        })
        .ok_or_else(|| placement_error(n, c.max_overlap))?;
        let mut objects = Vec::with_capacity(n);
        for (&digit, placed) in chosen.iter().zip(boxes) {
            let image = self.digits.image(digit);
            let alpha: Vec<f32> = image.iter().map(|&v| v as f32 / 255.0).collect();
            // An all-black digit has no extent; it is drawn as nothing and gets no GT box.
            let extent = Extent::of_patch(image, DIGIT_SIZE, DIGIT_SIZE).unwrap_or(Extent {
                y0: 0.0,
                y1: 0.0,
                x0: 0.0,
                x1: 0.0,
            });
            objects.push(SceneObject {
                sprite: Sprite {
                    height: DIGIT_SIZE,
                    width: DIGIT_SIZE,
                    alpha: alpha.into(),
                    colour: [255.0; 3],
                },
                extent,
                body: Body::new(placed, random_velocity(rng, c.speed)),
            });
        }
        Ok(objects)
    }
}

fn placement_error(n: usize, max_overlap: f64) -> Error {
    Error::Invalid(format!(
        "{}: could not place {n} digits with `max_overlap` = {max_overlap} after {MAX_RESTARTS} \
         restarts; lower `max_objects` or raise `max_overlap`",
        ScatteredMnist::ID
    ))
}
