//! Env ids: the experiment files embedded from `envs/`, plus every Atari ROM the `ale` crate
//! bundles (as `v5`-preset envs).

use std::path::Path;

use crate::config::{EnvSection, ExperimentConfig};
use crate::env::synthetic::Split;
use crate::env::Env;
use crate::error::{Error, Result};

/// The embedded experiment files: `(id, TOML text)`.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("asteroids", include_str!("../../envs/asteroids.toml")),
    (
        "scattered_mnist",
        include_str!("../../envs/scattered_mnist.toml"),
    ),
    (
        "scattered_shapes",
        include_str!("../../envs/scattered_shapes.toml"),
    ),
    ("smoke", include_str!("../../envs/smoke.toml")),
    (
        "space_invaders",
        include_str!("../../envs/space_invaders.toml"),
    ),
];

/// Every env id, sorted: the embedded experiment files, then the remaining Atari games.
pub fn known_ids() -> Vec<String> {
    let mut ids: Vec<String> = EMBEDDED
        .iter()
        .filter(|(_, text)| cfg!(feature = "atari") || !needs_atari(text))
        .map(|(id, _)| id.to_string())
        .collect();
    #[cfg(feature = "atari")]
    for game in crate::env::atari::roms::GAME_IDS.iter().copied() {
        if !ids.iter().any(|i| i == game) {
            ids.push(game.to_string());
        }
    }
    ids.sort();
    ids
}

/// Load the experiment for `id_or_path`: an embedded id, a bundled Atari game, or a TOML path.
pub fn load_experiment(id_or_path: &str) -> Result<ExperimentConfig> {
    if let Some((id, text)) = EMBEDDED.iter().find(|(id, _)| *id == id_or_path) {
        if !cfg!(feature = "atari") && needs_atari(text) {
            return Err(Error::Invalid(format!(
                "env `{id}` is an Atari game and this build has no Atari support; rebuild with \
                 the default `atari` feature"
            )));
        }
        return ExperimentConfig::from_toml(text, &format!("envs/{id}.toml (embedded)"));
    }
    let p = Path::new(id_or_path);
    if id_or_path.ends_with(".toml") || p.is_file() {
        return ExperimentConfig::from_file(p);
    }
    #[cfg(feature = "atari")]
    if crate::env::atari::roms::GAME_IDS.contains(&id_or_path) {
        let text = format!(
            "[env]\nid = \"{id_or_path}\"\n[env.atari]\ngame = \"{id_or_path}\"\npreset = \"v5\"\n"
        );
        return ExperimentConfig::from_toml(&text, &format!("<default for {id_or_path}>"));
    }
    Err(Error::UnknownEnv {
        id: id_or_path.to_string(),
        known: known_ids().join(", "),
    })
}

/// Whether an experiment file configures an Atari env.
fn needs_atari(text: &str) -> bool {
    text.lines().any(|l| l.trim() == "[env.atari]")
}

/// The `[env]` section of [`load_experiment`].
pub fn load_spec(id_or_path: &str) -> Result<EnvSection> {
    Ok(load_experiment(id_or_path)?.env)
}

/// Build an env from its `[env]` section (training split for Scattered MNIST digits).
pub fn make_from_spec(spec: &EnvSection) -> Result<Box<dyn Env>> {
    make_from_spec_split(spec, Split::Train)
}

/// Build an env from its `[env]` section; `split` picks the MNIST digits (train/val/test).
pub fn make_from_spec_split(spec: &EnvSection, split: Split) -> Result<Box<dyn Env>> {
    #[cfg(feature = "atari")]
    if let Some(cfg) = &spec.atari {
        return crate::env::atari::make_atari(cfg);
    }
    if let Some(cfg) = &spec.scattered_mnist {
        return Ok(Box::new(crate::env::synthetic::ScatteredMnist::new(
            cfg.clone(),
            split,
        )?));
    }
    if let Some(cfg) = &spec.scattered_shapes {
        return Ok(Box::new(crate::env::synthetic::ScatteredShapes::new(
            cfg.clone(),
        )?));
    }
    Err(Error::Config {
        path: spec.id.clone(),
        msg: "no env kind configured".into(),
    })
}

/// Build the env with this id (or TOML path).
pub fn make(id_or_path: &str) -> Result<Box<dyn Env>> {
    make_from_spec(&load_spec(id_or_path)?)
}
