//! Throughput of the on-the-fly training clip source: batches of Space Invaders clips cut from
//! running episodes (`RolloutSource::continuing`, as `silot train` makes them), per clip length,
//! on a chosen number of rollout threads. Run it where training waits for clips to compare the
//! machine with the development box.
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
    /// Timed batches per clip length (after one untimed batch).
    #[arg(long, default_value_t = 5)]
    batches: usize,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let exp = registry::load_experiment("space_invaders")?;
    let envs = (0..threads)
        .map(|_| registry::make_from_spec(&exp.env))
        .collect::<silot::Result<Vec<_>>>()?;
    // As `silot train` makes Atari clips: 300-step warm-ups, clips up to 16 steps apart.
    let mut source = RolloutSource::continuing(envs, 300, 16)?;
    let mut rng = silot::rng::SeededRng::new(1);
    for &n_frames in &args.frames {
        let spec = ClipSpec {
            batch: args.batch,
            n_frames,
            crop: Some([72, 72]),
        };
        source.next_batch(&spec, &mut rng)?;
        let start = Instant::now();
        for _ in 0..args.batches {
            source.next_batch(&spec, &mut rng)?;
        }
        let ms = start.elapsed().as_secs_f64() * 1e3 / args.batches as f64;
        println!(
            "{n_frames}-frame clips: {ms:.1} ms per batch of {} on {threads} threads",
            args.batch
        );
    }
    Ok(())
}
