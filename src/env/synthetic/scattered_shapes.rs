//! Scattered Shapes (reference env `big_shapes`, dps `RandomShapesDataset`): coloured circles,
//! diamonds, stars, x's and pluses bouncing on a black 96×96 frame.

use std::collections::HashMap;
use std::sync::Arc;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

use super::motion::{place_boxes, random_velocity, Body, MAX_RESTARTS};
use super::render::{Extent, Sprite};
use super::shapes::{rasterise, Shape, COLOURS};
use super::video::{SceneObject, SceneSampler, VideoEnv};
use super::{check_counts, check_motion, config_error};

/// Standard deviation of the relative size jitter (reference `patch_size_std = 0.1`).
pub const SIZE_STD: f64 = 0.1;

/// Config of [`ScatteredShapes`]; the defaults are the paper's smallest training setting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScatteredShapesConfig {
    /// Frame height in pixels (default 96).
    pub height: usize,
    /// Frame width in pixels (default 96).
    pub width: usize,
    /// Fewest shapes per video (default 1; the reference trains on `max − 9 ..= max`).
    pub min_objects: usize,
    /// Most shapes per video (default 10; the paper also trains with 20 and 30).
    pub max_objects: usize,
    /// Nominal side of a shape in pixels (default 14).
    pub object_size: usize,
    /// Jitter each box dimension to `ceil(object_size · max(1 + 0.1·N(0,1), 0.5))`, drawn per
    /// placement candidate (default true, as in the paper-era code).
    pub size_jitter: bool,
    /// Shape speed in pixels per frame (default 5).
    pub speed: f64,
    /// Largest summed overlap (pixels) of a new shape's box with the boxes placed before it
    /// (default 98).
    pub max_overlap: f64,
    /// Frames per episode including the reset frame (default 8, the paper's clip length).
    pub episode_length: usize,
}

impl Default for ScatteredShapesConfig {
    fn default() -> Self {
        ScatteredShapesConfig {
            height: 96,
            width: 96,
            min_objects: 1,
            max_objects: 10,
            object_size: 14,
            size_jitter: true,
            speed: 5.0,
            max_overlap: 98.0,
            episode_length: 8,
        }
    }
}

impl ScatteredShapesConfig {
    /// Check every key; the error names the key and the allowed range.
    pub fn validate(&self) -> Result<()> {
        let id = ScatteredShapes::ID;
        if self.object_size == 0 {
            return Err(config_error(id, "`object_size` must be at least 1".into()));
        }
        if self.height < self.object_size || self.width < self.object_size {
            return Err(config_error(
                id,
                format!(
                    "`height` × `width` = {}×{} is smaller than `object_size` = {}",
                    self.height, self.width, self.object_size
                ),
            ));
        }
        // With jitter a box can shrink to half its size.
        let smallest = if self.size_jitter {
            self.object_size.div_ceil(2)
        } else {
            self.object_size
        };
        check_counts(
            id,
            self.min_objects,
            self.max_objects,
            (self.height, self.width),
            smallest,
            self.max_overlap,
        )?;
        check_motion(id, self.speed, self.max_overlap, self.episode_length)
    }
}

/// Scattered Shapes as an [`Env`](crate::env::Env).
pub type ScatteredShapes = VideoEnv<ShapeScenes>;

impl ScatteredShapes {
    /// The env id.
    pub const ID: &'static str = "scattered_shapes";

    /// Build the env. Shapes have no data split: train, val and test videos differ only by seed.
    pub fn new(cfg: ScatteredShapesConfig) -> Result<Self> {
        cfg.validate()?;
        let s = cfg.object_size;
        let extents = Shape::ALL.map(|shape| Extent::of_patch(&rasterise(shape, s, s), s, s));
        let extents = extents
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                config_error(
                    Self::ID,
                    format!("`object_size` = {s} is too small to draw every shape"),
                )
            })?;
        Ok(VideoEnv::from_sampler(ShapeScenes {
            cfg,
            extents,
            sprites: HashMap::new(),
        }))
    }
}

/// Scene sampler of [`ScatteredShapes`].
pub struct ShapeScenes {
    cfg: ScatteredShapesConfig,
    /// Non-zero extent of each shape at `object_size × object_size`, in [`Shape::ALL`] order.
    extents: Vec<Extent>,
    /// Rasterised alpha per `(shape, height, width)`, filled on first use.
    sprites: HashMap<(Shape, usize, usize), Arc<[f32]>>,
}

impl ShapeScenes {
    /// The config.
    pub fn config(&self) -> &ScatteredShapesConfig {
        &self.cfg
    }

    fn alpha(&mut self, shape: Shape, h: usize, w: usize) -> Arc<[f32]> {
        self.sprites
            .entry((shape, h, w))
            .or_insert_with(|| rasterise(shape, h, w).into())
            .clone()
    }
}

/// One box dimension: `ceil(size · max(1 + 0.1·N(0,1), 0.5))`.
fn jittered<R: Rng + ?Sized>(rng: &mut R, size: usize) -> usize {
    let z: f64 = rng.sample(StandardNormal);
    (size as f64 * (1.0 + SIZE_STD * z).max(0.5)).ceil() as usize
}

impl SceneSampler for ShapeScenes {
    fn id(&self) -> &'static str {
        ScatteredShapes::ID
    }

    fn frame_size(&self) -> (usize, usize) {
        (self.cfg.height, self.cfg.width)
    }

    fn episode_length(&self) -> usize {
        self.cfg.episode_length
    }

    fn sample(&mut self, rng: &mut ChaCha8Rng) -> Result<Vec<SceneObject>> {
        let c = self.cfg.clone();
        let n = rng.gen_range(c.min_objects..=c.max_objects);
        // (colour, shape) uniformly from the 30 combinations, with replacement.
        let kinds: Vec<(usize, usize)> = (0..n)
            .map(|_| {
                (
                    rng.gen_range(0..COLOURS.len()),
                    rng.gen_range(0..Shape::ALL.len()),
                )
            })
            .collect();
        let s = c.object_size;
        let size = |r: &mut ChaCha8Rng| {
            if c.size_jitter {
                (jittered(r, s), jittered(r, s))
            } else {
                (s, s)
            }
        };
        let boxes = place_boxes(rng, n, c.height, c.width, c.max_overlap, size).ok_or_else(|| {
            Error::Invalid(format!(
                "{}: could not place {n} shapes with `max_overlap` = {} after {MAX_RESTARTS} restarts; \
                 lower `max_objects` or raise `max_overlap`",
                ScatteredShapes::ID,
                c.max_overlap
            ))
        })?;
        let mut objects = Vec::with_capacity(n);
        for ((colour, shape), placed) in kinds.into_iter().zip(boxes) {
            let alpha = self.alpha(Shape::ALL[shape], placed.height, placed.width);
            objects.push(SceneObject {
                sprite: Sprite {
                    height: placed.height,
                    width: placed.width,
                    alpha,
                    colour: COLOURS[colour].rgb.map(f32::from),
                },
                extent: self.extents[shape],
                body: Body::new(placed, random_velocity(rng, c.speed)),
            });
        }
        Ok(objects)
    }
}
