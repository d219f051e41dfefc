//! Throughput of the on-the-fly training clip source: batches of Space Invaders clips cut from
//! running episodes (`RolloutSource::continuing`, as `silot train` makes them), per clip length,
//! on a chosen number of rollout threads; with `--fresh`, also the source that resets and warms
//! up an env for every clip (`silot train --fresh-clips`). Each length is timed for `--seconds`
//! so that episodes end and restart as they do in training (a few batches right after the first
//! warm-ups see no episode end and flatter the source). Run it where training waits for clips,
//! to compare the machine with the development box.
//!
//! ```text
//! cargo run --release --example clip_source_bench -- --threads 16 --batch 64 --frames 2,4,8
//! ```

use std::time::Instant;

use anyhow::Result;
use clap::Parser;
use silot::env::registry;
use silot::train::source::{ClipSource, ClipSpec, RolloutSource};

#[derive(Parser)]
struct Args {
    /// Rollout threads (one env each); default: the available parallelism.
    #[arg(long)]
    threads: Option<usize>,
    /// Clips per batch.
    #[arg(long, default_value_t = 64)]
    batch: usize,
    /// Clip lengths to time, in this order.
    #[arg(long, value_delimiter = ',', default_value = "2,4,8")]
    frames: Vec<usize>,
    /// Seconds of batches per clip length (after one untimed batch).
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Also time fresh clips (a reset and a 0–300-step warm-up per clip).
    #[arg(long)]
    fresh: bool,
}

/// Mean and slowest batch time (ms) over `seconds` of batches of `spec`.
fn time_batches(source: &mut dyn ClipSource, spec: &ClipSpec, seconds: f64) -> Result<(f64, f64)> {
    let mut rng = silot::rng::SeededRng::new(spec.n_frames as u64);
    source.next_batch(spec, &mut rng)?;
    let (start, mut n, mut slowest) = (Instant::now(), 0usize, 0f64);
    while n == 0 || start.elapsed().as_secs_f64() < seconds {
        let t = Instant::now();
        source.next_batch(spec, &mut rng)?;
        slowest = slowest.max(t.elapsed().as_secs_f64());
        n += 1;
    }
    Ok((
        start.elapsed().as_secs_f64() * 1e3 / n as f64,
        slowest * 1e3,
    ))
}

fn main() -> Result<()> {
    let args = Args::parse();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let exp = silot::config::load_experiment("space_invaders")?;
    let envs = || -> Result<Vec<_>> {
        Ok((0..threads)
            .map(|_| registry::make_from_spec(&exp.env))
            .collect::<silot::Result<Vec<_>>>()?)
    };
    // As `silot train` makes Atari clips: 300-step warm-ups, clips up to 16 steps apart.
    let mut sources: Vec<(&str, Box<dyn ClipSource>)> = vec![(
        "running episodes",
        Box::new(RolloutSource::continuing(envs()?, 300, 16)?),
    )];
    if args.fresh {
        sources.push((
            "fresh reset + warm-up",
            Box::new(RolloutSource::parallel(envs()?, 300)?),
        ));
    }
    for (name, source) in &mut sources {
        for &n_frames in &args.frames {
            let spec = ClipSpec::new(args.batch, n_frames, Some([72, 72]));
            let (mean, slowest) = time_batches(source.as_mut(), &spec, args.seconds)?;
            println!(
                "{name}: {n_frames}-frame clips: {mean:.1} ms per batch of {} on {threads} \
                 threads ({:.0} clips/s), slowest batch {slowest:.1} ms",
                args.batch,
                args.batch as f64 * 1e3 / mean
            );
        }
    }
    Ok(())
}
