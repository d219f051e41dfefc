//! `silot envs`: list env ids, and with `--long` what each can do.

use clap::Args;

use crate::config::load_experiment;
use crate::models::{self, Manifest};

/// Arguments of `silot envs`.
#[derive(Debug, Args)]
pub struct EnvsArgs {
    /// A table instead of bare ids: each env's kind, whether its experiment has a `[model]`
    /// section (`silot train --config ID`, `silot pretrain --env ID`), and the shipped encoders
    /// trained on it (`--checkpoint NAME`).
    #[arg(long, short)]
    pub long: bool,
}

/// Print every known env id, one per line (`--long`: a table).
pub fn run(args: EnvsArgs) -> anyhow::Result<()> {
    let ids = crate::env::registry::known_ids();
    if !args.long {
        for id in ids {
            println!("{id}");
        }
        return Ok(());
    }
    let encoders: Vec<(String, String)> = models::search_dirs()
        .iter()
        .flat_map(|dir| {
            models::names_in(dir)
                .into_iter()
                .filter_map(|name| Manifest::read(&dir.join(&name)).ok())
                .map(|m| (m.env, m.name))
                .collect::<Vec<_>>()
        })
        .collect();
    let width = ids.iter().map(String::len).max().unwrap_or(2).max(2);
    println!("{:width$}  {:9}  {:5}  ENCODERS", "ID", "KIND", "MODEL");
    let mut trainable = 0;
    for id in &ids {
        let exp = load_experiment(id)?;
        let kind = if exp.env.is_atari() {
            "atari"
        } else if exp.has_exact_ground_truth() {
            "synthetic"
        } else {
            "other"
        };
        let model = if exp.model.is_some() {
            trainable += 1;
            "yes"
        } else {
            "-"
        };
        let mut names: Vec<&str> = encoders
            .iter()
            .filter(|(env, _)| env == id)
            .map(|(_, name)| name.as_str())
            .collect();
        names.sort_unstable();
        names.dedup(); // one name found in several search directories
        let names = if names.is_empty() {
            "-".to_string()
        } else {
            names.join(", ")
        };
        println!("{id:width$}  {kind:9}  {model:5}  {names}");
    }
    println!(
        "\n{trainable} of {} envs have a [model] section (train or pretrain them by id); for another \
         game, an experiment file: its [env] plus the [model] and [train] of envs/asteroids.toml \
         (docs/faq.md)",
        ids.len()
    );
    Ok(())
}
