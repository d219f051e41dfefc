//! The env spec: which env an id names and how it is configured, the `[env]` table of the files
//! in `envs/` ([`super::registry`] finds them). Nothing here knows the rest of an experiment file
//! (model, training, evaluation sections); those are `crate::config`'s.
//!
//! ```toml
//! [env]
//! id = "space_invaders"
//! [env.atari]            # exactly one of: atari, scattered_mnist, scattered_shapes
//! game = "space_invaders"
//! preset = "paper"
//! ```

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// An env spec (the `[env]` table of an experiment file): an id and exactly one env kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvSpec {
    /// Env id, e.g. `space_invaders`.
    pub id: String,
    /// Atari through ALE.
    #[cfg(feature = "atari")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub atari: Option<super::atari::AtariConfig>,
    /// Scattered MNIST videos.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scattered_mnist: Option<super::synthetic::ScatteredMnistConfig>,
    /// Scattered Shapes videos.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scattered_shapes: Option<super::synthetic::ScatteredShapesConfig>,
}

impl EnvSpec {
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

    /// Frames per episode of a synthetic env (its `episode_length`); `None` for Atari, whose
    /// episodes end with the game.
    pub fn episode_length(&self) -> Option<usize> {
        self.scattered_mnist
            .as_ref()
            .map(|c| c.episode_length)
            .or(self.scattered_shapes.as_ref().map(|c| c.episode_length))
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

/// A TOML file read only for its `[env]` table (other tables are the experiment's).
#[derive(Deserialize)]
struct EnvTable {
    env: EnvSpec,
}

impl EnvSpec {
    /// The `[env]` table of TOML `text` (other tables are ignored), validated; `origin` names the
    /// file in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Self> {
        let t: EnvTable = crate::env::registry::parse_config(text, origin)?;
        t.env.validate(origin)?;
        Ok(t.env)
    }
}
