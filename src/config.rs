//! Experiment configs: one TOML file per experiment in `envs/`, parsed into serde structs that
//! reject unknown keys. The files are embedded in the binary, so `--env space_invaders` works from
//! any directory; a path to a TOML file works too, and such a file may start from another with
//! `base = "other.toml"` ([`ExperimentConfig::from_file`]).
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

use crate::error::{Error, Result};

/// The `[env]` section: an id and exactly one env kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvSection {
    /// Env id, e.g. `space_invaders`.
    pub id: String,
    /// Atari through ALE.
    #[cfg(feature = "atari")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub atari: Option<crate::env::atari::AtariConfig>,
    /// Scattered MNIST videos.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scattered_mnist: Option<crate::env::synthetic::ScatteredMnistConfig>,
    /// Scattered Shapes videos.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scattered_shapes: Option<crate::env::synthetic::ScatteredShapesConfig>,
}

impl EnvSection {
    /// The env id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether this is an Atari env (no exact ground truth; ConnComp labels instead).
    pub fn is_atari(&self) -> bool {
        #[cfg(feature = "atari")]
        {
            self.atari.is_some()
        }
        #[cfg(not(feature = "atari"))]
        {
            false
        }
    }

    fn kinds_set(&self) -> usize {
        #[cfg(feature = "atari")]
        let atari = self.atari.is_some() as usize;
        #[cfg(not(feature = "atari"))]
        let atari = 0;
        atari + self.scattered_mnist.is_some() as usize + self.scattered_shapes.is_some() as usize
    }

    /// Check that exactly one env kind is configured.
    pub fn validate(&self, path: &str) -> Result<()> {
        match self.kinds_set() {
            1 => Ok(()),
            n => Err(Error::Config {
                path: path.into(),
                msg: format!(
                    "[env] must have exactly one of [env.atari], [env.scattered_mnist], \
                     [env.scattered_shapes]; found {n}"
                ),
            }),
        }
    }
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
    pub env: EnvSection,
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
        let cfg: ExperimentConfig = toml::from_str(text).map_err(|e| Error::Config {
            path: origin.into(),
            msg: e.to_string().trim_end().to_string(),
        })?;
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
        Ok(run)
    }

    /// Load a TOML file from disk. A file may start from another with a top-level
    /// `base = "other.toml"` (a path relative to the file): its keys are laid over the base's,
    /// tables merged key by key, any other value replacing the base's.
    pub fn from_file(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let origin = path.display().to_string();
        let has_base = text
            .parse::<toml::Table>()
            .is_ok_and(|t| t.contains_key("base"));
        if !has_base {
            // Parsed from the text itself, so errors point at its lines.
            return Self::from_toml(&text, &origin);
        }
        let merged = with_base(path, &mut Vec::new())?;
        let merged = toml::to_string(&merged)
            .map_err(|e| Error::Invalid(format!("cannot serialise config {origin}: {e}")))?;
        Self::from_toml(&merged, &origin)
    }

    /// Serialise back to TOML (the resolved config written next to results).
    pub fn to_toml(&self) -> Result<String> {
        toml::to_string_pretty(self)
            .map_err(|e| Error::Invalid(format!("cannot serialise config: {e}")))
    }
}

/// The TOML table of `path` laid over its `base` chain (see [`ExperimentConfig::from_file`]);
/// `seen` holds the files of the chain so far, to name a cycle.
fn with_base(path: &Path, seen: &mut Vec<std::path::PathBuf>) -> Result<toml::Table> {
    let bad = |msg: String| Error::Config {
        path: path.display().to_string(),
        msg,
    };
    let key = path.canonicalize().map_err(|e| Error::io(path, e))?;
    if seen.contains(&key) {
        return Err(bad(format!("`base` files form a cycle: {seen:?}")));
    }
    seen.push(key);
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let mut table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| bad(e.to_string().trim_end().to_string()))?;
    let Some(base) = table.remove("base") else {
        return Ok(table);
    };
    let toml::Value::String(base) = base else {
        return Err(bad(format!(
            "`base = {base}`: expected the path of a TOML file"
        )));
    };
    let base_path = path.parent().unwrap_or(Path::new(".")).join(&base);
    if !base_path.is_file() {
        return Err(bad(format!(
            "`base = \"{base}\"`: no file {} (the path is relative to this file)",
            base_path.display()
        )));
    }
    let mut merged = with_base(&base_path, seen)?;
    lay_over(&mut merged, table);
    Ok(merged)
}

/// Lays `top` over `under`: tables merged key by key, any other value replacing.
fn lay_over(under: &mut toml::Table, top: toml::Table) {
    for (k, v) in top {
        match (under.get_mut(&k), v) {
            (Some(toml::Value::Table(u)), toml::Value::Table(t)) => lay_over(u, t),
            (_, v) => {
                under.insert(k, v);
            }
        }
    }
}
