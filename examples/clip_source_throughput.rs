//! Training-clip throughput of the on-the-fly Atari sources: every clip from a fresh reset and
//! random warm-up (`RolloutSource::parallel`, `silot train --fresh-clips`) against clips cut from
//! running episodes (`RolloutSource::continuing`, the default), Space Invaders `paper` preset,
//! batches of 16 clips of 8 frames cropped to 72×72, as `silot train` draws them.
//!
//! ```bash
//! cargo run --release --example clip_source_throughput -- [WORKERS] [SECONDS]
//! ```

use std::time::Instant;

use anyhow::Context;
use silot::env::registry;
use silot::rng::SeededRng;
use silot::train::source::{ClipSource, ClipSpec, RolloutSource};

fn clips_per_second(source: &mut dyn ClipSource, seconds: f64) -> anyhow::Result<f64> {
    let spec = ClipSpec {
        batch: 16,
        n_frames: 8,
        crop: Some([72, 72]),
    };
    let mut rng = SeededRng::new(0);
    source.next_batch(&spec, &mut rng)?; // first episodes (continuing: the warm-ups)
    let start = Instant::now();
    let mut clips = 0;
    while start.elapsed().as_secs_f64() < seconds {
        clips += source.next_batch(&spec, &mut rng)?.len();
    }
    Ok(clips as f64 / start.elapsed().as_secs_f64())
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let workers: usize = match args.next() {
        Some(s) => s.parse().context("WORKERS must be a number")?,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let seconds: f64 = match args.next() {
        Some(s) => s.parse().context("SECONDS must be a number")?,
        None => 10.0,
    };
    let exp = registry::load_experiment("space_invaders")?;
    let envs = || -> anyhow::Result<Vec<_>> {
        Ok((0..workers)
            .map(|_| registry::make_from_spec(&exp.env))
            .collect::<silot::Result<Vec<_>>>()?)
    };
    let fresh = clips_per_second(&mut RolloutSource::parallel(envs()?, 300)?, seconds)?;
    println!("fresh reset + warm-up per clip: {fresh:.1} clips/s ({workers} workers)");
    let cont = clips_per_second(&mut RolloutSource::continuing(envs()?, 300, 16)?, seconds)?;
    println!("clips cut from running episodes: {cont:.1} clips/s ({workers} workers)");
    println!("ratio: {:.1}x", cont / fresh);
    Ok(())
}
