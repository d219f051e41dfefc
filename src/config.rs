//! Experiment configs: one TOML file per experiment in `envs/`, parsed into serde structs that
//! reject unknown keys. The `[env]` table is the env layer's ([`crate::env::spec::EnvSpec`]);
//! this module adds the model, training and evaluation sections. The files are embedded in the
//! binary, so `--env space_invaders` works from any directory; a path to a TOML file works too,
//! and such a file may start from another with `base = "other.toml"`
//! ([`ExperimentConfig::from_file`]).
//!
//! ```toml
//! [env]
//! id = "space_invaders"
//! [env.atari]            # exactly one of: atari, scattered_mnist, scattered_shapes
//! game = "space_invaders"
//! preset = "paper"
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::env::registry;
use crate::error::{Error, Result};

/// The `[env]` section: the env spec, which lives in the env layer.
pub use crate::env::spec::EnvSpec as EnvSection;

/// Load the experiment for `id_or_path`: an embedded id, a bundled Atari game, or a TOML path
/// ([`registry::source`]).
pub fn load_experiment(id_or_path: &str) -> Result<ExperimentConfig> {
    let src = registry::source(id_or_path)?;
    ExperimentConfig::from_toml(&src.text, &src.origin)
}

/// The `[eval]` section: metric settings and the ConnComp baseline's thresholds.
///
/// ```toml
/// [eval.metrics]
/// obj_threshold = 0.5
/// [eval.conncomp]
/// cc_threshold = 0.5
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalSection {
    /// Metric settings (thresholds, quirk flags).
    #[serde(default)]
    pub metrics: crate::eval::EvalSettings,
    /// ConnComp baseline tracker thresholds.
    #[serde(default)]
    pub conncomp: crate::baseline::ConnCompConfig,
}

/// A whole experiment file: the env, and (for model experiments) model/train/eval sections.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentConfig {
    /// The environment.
    pub env: crate::env::spec::EnvSpec,
    /// SILOT model settings (experiments that train a model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<crate::model::config::ModelConfig>,
    /// Training settings (with `[model]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub train: Option<crate::model::config::TrainConfig>,
    /// Evaluation settings (defaults when absent).
    #[serde(default)]
    pub eval: EvalSection,
}

impl ExperimentConfig {
    /// Parse TOML text; `origin` names the file in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Self> {
        let cfg: ExperimentConfig = registry::parse_config(text, origin)?;
        cfg.env.validate(origin)?;
        let named = |e: Error| Error::Config {
            path: origin.into(),
            msg: format!("[eval]: {e}"),
        };
        cfg.eval.metrics.validate().map_err(named)?;
        cfg.eval.conncomp.validate().map_err(named)?;
        if cfg.model.is_some() || cfg.train.is_some() {
            cfg.run_config(origin)?;
        }
        Ok(cfg)
    }

    /// The `[model]` + `[train]` sections as a validated [`RunConfig`](crate::model::config::RunConfig);
    /// an error if the experiment has no `[model]` section.
    pub fn run_config(&self, origin: &str) -> Result<crate::model::config::RunConfig> {
        let model = self.model.clone().ok_or_else(|| Error::Config {
            path: origin.into(),
            msg: format!("env `{}` has no [model] section: pick an experiment with one (scattered_mnist, scattered_shapes, space_invaders, asteroids, smoke) or add it", self.env.id),
        })?;
        let run = crate::model::config::RunConfig {
            model,
            train: self.train.clone().unwrap_or_default(),
        };
        run.validate().map_err(|e| Error::Config {
            path: origin.into(),
            msg: e.to_string(),
        })?;
        self.check_stop_criterion(&run.train, origin)?;
        Ok(run)
    }

    /// Whether the env's clips come with exact ground truth (the synthetic envs), which the
    /// `mota` stopping criterion needs.
    pub fn has_exact_ground_truth(&self) -> bool {
        self.env.scattered_mnist.is_some() || self.env.scattered_shapes.is_some()
    }

    /// `train`'s stopping criterion can run on this env: `mota` needs exact ground truth
    /// ([`Self::require_ground_truth`]).
    pub fn check_stop_criterion(
        &self,
        train: &crate::model::config::TrainConfig,
        origin: &str,
    ) -> Result<()> {
        if train.stop_criterion == crate::model::config::StopCriterion::Mota {
            self.require_ground_truth(origin)?;
        }
        Ok(())
    }

    /// An error naming the env and the fix (`origin` names the file) unless the env has exact
    /// ground truth ([`Self::has_exact_ground_truth`]), as the `mota` stopping criterion needs.
    pub fn require_ground_truth(&self, origin: &str) -> Result<()> {
        if self.has_exact_ground_truth() {
            return Ok(());
        }
        Err(Error::Config {
            path: origin.into(),
            msg: format!(
                "[train] stop_criterion = \"mota\" scores validation clips against exact ground \
                 truth, which only the synthetic envs (Scattered MNIST, Scattered Shapes) have; \
                 env `{}` has none (Atari boxes are ConnComp labels, which training may not \
                 read). Use stop_criterion = \"reconstruction_loss\" (the reference's Atari \
                 criterion)",
                self.env.id
            ),
        })
    }

    /// Load a TOML file from disk. A file may start from another with a top-level
    /// `base = "other.toml"` (a path relative to the file): its keys are laid over the base's,
    /// tables merged key by key, any other value replacing the base's.
    /// ([`registry::read_toml_file`]).
    pub fn from_file(path: &Path) -> Result<Self> {
        let text = registry::read_toml_file(path)?;
        Self::from_toml(&text, &path.display().to_string())
    }

    /// Serialise back to TOML (the resolved config written next to results).
    pub fn to_toml(&self) -> Result<String> {
        toml::to_string_pretty(self)
            .map_err(|e| Error::Invalid(format!("cannot serialise config: {e}")))
    }
}
