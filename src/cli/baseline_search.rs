//! `silot baseline-search`: tune the ConnComp baseline's thresholds as the paper did
//! (silot-reference §9): per object count, the paper's grid on validation clips, one pick per
//! metric, each pick scored on test clips.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::baseline::search::{grid_search, Grid, Metric, SearchResult};
use crate::env::synthetic::Split;
use crate::eval::{evaluate_tracker, CountScores, CountsReport, EvalReport, Scores};
use crate::eval_protocol::{object_counts, parse_counts, split_clips, with_object_count, EvalClip};

/// Arguments of `silot baseline-search`.
#[derive(Debug, Args)]
pub struct BaselineSearchArgs {
    /// `scattered_mnist`, `scattered_shapes` or a TOML of one of them.
    #[arg(long)]
    pub env: String,
    /// Object counts to tune for, e.g. `1,2,3`, `1-12` or `1..=12` (default: the env's
    /// min..max).
    #[arg(long)]
    pub counts: Option<String>,
    /// Test clips per count (and validation clips, unless `--val-clips`).
    #[arg(long, default_value_t = 16)]
    pub clips: usize,
    /// Validation clips per count (the grid search's; default `--clips`).
    #[arg(long)]
    pub val_clips: Option<usize>,
    /// Seed of the validation clips (MNIST: validation digits).
    #[arg(long, default_value_t = 100)]
    pub val_seed: u64,
    /// Seed of the test clips (MNIST: test digits).
    #[arg(long, default_value_t = 200)]
    pub test_seed: u64,
    /// Write every grid point's scores, the picks and their test scores here.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write the picks' test scores per count here, as `silot eval --counts` writes a model's
    /// (each metric from the pick tuned for it, as the paper plotted ConnComp), for `silot plot`.
    #[arg(long)]
    pub report: Option<PathBuf>,
}

#[derive(Serialize)]
struct Pick {
    metric: Metric,
    cc_threshold: f32,
    cosine_threshold: Option<f32>,
    val: f64,
    test: EvalReport,
}

#[derive(Serialize)]
struct CountResult {
    objects: usize,
    picks: Vec<Pick>,
    search: SearchResult,
}

fn split(
    clips: Vec<EvalClip>,
) -> (
    Vec<Vec<crate::env::Frame>>,
    Vec<Vec<Vec<crate::env::GtObject>>>,
) {
    clips.into_iter().map(|c| (c.frames, c.gt)).unzip()
}

/// The paper's picks for Scattered MNIST, 1..=12 digits (silot-reference §9), per metric.
fn paper_mnist_pick(metric: Metric, n: usize) -> Option<f32> {
    const AP: [f32; 12] = [
        1e-4, 1e-4, 1e-4, 1e-4, 0.471, 0.588, 0.530, 0.647, 0.706, 0.824, 0.706, 0.765,
    ];
    const MOTA: [f32; 12] = [
        1e-4, 0.412, 0.471, 0.530, 0.588, 0.588, 0.530, 0.647, 0.588, 0.588, 0.647, 0.647,
    ];
    const COUNT: [f32; 12] = [
        1e-4, 0.412, 0.647, 0.765, 0.706, 1.0001, 1.059, 1.0001, 1.177, 1.235, 1.294, 1.353,
    ];
    let t = match metric {
        Metric::Ap => &AP,
        Metric::Mota => &MOTA,
        Metric::CountAbsError => &COUNT,
    };
    n.checked_sub(1).and_then(|i| t.get(i)).copied()
}

/// Run the search.
pub fn run(a: BaselineSearchArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.clips > 0, "--clips must be at least 1");
    let val_clips = a.val_clips.unwrap_or(a.clips);
    anyhow::ensure!(val_clips > 0, "--val-clips must be at least 1");
    let cfg = crate::config::load_experiment(&a.env)?;
    anyhow::ensure!(
        cfg.env.scattered_mnist.is_some() || cfg.env.scattered_shapes.is_some(),
        "baseline-search tunes the synthetic envs' ConnComp baseline; `{}` is not Scattered MNIST \
         or Scattered Shapes (on Atari the ground truth itself is ConnComp labelling)",
        cfg.env.id
    );
    if let Some(p) = &a.json {
        crate::util::check_output_file(p, "--json")?;
    }
    if let Some(p) = &a.report {
        crate::util::check_output_file(p, "--report")?;
    }
    let counts = match &a.counts {
        Some(s) => parse_counts(s, "--counts")?,
        None => object_counts(&cfg).map_or_else(Vec::new, |r| r.collect()),
    };
    // Every count is checked before the first is searched.
    let configs = counts
        .iter()
        .map(|&n| with_object_count(&cfg, n).map_err(|e| anyhow::anyhow!("--counts: {e}")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let shapes = cfg.env.scattered_shapes.is_some();
    let mnist = cfg.env.scattered_mnist.is_some();
    let grid = Grid::paper(shapes);
    let mut base = cfg.eval.conncomp.clone();
    if shapes && base.cosine_threshold.is_none() {
        base.cosine_threshold = Some(0.9); // colour classes on: the grid sets the value
    }
    println!(
        "{}: {} grid points per count, {} validation + {} test clips per count",
        cfg.env.id,
        grid.points().len(),
        val_clips,
        a.clips
    );
    println!("| objects | tuned for | cc | cosine | val | test AP | test MOTA | test count err | paper's cc pick |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut results = Vec::new();
    let mut report = CountsReport::new(&cfg.env.id, "conncomp", a.test_seed);
    (report.val_seed, report.val_clips) = (Some(a.val_seed), Some(val_clips));
    let start = std::time::Instant::now();
    for (&n, c) in counts.iter().zip(&configs) {
        let (val_x, val_gt) = split(split_clips(c, Split::Val, val_clips, a.val_seed)?);
        let (test_x, test_gt) = split(split_clips(c, Split::Test, a.clips, a.test_seed)?);
        let search = grid_search(&base, &grid, &val_x, &val_gt, &c.eval.metrics)?;
        let mut picks = Vec::new();
        let mut runs = Vec::new();
        for m in Metric::ALL {
            let Some(pc) = search.config_for(m, &base) else {
                continue;
            };
            let mut tracker = crate::baseline::ConnCompTracker::new(pc.clone())?;
            let test = evaluate_tracker(&mut tracker, &test_x, &test_gt, &c.eval.metrics)?;
            let val = search.best_point(m).map_or(f64::NAN, |p| p.score(m));
            let paper = if mnist { paper_mnist_pick(m, n) } else { None };
            println!(
                "| {n} | {m:?} | {:.3} | {} | {val:.3} | {:.3} | {:.3} | {:.3} | {} |",
                pc.cc_threshold,
                pc.cosine_threshold
                    .map_or("–".into(), |t| format!("{t:.3}")),
                test.ap,
                test.mota,
                test.count_abs_error,
                paper.map_or("–".into(), |t| format!("{t:.3}")),
            );
            runs.push(Scores {
                cc_threshold: Some(pc.cc_threshold),
                cosine_threshold: pc.cosine_threshold,
                ..Scores::of(&format!("tuned_{}", m.name()), &test)
            });
            picks.push(Pick {
                metric: m,
                cc_threshold: pc.cc_threshold,
                cosine_threshold: pc.cosine_threshold,
                val,
                test,
            });
        }
        let tuned = |m: Metric| {
            runs.iter()
                .find(|s| s.run == format!("tuned_{}", m.name()))
                .map_or(f64::NAN, |s| match m {
                    Metric::Ap => s.ap,
                    Metric::Mota => s.mota,
                    Metric::CountAbsError => s.count_abs_error,
                })
        };
        report.counts.push(CountScores {
            objects: n,
            clips: a.clips,
            mota: tuned(Metric::Mota),
            ap: tuned(Metric::Ap),
            count_abs_error: tuned(Metric::CountAbsError),
            runs,
        });
        results.push(CountResult {
            objects: n,
            picks,
            search,
        });
        // Written after every count: a long search cut short keeps the counts done.
        if let Some(p) = &a.report {
            report.write_json(p)?;
        }
        eprintln!("{n} objects done at {:.1} s", start.elapsed().as_secs_f64());
    }
    println!(
        "{} counts in {:.1} s",
        counts.len(),
        start.elapsed().as_secs_f64()
    );
    if let Some(p) = &a.report {
        println!("wrote {}", p.display());
    }
    if let Some(p) = &a.json {
        crate::util::write_atomic(p, &serde_json::to_vec_pretty(&results)?)?;
        println!("wrote {}", p.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_picks() {
        assert_eq!(paper_mnist_pick(Metric::Mota, 2), Some(0.412));
        assert_eq!(paper_mnist_pick(Metric::Ap, 13), None);
    }
}
