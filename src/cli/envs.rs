//! `silot envs`: list env ids.

use clap::Args;

/// Arguments of `silot envs`.
#[derive(Debug, Args)]
pub struct EnvsArgs {}

/// Print every known env id, one per line.
pub fn run(_args: EnvsArgs) -> anyhow::Result<()> {
    for id in crate::env::registry::known_ids() {
        println!("{id}");
    }
    Ok(())
}
