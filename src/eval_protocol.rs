//! The evaluation clip protocol shared by `silot eval`, `label`, `render`, `baseline-search`,
//! the tests and the examples: which clips (the paper's length, the test split, seeds
//! [`crate::seed::clip_seed`]), Atari under the `paper` preset, and ground truth (exact for the
//! synthetic envs, ConnComp labels for Atari).

use crate::config::ExperimentConfig;
use crate::data::{collect_clip, Clip, RolloutOptions};
use crate::env::synthetic::Split;
use crate::env::{registry, Frame, GtObject};
use crate::error::{Error, Result};

/// An evaluation clip: frames and ground truth (exact for synthetic envs, ConnComp labels for
/// Atari).
pub struct EvalClip {
    /// Frames `(H, W, 3)`.
    pub frames: Vec<Frame>,
    /// Ground-truth objects per frame.
    pub gt: Vec<Vec<GtObject>>,
}

/// Frames per evaluation clip (the paper's clip length).
pub const EVAL_FRAMES: usize = 8;

/// Force the paper's data protocol for Atari (ground truth is defined on `paper` clips).
#[cfg_attr(not(feature = "atari"), allow(unused_mut))]
pub fn paper_protocol(mut cfg: ExperimentConfig) -> ExperimentConfig {
    #[cfg(feature = "atari")]
    if let Some(a) = cfg.env.atari.as_mut() {
        a.preset = crate::env::atari::AtariPreset::Paper;
    }
    cfg
}

/// The preset name recorded in reports (`paper` for Atari, none for synthetic envs).
pub fn preset_name(cfg: &ExperimentConfig) -> Option<String> {
    cfg.env.is_atari().then(|| "paper".to_string())
}

/// Collect `n` clips of `cfg`'s env (test split for MNIST digits); clip `i` uses
/// [`crate::seed::clip_seed`]`(seed, i)`.
pub fn eval_clips(cfg: &ExperimentConfig, n: usize, seed: u64) -> Result<Vec<EvalClip>> {
    split_clips(cfg, Split::Test, n, seed)
}

/// [`eval_clips`] from `split` of the MNIST digits (other envs have no splits).
pub fn split_clips(
    cfg: &ExperimentConfig,
    split: Split,
    n: usize,
    seed: u64,
) -> Result<Vec<EvalClip>> {
    let mut env = registry::make_from_spec_split(&cfg.env, split)?;
    let opts = RolloutOptions {
        frames_per_clip: EVAL_FRAMES,
        max_warmup_steps: if cfg.env.is_atari() { 300 } else { 0 },
        max_attempts: 20,
    };
    let pb = crate::util::progress_bar(n as u64, "clips");
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let clip = collect_clip(env.as_mut(), crate::seed::clip_seed(seed, i), &opts)?;
        out.push(to_eval_clip(clip)?);
        pb.inc(1);
    }
    pb.finish_and_clear();
    Ok(out)
}

fn to_eval_clip(clip: Clip) -> Result<EvalClip> {
    let frames = clip.frame_vec();
    let gt = match clip.gt {
        Some(gt) => gt,
        None => crate::baseline::atari_ground_truth(&frames)?,
    };
    Ok(EvalClip { frames, gt })
}

/// `cfg` with exactly `n` objects per video, for scoring per object count (the synthetic envs'
/// `min_objects = max_objects = n`); an error for other envs, and for a count outside what the
/// env's frames hold (naming the range).
pub fn with_object_count(cfg: &ExperimentConfig, n: usize) -> Result<ExperimentConfig> {
    let mut c = cfg.clone();
    if let Some(m) = c.env.scattered_mnist.as_mut() {
        *m = m.with_objects(n)?;
    } else if let Some(s) = c.env.scattered_shapes.as_mut() {
        *s = s.with_objects(n)?;
    } else {
        return Err(Error::Invalid(format!(
            "scoring per object count needs a synthetic env (Scattered MNIST or Shapes, whose \
             object count is set); `{}` is not one",
            cfg.env.id
        )));
    }
    Ok(c)
}

/// The synthetic env's training range of object counts (`min_objects..=max_objects`), `None`
/// for other envs.
pub fn object_counts(cfg: &ExperimentConfig) -> Option<std::ops::RangeInclusive<usize>> {
    match (&cfg.env.scattered_mnist, &cfg.env.scattered_shapes) {
        (Some(m), _) => Some(m.min_objects..=m.max_objects),
        (_, Some(s)) => Some(s.min_objects..=s.max_objects),
        _ => None,
    }
}

/// The most object counts a list may name.
const MAX_COUNT: usize = 1000;

/// Parse object counts: `1-12`, `1..=12`, `1,5,10` or a mix, in the order given; `flag` (e.g.
/// `--counts`) is named in errors.
pub fn parse_counts(s: &str, flag: &str) -> Result<Vec<usize>> {
    let bad = || {
        Error::Invalid(format!(
            "{flag} `{s}`: give positive object counts like `1-12`, `1..=12` or `1,5,10`"
        ))
    };
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once("..=").or_else(|| part.split_once('-')) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_and_errors_name_the_flag() {
        assert_eq!(parse_counts("1-3,5", "--counts").unwrap(), vec![1, 2, 3, 5]);
        assert_eq!(parse_counts("2..=4", "--counts").unwrap(), vec![2, 3, 4]);
        assert_eq!(parse_counts(" 7 ", "--counts").unwrap(), vec![7]);
        for bad in ["0", "x", "", "abc", "3-1", "1-x", "1..3", "1-999999999999"] {
            let err = parse_counts(bad, "--counts").unwrap_err().to_string();
            assert!(
                err.contains("--counts") && err.contains(bad),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn a_count_override_fixes_the_synthetic_envs_count() {
        let cfg = crate::config::load_experiment("scattered_mnist").unwrap();
        assert_eq!(object_counts(&cfg), Some(1..=6));
        let c = with_object_count(&cfg, 9).unwrap();
        assert_eq!(object_counts(&c), Some(9..=9));
        let clips = eval_clips(&c, 2, 5).unwrap();
        assert!(clips.iter().all(|c| c.gt.iter().all(|f| f.len() == 9)));
        let e = with_object_count(&cfg, 40).unwrap_err().to_string();
        assert!(e.contains("40 objects") && e.contains("1..=22"), "{e}");
        let shapes = crate::config::load_experiment("scattered_shapes").unwrap();
        assert_eq!(
            object_counts(&with_object_count(&shapes, 35).unwrap()),
            Some(35..=35)
        );
    }

    /// The paper's six training conditions (`conditions/`) are valid experiments with the
    /// paper's counts, frame sizes and crops.
    #[test]
    fn the_six_conditions_load_as_experiments() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions");
        let cases = [
            ("mnist_1_6", 1..=6, [48, 48], None),
            ("mnist_1_12", 1..=12, [48, 48], None),
            ("shapes_1_10_full", 1..=10, [96, 96], None),
            ("shapes_21_30_full", 21..=30, [96, 96], None),
            ("shapes_1_10_crop60", 1..=10, [60, 60], Some([60, 60])),
            ("shapes_21_30_crop60", 21..=30, [60, 60], Some([60, 60])),
        ];
        for (name, counts, image, crop) in cases {
            let path = dir.join(format!("{name}.toml"));
            let cfg = crate::config::load_experiment(path.to_str().unwrap()).unwrap();
            let run = cfg.run_config(name).unwrap();
            assert_eq!(object_counts(&cfg), Some(counts), "{name}");
            assert_eq!(
                (run.model.image_size, run.train.crop),
                (image, crop),
                "{name}"
            );
            // Tested on the env's full frames: 96x96 Shapes with up to 35 shapes.
            if cfg.env.scattered_shapes.is_some() {
                with_object_count(&cfg, 35).unwrap();
                assert_eq!(run.model.eval_objects(), 36, "{name}");
            }
        }
    }
}
