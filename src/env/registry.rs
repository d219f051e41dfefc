//! Env ids: the files embedded from `envs/`, plus every Atari ROM the `ale` crate bundles (as
//! `v5`-preset envs). The env reads only their `[env]` table ([`EnvSpec`]).

use std::path::Path;

use crate::env::spec::EnvSpec;
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

/// The TOML text that defines an env, and the name errors give it.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvSource {
    /// The text (a file's `base` chain already laid over: [`read_toml_file`]).
    pub text: String,
    /// Where it came from: `envs/ID.toml (embedded)`, the file's path, `<default for GAME>`.
    pub origin: String,
}

/// The TOML text of `id_or_path`: an embedded id, a bundled Atari game (a `v5` default), or a
/// TOML path. The `[env]` table of it is the env ([`load_spec`]); `crate::config` reads the
/// whole file as an experiment.
pub fn source(id_or_path: &str) -> Result<EnvSource> {
    if let Some((id, text)) = EMBEDDED.iter().find(|(id, _)| *id == id_or_path) {
        if !cfg!(feature = "atari") && needs_atari(text) {
            return Err(Error::Invalid(format!(
                "env `{id}` is an Atari game and this build has no Atari support; rebuild with \
                 the default `atari` feature"
            )));
        }
        return Ok(EnvSource {
            text: text.to_string(),
            origin: format!("envs/{id}.toml (embedded)"),
        });
    }
    let p = Path::new(id_or_path);
    if id_or_path.ends_with(".toml") || p.is_file() {
        return Ok(EnvSource {
            text: read_toml_file(p)?,
            origin: p.display().to_string(),
        });
    }
    #[cfg(feature = "atari")]
    if let Some(why) = crate::env::atari::roms::unsupported(id_or_path) {
        return Err(Error::Invalid(format!("Atari game `{id_or_path}`: {why}")));
    }
    #[cfg(feature = "atari")]
    if crate::env::atari::roms::GAME_IDS.contains(&id_or_path) {
        return Ok(EnvSource {
            text: format!(
                "[env]\nid = \"{id_or_path}\"\n[env.atari]\ngame = \"{id_or_path}\"\npreset = \"v5\"\n"
            ),
            origin: format!("<default for {id_or_path}>"),
        });
    }
    Err(Error::UnknownEnv {
        id: id_or_path.to_string(),
        known: known_ids().join(", "),
    })
}

/// The text of the TOML file `path`. A file may start from another with a top-level
/// `base = "other.toml"` (a path relative to the file): its keys are laid over the base's,
/// tables merged key by key, any other value replacing the base's; the merged table is returned
/// as text. A file without `base` is returned as it is, so errors point at its lines.
pub fn read_toml_file(path: &Path) -> Result<String> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    if !has_base(&text) {
        return Ok(text);
    }
    let merged = with_base(path, &mut Vec::new())?;
    toml::to_string(&merged)
        .map_err(|e| Error::Invalid(format!("cannot serialise config {}: {e}", path.display())))
}

/// Whether an experiment file configures an Atari env.
fn needs_atari(text: &str) -> bool {
    text.lines().any(|l| l.trim() == "[env.atari]")
}

/// The env spec of `id_or_path` (the `[env]` table of its [`source`]).
pub fn load_spec(id_or_path: &str) -> Result<EnvSpec> {
    let src = source(id_or_path)?;
    EnvSpec::from_toml(&src.text, &src.origin)
}

/// Build an env from its `[env]` section (training split for Scattered MNIST digits).
pub fn make_from_spec(spec: &EnvSpec) -> Result<Box<dyn Env>> {
    make_from_spec_split(spec, Split::Train)
}

/// Build an env from its `[env]` section; `split` picks the MNIST digits (train/val/test).
pub fn make_from_spec_split(spec: &EnvSpec, split: Split) -> Result<Box<dyn Env>> {
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

/// Whether config `text` starts from another file (a top-level `base` key).
fn has_base(text: &str) -> bool {
    text.parse::<toml::Table>()
        .is_ok_and(|t| t.contains_key("base"))
}

/// Deserialise config `text` that [`source`] gave for `origin`. A file laid over a `base` comes
/// merged, whose line numbers are no line of the file: an error is shown at the file's own line
/// when the file's own keys give the same error, else without the merged text's lines.
pub(crate) fn parse_config<T: serde::de::DeserializeOwned>(text: &str, origin: &str) -> Result<T> {
    toml::from_str(text).map_err(|e| {
        let config = |msg: String| Error::Config {
            path: origin.into(),
            msg: msg.trim_end().to_string(),
        };
        let Some(own) = std::fs::read_to_string(origin).ok().filter(|t| has_base(t)) else {
            return config(e.to_string());
        };
        match toml::from_str::<T>(&without_base_line(&own)) {
            Err(own_err) if own_err.message() == e.message() => config(own_err.to_string()),
            _ => config(format!(
                "{} (in this file or a `base` it starts from, merged)",
                e.message()
            )),
        }
    })
}

/// `text` with its top-level `base = ...` line blanked (the other lines keep their numbers).
fn without_base_line(text: &str) -> String {
    let mut top = true;
    let lines: Vec<&str> = text
        .lines()
        .map(|line| {
            let t = line.trim_start();
            top &= !t.starts_with('[');
            let is_base = t
                .strip_prefix("base")
                .is_some_and(|r| r.trim_start().starts_with('='));
            if top && is_base {
                ""
            } else {
                line
            }
        })
        .collect();
    lines.join("\n")
}

/// Build the env with this id (or TOML path).
pub fn make(id_or_path: &str) -> Result<Box<dyn Env>> {
    make_from_spec(&load_spec(id_or_path)?)
}

/// The TOML table of `path` laid over its `base` chain (see [`read_toml_file`]);
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
