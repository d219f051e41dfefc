//! `silot baseline-search`: tune the ConnComp baseline's thresholds as the paper did
//! (silot-reference §9): per object count, the paper's grid on validation clips, one pick per
//! metric, each pick scored on test clips.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::baseline::search::{grid_search, Grid, Metric, SearchResult};
use crate::config::ExperimentConfig;
use crate::env::synthetic::Split;
use crate::eval::{evaluate_tracker, EvalReport};
use crate::eval_protocol::{split_clips, EvalClip};

/// Arguments of `silot baseline-search`.
#[derive(Debug, Args)]
pub struct BaselineSearchArgs {
    /// `scattered_mnist`, `scattered_shapes` or a TOML of one of them.
    #[arg(long)]
    pub env: String,
    /// Object counts to tune for, e.g. `1,2,3` or `1-12` (default: the env's min..max).
    #[arg(long)]
    pub counts: Option<String>,
    /// Clips per count for validation and, separately, for test.
    #[arg(long, default_value_t = 16)]
    pub clips: usize,
    /// Seed of the validation clips (MNIST: validation digits).
    #[arg(long, default_value_t = 100)]
    pub val_seed: u64,
    /// Seed of the test clips (MNIST: test digits).
    #[arg(long, default_value_t = 200)]
    pub test_seed: u64,
    /// Write every grid point's scores, the picks and their test scores here.
    #[arg(long)]
    pub json: Option<PathBuf>,
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

/// Parse `1,3,5` / `1-12` / a mix; errors name `--counts`.
fn parse_counts(s: &str) -> anyhow::Result<Vec<usize>> {
    let bad = || anyhow::anyhow!("--counts `{s}`: give positive counts like `1-12` or `1,5,10`");
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b || b - a >= MAX_COUNT {
                    return Err(bad());
                }
                out.extend(a..=b)
            }
            None => out.push(num(part)?),
        }
    }
    if out.is_empty() || out.iter().any(|&n| n == 0 || n > MAX_COUNT) {
        return Err(bad());
    }
    Ok(out)
}

/// The most objects per video a search asks for.
const MAX_COUNT: usize = 1000;

/// The env of `cfg` with exactly `n` objects per video; its count range and colour mode.
fn with_count(cfg: &ExperimentConfig, n: usize) -> anyhow::Result<ExperimentConfig> {
    let mut c = cfg.clone();
    if let Some(m) = c.env.scattered_mnist.as_mut() {
        (m.min_objects, m.max_objects) = (n, n);
    } else if let Some(s) = c.env.scattered_shapes.as_mut() {
        (s.min_objects, s.max_objects) = (n, n);
    } else {
        anyhow::bail!(
            "baseline-search tunes the synthetic envs' ConnComp baseline; `{}` is not Scattered \
             MNIST or Scattered Shapes",
            cfg.env.id
        );
    }
    Ok(c)
}

fn default_counts(cfg: &ExperimentConfig) -> Vec<usize> {
    match (&cfg.env.scattered_mnist, &cfg.env.scattered_shapes) {
        (Some(m), _) => (m.min_objects..=m.max_objects).collect(),
        (_, Some(s)) => (s.min_objects..=s.max_objects).collect(),
        _ => Vec::new(),
    }
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
    let counts = match &a.counts {
        Some(s) => parse_counts(s)?,
        None => default_counts(&cfg),
    };
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
        a.clips,
        a.clips
    );
    println!("| objects | tuned for | cc | cosine | val | test AP | test MOTA | test count err | paper's cc pick |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut results = Vec::new();
    for &n in &counts {
        let c = with_count(&cfg, n)?;
        let (val_x, val_gt) = split(split_clips(&c, Split::Val, a.clips, a.val_seed)?);
        let (test_x, test_gt) = split(split_clips(&c, Split::Test, a.clips, a.test_seed)?);
        let search = grid_search(&base, &grid, &val_x, &val_gt, &c.eval.metrics)?;
        let mut picks = Vec::new();
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
            picks.push(Pick {
                metric: m,
                cc_threshold: pc.cc_threshold,
                cosine_threshold: pc.cosine_threshold,
                val,
                test,
            });
        }
        results.push(CountResult {
            objects: n,
            picks,
            search,
        });
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
    fn counts_parse() {
        assert_eq!(parse_counts("1-3,5").unwrap(), vec![1, 2, 3, 5]);
        assert_eq!(parse_counts(" 7 ").unwrap(), vec![7]);
        for bad in ["0", "x", "", "abc", "3-1", "1-x", "1-999999999999"] {
            let err = parse_counts(bad).unwrap_err().to_string();
            assert!(
                err.contains("--counts") && err.contains(bad),
                "{bad}: {err}"
            );
        }
        assert_eq!(paper_mnist_pick(Metric::Mota, 2), Some(0.412));
        assert_eq!(paper_mnist_pick(Metric::Ap, 13), None);
    }
}
